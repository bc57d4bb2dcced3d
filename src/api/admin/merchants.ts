// Operator API for merchants: create, list, disable/enable, keys, webhook URLs and secret, rate limit.
import { Type } from '@sinclair/typebox';
import { Text } from '../../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { IssuedKey, Merchant } from '../../domain/merchants.js';
import { ok } from '../../http/envelope.js';
import type { Services } from '../../services.js';
import { validationError } from '../../domain/errors.js';
import { checkWebhookUrlSyntax, type WebhookConfig } from '../../webhooks/ssrf.js';
import { ADMIN_ACTOR } from './auth.js';

const KeyType = Type.Union([Type.Literal('RSA-SHA512'), Type.Literal('HMAC-SHA256')]);
const WebhookUrl = Type.Union([Text({ minLength: 8, maxLength: 2048 }), Type.Null()]);
const IdParams = Type.Object({ id: Text({ maxLength: 64 }) });
const KeyParams = Type.Object({ id: Text({ maxLength: 64 }), keyId: Text({ maxLength: 64 }) });

const CreateMerchantBody = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 120 }),
    mode: Type.Optional(Type.Union([Type.Literal('sandbox'), Type.Literal('live')])),
    keyType: Type.Optional(KeyType),
    publicKeyPem: Type.Optional(Text({ multiline: true, maxLength: 8192 })),
    rateLimitPerSecond: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    paymentWebhookUrl: Type.Optional(WebhookUrl),
    payoutWebhookUrl: Type.Optional(WebhookUrl),
  },
  { additionalProperties: false },
);

const AddKeyBody = Type.Object(
  {
    type: KeyType,
    publicKeyPem: Type.Optional(Text({ multiline: true, maxLength: 8192 })),
    label: Type.Optional(Text({ maxLength: 120 })),
  },
  { additionalProperties: false },
);

const WebhooksBody = Type.Object(
  { paymentWebhookUrl: Type.Optional(WebhookUrl), payoutWebhookUrl: Type.Optional(WebhookUrl) },
  { additionalProperties: false },
);

/** Webhook URLs follow the delivery rules (https unless allowed, no credentials, allowed ports). */
export function checkWebhookUrl(field: string, value: string | null | undefined, config: WebhookConfig): void {
  if (value === null || value === undefined) return;
  const problem = checkWebhookUrlSyntax(value, config);
  if (problem) throw validationError(field, problem);
}

const keyView = (key: IssuedKey) => ({ ...key });
const merchantView = (merchant: Merchant) => ({ ...merchant });

export const adminMerchantRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { merchants } = services;

  app.post('/merchants', { schema: { tags: ['admin'], summary: 'Create a merchant and its first API key', body: CreateMerchantBody } }, async (request) => {
    const body = request.body;
    checkWebhookUrl('paymentWebhookUrl', body.paymentWebhookUrl, services.config.webhooks);
    checkWebhookUrl('payoutWebhookUrl', body.payoutWebhookUrl, services.config.webhooks);
    const created = await merchants.create({
      name: body.name,
      mode: body.mode ?? 'sandbox',
      key: { type: body.keyType ?? 'RSA-SHA512', publicKeyPem: body.publicKeyPem },
      rateLimitPerSecond: body.rateLimitPerSecond,
      paymentWebhookUrl: body.paymentWebhookUrl,
      payoutWebhookUrl: body.payoutWebhookUrl,
    }, ADMIN_ACTOR);
    return ok({ merchant: merchantView(created.merchant), key: keyView(created.key), webhookSecret: created.webhookSecret });
  });

  app.get('/merchants', { schema: { tags: ['admin'], summary: 'List merchants' } }, async () => ok(await merchants.list()));

  app.get('/merchants/:id', { schema: { tags: ['admin'], params: IdParams } }, async (request) => ok(await merchants.get(request.params.id)));

  app.post('/merchants/:id/disable', { schema: { tags: ['admin'], params: IdParams } }, async (request) =>
    ok(await merchants.setStatus(request.params.id, 'disabled', ADMIN_ACTOR)),
  );

  app.post('/merchants/:id/enable', { schema: { tags: ['admin'], params: IdParams } }, async (request) =>
    ok(await merchants.setStatus(request.params.id, 'active', ADMIN_ACTOR)),
  );

  app.get('/merchants/:id/keys', { schema: { tags: ['admin'], params: IdParams } }, async (request) => ok(await merchants.listKeys(request.params.id)));

  app.post('/merchants/:id/keys', { schema: { tags: ['admin'], summary: 'Add an API key (at most two active)', params: IdParams, body: AddKeyBody } }, async (request) =>
    ok(keyView(await merchants.addKey(request.params.id, request.body, ADMIN_ACTOR))),
  );

  app.delete('/merchants/:id/keys/:keyId', { schema: { tags: ['admin'], summary: 'Revoke an API key', params: KeyParams } }, async (request) => {
    await merchants.revokeKey(request.params.id, request.params.keyId, ADMIN_ACTOR);
    return ok({ revoked: request.params.keyId });
  });

  app.put('/merchants/:id/webhooks', { schema: { tags: ['admin'], summary: 'Set default webhook URLs', params: IdParams, body: WebhooksBody } }, async (request) => {
    checkWebhookUrl('paymentWebhookUrl', request.body.paymentWebhookUrl, services.config.webhooks);
    checkWebhookUrl('payoutWebhookUrl', request.body.payoutWebhookUrl, services.config.webhooks);
    return ok(
      await merchants.setWebhookUrls(request.params.id, { payment: request.body.paymentWebhookUrl, payout: request.body.payoutWebhookUrl }, ADMIN_ACTOR),
    );
  });

  app.post('/merchants/:id/webhook-secret', { schema: { tags: ['admin'], summary: 'Rotate the webhook secret (shown once)', params: IdParams } }, async (request) =>
    ok({ webhookSecret: await merchants.rotateWebhookSecret(request.params.id, ADMIN_ACTOR) }),
  );

  app.put(
    '/merchants/:id/rate-limit',
    {
      schema: {
        tags: ['admin'],
        params: IdParams,
        body: Type.Object({ perSecond: Type.Integer({ minimum: 1, maximum: 1_000_000 }) }, { additionalProperties: false }),
      },
    },
    async (request) => ok(await merchants.setRateLimit(request.params.id, request.body.perSecond, ADMIN_ACTOR)),
  );
};
