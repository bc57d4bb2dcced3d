// Operator API for webhooks: every merchant's events with their attempts, and resending one.
import { Type } from '@sinclair/typebox';
import { Text } from '../../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorEnvelope, ok, SuccessEnvelope } from '../../http/envelope.js';
import type { Services } from '../../services.js';
import { ADMIN_ACTOR } from './auth.js';
import { MAX_EVENT_PAGE } from '../../webhooks/service.js';
import { EventIdField, WebhookEventDetailSchema, WebhookEventPageSchema, WebhookEventSchema, WebhookEventStatusField } from '../webhook.js';

const ListQuery = Type.Object(
  {
    merchantId: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
    status: Type.Optional(WebhookEventStatusField),
    limit: Type.Optional(Text({ pattern: '^[1-9][0-9]{0,2}$', description: `1 to ${MAX_EVENT_PAGE}` })),
    before: Type.Optional(EventIdField),
  },
  { additionalProperties: false },
);

const EventParams = Type.Object({ id: EventIdField });
const Errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 404: ErrorEnvelope };

export const adminWebhookRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/webhooks/events',
    {
      schema: {
        tags: ['admin'],
        summary: 'Webhook events, newest first, optionally of one merchant or status',
        querystring: ListQuery,
        response: { 200: SuccessEnvelope(WebhookEventPageSchema), ...Errors },
      },
    },
    async (request) => {
      const { merchantId, status, limit, before } = request.query;
      return ok(await services.webhooks.listEvents(merchantId ?? null, { status, before, limit: limit === undefined ? undefined : Number(limit) }));
    },
  );

  app.get(
    '/webhooks/events/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'One webhook event with its body and every delivery attempt',
        params: EventParams,
        response: { 200: SuccessEnvelope(WebhookEventDetailSchema), ...Errors },
      },
    },
    async (request) => ok(await services.webhooks.getEvent(request.params.id, null)),
  );

  app.post(
    '/webhooks/events/:id/resend',
    {
      schema: {
        tags: ['admin'],
        summary: 'Send a webhook event again now, with a fresh retry schedule',
        params: EventParams,
        response: { 200: SuccessEnvelope(WebhookEventSchema), ...Errors, 409: ErrorEnvelope },
      },
    },
    async (request) => ok(await services.webhooks.resend(request.params.id, null, ADMIN_ACTOR)),
  );
};
