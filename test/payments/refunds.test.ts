// Refunds at service level (contract section 10): money is debited before the channel is asked and
// never twice; a lost channel answer is retried until it comes; a refusal gives the money back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel } from '../../src/connectors/channel.js';
import { AppError } from '../../src/core/errors.js';
import type { Merchant } from '../../src/merchants/merchant-service.js';
import { findByRef } from '../../src/domain/payments/repository.js';
import { PaymentService } from '../../src/domain/payments/service.js';
import { PUBLIC_BASE_URL, paymentRequest, startPaymentHarness, type PaymentHarness } from './harness.js';
import { SecretBox } from '../../src/core/secrets.js';

let h: PaymentHarness;
beforeAll(async () => {
  h = await startPaymentHarness();
});
afterAll(async () => h.close());

async function paidPayment(merchant?: Merchant): Promise<{ merchant: Merchant; ref: string }> {
  const owner = merchant ?? (await h.createMerchant());
  const created = await h.payments.initiate(owner, paymentRequest('INR', 'NATIVE', { amount: 1000 }));
  await h.payments.sandboxComplete(owner, created.transactionRef, 'Success');
  // The fee is not returned by a refund: the merchant needs it from other money.
  await h.ledger.adjust({ merchantId: owner.id, currency: 'INR', account: 'available', amountMinor: 100_00n, reason: 'test funding', actor: 'test' });
  return { merchant: owner, ref: created.transactionRef };
}

const refundEntries = async (merchantId: string): Promise<number> =>
  (await h.ledger.journal(merchantId)).filter((entry) => entry.kind === 'refund').length;

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.reason;
    throw error;
  }
  return 'resolved';
}

describe('refunds', () => {
  it('two racing refunds of one payment refund it once and both answer Refund', async () => {
    const { merchant, ref } = await paidPayment();
    const before = h.simulator.stats.refunds;
    const answers = await Promise.all([1, 2, 3].map(() => h.payments.refund(merchant, { transactionRef: ref })));
    expect(answers.map((a) => a.status)).toEqual(['Refund', 'Refund', 'Refund']);
    expect(h.simulator.stats.refunds).toBe(before + 1);
    expect(await refundEntries(merchant.id)).toBe(1);
    expect((await h.events(ref)).map((e) => e.type)).toEqual(['payment.succeeded', 'payment.refunded']);
  });

  it('is refused with INSUFFICIENT_BALANCE before the channel is asked when pending and available are short', async () => {
    const { merchant, ref } = await paidPayment();
    const { pending, available } = await h.balances(merchant.id, 'INR');
    await h.ledger.adjust({ merchantId: merchant.id, currency: 'INR', account: 'pending', amountMinor: -pending, reason: 'test drain', actor: 'test' });
    await h.ledger.adjust({ merchantId: merchant.id, currency: 'INR', account: 'available', amountMinor: -available, reason: 'test drain', actor: 'test' });
    const before = h.simulator.stats.refunds;
    expect(await reasonOf(h.payments.refund(merchant, { transactionRef: ref }))).toBe('INSUFFICIENT_BALANCE');
    expect(h.simulator.stats.refunds).toBe(before);
    const stored = (await findByRef(h.db, ref))!;
    expect({ status: stored.status, refundState: stored.refund_state }).toEqual({ status: 'Success', refundState: null });
  });

  it('keeps the debit and retries the channel when its answer is lost, until the refund is confirmed', async () => {
    const { merchant, ref } = await paidPayment();
    const pendingBefore = (await h.balances(merchant.id, 'INR')).pending;
    const availableBefore = (await h.balances(merchant.id, 'INR')).available;
    const recordBefore = await h.payments.status(merchant, { transactionRef: ref });
    h.clock.advance(1000);
    h.simulator.faults.failNextRequests = 1;
    expect(await reasonOf(h.payments.refund(merchant, { transactionRef: ref }))).toBe('UNAVAILABLE');
    expect((await findByRef(h.db, ref))!.status).toBe('Success');
    const during = await h.balances(merchant.id, 'INR');
    expect(during.pending + during.available).toBe(pendingBefore + availableBefore - 100_000n);
    const recordDuring = await h.payments.status(merchant, { transactionRef: ref });
    expect(recordDuring.refundable).toBe(false);
    // The record changed (refundable), so its updatedAt did too.
    expect(Date.parse(recordDuring.updatedAt) - Date.parse(recordBefore.updatedAt)).toBe(1000);

    expect(await h.jobs.refunds.runDue()).toBe(0);
    h.clock.advance(10_000);
    expect(await h.jobs.refunds.runDue()).toBe(1);
    const after = (await findByRef(h.db, ref))!;
    expect({ status: after.status, refundState: after.refund_state }).toEqual({ status: 'Refund', refundState: 'done' });
    expect((await h.payments.refund(merchant, { transactionRef: ref })).status).toBe('Refund');
    expect(await refundEntries(merchant.id)).toBe(1);
  });

  it('gives the debit back when the channel refuses the refund; the payment stays Success', async () => {
    const { merchant, ref } = await paidPayment();
    const balancesBefore = await h.balances(merchant.id, 'INR');
    const real = h.channels.byName('simulator');
    const refusing: Channel = {
      name: real.name,
      createCollection: (request) => real.createCollection(request),
      queryCollection: (transactionRef) => real.queryCollection(transactionRef),
      refund: async () => {
        throw new AppError('PAYMENT_NOT_REFUNDABLE', 'The upstream refused the refund: test.');
      },
      submitPayout: (submission) => real.submitPayout(submission),
      queryPayout: (transactionRef) => real.queryPayout(transactionRef),
      parseCallback: (headers, rawBody) => real.parseCallback(headers, rawBody),
    };
    const service = new PaymentService({
      db: h.db,
      clock: h.clock,
      box: new SecretBox(Buffer.alloc(32, 3).toString('base64')),
      merchants: h.merchants,
      fees: h.fees,
      ledger: h.ledger,
      channels: { channelFor: () => refusing, byName: () => refusing, sandboxPayer: () => h.channels.sandboxPayer() },
      publicBaseUrl: PUBLIC_BASE_URL,
    });
    const updatedBefore = (await findByRef(h.db, ref))!.updated_at_ms;
    h.clock.advance(1000);
    expect(await reasonOf(service.refund(merchant, { transactionRef: ref }))).toBe('PAYMENT_NOT_REFUNDABLE');
    const after = (await findByRef(h.db, ref))!;
    expect({ status: after.status, refundState: after.refund_state }).toEqual({ status: 'Success', refundState: 'rejected' });
    expect(after.updated_at_ms - updatedBefore).toBe(1000n);
    const balancesAfter = await h.balances(merchant.id, 'INR');
    expect({ pending: balancesAfter.pending, available: balancesAfter.available }).toEqual({
      pending: balancesBefore.pending,
      available: balancesBefore.available,
    });
    expect((await h.ledger.journal(merchant.id)).filter((e) => e.kind === 'refund_reversal')).toHaveLength(1);
    expect(await h.ledger.verify()).toEqual([]);
    // The real channel accepts a new attempt.
    expect((await h.payments.refund(merchant, { transactionRef: ref })).status).toBe('Refund');
  });
});
