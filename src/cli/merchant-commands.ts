// Operator commands for merchants, keys, webhooks, rate limits, IP allow-lists and USDT rates.
import fs from 'node:fs';
import { parseRateMicros, microsToNumber } from '../domain/rates.js';
import type { KeyType } from '../merchants/merchant-service.js';
import { IP_ALLOW_SCOPES, isIpAllowScope, isKeyScope, KEY_SCOPES, type IpAllowScope, type KeyScope } from '../merchants/access.js';
import { checkWebhookUrl } from '../webhooks/ssrf.js';
import { flagString, requireCurrencyFlag, requireFlag, type ParsedArgs } from './args.js';
import { cliActor, type CliCommand } from './command.js';

function keyTypeOf(args: ParsedArgs): KeyType {
  const raw = (flagString(args, 'key-type') ?? 'rsa').toLowerCase();
  if (raw === 'rsa' || raw === 'rsa-sha512') return 'RSA-SHA512';
  if (raw === 'hmac' || raw === 'hmac-sha256') return 'HMAC-SHA256';
  throw new Error('--key-type must be rsa or hmac');
}

function keyScopeOf(args: ParsedArgs): KeyScope | undefined {
  const raw = flagString(args, 'scope');
  if (raw === undefined) return undefined;
  if (!isKeyScope(raw)) throw new Error(`--scope must be one of ${KEY_SCOPES.join(', ')}`);
  return raw;
}

function ipAllowScopeOf(args: ParsedArgs): IpAllowScope {
  const raw = flagString(args, 'scope') ?? 'money';
  if (!isIpAllowScope(raw)) throw new Error(`--scope must be ${IP_ALLOW_SCOPES.join(' or ')}`);
  return raw;
}

/** `--cidrs a,b`; `none` (or an empty value) removes the allow-list. */
function cidrsOf(args: ParsedArgs): string[] {
  const raw = requireFlag(args, 'cidrs').trim();
  if (raw === '' || raw === 'none') return [];
  return raw.split(',').map((entry) => entry.trim());
}

function publicKeyOf(args: ParsedArgs): string | undefined {
  const file = flagString(args, 'public-key');
  return file === undefined ? undefined : fs.readFileSync(file, 'utf8');
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);

export const merchantCommands: CliCommand[] = [
  {
    name: 'merchant create',
    summary: 'Create a merchant with its first API key',
    usage: 'merchant create --name NAME [--live] [--key-type rsa|hmac] [--public-key FILE] [--rate-limit N] [--json]',
    async run(args, services, io) {
      const created = await services.merchants.create({
        name: requireFlag(args, 'name'),
        mode: args.flags.live === true ? 'live' : 'sandbox',
        key: { type: keyTypeOf(args), publicKeyPem: publicKeyOf(args) },
        rateLimitPerSecond: flagString(args, 'rate-limit') ? Number(flagString(args, 'rate-limit')) : undefined,
      }, cliActor());
      if (args.flags.json === true) {
        io.out(
          JSON.stringify({
            merchantId: created.merchant.id,
            mode: created.merchant.mode,
            keyId: created.key.keyId,
            keyType: created.key.type,
            privateKeyPem: created.key.privateKeyPem,
            publicKeyPem: created.key.publicKeyPem,
            secret: created.key.secret,
            webhookSecret: created.webhookSecret,
          }),
        );
      } else {
        io.out(`MerchantID: ${created.merchant.id} (${created.merchant.mode})`);
        io.out(`Key ${created.key.keyId} (${created.key.type})`);
        if (created.key.privateKeyPem) io.out(created.key.privateKeyPem);
        if (created.key.secret) io.out(`HMAC secret: ${created.key.secret}`);
        io.out(`Webhook secret: ${created.webhookSecret}`);
        io.out('These secrets are shown once; store them now.');
      }
      return 0;
    },
  },
  {
    name: 'merchant list',
    summary: 'List merchants',
    usage: 'merchant list [--json]',
    async run(args, services, io) {
      const all = await services.merchants.list();
      if (args.flags.json === true) io.out(JSON.stringify(all));
      else for (const m of all) io.out(`${m.id}  ${m.status.padEnd(8)}  ${m.mode.padEnd(7)}  ${m.name}`);
      return 0;
    },
  },
  {
    name: 'merchant disable',
    summary: 'Disable a merchant (its requests get 403 MERCHANT_DISABLED)',
    usage: 'merchant disable --merchant ID',
    async run(args, services, io) {
      io.out(json(await services.merchants.setStatus(requireFlag(args, 'merchant'), 'disabled', cliActor())));
      return 0;
    },
  },
  {
    name: 'merchant enable',
    summary: 'Enable a disabled merchant',
    usage: 'merchant enable --merchant ID',
    async run(args, services, io) {
      io.out(json(await services.merchants.setStatus(requireFlag(args, 'merchant'), 'active', cliActor())));
      return 0;
    },
  },
  {
    name: 'merchant webhooks',
    summary: 'Set the default payment and payout webhook URLs ("none" clears one)',
    usage: 'merchant webhooks --merchant ID [--payment URL|none] [--payout URL|none]',
    async run(args, services, io) {
      const read = (name: string): string | null | undefined => {
        const value = flagString(args, name);
        return value === 'none' ? null : value;
      };
      const payment = read('payment');
      const payout = read('payout');
      checkWebhookUrl('payment', payment, services.config.webhooks);
      checkWebhookUrl('payout', payout, services.config.webhooks);
      io.out(json(await services.merchants.setWebhookUrls(requireFlag(args, 'merchant'), { payment, payout }, cliActor())));
      return 0;
    },
  },
  {
    name: 'merchant webhook-secret',
    summary: 'Rotate the merchant webhook secret and print the new one (the old one keeps signing for WEBHOOK_SECRET_OVERLAP_SECONDS)',
    usage: 'merchant webhook-secret --merchant ID',
    async run(args, services, io) {
      // Only the secret, so scripts can capture it; the overlap is WEBHOOK_SECRET_OVERLAP_SECONDS (docs/webhooks.md).
      io.out(await services.merchants.rotateWebhookSecret(requireFlag(args, 'merchant'), cliActor()));
      return 0;
    },
  },
  {
    name: 'merchant rate-limit',
    summary: 'Set the merchant request rate limit (requests per second)',
    usage: 'merchant rate-limit --merchant ID --per-second N',
    async run(args, services, io) {
      io.out(json(await services.merchants.setRateLimit(requireFlag(args, 'merchant'), Number(requireFlag(args, 'per-second')), cliActor())));
      return 0;
    },
  },
  {
    name: 'merchant ip-allow-list',
    summary: 'Set the addresses payouts and refunds (or, with --scope all, every call) may come from; --cidrs none removes the list',
    usage: 'merchant ip-allow-list --merchant ID --cidrs a,b [--scope money|all]',
    async run(args, services, io) {
      const list = await services.merchants.setIpAllowList(requireFlag(args, 'merchant'), cidrsOf(args), ipAllowScopeOf(args), cliActor());
      io.out(json(list));
      return 0;
    },
  },
  {
    name: 'key add',
    summary: 'Add an API key (at most two active at once); --scope limits what it may call (default all)',
    usage: 'key add --merchant ID [--key-type rsa|hmac] [--public-key FILE] [--label TEXT] [--scope read|payments|payouts|all] [--json]',
    async run(args, services, io) {
      const issued = await services.merchants.addKey(requireFlag(args, 'merchant'), {
        type: keyTypeOf(args),
        publicKeyPem: publicKeyOf(args),
        label: flagString(args, 'label'),
        scope: keyScopeOf(args),
      }, cliActor());
      io.out(args.flags.json === true ? JSON.stringify(issued) : json(issued));
      return 0;
    },
  },
  {
    name: 'key list',
    summary: 'List a merchant API keys',
    usage: 'key list --merchant ID',
    async run(args, services, io) {
      for (const k of await services.merchants.listKeys(requireFlag(args, 'merchant'))) {
        // The scope column comes after the status, so scripts reading the first three columns keep working.
        io.out(`${k.id}  ${k.type.padEnd(11)}  ${k.status.padEnd(7)}  ${k.scope.padEnd(8)}  ${k.createdAt}  ${k.label ?? ''}`);
      }
      return 0;
    },
  },
  {
    name: 'key revoke',
    summary: 'Revoke an API key',
    usage: 'key revoke --merchant ID --key KEY_ID',
    async run(args, services, io) {
      await services.merchants.revokeKey(requireFlag(args, 'merchant'), requireFlag(args, 'key'), cliActor());
      io.out('revoked');
      return 0;
    },
  },
  {
    name: 'rate set',
    summary: 'Set the USDT reference rate and spreads for a currency',
    usage: 'rate set --currency INR --reference 88.25 --deposit-spread-bps 50 --withdraw-spread-bps 50',
    async run(args, services, io) {
      const currency = requireCurrencyFlag(args);
      const micros = parseRateMicros(requireFlag(args, 'reference'));
      if (micros === null) throw new Error('--reference must be a positive decimal with at most 6 decimals');
      const rate = await services.rates.set(
        currency,
        micros,
        Number(requireFlag(args, 'deposit-spread-bps')),
        Number(requireFlag(args, 'withdraw-spread-bps')),
        cliActor(),
      );
      io.out(`${currency}: reference ${microsToNumber(rate.referenceMicros)}, deposit ${microsToNumber(rate.depositMicros)}, withdraw ${microsToNumber(rate.withdrawMicros)}`);
      return 0;
    },
  },
];
