// Operator API for merchants: create, list, disable/enable, keys, webhook URLs and secret, rate limit,
// IP allow-list.
import { Type, type Static } from '@sinclair/typebox';
import { Text } from '../../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { IssuedKey, Merchant, MerchantService } from '../../merchants/merchant-service.js';
import { ok } from '../../http/envelope.js';
import {
  ApiKey,
  IpAllowList as IpAllowListSchema,
  IssuedKey as IssuedKeySchema,
  KeyScope as KeyScopeSchema,
  KeyType as KeyTypeSchema,
  Merchant as MerchantSchema,
} from '../schemas/admin.js';
import { errorResponse, SuccessEnvelope } from '../schemas/responses.js';
import { ref, StringEnum } from '../schemas/shared.js';
import { checkWebhookUrl, type WebhookConfig } from '../../webhooks/ssrf.js';
import { ADMIN_ACTOR } from './auth.js';

const KeyType = ref(KeyTypeSchema);
const KeyScope = ref(KeyScopeSchema, { description: 'What the key may call; all when not given.' });
const WebhookUrl = Type.Union([Text({ minLength: 8, maxLength: 2048 }), Type.Null()]);
const IdParams = Type.Object({ id: Text({ maxLength: 64 }) });
const KeyParams = Type.Object({ id: Text({ maxLength: 64 }), keyId: Text({ maxLength: 64 }) });

export const CreateMerchantBody = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 120 }),
    mode: Type.Optional(Type.Union([Type.Literal('sandbox'), Type.Literal('live')])),
    keyType: Type.Optional(KeyType),
    keyScope: Type.Optional(KeyScope),
    publicKeyPem: Type.Optional(Text({ multiline: true, maxLength: 8192 })),
    rateLimitPerSecond: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    paymentWebhookUrl: Type.Optional(WebhookUrl),
    payoutWebhookUrl: Type.Optional(WebhookUrl),
  },
  { additionalProperties: false },
);

export const AddKeyBody = Type.Object(
  {
    type: KeyType,
    publicKeyPem: Type.Optional(Text({ multiline: true, maxLength: 8192 })),
    label: Type.Optional(Text({ maxLength: 120 })),
    scope: Type.Optional(KeyScope),
  },
  { additionalProperties: false },
);

export const WebhooksBody = Type.Object(
  { paymentWebhookUrl: Type.Optional(WebhookUrl), payoutWebhookUrl: Type.Optional(WebhookUrl) },
  { additionalProperties: false },
);

const IpAllowListBody = Type.Object(
  {
    cidrs: Type.Array(Text({ maxLength: 64 }), {
      maxItems: 100,
      description: 'IPv4 or IPv6 addresses or CIDR ranges (203.0.113.7, 203.0.113.0/24, 2001:db8::/32); an empty list removes the allow-list.',
    }),
    scope: Type.Optional(StringEnum(['money', 'all'] as const, { description: 'money (default): payouts and refunds only; all: every merchant call.' })),
  },
  { additionalProperties: false },
);

const NO_MERCHANT = { 404: errorResponse('NOT_FOUND: no such merchant.') };
const merchantAnswer = (description: string) => ({ 200: SuccessEnvelope(ref(MerchantSchema), description), ...NO_MERCHANT });

const keyView = (key: IssuedKey) => ({ ...key });
const merchantView = (merchant: Merchant) => ({ ...merchant });

/**
 * The operator's one way to create a merchant from a CreateMerchantBody (the admin API and the
 * console): webhook URLs checked against the SSRF rules first, then the merchant, key and secret.
 */
export function createMerchant(
  merchants: MerchantService,
  webhookConfig: WebhookConfig,
  body: Static<typeof CreateMerchantBody>,
  actor: string,
): ReturnType<MerchantService['create']> {
  checkWebhookUrl('paymentWebhookUrl', body.paymentWebhookUrl, webhookConfig);
  checkWebhookUrl('payoutWebhookUrl', body.payoutWebhookUrl, webhookConfig);
  return merchants.create(
    {
      name: body.name,
      mode: body.mode ?? 'sandbox',
      key: { type: body.keyType ?? 'RSA-SHA512', publicKeyPem: body.publicKeyPem, scope: body.keyScope },
      rateLimitPerSecond: body.rateLimitPerSecond,
      paymentWebhookUrl: body.paymentWebhookUrl,
      payoutWebhookUrl: body.payoutWebhookUrl,
    },
    actor,
  );
}

export interface AdminMerchantRouteOptions {
  readonly merchants: MerchantService;
  /** The webhooks section of the config: which webhook URLs a merchant may be given. */
  readonly webhookConfig: WebhookConfig;
}

export const adminMerchantRoutes: FastifyPluginAsyncTypebox<AdminMerchantRouteOptions> = async (app, { merchants, webhookConfig }) => {
  const createSchema = {
    operationId: 'adminCreateMerchant',
    tags: ['admin'],
    summary: 'Create a merchant and its first API key',
    body: CreateMerchantBody,
    response: {
      200: SuccessEnvelope(
        Type.Object({ merchant: ref(MerchantSchema), key: ref(IssuedKeySchema), webhookSecret: Type.String({ description: 'The whsec_ secret, shown once.' }) }),
        'The merchant, its first key and its webhook secret (secrets shown once).',
      ),
    },
  };
  app.post('/merchants', { schema: createSchema }, async (request) => {
    const created = await createMerchant(merchants, webhookConfig, request.body, ADMIN_ACTOR);
    return ok({ merchant: merchantView(created.merchant), key: keyView(created.key), webhookSecret: created.webhookSecret });
  });

  app.get(
    '/merchants',
    { schema: { operationId: 'adminListMerchants', tags: ['admin'], summary: 'List merchants', response: { 200: SuccessEnvelope(Type.Array(ref(MerchantSchema)), 'Every merchant.') } } },
    async () => ok(await merchants.list()),
  );

  app.get(
    '/merchants/:id',
    { schema: { operationId: 'adminGetMerchant', tags: ['admin'], summary: 'One merchant', params: IdParams, response: merchantAnswer('The merchant.') } },
    async (request) => ok(await merchants.get(request.params.id)),
  );

  const statusSchema = (operationId: string, summary: string) => ({ operationId, tags: ['admin'], summary, params: IdParams, response: merchantAnswer('The merchant afterwards.') });
  app.post('/merchants/:id/disable', { schema: statusSchema('adminDisableMerchant', 'Disable a merchant (its calls get 403 MERCHANT_DISABLED)') }, async (request) =>
    ok(await merchants.setStatus(request.params.id, 'disabled', ADMIN_ACTOR)),
  );

  app.post('/merchants/:id/enable', { schema: statusSchema('adminEnableMerchant', 'Enable a disabled merchant again') }, async (request) =>
    ok(await merchants.setStatus(request.params.id, 'active', ADMIN_ACTOR)),
  );

  app.get(
    '/merchants/:id/keys',
    {
      schema: {
        operationId: 'adminListKeys',
        tags: ['admin'],
        summary: "A merchant's API keys, active and revoked",
        params: IdParams,
        response: { 200: SuccessEnvelope(Type.Array(ref(ApiKey)), 'The keys, oldest first (none for an unknown merchant).') },
      },
    },
    async (request) => ok(await merchants.listKeys(request.params.id)),
  );

  const addKeySchema = {
    operationId: 'adminAddKey',
    tags: ['admin'],
    summary: 'Add an API key (at most two active)',
    params: IdParams,
    body: AddKeyBody,
    response: {
      200: SuccessEnvelope(ref(IssuedKeySchema), 'The new key; a generated private key or HMAC secret is shown once.'),
      ...NO_MERCHANT,
      409: errorResponse('CONFLICT: the merchant already has two active keys; revoke one first.'),
    },
  };
  app.post('/merchants/:id/keys', { schema: addKeySchema }, async (request) =>
    ok(keyView(await merchants.addKey(request.params.id, request.body, ADMIN_ACTOR))),
  );

  const revokeSchema = {
    operationId: 'adminRevokeKey',
    tags: ['admin'],
    summary: 'Revoke an API key',
    params: KeyParams,
    response: { 200: SuccessEnvelope(Type.Object({ revoked: Type.String() }), 'The key is revoked.'), 404: errorResponse('NOT_FOUND: no such key of this merchant.') },
  };
  app.delete('/merchants/:id/keys/:keyId', { schema: revokeSchema }, async (request) => {
    await merchants.revokeKey(request.params.id, request.params.keyId, ADMIN_ACTOR);
    return ok({ revoked: request.params.keyId });
  });

  const webhooksSchema = {
    operationId: 'adminSetWebhookUrls',
    tags: ['admin'],
    summary: 'Set default webhook URLs',
    params: IdParams,
    body: WebhooksBody,
    response: merchantAnswer('The merchant afterwards.'),
  };
  app.put('/merchants/:id/webhooks', { schema: webhooksSchema }, async (request) => {
    checkWebhookUrl('paymentWebhookUrl', request.body.paymentWebhookUrl, webhookConfig);
    checkWebhookUrl('payoutWebhookUrl', request.body.payoutWebhookUrl, webhookConfig);
    return ok(
      await merchants.setWebhookUrls(request.params.id, { payment: request.body.paymentWebhookUrl, payout: request.body.payoutWebhookUrl }, ADMIN_ACTOR),
    );
  });

  const secretSchema = {
    operationId: 'adminRotateWebhookSecret',
    tags: ['admin'],
    summary: 'Rotate the webhook secret (shown once); the replaced one keeps signing beside it for the overlap',
    params: IdParams,
    response: {
      200: SuccessEnvelope(
        Type.Object({
          webhookSecret: Type.String(),
          previousSecretExpiresAt: Type.Union([Type.String(), Type.Null()], {
            description: 'Until then webhook-signature carries a second v1, signature by the replaced secret (WEBHOOK_SECRET_OVERLAP_SECONDS); null: no overlap.',
          }),
        }),
        'The new whsec_ secret, shown once.',
      ),
      ...NO_MERCHANT,
    },
  };
  app.post('/merchants/:id/webhook-secret', { schema: secretSchema }, async (request) =>
    ok(await merchants.rotateWebhookSecretWithOverlap(request.params.id, ADMIN_ACTOR)),
  );

  app.put(
    '/merchants/:id/rate-limit',
    {
      schema: {
        operationId: 'adminSetRateLimit',
        tags: ['admin'],
        summary: "Set a merchant's request rate limit",
        params: IdParams,
        body: Type.Object({ perSecond: Type.Integer({ minimum: 1, maximum: 1_000_000 }) }, { additionalProperties: false }),
        response: merchantAnswer('The merchant afterwards.'),
      },
    },
    async (request) => ok(await merchants.setRateLimit(request.params.id, request.body.perSecond, ADMIN_ACTOR)),
  );

  const allowListAnswer = { 200: SuccessEnvelope(ref(IpAllowListSchema), 'The allow-list afterwards (cidrs empty: none).'), ...NO_MERCHANT };
  app.get(
    '/merchants/:id/ip-allow-list',
    { schema: { operationId: 'adminGetIpAllowList', tags: ['admin'], summary: "A merchant's IP allow-list", params: IdParams, response: allowListAnswer } },
    async (request) => ok(await merchants.ipAllowList(request.params.id)),
  );

  app.put(
    '/merchants/:id/ip-allow-list',
    {
      schema: {
        operationId: 'adminSetIpAllowList',
        tags: ['admin'],
        summary: "Set a merchant's IP allow-list (an empty list removes it)",
        description:
          'While set, the guarded calls (scope money: payouts and refunds; all: every call) from other addresses get 403 IP_NOT_ALLOWED. ' +
          'A malformed range is 400 VALIDATION_FAILED naming it (cidrs[i]); nothing changes.',
        params: IdParams,
        body: IpAllowListBody,
        response: allowListAnswer,
      },
    },
    async (request) => ok(await merchants.setIpAllowList(request.params.id, request.body.cidrs, request.body.scope ?? 'money', ADMIN_ACTOR)),
  );
};
