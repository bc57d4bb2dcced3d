// Operator API for the service's own RSA signing key: rotate it. The replaced key stays listed in
// GET /v1/public-key for SERVICE_KEY_OVERLAP_SECONDS, so receivers can fetch the new one by its id.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../http/envelope.js';
import type { WebhookService } from '../../webhooks/service.js';
import { errorResponse, SuccessEnvelope } from '../schemas/responses.js';
import { ref } from '../schemas/shared.js';
import { ServiceKeyEntry } from '../schemas/webhook.js';
import { ADMIN_ACTOR } from './auth.js';

export interface AdminServiceKeyRouteOptions {
  readonly webhooks: Pick<WebhookService, 'rotateServiceKey' | 'servicePublicKeys'>;
}

export const adminServiceKeyRoutes: FastifyPluginAsyncTypebox<AdminServiceKeyRouteOptions> = async (app, { webhooks }) => {
  app.post(
    '/service/signing-key/rotate',
    {
      schema: {
        operationId: 'adminRotateServiceKey',
        tags: ['admin'],
        summary: "Rotate the service's webhook signing key (the replaced one stays listed for the overlap)",
        response: {
          200: SuccessEnvelope(ref(ServiceKeyEntry), 'The new current key (public half only).'),
          409: errorResponse('CONFLICT: another rotation happened at the same moment.'),
        },
      },
    },
    async () => ok(await webhooks.rotateServiceKey(ADMIN_ACTOR)),
  );
};
