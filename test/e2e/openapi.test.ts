// The OpenAPI document is usable for code generation: valid OpenAPI 3.1, every operation named,
// tagged and described, security on every route family, shared schemas with the code's enums, and
// the webhooks we send. The checks run over every route, so new routes are held to them too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { REASON_STATUS } from '../../src/core/errors.js';
import { PAYIN_METHOD_NAMES, PAYOUT_METHOD_NAMES } from '../../src/domain/methods.js';
import { CURRENCIES } from '../../src/core/money.js';
import { PAYMENT_STATUSES } from '../../src/domain/payments/checkout-view.js';
import { PAYOUT_STATUSES } from '../../src/domain/payouts/payout-rows.js';
import { OPENAPI_TAGS } from '../../src/api/openapi.js';
import { WEBHOOK_EVENT_STATUSES, WEBHOOK_EVENT_TYPES } from '../../src/webhooks/webhook-rows.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly op: any;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

function operationsOf(doc: any): Operation[] {
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
}

let server: TestServer;
let doc: any;

beforeAll(async () => {
  server = await startTestServer({}, { worker: false });
  doc = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
});

afterAll(async () => {
  await server.close();
});

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(() => validator.resolveRefs()).not.toThrow();
    expect(doc.openapi).toBe('3.1.0');
  });

  it('gives every operation a unique operationId and a declared tag', () => {
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(40);
    const declared = new Set(doc.tags.map((tag: { name: string }) => tag.name));
    expect([...declared]).toEqual(OPENAPI_TAGS.map((tag) => tag.name));
    const ids = operations.map(({ method, path, op }) => {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(op.tags?.length, `${method} ${path} tags`).toBeGreaterThan(0);
      for (const tag of op.tags) expect(declared.has(tag), `${method} ${path} tag ${tag}`).toBe(true);
      return op.operationId;
    });
    const webhookIds = Object.values(doc.webhooks).map((item: any) => item.post.operationId);
    expect(new Set([...ids, ...webhookIds]).size).toBe(ids.length + webhookIds.length);
  });

  it('describes every response in its own words, and every error with the shared Error envelope', () => {
    for (const { method, path, op } of operationsOf(doc)) {
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        const where = `${method} ${path} ${status}`;
        expect(response.description, where).toBeTruthy();
        expect(response.description, where).not.toBe('Default Response');
        if (Number(status) >= 400 && path !== '/readyz') {
          expect(response.content['application/json'].schema, where).toEqual({ $ref: '#/components/schemas/Error' });
        }
      }
    }
  });

  it('requires the bearer token on every operator route and the signature on every merchant route', () => {
    for (const { method, path, op } of operationsOf(doc)) {
      const where = `${method} ${path}`;
      if (path.startsWith('/admin/')) {
        expect(op.security, where).toEqual([{ AdminToken: [] }]);
        expect(op.responses['401'], where).toBeDefined();
      } else if (path.startsWith('/v1/api/')) {
        expect(op.security, where).toEqual([{ MerchantID: [], Timestamp: [], Signature: [] }]);
        expect(op.responses['401'], where).toBeDefined();
      } else {
        expect(op.security, where).toBeUndefined();
      }
    }
  });

  it('leaves the upstream callback route out of the merchant document', () => {
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/v1/callbacks'))).toEqual([]);
  });

  it('documents the 404 of a currency without a USDT rate, and the service answers it', async () => {
    expect(doc.paths['/v1/api/account/usdt/rate'].post.responses['404']).toBeDefined();
    const merchant = await server.createMerchant();
    const answer = await merchant.client.usdtRate({ currency: 'NGN' });
    expect({ status: answer.status, message: answer.message }).toEqual({ status: 404, message: 'NOT_FOUND' });
  });

  it('names the shared schemas and takes its enums from the constants the code uses', () => {
    const schemas = doc.components.schemas;
    for (const name of ['Error', 'PaymentRecord', 'PaymentInitiateResult', 'PaymentRefundResult', 'PayoutRecord', 'Balance', 'UsdtRate', 'WebhookEvent']) {
      expect(schemas[name], name).toBeDefined();
    }
    expect(schemas.Currency.enum).toEqual([...CURRENCIES]);
    expect(schemas.PayInMethod.enum).toEqual([...PAYIN_METHOD_NAMES]);
    expect(schemas.PayoutMethod.enum).toEqual([...PAYOUT_METHOD_NAMES]);
    expect(schemas.PaymentStatus.enum).toEqual([...PAYMENT_STATUSES]);
    expect(schemas.PayoutStatus.enum).toEqual([...PAYOUT_STATUSES]);
    expect(schemas.WebhookEventType.enum).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(schemas.WebhookDeliveryStatus.enum).toEqual([...WEBHOOK_EVENT_STATUSES]);
    expect(schemas.ErrorReason.enum).toEqual(Object.keys(REASON_STATUS));
    expect(schemas.PaymentRecord.properties.status).toEqual({ $ref: '#/components/schemas/PaymentStatus' });
    expect(schemas.PayoutRecord.properties.currency).toEqual({ $ref: '#/components/schemas/Currency' });
    const initiate = doc.paths['/v1/api/payment/initiate'].post.requestBody.content['application/json'].schema;
    expect(initiate.properties.currency).toEqual({ $ref: '#/components/schemas/Currency' });
    expect(initiate.properties.method).toEqual({ $ref: '#/components/schemas/PayInMethod' });
  });

  it('describes every webhook event the service sends, with its body and signature headers', () => {
    expect(Object.keys(doc.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES]);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const post = doc.webhooks[type].post;
      const body = type.startsWith('payment.') ? 'PaymentWebhook' : type === 'payout.batch_completed' ? 'PayoutBatchWebhook' : 'PayoutWebhook';
      expect(post.requestBody.content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${body}` });
      expect(post.parameters.map((p: { name: string }) => p.name)).toEqual(
        expect.arrayContaining(['Signature', 'Signature-Key-Id', 'webhook-id', 'webhook-timestamp', 'webhook-signature']),
      );
    }
    const eventTypes = doc.components.schemas.PayoutWebhook.allOf[1].properties.event.properties.type.enum;
    expect(eventTypes).toEqual(['payout.succeeded', 'payout.failed', 'payout.pending_approval']);
    const batchTypes = doc.components.schemas.PayoutBatchWebhook.allOf[1].properties.event.properties.type.enum;
    expect(batchTypes).toEqual(['payout.batch_completed']);
  });
});
