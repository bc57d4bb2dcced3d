// webhook/events, webhook/event and webhook/resend: a merchant lists its webhook events with their
// delivery attempts and sends one again. Another merchant's event is NOT_FOUND, as if it did not exist.
import { Type } from '@sinclair/typebox';
import { Text } from '../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../http/envelope.js';
import { MAX_EVENT_PAGE, type WebhookService } from '../webhooks/service.js';
import { merchantOf, DATABASE_READ } from './merchant-request.js';
import { WebhookDeliveryStatus } from './schemas/enums.js';
import { errorResponse, MERCHANT_SECURITY, merchantErrors, SuccessEnvelope } from './schemas/responses.js';
import { ref } from './schemas/shared.js';
import { EventCursorField, EventIdField, WebhookEvent, WebhookEventDetail, WebhookEventPage } from './schemas/webhook.js';

export const ListBody = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_EVENT_PAGE, default: 50 })),
    status: Type.Optional(ref(WebhookDeliveryStatus)),
    before: Type.Optional(EventCursorField),
  },
  { additionalProperties: false },
);

const EventBody = Type.Object({ eventId: EventIdField }, { additionalProperties: false });

const NO_EVENT = errorResponse('NOT_FOUND: no such event for this merchant.');

export interface MerchantWebhookRouteOptions {
  readonly webhooks: Pick<WebhookService, 'listEvents' | 'getEvent' | 'resend'>;
}

export const merchantWebhookRoutes: FastifyPluginAsyncTypebox<MerchantWebhookRouteOptions> = async (app, { webhooks }) => {
  app.post(
    '/webhook/events',
    {
      config: DATABASE_READ,
      schema: {
        operationId: 'webhookEvents',
        tags: ['webhook'],
        summary: 'List your webhook events, newest first',
        description:
          'An event is kept for the retention the operator sets (WEBHOOK_EVENT_RETENTION_DAYS, 90 days by default) after it was created; then, once its delivery is over (delivered, failed or no_destination), it is deleted with its attempts and no longer listed, shown or resent (404). An event still being retried is never deleted.',
        security: MERCHANT_SECURITY,
        body: ListBody,
        response: { 200: SuccessEnvelope(ref(WebhookEventPage), 'One page of events, newest first.'), ...merchantErrors },
      },
    },
    async (request) => ok(await webhooks.listEvents(merchantOf(request).id, request.body)),
  );

  app.post(
    '/webhook/event',
    {
      config: DATABASE_READ,
      schema: {
        operationId: 'webhookEvent',
        tags: ['webhook'],
        summary: 'One webhook event with its body and every delivery attempt',
        security: MERCHANT_SECURITY,
        body: EventBody,
        response: { 200: SuccessEnvelope(ref(WebhookEventDetail), 'The event, its body as sent and its attempts.'), ...merchantErrors, 404: NO_EVENT },
      },
    },
    async (request) => ok(await webhooks.getEvent(request.body.eventId, merchantOf(request).id)),
  );

  app.post(
    '/webhook/resend',
    {
      config: { changesState: true, keyScope: 'payments-or-payouts', movesMoney: false },
      schema: {
        operationId: 'webhookResend',
        tags: ['webhook'],
        summary: 'Send a webhook event again now, with a fresh retry schedule',
        security: MERCHANT_SECURITY,
        body: EventBody,
        response: {
          200: SuccessEnvelope(ref(WebhookEvent), 'The event, pending again.'),
          ...merchantErrors,
          404: NO_EVENT,
          409: errorResponse('CONFLICT: no webhook URL is configured for this kind of event; set one, then resend.'),
        },
      },
    },
    async (request) => ok(await webhooks.resend(request.body.eventId, merchantOf(request).id, `merchant:${merchantOf(request).id}`)),
  );
};
