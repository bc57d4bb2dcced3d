// GET /v1/public-key: the key that signs every webhook's `Signature` header (contract section 6).
// Unsigned on purpose: anyone may fetch it, and it only lets them verify.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../http/envelope.js';
import { SuccessEnvelope } from './schemas/responses.js';
import { ref } from './schemas/shared.js';
import { PublicKey } from './schemas/webhook.js';
import type { WebhookService } from '../webhooks/service.js';

export interface PublicKeyRouteOptions {
  readonly webhooks: Pick<WebhookService, 'servicePublicKeyPem'>;
}

export const publicKeyRoutes: FastifyPluginAsyncTypebox<PublicKeyRouteOptions> = async (app, { webhooks }) => {
  app.get(
    '/v1/public-key',
    {
      schema: {
        operationId: 'servicePublicKey',
        tags: ['webhook'],
        summary: 'The service public key that signs webhooks (Signature header)',
        response: { 200: SuccessEnvelope(ref(PublicKey), 'The public key; no signature needed to fetch it.') },
      },
    },
    async () => ok({ algorithm: 'RSA-SHA512' as const, publicKeyPem: webhooks.servicePublicKeyPem() }),
  );
};
