// GET /v1/public-key: the key that signs every webhook's `Signature` header (contract section 6),
// and after a rotation the replaced key too, each under the id webhooks carry in Signature-Key-Id.
// Unsigned on purpose: anyone may fetch it, and it only lets them verify.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../http/envelope.js';
import { SuccessEnvelope } from './schemas/responses.js';
import { ref } from './schemas/shared.js';
import { PublicKey } from './schemas/webhook.js';
import type { WebhookService } from '../webhooks/service.js';

export interface PublicKeyRouteOptions {
  readonly webhooks: Pick<WebhookService, 'servicePublicKeys'>;
}

export const publicKeyRoutes: FastifyPluginAsyncTypebox<PublicKeyRouteOptions> = async (app, { webhooks }) => {
  app.get(
    '/v1/public-key',
    {
      schema: {
        operationId: 'servicePublicKey',
        tags: ['webhook'],
        summary: 'The service public keys that sign webhooks (Signature header, picked by Signature-Key-Id)',
        response: { 200: SuccessEnvelope(ref(PublicKey), 'The public key; no signature needed to fetch it.') },
      },
    },
    async () => {
      const keys = await webhooks.servicePublicKeys();
      const current = keys.find((key) => key.status === 'current') ?? keys[0]!;
      // The first two fields are the current key, as before rotation existed: older receivers keep working.
      return ok({ algorithm: 'RSA-SHA512' as const, publicKeyPem: current.publicKeyPem, keyId: current.keyId, keys });
    },
  );
};
