// First start of the embedded default: one sandbox merchant with a generated RSA key, reference
// USDT rates, and a printed, working signed request so a developer can call the API at once.
import fs from 'node:fs';
import path from 'node:path';
import type { Currency } from './core/money.js';
import { parseRateMicros } from './domain/rates.js';
import { generatePassword } from './people/passwords.js';
import type { Services } from './services.js';

export interface SandboxCredentials {
  readonly merchantId: string;
  readonly privateKeyFile: string;
  readonly webhookSecret: string;
}

const SEED_RATES: ReadonlyArray<readonly [Currency, string]> = [
  ['INR', '88.50'],
  ['EGP', '48.60'],
  ['NGN', '1480.00'],
  ['IDR', '16650.00'],
];
const SEED_SPREAD_BPS = 50;

/** Creates the sandbox merchant once (when the store has no merchant) and returns its credentials. */
export async function seedSandbox(services: Services): Promise<SandboxCredentials | null> {
  const file = path.join(services.config.dataDir, 'sandbox-merchant.json');
  const keyFile = path.join(services.config.dataDir, 'sandbox-merchant-key.pem');
  if ((await services.merchants.list()).length > 0) {
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as SandboxCredentials) : null;
  }
  const created = await services.merchants.create({ name: 'Sandbox Merchant', mode: 'sandbox', key: { type: 'RSA-SHA512' } }, 'sandbox-seed');
  for (const [currency, rate] of SEED_RATES) {
    await services.rates.set(currency, parseRateMicros(rate)!, SEED_SPREAD_BPS, SEED_SPREAD_BPS, 'sandbox-seed');
  }
  fs.mkdirSync(services.config.dataDir, { recursive: true });
  fs.writeFileSync(keyFile, created.key.privateKeyPem!, { mode: 0o600 });
  const credentials: SandboxCredentials = { merchantId: created.merchant.id, privateKeyFile: keyFile, webhookSecret: created.webhookSecret };
  fs.writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return credentials;
}

/**
 * A shell snippet that signs with openssl at run time, so it keeps working after the 300-second
 * window (within one second it sends the same request again, which the service answers alike).
 */
export function exampleRequest(baseUrl: string, credentials: SandboxCredentials): string {
  return [
    `BODY='{"currency":"INR"}'; TS=$(date +%s)`,
    `SIG=$(printf '%s%s' "$(printf '%s' "$BODY" | openssl dgst -sha512 -r | cut -d' ' -f1)" "$TS" \\`,
    `  | openssl dgst -sha512 -sign '${credentials.privateKeyFile}' | openssl base64 -A)`,
    `curl -s -X POST ${baseUrl}/v1/api/account/balance -H 'Content-Type: application/json' \\`,
    `  -H "MerchantID: ${credentials.merchantId}" -H "Timestamp: $TS" -H "Signature: $SIG" --data-binary "$BODY"`,
  ].join('\n');
}

export interface ConsoleCredentials {
  readonly email: string;
  readonly password: string;
}

export interface SeededConsoleUsers {
  /** The first operator (admin), when it was created by this start; TOTP is set up at first sign-in. */
  readonly operator: ConsoleCredentials | null;
  /** The sandbox merchant's owner, when it was created by this start. */
  readonly owner: ConsoleCredentials | null;
}

export const FIRST_OPERATOR_EMAIL = 'admin@paygate.local';
export const SANDBOX_OWNER_EMAIL = 'owner@sandbox.paygate.local';

/**
 * The console's first users on the embedded default: an operator admin when there is no operator at
 * all, and an owner for the sandbox merchant. Passwords are generated and returned only when created,
 * so a restart prints none (they are stored only as scrypt hashes).
 */
export async function seedConsoleUsers(services: Services, sandboxMerchantId: string): Promise<SeededConsoleUsers> {
  let operator: ConsoleCredentials | null = null;
  if ((await services.people.operatorCount()) === 0) {
    const password = generatePassword();
    await services.people.createUser({ email: FIRST_OPERATOR_EMAIL, kind: 'operator', role: 'admin', password }, 'sandbox-seed');
    operator = { email: FIRST_OPERATOR_EMAIL, password };
  }
  let owner: ConsoleCredentials | null = null;
  if (!(await services.people.userByEmail(SANDBOX_OWNER_EMAIL)) && (await services.merchants.get(sandboxMerchantId).then(() => true, () => false))) {
    const password = generatePassword();
    await services.people.createUser({ email: SANDBOX_OWNER_EMAIL, kind: 'merchant', role: 'owner', merchantId: sandboxMerchantId, password }, 'sandbox-seed');
    owner = { email: SANDBOX_OWNER_EMAIL, password };
  }
  return { operator, owner };
}
