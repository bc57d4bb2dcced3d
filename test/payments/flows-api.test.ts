// A payment's life through HTTP with the SDK against the real server and its in-process bank
// simulator: sandbox completion, callbacks (duplicate, late, forged), expiry and late money, and
// refunds with their window, their methods and their idempotency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCallback, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../src/simulator/protocol.js';
import type { SimulatorFaults } from '../../src/simulator/faults.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { collectionReady, drain, entriesOf, eventsOf, fund, initiateBody, jobsOf, paidPayment, pause } from './api-helpers.js';

const MINUTE_MS = 60_000;

let server: TestServer;
let merchant: TestMerchant;
beforeAll(async () => {
  server = await startTestServer();
  merchant = await server.createMerchant();
});
afterAll(async () => server.close());

const faults = (): SimulatorFaults => server.services.channels.simulator.server!.faults;
const balances = (merchantId: string, currency: 'INR' | 'EGP' | 'NGN' | 'IDR') => server.services.ledger.balances(merchantId, currency);
/** pending + available: the worker settles pending into available at once in sandbox (delay 0). */
const credited = async (merchantId: string, currency: 'INR' | 'EGP' | 'NGN' | 'IDR'): Promise<bigint> => {
  const b = await balances(merchantId, currency);
  return b.pending + b.available;
};

async function withFaults<T>(patch: Partial<SimulatorFaults>, work: () => Promise<T>): Promise<T> {
  Object.assign(faults(), patch);
  try {
    return await work();
  } finally {
    server.services.channels.simulator.server!.resetFaults();
  }
}

describe('sandbox completion', () => {
  it('Success: the payment succeeds, pending grows by paid - fee, and payment.succeeded is recorded once', async () => {
    const shop = await server.createMerchant();
    const created = await shop.client.paymentInitiate(initiateBody('INR', 'NATIVE', { amount: 2000 }));
    const completed = await shop.client.sandboxCompletePayment({ transactionRef: created.data.transactionRef, outcome: 'Success' });
    expect(completed.status).toBe(200);
    expect(completed.data).toMatchObject({ status: 'Success', paidAmount: 2000, fee: 40, refundable: true });
    expect(completed.data.completedAt).toBeDefined();
    expect(Date.parse(completed.data.refundableUntil!) - Date.parse(completed.data.completedAt!)).toBe(30 * MINUTE_MS);
    const status = await shop.client.paymentStatus({ transactionRef: created.data.transactionRef });
    expect(status.data).toEqual(completed.data);
    expect(await credited(shop.id, 'INR')).toBe(1960_00n);
    await pause(300);
    const events = await eventsOf(server, created.data.transactionRef);
    expect(events.map((e) => e.type)).toEqual(['payment.succeeded']);
    expect(events[0]!.payload).toMatchObject({ ...completed.data, updatedAt: completed.data.updatedAt, event: { type: 'payment.succeeded' } });
  });

  it('Failed: the payment fails with the bank\'s reason and payment.failed is recorded', async () => {
    const created = await merchant.client.paymentInitiate(initiateBody('IDR', 'QRIS'));
    const completed = await merchant.client.sandboxCompletePayment({ transactionRef: created.data.transactionRef, outcome: 'Failed' });
    expect(completed.data).toMatchObject({ status: 'Failed', failureReason: 'PAYER_DECLINED', paidAmount: 0, refundable: false });
    await pause(300);
    expect((await eventsOf(server, created.data.transactionRef)).map((e) => e.type)).toEqual(['payment.failed']);
  });

  it('answers a final payment unchanged when completed again', async () => {
    const ref = await paidPayment(merchant, 'EGP', 'FAWRY');
    const again = await merchant.client.sandboxCompletePayment({ transactionRef: ref, outcome: 'Failed' });
    expect(again.data.status).toBe('Success');
  });

  it('does not exist for live merchants, and answers 404 for an unknown payment', async () => {
    const live = await server.createMerchant({ mode: 'live' });
    const refused = await live.client.sandboxCompletePayment({ transactionRef: '0190aaaa-0000-7000-8000-000000000000', outcome: 'Success' });
    expect({ status: refused.status, message: refused.message }).toEqual({ status: 403, message: 'METHOD_NOT_ENABLED' });
    const missing = await merchant.client.sandboxCompletePayment({ transactionRef: '0190aaaa-0000-7000-8000-000000000000', outcome: 'Success' });
    expect({ status: missing.status, message: missing.message }).toEqual({ status: 404, message: 'NOT_FOUND' });
  });
});

describe('callbacks', () => {
  it('applies duplicate and late callbacks once: one ledger credit, one event', async () => {
    const shop = await server.createMerchant();
    const ref = await withFaults({ duplicateCallbacks: true, callbackDelayMs: 200 }, async () => {
      const paid = await paidPayment(shop, 'NGN', 'TRANSFER', { amount: 10_000 });
      await pause(600);
      return paid;
    });
    expect(server.services.channels.simulator.server!.stats.callbacksDelivered).toBeGreaterThanOrEqual(2);
    expect(await entriesOf(server, shop.id, 'payment_credit')).toBe(1);
    expect(await credited(shop.id, 'NGN')).toBe(10_000_00n - 140_00n);
    expect((await eventsOf(server, ref)).map((e) => e.type)).toEqual(['payment.succeeded']);
  });

  it('turns a payment Success from the callback alone', async () => {
    const created = await merchant.client.paymentInitiate(initiateBody('EGP', 'WALLET'));
    await collectionReady(server, created.data.transactionRef);
    await server.services.channels.sandboxPayer().completeCollection(created.data.transactionRef, 'Success');
    for (let i = 0; i < 100; i += 1) {
      if ((await merchant.client.paymentStatus({ transactionRef: created.data.transactionRef })).data.status === 'Success') break;
      await pause(20);
    }
    expect((await merchant.client.paymentStatus({ transactionRef: created.data.transactionRef })).data.status).toBe('Success');
  });

  it('refuses a callback with a bad signature with 401 and changes nothing', async () => {
    const created = await merchant.client.paymentInitiate(initiateBody('INR', 'NATIVE'));
    const ref = created.data.transactionRef;
    await collectionReady(server, ref);
    const body = Buffer.from(
      JSON.stringify({
        eventId: 'forged-1',
        kind: 'collection',
        transactionRef: ref,
        upstreamRef: 'FORGED',
        status: 'PAID',
        paidAmountMinor: '150050',
        failureReason: null,
        occurredAt: new Date(server.clock.nowMs()).toISOString(),
      }),
    );
    const timestamp = String(Math.floor(server.clock.nowMs() / 1000));
    const post = (signature: string, channel = 'simulator') =>
      fetch(`${server.baseUrl}/v1/callbacks/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signature },
        body,
      });
    const forged = await post(signCallback('not-the-secret', timestamp, body));
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ code: '401', message: 'INVALID_SIGNATURE' });
    const unsigned = await post('');
    expect(unsigned.status).toBe(401);
    const unknownChannel = await post(signCallback('x', timestamp, body), 'nobank');
    expect(unknownChannel.status).toBe(404);
    const status = await merchant.client.paymentStatus({ transactionRef: ref });
    expect(status.data.status).toBe('Pending');
    expect(await eventsOf(server, ref)).toEqual([]);
  });
});

describe('expiry', () => {
  it('expires an unpaid payment after 30 minutes; money paid later is recorded and the payment stays Expired', async () => {
    const shop = await server.createMerchant();
    const created = await shop.client.paymentInitiate(initiateBody('NGN', 'TRANSFER'));
    const ref = created.data.transactionRef;
    await collectionReady(server, ref);
    server.clock.advance(31 * MINUTE_MS);
    await drain(jobsOf(server).expiry);
    const expired = await shop.client.paymentStatus({ transactionRef: ref });
    expect(expired.data).toMatchObject({ status: 'Expired', refundable: false });
    expect(expired.data.completedAt).toBeDefined();

    const late = await shop.client.sandboxCompletePayment({ transactionRef: ref, outcome: 'Success' });
    expect(late.data.status).toBe('Expired');
    await pause(300);
    expect((await shop.client.paymentStatus({ transactionRef: ref })).data.status).toBe('Expired');
    const recorded = await server.services.store.db.selectFrom('late_payments').selectAll().where('transaction_ref', '=', ref).execute();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ disposition: 'held', paid_amount_minor: 12_000_00n });
    expect(await credited(shop.id, 'NGN')).toBe(0n);
    expect((await eventsOf(server, ref)).map((e) => e.type)).toEqual(['payment.expired']);
    const refund = await shop.client.paymentRefund({ transactionRef: ref });
    expect(refund.message).toBe('PAYMENT_NOT_SUCCESSFUL');
  });
});

describe('payment/refund', () => {
  it('refunds a successful payment within 30 minutes: Refund, ledger debited, payment.refunded recorded', async () => {
    const shop = await server.createMerchant();
    const ref = await paidPayment(shop, 'INR', 'NATIVE', { amount: 1000 });
    await fund(server, shop.id, 'INR', 50_00n);
    server.clock.advance(29 * MINUTE_MS);
    const refund = await shop.client.paymentRefund({ transactionRef: ref });
    expect(refund.status).toBe(200);
    expect(refund.data).toMatchObject({ transactionRef: ref, currency: 'INR', method: 'NATIVE', amount: 1000, paidAmount: 1000, fee: 20, status: 'Refund' });
    expect(await credited(shop.id, 'INR')).toBe(980_00n + 50_00n - 1000_00n);
    expect(await entriesOf(server, shop.id, 'refund')).toBe(1);
    const status = await shop.client.paymentStatus({ transactionRef: ref });
    expect(status.data).toMatchObject({ status: 'Refund', refundable: false });
    expect((await eventsOf(server, ref)).map((e) => e.type)).toEqual(['payment.succeeded', 'payment.refunded']);

    const again = await shop.client.paymentRefund({ transactionRef: ref });
    expect(again.data).toEqual(refund.data);
    expect(await entriesOf(server, shop.id, 'refund')).toBe(1);
  });

  it('refunds once when two refund requests race', async () => {
    const shop = await server.createMerchant();
    const ref = await paidPayment(shop, 'IDR', 'OVO', { phone: '081234567890' });
    await fund(server, shop.id, 'IDR', 5_000_00n);
    const refundsBefore = server.services.channels.simulator.server!.stats.refunds;
    const answers = await Promise.all([shop.client.paymentRefund({ transactionRef: ref }), shop.client.paymentRefund({ transactionRef: ref })]);
    expect(answers.map((a) => [a.status, a.data.status])).toEqual([
      [200, 'Refund'],
      [200, 'Refund'],
    ]);
    expect(server.services.channels.simulator.server!.stats.refunds).toBe(refundsBefore + 1);
    expect(await entriesOf(server, shop.id, 'refund')).toBe(1);
  });

  it('refuses a refund more than 30 minutes after completion', async () => {
    const ref = await paidPayment(merchant, 'EGP', 'WALLET');
    server.clock.advance(30 * MINUTE_MS + 1_000);
    const refund = await merchant.client.paymentRefund({ transactionRef: ref });
    expect({ status: refund.status, message: refund.message }).toEqual({ status: 422, message: 'REFUND_WINDOW_EXPIRED' });
    expect((await merchant.client.paymentStatus({ transactionRef: ref })).data).toMatchObject({ status: 'Success', refundable: false });
  });

  it.each([
    ['NGN', 'TRANSFER'],
    ['IDR', 'BNI'],
    ['EGP', 'FAWRY'],
  ] as const)('refuses to refund a %s %s payment (no upstream refunds)', async (currency, method) => {
    const ref = await paidPayment(merchant, currency, method);
    const refund = await merchant.client.paymentRefund({ transactionRef: ref });
    expect({ status: refund.status, message: refund.message }).toEqual({ status: 422, message: 'PAYMENT_NOT_REFUNDABLE' });
    const status = await merchant.client.paymentStatus({ transactionRef: ref });
    expect(status.data).toMatchObject({ status: 'Success', refundable: false });
    expect(status.data).not.toHaveProperty('refundableUntil');
  });

  it('refuses to refund a Pending payment, and answers 404 for another merchant\'s payment', async () => {
    const created = await merchant.client.paymentInitiate(initiateBody('INR', 'NATIVE'));
    const refund = await merchant.client.paymentRefund({ transactionRef: created.data.transactionRef });
    expect({ status: refund.status, message: refund.message }).toEqual({ status: 422, message: 'PAYMENT_NOT_SUCCESSFUL' });
    const stranger = await server.createMerchant();
    const foreign = await stranger.client.paymentRefund({ transactionRef: created.data.transactionRef });
    expect({ status: foreign.status, message: foreign.message }).toEqual({ status: 404, message: 'NOT_FOUND' });
  });

  it('refuses with INSUFFICIENT_BALANCE when pending and available do not cover the paid amount (the fee is not returned)', async () => {
    const shop = await server.createMerchant();
    const ref = await paidPayment(shop, 'INR', 'NATIVE', { amount: 1000 });
    const refund = await shop.client.paymentRefund({ transactionRef: ref });
    expect({ status: refund.status, message: refund.message }).toEqual({ status: 422, message: 'INSUFFICIENT_BALANCE' });
    expect((await shop.client.paymentStatus({ transactionRef: ref })).data.status).toBe('Success');
    expect(await entriesOf(server, shop.id, 'refund')).toBe(0);
  });
});
