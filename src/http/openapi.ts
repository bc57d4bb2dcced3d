// The OpenAPI document is generated from the route schemas; nothing about the API is written twice.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

export async function registerOpenApi(app: FastifyInstance<any, any, any, any, any>, publicBaseUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Paygate merchant API',
        version: '1.0.0',
        description:
          'Pay-in, refunds, payouts, bank codes, balances and USDT rates for INR, EGP, NGN and IDR. ' +
          'Every merchant call is a signed POST; see docs/signing.md.',
      },
      servers: [{ url: publicBaseUrl }],
      components: {
        securitySchemes: {
          MerchantID: { type: 'apiKey', in: 'header', name: 'MerchantID' },
          Timestamp: { type: 'apiKey', in: 'header', name: 'Timestamp', description: 'Unix seconds, 10 digits, within 300 s of the server clock.' },
          Signature: {
            type: 'apiKey',
            in: 'header',
            name: 'Signature',
            description: 'base64 signature of hex(SHA512(rawBody)) + Timestamp: RSA-SHA512 (PKCS#1 v1.5) or HMAC-SHA256.',
          },
          AdminToken: { type: 'http', scheme: 'bearer' },
        },
      },
      tags: [
        { name: 'payment', description: 'Pay-in and refunds' },
        { name: 'payout', description: 'Payouts and bank codes' },
        { name: 'account', description: 'Balances and USDT rates' },
        { name: 'webhook', description: 'Webhook events, resending, and the key that signs webhooks' },
        { name: 'admin', description: 'Operator API (bearer token)' },
        { name: 'ops', description: 'Health, readiness, metrics' },
      ],
    },
  });
}
