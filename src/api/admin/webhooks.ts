// Operator API for webhooks: every merchant's events with their attempts, and resending one.
import { Type } from '@sinclair/typebox';
import { Text } from '../../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../http/envelope.js';
import { ADMIN_ACTOR } from './auth.js';
import { MAX_EVENT_PAGE, type WebhookService } from '../../webhooks/service.js';
import { WebhookDeliveryStatus } from '../schemas/enums.js';
import { errorResponse, SuccessEnvelope } from '../schemas/responses.js';
import { ref } from '../schemas/shared.js';
import { EventCursorField, EventIdField, WebhookEvent, WebhookEventDetail, WebhookEventPage } from '../schemas/webhook.js';

const ListQuery = Type.Object(
  {
    merchantId: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
    status: Type.Optional(ref(WebhookDeliveryStatus)),
    limit: Type.Optional(Text({ pattern: '^[1-9][0-9]{0,2}$', description: `1 to ${MAX_EVENT_PAGE}` })),
    before: Type.Optional(EventCursorField),
  },
  { additionalProperties: false },
);

const EventParams = Type.Object({ id: EventIdField });
const NO_EVENT = { 404: errorResponse('NOT_FOUND: no such event.') };

export interface AdminWebhookRouteOptions {
  readonly webhooks: Pick<WebhookService, 'listEvents' | 'getEvent' | 'resend'>;
}

export const adminWebhookRoutes: FastifyPluginAsyncTypebox<AdminWebhookRouteOptions> = async (app, { webhooks }) => {
  app.get(
    '/webhooks/events',
    {
      schema: {
        operationId: 'adminListWebhookEvents',
        tags: ['admin'],
        summary: 'Webhook events, newest first, optionally of one merchant or status',
        querystring: ListQuery,
        response: { 200: SuccessEnvelope(ref(WebhookEventPage), 'One page of events, newest first.') },
      },
    },
    async (request) => {
      const { merchantId, status, limit, before } = request.query;
      return ok(await webhooks.listEvents(merchantId ?? null, { status, before, limit: limit === undefined ? undefined : Number(limit) }));
    },
  );

  app.get(
    '/webhooks/events/:id',
    {
      schema: {
        operationId: 'adminGetWebhookEvent',
        tags: ['admin'],
        summary: 'One webhook event with its body and every delivery attempt',
        params: EventParams,
        response: { 200: SuccessEnvelope(ref(WebhookEventDetail), 'The event, its body as sent and its attempts.'), ...NO_EVENT },
      },
    },
    async (request) => ok(await webhooks.getEvent(request.params.id, null)),
  );

  app.post(
    '/webhooks/events/:id/resend',
    {
      schema: {
        operationId: 'adminResendWebhookEvent',
        tags: ['admin'],
        summary: 'Send a webhook event again now, with a fresh retry schedule',
        params: EventParams,
        response: {
          200: SuccessEnvelope(ref(WebhookEvent), 'The event, pending again.'),
          ...NO_EVENT,
          409: errorResponse("CONFLICT: no webhook URL is configured for this kind of event; set the merchant's, then resend."),
        },
      },
    },
    async (request) => ok(await webhooks.resend(request.params.id, null, ADMIN_ACTOR)),
  );
};
