// The OpenAPI document is generated from the route schemas and the shared schemas they reference;
// nothing about the API is written twice. The webhooks we send are described from the same schemas.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { registerSharedSchemas } from './schemas/index.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/webhook-rows.js';

/** The tags of the document; every operation carries one of them (a test holds routes to it). */
export const OPENAPI_TAGS = [
  { name: 'payment', description: 'Pay-in and refunds' },
  { name: 'payout', description: 'Payouts and bank codes' },
  { name: 'account', description: 'Balances, USDT rates, the statement and daily settlements' },
  { name: 'report', description: 'CSV exports of payments, payouts, the statement and settlements, and their time-limited download links' },
  { name: 'webhook', description: 'Webhook events, resending, and the key that signs webhooks' },
  { name: 'sandbox', description: 'Sandbox merchants only: act as the payer' },
  { name: 'admin', description: 'Operator API (bearer token)' },
  { name: 'ops', description: 'Health, readiness, metrics' },
];

const SENT_WHEN: Readonly<Record<WebhookEventType, string>> = {
  'payment.succeeded': 'A payment reached Success.',
  'payment.failed': 'A payment reached Failed (the upstream declined it).',
  'payment.expired': 'A payment reached Expired (30 minutes passed unpaid).',
  'payment.refunded': 'A payment reached Refund.',
  'payment.late_credited': 'Money that arrived after the payment expired was credited to you by the operator (the payment stays Expired; see lateCredit).',
  'payout.succeeded': 'A payout reached Success.',
  'payout.failed': 'A payout reached Failed; its amount and fee are back in your balance.',
  'payout.batch_completed': 'Every accepted item of a payout batch reached Success or Failed (sent once per batch).',
  'payout.pending_approval': 'A payout above your approval threshold waits in PendingApproval (funds reserved) for payout/approve or payout/reject signed with another key.',
};

const header = (name: string, description: string) => ({ name, in: 'header' as const, required: true, description, schema: { type: 'string' as const } });

const WEBHOOK_HEADERS = [
  header('MerchantID', 'Your merchant id.'),
  header('Timestamp', 'Unix seconds when this attempt was signed.'),
  header('Signature', "base64 RSA-SHA512 signature by the service's key (GET /v1/public-key) of hex(SHA512(rawBody)) + Timestamp."),
  header('Signature-Key-Id', 'The id of the service key that made Signature, as GET /v1/public-key lists it (keys[].keyId); refetch the list on an id you do not know.'),
  header('webhook-id', 'The event id (event.id in the body); deduplicate on it.'),
  header('webhook-timestamp', 'The same Unix seconds as Timestamp.'),
  header(
    'webhook-signature',
    'v1, + base64 HMAC-SHA256 with your whsec_ secret of webhook-id.webhook-timestamp.rawBody (Standard Webhooks). After a secret rotation, for the ' +
      'overlap, two space-separated entries: the new secret\'s, then the replaced one\'s; either verifying is enough.',
  ),
];

const camel = (type: string): string => type.replace(/\.(\w)/, (_match, letter: string) => letter.toUpperCase());

function webhookOperation(type: WebhookEventType) {
  const body = type.startsWith('payment.') ? 'PaymentWebhook' : type === 'payout.batch_completed' ? 'PayoutBatchWebhook' : 'PayoutWebhook';
  return {
    post: {
      operationId: `${camel(type)}Webhook`,
      tags: ['webhook'],
      summary: SENT_WHEN[type],
      description: 'Sent to the webhookUrl given at creation, else your default URL for this kind; at least once, so deduplicate on event.id.',
      parameters: WEBHOOK_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${body}` } } } },
      responses: {
        '2XX': { description: 'Acknowledged: any 2xx within 15 seconds; the body is ignored (SUCCESS as plain text is fine).' },
        default: { description: 'Anything else, or no answer within 15 seconds: retried with backoff for about 28 hours, then marked failed.' },
      },
    },
  };
}

export async function registerOpenApi(app: FastifyInstance<any, any, any, any, any>, publicBaseUrl: string): Promise<void> {
  // On the root instance before any route, so every route's validator and serializer resolves them.
  registerSharedSchemas(app);
  await app.register(swagger, {
    // Shared schemas keep their $id as their name under components.schemas.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
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
      tags: OPENAPI_TAGS,
      webhooks: Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, webhookOperation(type)])),
    },
  });
}
