// webhook/events, webhook/event and webhook/resend: a merchant lists its webhook events with their
// delivery attempts and sends one again. Another merchant's event is NOT_FOUND, as if it did not exist.
import { Type } from '@sinclair/typebox';
import { Text } from '../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorEnvelope, ok, SuccessEnvelope } from '../http/envelope.js';
import type { Services } from '../services.js';
import { MAX_EVENT_PAGE } from '../webhooks/service.js';
import { errorResponses, merchantOf, MERCHANT_SECURITY } from './common.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const WebhookEventStatusField = Type.Union(
  [Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('no_destination')],
  { description: 'pending (being delivered or retried), delivered, failed (retries exhausted), no_destination (no URL configured; nothing sent)' },
);

export const EventIdField = Text({ minLength: 1, maxLength: 64, pattern: '^evt_[0-9a-f]{32}$', examples: ['evt_019a8f3c5d2e7b4c8a1f6e0d9c8b7a65'] });

export const WebhookEventSchema = Type.Object({
  id: Type.String({ description: 'The event id; also the webhook-id header. Deduplicate on it.' }),
  merchantId: Type.String(),
  type: Type.String({ examples: ['payment.succeeded'] }),
  resourceKind: Type.String({ examples: ['payment'] }),
  resourceRef: Type.String({ description: 'The transactionRef of the payment or payout' }),
  url: Nullable(Type.String()),
  status: WebhookEventStatusField,
  attemptCount: Type.Integer(),
  nextAttemptAt: Nullable(Type.String({ description: 'When the next attempt is due (pending events only)' })),
  createdAt: Type.String(),
  deliveredAt: Nullable(Type.String()),
  lastError: Nullable(Type.String()),
});

export const WebhookAttemptSchema = Type.Object({
  attemptNo: Type.Integer(),
  startedAt: Type.String(),
  durationMs: Type.Integer(),
  httpStatus: Type.Union([Type.Integer(), Type.Null()]),
  error: Nullable(Type.String()),
  responseSnippet: Nullable(Type.String({ description: 'The first 200 characters of the answer' })),
});

export const WebhookEventDetailSchema = Type.Composite([
  WebhookEventSchema,
  Type.Object({
    payload: Type.Unknown({ description: 'The body as sent: the record, flat, plus its event object' }),
    attempts: Type.Array(WebhookAttemptSchema),
  }),
]);

export const WebhookEventPageSchema = Type.Object({
  events: Type.Array(WebhookEventSchema),
  nextBefore: Nullable(Type.String({ description: 'Pass as before for the next (older) page; null on the last page' })),
});

const ListBody = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_EVENT_PAGE, default: 50 })),
    status: Type.Optional(WebhookEventStatusField),
    before: Type.Optional(EventIdField),
  },
  { additionalProperties: false },
);

const EventBody = Type.Object({ eventId: EventIdField }, { additionalProperties: false });

const responses = <T extends Parameters<typeof SuccessEnvelope>[0]>(data: T) => ({
  200: SuccessEnvelope(data),
  ...errorResponses,
  404: ErrorEnvelope,
});

export const merchantWebhookRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/webhook/events',
    {
      config: { changesState: false },
      schema: {
        tags: ['webhook'],
        summary: 'List your webhook events, newest first',
        security: MERCHANT_SECURITY,
        body: ListBody,
        response: responses(WebhookEventPageSchema),
      },
    },
    async (request) => ok(await services.webhooks.listEvents(merchantOf(request).id, request.body)),
  );

  app.post(
    '/webhook/event',
    {
      config: { changesState: false },
      schema: {
        tags: ['webhook'],
        summary: 'One webhook event with its body and every delivery attempt',
        security: MERCHANT_SECURITY,
        body: EventBody,
        response: responses(WebhookEventDetailSchema),
      },
    },
    async (request) => ok(await services.webhooks.getEvent(request.body.eventId, merchantOf(request).id)),
  );

  app.post(
    '/webhook/resend',
    {
      config: { changesState: true },
      schema: {
        tags: ['webhook'],
        summary: 'Send a webhook event again now, with a fresh retry schedule',
        security: MERCHANT_SECURITY,
        body: EventBody,
        response: { ...responses(WebhookEventSchema), 409: ErrorEnvelope },
      },
    },
    async (request) => ok(await services.webhooks.resend(request.body.eventId, merchantOf(request).id, `merchant:${merchantOf(request).id}`)),
  );
};
