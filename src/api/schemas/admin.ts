// What the operator API answers about merchants, their keys and USDT rates.
import { Type } from '@sinclair/typebox';
import { Currency } from './enums.js';
import { Nullable, ref, shared, StringEnum } from './shared.js';

export const KeyType = shared('KeyType', StringEnum(['RSA-SHA512', 'HMAC-SHA256'] as const));

export const KeyScope = shared(
  'KeyScope',
  StringEnum(['read', 'payments', 'payouts', 'all'] as const, {
    description: 'What a key may call: read (lookups), payments (pay-in and refunds, and reads), payouts (payouts, and reads) or all.',
  }),
);

export const IpAllowList = shared(
  'IpAllowList',
  Type.Object(
    {
      cidrs: Type.Array(Type.String(), { description: 'Normalised ranges (an address alone is shown as /32 or /128); empty when no allow-list is set.' }),
      scope: StringEnum(['money', 'all'] as const, { description: 'money: payouts and refunds only; all: every merchant call.' }),
    },
    { description: "A merchant's IP allow-list." },
  ),
);

export const Merchant = shared(
  'Merchant',
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    status: StringEnum(['active', 'disabled'] as const),
    mode: StringEnum(['sandbox', 'live'] as const),
    rateLimitPerSecond: Type.Integer(),
    paymentWebhookUrl: Nullable(Type.String()),
    payoutWebhookUrl: Nullable(Type.String()),
    createdAt: Type.String(),
  }),
);

export const ApiKey = shared(
  'ApiKey',
  Type.Object({
    id: Type.String(),
    type: ref(KeyType),
    scope: ref(KeyScope),
    label: Nullable(Type.String()),
    status: StringEnum(['active', 'revoked'] as const),
    createdAt: Type.String(),
    publicKeyPem: Nullable(Type.String()),
  }),
);

export const IssuedKey = shared(
  'IssuedKey',
  Type.Object(
    {
      keyId: Type.String(),
      type: ref(KeyType),
      scope: ref(KeyScope),
      privateKeyPem: Type.Optional(Type.String({ description: 'Generated RSA private key, shown once, when no public key was given.' })),
      publicKeyPem: Type.Optional(Type.String()),
      secret: Type.Optional(Type.String({ description: 'HMAC-SHA256 keys: the secret, shown once.' })),
    },
    { description: 'A new key as its owner sees it once.' },
  ),
);

export const RateSetting = shared(
  'RateSetting',
  Type.Object({
    currency: ref(Currency),
    reference: Type.Number({ description: 'Local currency per USDT.' }),
    depositSpreadBps: Type.Integer(),
    withdrawSpreadBps: Type.Integer(),
    deposit: Type.Number(),
    withdraw: Type.Number(),
    setAt: Type.String(),
    setBy: Type.String(),
  }),
);

export const ADMIN_SCHEMAS = [KeyType, KeyScope, IpAllowList, Merchant, ApiKey, IssuedKey, RateSetting];
