// Contract section 6, one-time signatures bound to a path: the same signed request again on the same
// path is answered like the first (polling twice in one second works), two read paths may share a
// Signature, and a Signature never crosses to or from a path that changes state, not even in a race.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireDeclaredEffect } from '../../src/http/auth.js';
import { PaymentClient, type SignedRequest } from '../../sdk/src/index.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { entriesOf, fund, initiateBody, paidPayment } from '../payments/api-helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  expect((await server.admin('PUT', '/rates/INR', { reference: '88.25', depositSpreadBps: 50, withdrawSpreadBps: 50 })).status).toBe(200);
});
afterAll(async () => server.close());

interface Answer {
  readonly status: number;
  readonly message: string;
  readonly data: any;
}

async function send(path: string, request: SignedRequest): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}/v1/api/${path}`, { method: 'POST', headers: request.headers, body: request.body });
  const body = await response.json();
  return { status: response.status, message: body.message, data: body.data };
}

const simulatorRefunds = (): number => server.services.channels.simulator.server!.stats.refunds;

/** A refundable, paid payment of a fresh merchant, with money to refund it. */
async function refundablePayment(): Promise<{ shop: TestMerchant; ref: string }> {
  const shop = await server.createMerchant();
  const ref = await paidPayment(shop, 'INR', 'NATIVE', { amount: 1000 });
  await fund(server, shop.id, 'INR', 50_00n);
  return { shop, ref };
}

async function paymentStatus(ref: string): Promise<string> {
  const row = await server.services.store.db.selectFrom('payments').select('status').where('transaction_ref', '=', ref).executeTakeFirstOrThrow();
  return row.status;
}

describe('the same signed request on the same path', () => {
  it('answers payment/status twice in one second, both 200 with the same record', async () => {
    const shop = await server.createMerchant();
    const created = await shop.client.paymentInitiate(initiateBody('IDR', 'QRIS'));
    const request = shop.client.buildSignedRequest({ transactionRef: created.data.transactionRef });
    const first = await send('payment/status', request);
    const second = await send('payment/status', request);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.data).toEqual(first.data);
  });

  it('lets the SDK poll twice in the same second with the same Timestamp', async () => {
    const shop = await server.createMerchant();
    const created = await shop.client.paymentInitiate(initiateBody('IDR', 'QRIS'));
    const sent: Record<string, string>[] = [];
    const second = Math.floor(server.clock.nowMs() / 1000);
    const client = new PaymentClient({
      baseUrl: server.baseUrl,
      merchantId: shop.id,
      key: { type: 'HMAC-SHA256', secret: shop.secret! },
      clock: () => second + 0.5,
      fetch: (input, init) => {
        sent.push(init!.headers as Record<string, string>);
        return fetch(input, init);
      },
    });
    const answers = [await client.paymentStatus({ transactionRef: created.data.transactionRef }), await client.paymentStatus({ transactionRef: created.data.transactionRef })];
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(sent.map((h) => h.Timestamp)).toEqual([String(second), String(second)]);
  });

  it('lets the SDK check a payment and refund it in the same second: it signs the refund for a later second', async () => {
    const { shop, ref } = await refundablePayment();
    const sent: Record<string, string>[] = [];
    const second = Math.floor(server.clock.nowMs() / 1000);
    const client = new PaymentClient({
      baseUrl: server.baseUrl,
      merchantId: shop.id,
      key: { type: 'HMAC-SHA256', secret: shop.secret! },
      clock: () => second + 0.5,
      fetch: (input, init) => {
        sent.push(init!.headers as Record<string, string>);
        return fetch(input, init);
      },
    });
    expect((await client.paymentStatus({ transactionRef: ref })).data.status).toBe('Success');
    expect((await client.paymentRefund({ transactionRef: ref })).data.status).toBe('Refund');
    expect((await client.paymentRefund({ transactionRef: ref })).data.status).toBe('Refund');
    expect(sent.map((h) => Number(h.Timestamp) - second)).toEqual([0, 1, 1]);
  });

  it('answers concurrent identical refund requests alike and refunds once', async () => {
    const { shop, ref } = await refundablePayment();
    const before = simulatorRefunds();
    const request = shop.client.buildSignedRequest({ transactionRef: ref });
    const answers = await Promise.all(Array.from({ length: 4 }, () => send('payment/refund', request)));
    expect(answers.map((a) => [a.status, a.data.status])).toEqual(Array.from({ length: 4 }, () => [200, 'Refund']));
    expect(simulatorRefunds()).toBe(before + 1);
    expect(await entriesOf(server, shop.id, 'refund')).toBe(1);
  });
});

describe('the same Signature on another path', () => {
  it('is accepted on two read paths: account/balance then account/usdt/rate', async () => {
    const shop = await server.createMerchant();
    const request = shop.client.buildSignedRequest({ currency: 'INR' });
    const balance = await send('account/balance', request);
    const rate = await send('account/usdt/rate', request);
    expect([balance.status, rate.status]).toEqual([200, 200]);
    expect(rate.data).toMatchObject({ currency: 'INR', deposit: expect.any(Number) });
  });

  it('refuses a payment/status body re-sent to payment/refund, and refunds nothing', async () => {
    const { shop, ref } = await refundablePayment();
    const before = simulatorRefunds();
    const request = shop.client.buildSignedRequest({ transactionRef: ref });
    expect((await send('payment/status', request)).status).toBe(200);
    const replay = await send('payment/refund', request);
    expect({ status: replay.status, message: replay.message }).toEqual({ status: 401, message: 'SIGNATURE_REUSED' });
    expect(await paymentStatus(ref)).toBe('Success');
    expect(await entriesOf(server, shop.id, 'refund')).toBe(0);
    expect(simulatorRefunds()).toBe(before);
  });

  it('refuses a refund Signature on payment/status afterwards', async () => {
    const { shop, ref } = await refundablePayment();
    const request = shop.client.buildSignedRequest({ transactionRef: ref });
    expect((await send('payment/refund', request)).data.status).toBe('Refund');
    const status = await send('payment/status', request);
    expect({ status: status.status, message: status.message }).toEqual({ status: 401, message: 'SIGNATURE_REUSED' });
  });

  it('refuses a state-changing path after two read paths shared the Signature', async () => {
    const shop = await server.createMerchant();
    const request = shop.client.buildSignedRequest({ currency: 'INR' });
    expect((await send('account/balance', request)).status).toBe(200);
    expect((await send('payment/methods', request)).status).toBe(200);
    expect((await send('payment/initiate', request)).message).toBe('SIGNATURE_REUSED');
  });

  it('lets at most one of payment/status and payment/refund through when they race', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { shop, ref } = await refundablePayment();
      const request = shop.client.buildSignedRequest({ transactionRef: ref });
      const paths = ['payment/status', 'payment/refund', 'payment/status', 'payment/refund'];
      const answers = await Promise.all(paths.map((path) => send(path, request)));
      const through = new Set(paths.filter((_, i) => answers[i]!.status !== 401));
      expect(through.size).toBe(1);
      for (const [i, answer] of answers.entries()) {
        if (!through.has(paths[i]!)) expect(answer.message).toBe('SIGNATURE_REUSED');
      }
      expect(await entriesOf(server, shop.id, 'refund')).toBe(through.has('payment/refund') ? 1 : 0);
    }
  });
});

describe('merchant routes', () => {
  it('must each declare whether they change state', async () => {
    const app = Fastify();
    app.addHook('onRoute', requireDeclaredEffect);
    app.post('/declared', { config: { changesState: false } }, async () => ({}));
    expect(() => app.post('/undeclared', async () => ({}))).toThrow(/changesState/);
    await app.close();
  });
});
