// The operator CLI as an operator runs it: a child process (`node --import tsx src/cli/main.ts ...`) on
// the same database as a running test server, with the flags exactly as its usage text prints them
// (`--name NAME`). What it creates is then used by a merchant through the SDK.
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentClient, type MerchantKey } from '../../sdk/src/index.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collectionReady, drain, initiateBody, jobsOf, paidPayment } from '../payments/api-helpers.js';
import { publishedSimulatorFile } from '../../src/connectors/simulator/published.js';
import { fund, magicAccount, payoutBody, until } from '../payouts/helpers.js';

const TEST_TIMEOUT_MS = 180_000;

let server: TestServer;

/** At most two CLI processes at once: each spends a second or two of CPU loading modules, on two cores. */
const MAX_PARALLEL = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function slot<T>(task: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await task();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** Runs the CLI asynchronously (the test server in this process must keep answering meanwhile). */
const cli = (...args: string[]): Promise<CliResult> => slot(() => runCli(server, args));

/** Runs a command that must succeed, showing its stderr when it does not. */
async function cliOk(...args: string[]): Promise<string> {
  const result = await cli(...args);
  expect({ args: args.join(' '), code: result.code, stderr: result.stderr }).toEqual({ args: args.join(' '), code: 0, stderr: '' });
  return result.stdout;
}

const clientFor = (merchantId: string, key: MerchantKey): PaymentClient =>
  new PaymentClient({ baseUrl: server.baseUrl, merchantId, key, clock: () => server.clock.nowMs() / 1000 });

async function call(client: PaymentClient): Promise<{ status: number; message: string }> {
  const result = await client.bankCodes({ currency: 'IDR' });
  return { status: result.status, message: result.message };
}

interface CreatedJson {
  merchantId: string;
  keyId: string;
  keyType: string;
  privateKeyPem?: string;
  secret?: string;
  webhookSecret: string;
}

/** The stdout of an already started command, which must have exited 0 with nothing on stderr. */
async function okOutput(pending: Promise<CliResult>, label: string): Promise<string> {
  const result = await pending;
  expect({ command: label, code: result.code, stderr: result.stderr }).toEqual({ command: label, code: 0, stderr: '' });
  return result.stdout;
}

/**
 * Commands that depend on nothing but the database are started together once the server is up (each CLI
 * start costs a second or two of module loading); the tests below await and check them one by one.
 */
let started: {
  unknown: Promise<CliResult>;
  missingName: Promise<CliResult>;
  badCurrency: Promise<CliResult>;
  createRsa: Promise<CliResult>;
  createHmac: Promise<CliResult>;
  createOwnKey: Promise<CliResult>;
};
let ownPrivateKeyPem: string;

beforeAll(async () => {
  server = await startTestServer();
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyFile = path.join(server.database.dataDir, 'merchant-public.pem');
  fs.writeFileSync(publicKeyFile, pair.publicKey.export({ type: 'spki', format: 'pem' }));
  ownPrivateKeyPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  started = {
    unknown: cli('frobnicate', '--now'),
    missingName: cli('merchant', 'create', '--json'),
    badCurrency: cli('rate', 'set', '--currency', 'USD', '--reference', '1', '--deposit-spread-bps', '0', '--withdraw-spread-bps', '0'),
    createRsa: cli('merchant', 'create', '--name', 'CLI RSA Shop', '--json'),
    createHmac: cli('merchant', 'create', '--name', 'CLI HMAC Shop', '--key-type', 'hmac', '--json'),
    createOwnKey: cli('merchant', 'create', '--name', 'CLI Own Key', '--public-key', publicKeyFile, '--json'),
  };
});
afterAll(async () => {
  // Every started command has finished before the database goes away, whatever the tests did.
  if (started) await Promise.allSettled(Object.values(started));
  await server?.close();
}, TEST_TIMEOUT_MS);

describe('CLI errors', { timeout: TEST_TIMEOUT_MS }, () => {
  it('runs through `node --import tsx` and exits 2 with the usage for an unknown command', async () => {
    const result = await started.unknown;
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Usage/);
    for (const command of ['merchant create', 'merchant list', 'merchant disable', 'key add', 'key revoke', 'rate set']) {
      expect(result.stderr).toContain(command);
    }
    expect(result.stdout).toBe('');
  });

  it('fails without a required flag', async () => {
    const result = await started.missingName;
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/--name/);
    expect(result.stdout).toBe('');
  });

  it('refuses an unknown currency for a rate', async () => {
    const result = await started.badCurrency;
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/INR, EGP, NGN or IDR/);
  });
});

describe('operator CLI', { timeout: TEST_TIMEOUT_MS }, () => {
  let created: { rsa?: CreatedJson; hmac?: CreatedJson } = {};
  /** The merchants the first tests create; later tests say so plainly when those failed. */
  const need = (which: 'rsa' | 'hmac'): CreatedJson => {
    const merchant = created[which];
    if (!merchant) throw new Error(`needs the ${which.toUpperCase()} merchant that \`merchant create\` failed to create above`);
    return merchant;
  };

  it('creates an RSA merchant whose printed private key signs requests the server accepts', async () => {
    const rsa: CreatedJson = JSON.parse(await okOutput(started.createRsa, 'merchant create --name "CLI RSA Shop" --json'));
    created = { ...created, rsa };
    expect(rsa.merchantId).toMatch(/^mch_/);
    expect(rsa.keyType).toBe('RSA-SHA512');
    expect(rsa.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(rsa.webhookSecret).toMatch(/^whsec_/);
    expect(await call(clientFor(rsa.merchantId, { type: 'RSA-SHA512', privateKeyPem: rsa.privateKeyPem! }))).toEqual({ status: 200, message: 'SUCCESS' });
    expect((await server.admin('GET', `/merchants/${rsa.merchantId}`)).body.data.name).toBe('CLI RSA Shop');
  });

  it('creates an HMAC merchant whose printed secret signs requests the server accepts', async () => {
    const hmac: CreatedJson = JSON.parse(await okOutput(started.createHmac, 'merchant create --name "CLI HMAC Shop" --key-type hmac --json'));
    created = { ...created, hmac };
    expect(hmac.keyType).toBe('HMAC-SHA256');
    expect(hmac.secret).toMatch(/^hsk_/);
    expect(hmac.privateKeyPem).toBeUndefined();
    expect(await call(clientFor(hmac.merchantId, { type: 'HMAC-SHA256', secret: hmac.secret! }))).toEqual({ status: 200, message: 'SUCCESS' });
  });

  it('registers a merchant-held public key from a file', async () => {
    const own: CreatedJson = JSON.parse(await okOutput(started.createOwnKey, 'merchant create --public-key FILE --json'));
    expect(own.privateKeyPem).toBeUndefined();
    expect(await call(clientFor(own.merchantId, { type: 'RSA-SHA512', privateKeyPem: ownPrivateKeyPem }))).toEqual({ status: 200, message: 'SUCCESS' });
  });

  it('lists the merchants', async () => {
    const rsa = need('rsa');
    const hmac = need('hmac');
    const text = await cliOk('merchant', 'list');
    expect(text).toMatch(new RegExp(`${rsa.merchantId}\\s+active\\s+sandbox\\s+CLI RSA Shop`));
    expect(text).toContain(hmac.merchantId);
  });

  it('disables a merchant (403 on its next request) and enables it again', async () => {
    const hmac = need('hmac');
    const client = clientFor(hmac.merchantId, { type: 'HMAC-SHA256', secret: hmac.secret! });
    await cliOk('merchant', 'disable', '--merchant', hmac.merchantId);
    expect(await call(client)).toEqual({ status: 403, message: 'MERCHANT_DISABLED' });
    await cliOk('merchant', 'enable', '--merchant', hmac.merchantId);
    expect(await call(client)).toEqual({ status: 200, message: 'SUCCESS' });
  });

  it('adds a second key, refuses a third, and revokes the first', async () => {
    const rsa = need('rsa');
    const oldClient = clientFor(rsa.merchantId, { type: 'RSA-SHA512', privateKeyPem: rsa.privateKeyPem! });
    const added = JSON.parse(await cliOk('key', 'add', '--merchant', rsa.merchantId, '--key-type', 'hmac', '--label', 'rotation', '--json')) as {
      keyId: string;
      secret: string;
    };
    expect(added.secret).toMatch(/^hsk_/);
    const newClient = clientFor(rsa.merchantId, { type: 'HMAC-SHA256', secret: added.secret });
    expect(await call(oldClient)).toEqual({ status: 200, message: 'SUCCESS' });
    expect(await call(newClient)).toEqual({ status: 200, message: 'SUCCESS' });

    // A third active key is refused, with a non-zero exit.
    const third = await cli('key', 'add', '--merchant', rsa.merchantId, '--key-type', 'hmac');
    expect(third.code).not.toBe(0);
    expect(third.stderr).toMatch(/at most 2 active keys/);

    await cliOk('key', 'revoke', '--merchant', rsa.merchantId, '--key', rsa.keyId);
    expect(await call(oldClient)).toEqual({ status: 401, message: 'INVALID_SIGNATURE' });
    expect(await call(newClient)).toEqual({ status: 200, message: 'SUCCESS' });
    const keys = await cliOk('key', 'list', '--merchant', rsa.merchantId);
    expect(keys).toMatch(new RegExp(`${rsa.keyId}\\s+RSA-SHA512\\s+revoked`));
    expect(keys).toMatch(new RegExp(`${added.keyId}\\s+HMAC-SHA256\\s+active`));
  });

  it('sets a USDT rate the merchant API then answers, and a rate limit the server then enforces', async () => {
    const hmac = need('hmac');
    const [rateOut, limitOut] = await Promise.all([
      cliOk('rate', 'set', '--currency', 'INR', '--reference', '88.25', '--deposit-spread-bps', '50', '--withdraw-spread-bps', '50'),
      cliOk('merchant', 'rate-limit', '--merchant', hmac.merchantId, '--per-second', '2'),
    ]);
    expect(rateOut).toContain('87.80875');
    expect(JSON.parse(limitOut).rateLimitPerSecond).toBe(2);
    const client = clientFor(hmac.merchantId, { type: 'HMAC-SHA256', secret: hmac.secret! });
    const rate = await client.usdtRate({ currency: 'INR' });
    expect(rate.status).toBe(200);
    expect(rate.data).toMatchObject({ currency: 'INR', deposit: 87.80875, withdraw: 88.69125 });
    const results = await Promise.all(Array.from({ length: 10 }, () => client.bankCodes({ currency: 'IDR' })));
    expect(results.some((r) => r.status === 429 && r.message === 'RATE_LIMITED')).toBe(true);
  });

  it('refuses a rate limit that is not a positive integer, as the operator API does', async () => {
    const hmac = need('hmac');
    const before = (await server.admin('GET', `/merchants/${hmac.merchantId}`)).body.data.rateLimitPerSecond;
    // A limit of 0 would answer every request 429 with `Retry-After: Infinity`.
    const values = ['0'];
    const results = await Promise.all(values.map((perSecond) => cli('merchant', 'rate-limit', '--merchant', hmac.merchantId, '--per-second', perSecond)));
    results.forEach((result, i) => {
      expect({ perSecond: values[i], exit: result.code === 0 ? 0 : 'non-zero' }).toEqual({ perSecond: values[i], exit: 'non-zero' });
      expect(result.stderr).not.toBe('');
    });
    expect((await server.admin('GET', `/merchants/${hmac.merchantId}`)).body.data.rateLimitPerSecond).toBe(before);
  });

  it('sets payout approval thresholds the merchant API then applies, and rotates the service signing key', async () => {
    const hmac = need('hmac');
    const [set, rotated] = await Promise.all([
      cliOk('merchant', 'payout-approval', '--merchant', hmac.merchantId, '--threshold', 'INR=5000,NGN=250000.50', '--timeout', '3600'),
      cliOk('service', 'rotate-key'),
    ]);
    expect(JSON.parse(set)).toEqual({ merchantId: hmac.merchantId, thresholdAmount: { INR: 5000, NGN: 250000.5 }, timeoutSeconds: 3600 });
    expect((await server.admin('GET', `/merchants/${hmac.merchantId}/payout-approval`)).body.data.timeoutSeconds).toBe(3600);
    await fund(server, hmac.merchantId, 'INR', 10_000_00n);
    const pending = await clientFor(hmac.merchantId, { type: 'HMAC-SHA256', secret: hmac.secret! }).payoutInitiate(payoutBody('INR', 'BANK', { amount: 6000 }));
    expect(pending).toMatchObject({ ok: true, data: { status: 'PendingApproval' } });
    // The timeout alone keeps the thresholds; `none` turns approval off.
    expect(JSON.parse(await cliOk('merchant', 'payout-approval', '--merchant', hmac.merchantId, '--timeout', '600')).thresholdAmount).toEqual({ INR: 5000, NGN: 250000.5 });
    expect(JSON.parse(await cliOk('merchant', 'payout-approval', '--merchant', hmac.merchantId, '--threshold', 'none')).thresholdAmount).toBeNull();
    const refused = await cli('merchant', 'payout-approval', '--merchant', hmac.merchantId, '--threshold', 'INR=lots');
    expect(refused.code).not.toBe(0);
    const key = JSON.parse(rotated);
    expect(key).toMatchObject({ keyId: expect.stringMatching(/^sk_/), status: 'current' });
    const listed = (await fetch(`${server.baseUrl}/v1/public-key`).then((r) => r.json())).data;
    expect(listed.keys.map((k: { keyId: string }) => k.keyId)).toContain(key.keyId);
  });
});

describe('operator CLI: audit log and held money', { timeout: TEST_TIMEOUT_MS }, () => {
  const actor = `cli:${os.userInfo().username}`;

  it('audits every CLI action once as cli:<os user>, without secrets', async () => {
    const shop = await server.createMerchant();
    const id = shop.id;
    const ref = await paidPayment(shop, 'INR', 'NATIVE');
    const event = (await server.services.webhooks.listEvents(id)).events[0]!;
    const run = (...args: string[]) => cliOk(...args);
    const outputs = await Promise.all([
      run('merchant', 'disable', '--merchant', id),
      run('merchant', 'webhooks', '--merchant', id, '--payment', 'https://hooks.invalid/paygate'),
      run('merchant', 'webhook-secret', '--merchant', id),
      run('merchant', 'rate-limit', '--merchant', id, '--per-second', '40'),
      run('key', 'add', '--merchant', id, '--key-type', 'hmac', '--json'),
      run('fee', 'set', '--merchant', id, '--currency', 'INR', '--method', 'NATIVE', '--direction', 'payin', '--bps', '150', '--fixed', '0'),
      run('limit', 'set', '--merchant', id, '--currency', 'INR', '--method', 'NATIVE', '--direction', 'payin', '--min', '100', '--max', '1000'),
      run('rate', 'set', '--currency', 'IDR', '--reference', '16250', '--deposit-spread-bps', '10', '--withdraw-spread-bps', '10'),
      run('merchant', 'create', '--name', 'CLI Audited Shop', '--key-type', 'hmac', '--json'),
    ]);
    await Promise.all([
      run('merchant', 'enable', '--merchant', id),
      run('key', 'revoke', '--merchant', id, '--key', shop.keyId),
      run('webhook', 'resend', '--event', event.id),
    ]);
    const added = JSON.parse(outputs[4]!) as { keyId: string; secret: string };
    const page = JSON.parse(await cliOk('audit', 'list', '--merchant', id, '--json')) as { items: { actor: string; action: string; target: string; details: unknown }[] };
    const byCli = page.items.filter((e) => e.actor === actor);
    expect(byCli.map((e) => `${e.action} ${e.target}`).sort()).toEqual(
      [
        `merchant.disable ${id}`,
        `merchant.enable ${id}`,
        `merchant.webhooks ${id}`,
        `merchant.webhook_secret ${id}`,
        `merchant.rate_limit ${id}`,
        `key.add ${added.keyId}`,
        `key.revoke ${shop.keyId}`,
        `fee.set ${id}`,
        `limit.set ${id}`,
        `webhook.resend ${event.id}`,
      ].sort(),
    );
    const rates = JSON.parse(await cliOk('audit', 'list', '--action', 'rate.set', '--json')) as { items: { actor: string; target: string }[] };
    expect(rates.items.filter((e) => e.target === 'IDR').map((e) => e.actor)).toEqual([actor]);
    const text = JSON.stringify(page);
    expect(text).not.toContain(added.secret);
    expect(text).not.toContain(outputs[2]!.trim());
    expect(text).not.toMatch(/whsec_|hsk_/);
    expect(ref).toBeTruthy();

    const createdByCli = JSON.parse(outputs[8]!) as CreatedJson;
    const creation = JSON.parse(await cliOk('audit', 'list', '--merchant', createdByCli.merchantId, '--json')) as { items: { actor: string; action: string; target: string }[] };
    expect(creation.items.map((e) => [e.actor, e.action, e.target])).toEqual([[actor, 'merchant.create', createdByCli.merchantId]]);
    expect(JSON.stringify(creation)).not.toContain(createdByCli.secret!);
  });

  it('lists held late money and credits it to the merchant once', async () => {
    const shop = await server.createMerchant();
    const created = await shop.client.paymentInitiate(initiateBody('NGN', 'TRANSFER'));
    const ref = created.data.transactionRef;
    await collectionReady(server, ref);
    server.clock.advance(31 * 60_000);
    await drain(jobsOf(server).expiry);
    await shop.client.sandboxCompletePayment({ transactionRef: ref, outcome: 'Success' });

    const listed = JSON.parse(await cliOk('held', 'list', '--merchant', shop.id, '--json')) as { items: { transactionRef: string; status: string; amountHeld: number; reason: string }[] };
    expect(listed.items).toMatchObject([{ transactionRef: ref, status: 'open', amountHeld: 12_000, reason: 'late' }]);
    const refused = await cli('held', 'return', '--ref', ref, '--reason', 'payer asked');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/cannot be sent back through the channel/);

    const credited = JSON.parse(await cliOk('held', 'credit', '--ref', ref, '--reason', 'order shipped', '--json'));
    expect(credited).toMatchObject({ replayed: false, item: { status: 'credited', fee: 168, credited: 11_832, resolvedBy: actor } });
    const again = JSON.parse(await cliOk('held', 'credit', '--ref', ref, '--reason', 'order shipped', '--json'));
    expect(again).toMatchObject({ replayed: true, item: { status: 'credited' } });
    const balances = await server.services.ledger.balances(shop.id, 'NGN');
    expect(balances.pending + balances.available).toBe(11_832_00n);
    expect(await server.services.ledger.verify()).toEqual([]);
    const audit = JSON.parse(await cliOk('audit', 'list', '--action', 'held_money.credit', '--merchant', shop.id, '--json')) as { items: { actor: string; target: string }[] };
    expect(audit.items).toMatchObject([{ actor, target: ref }]);
  });
});

/** A loopback port nothing listens on (just released). */
async function deadPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('payout query asks the upstream the service uses', { timeout: TEST_TIMEOUT_MS }, () => {
  let ref = '';

  it('answers what the service\'s own simulator knows about a payout it submitted', async () => {
    const shop = await server.createMerchant();
    await fund(server, shop.id, 'INR', 100_000_00n);
    // Ending 0002: the bank keeps it processing for two minutes of the service's clock, so it is not final.
    const created = await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { account: magicAccount('INR', 'BANK', '0002') }));
    ref = created.data.transactionRef;
    const processing = await until(shop, ref, ['Processing']);
    const answer = JSON.parse(await cliOk('payout', 'query', '--ref', ref));
    expect(answer.upstream).toEqual({ status: 'PROCESSING', upstreamRef: processing.upstreamRef });
    expect(answer.payout.status).toBe('Processing');
  });

  it('refuses, exit 2 and why, when the service\'s simulator cannot be reached, rather than ask another bank', async () => {
    if (!ref) throw new Error('needs the payout of the test above');
    const file = publishedSimulatorFile(server.database.dataDir);
    const published = fs.existsSync(file) ? fs.readFileSync(file) : null;
    try {
      fs.rmSync(file, { force: true });
      const unpublished = await cli('payout', 'query', '--ref', ref);
      expect({ code: unpublished.code, stdout: unpublished.stdout }).toEqual({ code: 2, stdout: '' });
      expect(unpublished.stderr).toMatch(/needs the bank simulator the service uses, but no running service has published its simulator/);
      expect(unpublished.stderr).toContain('SIMULATOR_URL');

      // Left behind by a service that crashed: the address no longer answers.
      fs.writeFileSync(file, JSON.stringify({ url: `http://127.0.0.1:${await deadPort()}`, apiKey: 'simk_gone', pid: 1 }), { mode: 0o600 });
      const stale = await cli('payout', 'query', '--ref', ref);
      expect({ code: stale.code, stdout: stale.stdout }).toEqual({ code: 2, stdout: '' });
      expect(stale.stderr).toMatch(/does not answer/);
    } finally {
      if (published) fs.writeFileSync(file, published, { mode: 0o600 });
    }
    expect((await server.services.payouts.operatorGet(ref)).status).toBe('Processing');
  });
});

describe('connectors and routes from the command line', () => {
  it('sets credentials from a file (shown by last four only), a base URL and a route; refuses a route the connector cannot serve', async () => {
    const file = path.join(server.database.dataDir, 'paystack-credentials.json');
    fs.writeFileSync(file, JSON.stringify({ secretKey: 'sk_test_cli_secret_value_9876' }), { mode: 0o600 });
    const set = await cliOk('connector', 'credentials', '--connector', 'paystack', '--file', file);
    expect(set).toContain('paystack (Paystack)');
    expect(set).toContain('secretKey=…9876');
    expect(set).not.toContain('sk_test_cli_secret_value');
    const moved = await cliOk('connector', 'base-url', '--connector', 'paystack', '--url', 'http://127.0.0.1:9/paystack', '--json');
    expect(JSON.parse(moved)).toMatchObject({ name: 'paystack', baseUrl: 'http://127.0.0.1:9/paystack', ready: true });
    const listed = await cliOk('connector', 'list', '--json');
    expect(listed).not.toContain('sk_test_cli_secret_value');

    const route = await cliOk('route', 'set', '--currency', 'NGN', '--method', 'BANK', '--direction', 'payout', '--connectors', 'paystack');
    expect(route).toMatch(/default\s+NGN BANK\s+payout\s+paystack/);
    const refused = await cli('route', 'set', '--currency', 'NGN', '--method', 'BANK', '--direction', 'payout', '--connectors', 'xendit');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('xendit does not offer NGN BANK payouts');
    expect(JSON.parse(await cliOk('route', 'list', '--json'))).toEqual([
      expect.objectContaining({ merchantId: null, currency: 'NGN', direction: 'payout', method: 'BANK', connectors: ['paystack'] }),
    ]);
    const audit = await server.services.store.db.selectFrom('audit_log').select(['action', 'detail_json']).where('action', 'in', ['connector.credentials_set', 'route.set']).execute();
    expect(audit.map((row) => row.action).sort()).toEqual(['connector.credentials_set', 'route.set']);
    expect(JSON.stringify(audit)).not.toContain('sk_test_cli_secret_value');
  });
});
