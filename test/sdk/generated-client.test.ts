// The OpenAPI document is good enough to generate a client from: the SDK's wire types are
// openapi-typescript's output for the served document (and must stay so), and openapi-fetch, typed
// by them, calls the running service with signed requests and gets typed answers.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import createClient, { type Middleware } from 'openapi-fetch';
import type { OpenAPI3 } from 'openapi-typescript';
import type { components, paths } from '../../sdk/src/api-types.js';
import { signRequest } from '../../sdk/src/signing.js';
import type { ApiResult, Currency, PaymentInitiateResult, PaymentRecord, PaymentRefundResult, PaymentClient } from '../../sdk/src/index.js';
import { API_TYPES_FILE, renderApiTypes } from '../helpers/api-types.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';

type Schemas = components['schemas'];

/** Signs each request as the contract asks: hex(SHA512(body)) + Timestamp with the merchant's HMAC secret. */
function signedBy(merchant: TestMerchant, nowSeconds: () => number): Middleware {
  return {
    async onRequest({ request }) {
      const body = await request.clone().text();
      const timestamp = String(Math.floor(nowSeconds()));
      request.headers.set('MerchantID', merchant.id);
      request.headers.set('Timestamp', timestamp);
      request.headers.set('Signature', signRequest({ type: 'HMAC-SHA256', secret: merchant.secret! }, body, timestamp));
      return request;
    },
  };
}

let server: TestServer;
let merchant: TestMerchant;
let client: ReturnType<typeof createClient<paths>>;

beforeAll(async () => {
  server = await startTestServer({}, { worker: false });
  merchant = await server.createMerchant({ keyType: 'HMAC-SHA256' });
  client = createClient<paths>({ baseUrl: server.baseUrl });
  client.use(signedBy(merchant, () => server.clock.nowMs() / 1000));
});

afterAll(async () => {
  await server.close();
});

describe('a client generated from the OpenAPI document', () => {
  it('is what the SDK ships: sdk/src/api-types.ts is the generator output for the served document', async () => {
    const document = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as OpenAPI3;
    // On a deliberate API change, `npm run generate:api-types` rewrites the file.
    expect(await renderApiTypes(document)).toBe(readFileSync(API_TYPES_FILE, 'utf8'));
  });

  it('reads a balance with typed fields', async () => {
    const { data, error, response } = await client.POST('/v1/api/account/balance', { body: { currency: 'IDR' } });
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    expect(data?.data).toEqual({ currency: 'IDR', available: 0, pending: 0, held: 0, credit: 0, security: 0 });
    expectTypeOf(data!.data.currency).toEqualTypeOf<Schemas['Currency']>();
    expectTypeOf(data!.data.available).toEqualTypeOf<number>();
  });

  it('creates a payment and reads it back with the initiate and record shapes the service answers', async () => {
    const created = await client.POST('/v1/api/payment/initiate', {
      body: {
        merchantRef: `gen-${Date.now()}`,
        method: 'NATIVE',
        currency: 'INR',
        amount: 150.25,
        name: 'Asha Rao',
        email: 'asha@example.com',
        phone: '9812345678',
        redirectUrl: 'https://shop.example.com/return',
      },
    });
    expect(created.response.status).toBe(200);
    const payment = created.data!.data;
    expect(payment).toMatchObject({ method: 'NATIVE', amount: 150.25, status: 'Pending' });
    // The INR answer has no currency, and the generated type says so.
    expect(payment).not.toHaveProperty('currency');
    expectTypeOf(payment.currency).toEqualTypeOf<Schemas['Currency'] | undefined>();
    expectTypeOf(payment.status).toEqualTypeOf<'Pending' | 'Success' | 'Failed' | 'Expired' | 'Refund'>();

    const status = await client.POST('/v1/api/payment/status', { body: { transactionRef: payment.transactionRef } });
    const record = status.data!.data;
    expect(record).toMatchObject({ transactionRef: payment.transactionRef, currency: 'INR', paidAmount: 0, refundable: false });
    expect(Date.parse(record.createdAt)).not.toBeNaN();
    expectTypeOf(record.currency).toEqualTypeOf<Schemas['Currency']>();
  });

  it('gets error answers typed as the shared Error envelope', async () => {
    const missing = await client.POST('/v1/api/payout/status', { body: { transactionRef: '0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b' } });
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    expect(missing.error).toMatchObject({ code: '404', message: 'NOT_FOUND' });
    expectTypeOf(missing.error!.message).toEqualTypeOf<Schemas['ErrorReason']>();
  });

  it('lists the bank codes of a currency', async () => {
    const { data } = await client.POST('/v1/api/payout/bankCode', { body: { currency: 'NGN' } });
    expect(data!.data.length).toBeGreaterThan(10);
    expectTypeOf(data!.data[0]!).toEqualTypeOf<Schemas['BankEntry']>();
    expect(data!.data[0]).toEqual({ bankCode: expect.any(String), bankName: expect.any(String) });
  });

  it("types the SDK client's answers as the service gives them: no currency or timestamps promised where they may lack", async () => {
    type Answer<Method extends keyof PaymentClient> = PaymentClient[Method] extends (...args: never[]) => Promise<ApiResult<infer T>> ? T : never;
    expectTypeOf<Answer<'paymentInitiate'>>().toEqualTypeOf<PaymentInitiateResult>();
    expectTypeOf<Answer<'paymentRefund'>>().toEqualTypeOf<PaymentRefundResult>();
    expectTypeOf<Answer<'paymentStatus'>>().toEqualTypeOf<PaymentRecord>();
    expectTypeOf<PaymentInitiateResult['currency']>().toEqualTypeOf<Currency | undefined>();
    expectTypeOf<PaymentInitiateResult>().not.toHaveProperty('createdAt');
    expectTypeOf<PaymentRefundResult>().not.toHaveProperty('updatedAt');

    const answer = await merchant.client.paymentInitiate({
      merchantRef: `sdk-${Date.now()}`,
      method: 'NATIVE',
      currency: 'INR',
      amount: 120,
      name: 'Asha Rao',
      email: 'asha@example.com',
      phone: '9812345678',
      redirectUrl: 'https://shop.example.com/return',
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.data).sort()).toEqual(['amount', 'checkoutUrl', 'expiresAt', 'merchantRef', 'method', 'status', 'transactionRef']);
  });
});
