// GET /v1/public-key: the key that signs every webhook's `Signature` header (contract section 6).
// Unsigned on purpose: anyone may fetch it, and it only lets them verify.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, SuccessEnvelope } from '../http/envelope.js';
import type { Services } from '../services.js';

const PublicKey = Type.Object({
  algorithm: Type.Literal('RSA-SHA512'),
  publicKeyPem: Type.String({ description: 'SPKI PEM of the service RSA key' }),
});

export const publicKeyRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/v1/public-key',
    {
      schema: {
        tags: ['webhook'],
        summary: 'The service public key that signs webhooks (Signature header)',
        response: { 200: SuccessEnvelope(PublicKey) },
      },
    },
    async () => ok({ algorithm: 'RSA-SHA512' as const, publicKeyPem: services.webhooks.servicePublicKeyPem() }),
  );
};
