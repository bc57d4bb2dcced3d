// The payment module against the real simulator (service level): collections prepared in the
// background for every method, Success/Failed applied once however often the news arrives,
// expiry with the channel's last word, late money, reconciliation of lost callbacks.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYIN_METHODS } from '../../src/domain/methods.js';
import { CURRENCIES, type Currency } from '../../src/core/money.js';
import { CLAIM_LEASE_MS } from '../../src/domain/payments/payment-limits.js';
import { claimCollection, collectionsDue, findByRef } from '../../src/domain/payments/repository.js';
import { usingPostgres } from '../helpers/store.js';
import { eventually, paymentRequest, settle, startPaymentHarness, type PaymentHarness } from './harness.js';

const MINUTE_MS = 60_000;

let h: PaymentHarness;
beforeAll(async () => {
  h = await startPaymentHarness();
});
afterAll(async () => h.close());

async function pendingPayment(currency: Currency, method: string) {
  const merchant = await h.createMerchant();
  const created = await h.payments.initiate(merchant, paymentRequest(currency, method));
  return { merchant, ref: created.transactionRef, created };
}

const row = async (ref: string) => (await findByRef(h.db, ref))!;

async function ledgerEntries(merchantId: string, kind: string): Promise<number> {
  return (await h.ledger.journal(merchantId)).filter((entry) => entry.kind === kind).length;
}

describe('collections are prepared in the background', () => {
  it('commits a Pending payment at once and prepares the collection of every method of every currency', async () => {
    const merchant = await h.createMerchant();
    const refs: { ref: string; currency: Currency; method: string }[] = [];
    for (const currency of CURRENCIES) {
      for (const spec of PAYIN_METHODS[currency]) {
        const created = await h.payments.initiate(merchant, paymentRequest(currency, spec.method));
        expect(created.status).toBe('Pending');
        expect((await row(created.transactionRef)).collection_state).toBe('requested');
        refs.push({ ref: created.transactionRef, currency, method: spec.method });
      }
    }
    while ((await h.payments.requestDueCollections()) > 0);
    for (const { ref, currency, method } of refs) {
      const stored = await row(ref);
      expect({ currency, method, state: stored.collection_state }).toEqual({ currency, method, state: 'ready' });
      expect(stored.upstream_ref).toBeTruthy();
      expect(JSON.parse(stored.collection_json!).kind).toBeTruthy();
    }
  });

  it('retries with backoff while the channel is unavailable, then prepares the collection', async () => {
    const { ref } = await pendingPayment('IDR', 'QRIS');
    h.simulator.faults.failNextRequests = 1;
    expect(await h.payments.requestDueCollections()).toBe(1);
    const waiting = await row(ref);
    expect(waiting.collection_state).toBe('requested');
    expect(Number(waiting.collection_next_at_ms)).toBeGreaterThan(h.clock.nowMs());
    expect(await h.payments.requestDueCollections()).toBe(0);
    h.clock.advance(2_000);
    expect(await h.payments.requestDueCollections()).toBe(1);
    expect((await row(ref)).collection_state).toBe('ready');
  });
});

describe('a collection claim', () => {
  const dueRefs = async () => (await collectionsDue(h.db, h.clock.nowMs(), 1000)).map((due) => due.transaction_ref);

  it('holds the request until its lease runs out, lets one of two claims of the same read win, then is taken over', async () => {
    const { ref } = await pendingPayment('INR', 'NATIVE');
    const read = await row(ref);
    expect(await dueRefs()).toContain(ref);
    expect(await claimCollection(h.db, read, h.clock.nowMs() + CLAIM_LEASE_MS)).toBe(true);
    expect(await claimCollection(h.db, read, h.clock.nowMs() + CLAIM_LEASE_MS)).toBe(false);
    const held = await row(ref);
    expect(held.collection_attempts).toBe(1n);
    expect(held.collection_next_at_ms).toBe(read.collection_next_at_ms); // the schedule is left alone
    expect(await dueRefs()).not.toContain(ref);
    h.clock.advance(CLAIM_LEASE_MS + 1);
    expect(await dueRefs()).toContain(ref);
    expect(await claimCollection(h.db, held, h.clock.nowMs() + CLAIM_LEASE_MS)).toBe(true);
    expect((await row(ref)).collection_attempts).toBe(2n);
    // The lease ran out of its own: the job takes the request over and prepares the collection.
    h.clock.advance(CLAIM_LEASE_MS + 1);
    while ((await h.payments.requestDueCollections()) > 0);
    expect((await row(ref)).collection_state).toBe('ready');
  });

  it.runIf(usingPostgres())('rewrites no index entry on PostgreSQL: a HOT update', async () => {
    const { ref } = await pendingPayment('IDR', 'BNI');
    const read = await row(ref);
    // The backend's counts not yet reported include its earlier transactions', so the claim's are
    // what it adds, read before and after it in one transaction.
    const counts = await h.db.transaction().execute(async (trx) => {
      const countsNow = async () =>
        (
          await sql<{ updated: number; hot: number }>`
            SELECT pg_stat_get_xact_tuples_updated('payments'::regclass)::int AS updated,
                   pg_stat_get_xact_tuples_hot_updated('payments'::regclass)::int AS hot`.execute(trx)
        ).rows[0]!;
      const before = await countsNow();
      expect(await claimCollection(trx, read, h.clock.nowMs() + CLAIM_LEASE_MS)).toBe(true);
      const after = await countsNow();
      return { updated: after.updated - before.updated, hot: after.hot - before.hot };
    });
    expect(counts).toEqual({ updated: 1, hot: 1 });
  });
});

describe('collection news is applied exactly once', () => {
  it('Success credits paid - fee to pending once and announces payment.succeeded once, despite duplicate callbacks', async () => {
    const { merchant, ref } = await pendingPayment('INR', 'NATIVE');
    h.simulator.faults.duplicateCallbacks = true;
    try {
      const record = await h.payments.sandboxComplete(merchant, ref, 'Success');
      expect(record.status).toBe('Success');
      expect(record.paidAmount).toBe(1500.5);
      expect(record.fee).toBe(30.01);
      await settle();
      const state = await h.channels.byName('simulator').queryCollection(ref);
      await h.payments.applyCollectionState(ref, state);
      await h.payments.applyCollectionState(ref, state, 'simulator');
    } finally {
      h.simulator.faults.duplicateCallbacks = false;
    }
    expect((await h.balances(merchant.id, 'INR')).pending).toBe(150_050n - 3_001n);
    expect(await ledgerEntries(merchant.id, 'payment_credit')).toBe(1);
    expect((await h.events(ref)).map((e) => e.type)).toEqual(['payment.succeeded']);
    const body = JSON.parse((await h.events(ref))[0]!.payload_json);
    expect(body).toMatchObject({ transactionRef: ref, status: 'Success', paidAmount: 1500.5, fee: 30.01, event: { type: 'payment.succeeded' } });
  });

  it('Failed records the reason and announces payment.failed, with nothing credited', async () => {
    const { merchant, ref } = await pendingPayment('EGP', 'WALLET');
    const record = await h.payments.sandboxComplete(merchant, ref, 'Failed');
    expect(record).toMatchObject({ status: 'Failed', failureReason: 'PAYER_DECLINED', paidAmount: 0 });
    expect(record.completedAt).toBeDefined();
    await settle();
    expect((await h.events(ref)).map((e) => e.type)).toEqual(['payment.failed']);
    expect((await h.balances(merchant.id, 'EGP')).pending).toBe(0n);
  });

  it('ignores news for unknown payments and news whose upstream reference does not match', async () => {
    expect(await h.payments.applyCollectionState('0190aaaa-0000-7000-8000-000000000000', { upstreamRef: 'x', status: 'PAID' })).toBeNull();
    const { merchant, ref } = await pendingPayment('NGN', 'TRANSFER');
    while ((await h.payments.requestDueCollections()) > 0);
    const after = await h.payments.applyCollectionState(ref, { upstreamRef: 'SOMEONE-ELSE', status: 'PAID', paidAmountMinor: 1_200_000n });
    expect(after!.status).toBe('Pending');
    const wrongChannel = await h.payments.applyCollectionState(ref, { upstreamRef: (await row(ref)).upstream_ref!, status: 'PAID' }, 'other');
    expect(wrongChannel!.status).toBe('Pending');
    expect((await h.balances(merchant.id, 'NGN')).pending).toBe(0n);
  });
});

describe('expiry', () => {
  it('expires an unpaid payment after 30 minutes with one payment.expired event; money paid later is held, not credited', async () => {
    const { merchant, ref } = await pendingPayment('NGN', 'TRANSFER');
    while ((await h.payments.requestDueCollections()) > 0);
    h.clock.advance(31 * MINUTE_MS);
    await h.jobs.expiry.runDue();
    await settle();
    await h.jobs.expiry.runDue();
    expect((await row(ref)).status).toBe('Expired');
    expect((await h.events(ref)).map((e) => e.type)).toEqual(['payment.expired']);

    const record = await h.payments.sandboxComplete(merchant, ref, 'Success');
    await settle();
    expect(record.status).toBe('Expired');
    const late = await h.db.selectFrom('late_payments').selectAll().where('transaction_ref', '=', ref).execute();
    expect(late).toHaveLength(1);
    expect(late[0]).toMatchObject({ disposition: 'held', paid_amount_minor: 1_200_000n });
    expect(await ledgerEntries(merchant.id, 'unallocated_payment')).toBe(1);
    expect((await h.balances(merchant.id, 'NGN')).pending).toBe(0n);
    expect((await h.events(ref)).map((e) => e.type)).toEqual(['payment.expired']);
  });

  it('returns late money of a refundable method to the payer through the channel', async () => {
    const { merchant, ref } = await pendingPayment('IDR', 'DANA');
    while ((await h.payments.requestDueCollections()) > 0);
    h.clock.advance(31 * MINUTE_MS);
    while ((await h.jobs.expiry.runDue()) > 0);
    const refundsBefore = h.simulator.stats.refunds;
    await h.payments.sandboxComplete(merchant, ref, 'Success');
    const late = await h.db.selectFrom('late_payments').selectAll().where('transaction_ref', '=', ref).executeTakeFirstOrThrow();
    expect(late.disposition).toBe('refunded');
    expect(late.refund_upstream_ref).toBeTruthy();
    expect(h.simulator.stats.refunds).toBe(refundsBefore + 1);
    expect(await ledgerEntries(merchant.id, 'unallocated_payment')).toBe(0);
    expect((await row(ref)).status).toBe('Expired');
  });

  it('asks the channel before expiring: a payment paid in time whose callback was lost becomes Success', async () => {
    const { merchant, ref } = await pendingPayment('INR', 'NATIVE');
    while ((await h.payments.requestDueCollections()) > 0);
    h.simulator.faults.dropCallbacks = true;
    try {
      await h.channels.sandboxPayer().completeCollection(ref, 'Success');
      h.clock.advance(30 * MINUTE_MS + 1);
      while ((await h.jobs.expiry.runDue()) > 0);
    } finally {
      h.simulator.faults.dropCallbacks = false;
    }
    expect((await row(ref)).status).toBe('Success');
    expect((await h.events(ref)).map((e) => e.type)).toEqual(['payment.succeeded']);
    expect((await h.balances(merchant.id, 'INR')).pending).toBeGreaterThan(0n);
  });

  it('keeps a payment Pending past expiry while the channel cannot be asked, within the grace period', async () => {
    const { ref } = await pendingPayment('IDR', 'BNI');
    while ((await h.payments.requestDueCollections()) > 0);
    h.clock.advance(30 * MINUTE_MS + 1);
    h.simulator.faults.failNextRequests = 1;
    expect(await h.jobs.expiry.runDue()).toBeGreaterThan(0);
    expect((await row(ref)).status).toBe('Pending');
    h.clock.advance(60_000);
    await eventually(async () => (await h.jobs.expiry.runDue(), (await row(ref)).status === 'Expired'));
  });
});

describe('reconciliation', () => {
  it('finds a payment whose callback was lost by asking the channel', async () => {
    const { ref } = await pendingPayment('EGP', 'FAWRY');
    while ((await h.payments.requestDueCollections()) > 0);
    h.simulator.faults.dropCallbacks = true;
    try {
      await h.channels.sandboxPayer().completeCollection(ref, 'Success');
      await settle(100);
      expect((await row(ref)).status).toBe('Pending');
      expect(await h.jobs.reconciliation.runDue()).toBe(0);
      h.clock.advance(2 * MINUTE_MS);
      expect(await h.jobs.reconciliation.runDue()).toBeGreaterThan(0);
    } finally {
      h.simulator.faults.dropCallbacks = false;
    }
    expect((await row(ref)).status).toBe('Success');
  });

  it('writes a payment once when its channel still calls it pending: the claim already set its next time', async () => {
    const { ref } = await pendingPayment('IDR', 'OVO');
    while ((await h.payments.requestDueCollections()) > 0);
    h.clock.advance(2 * MINUTE_MS);
    const statementsBefore = h.store.statements();
    const reconciled = await h.jobs.reconciliation.runDue();
    const statements = h.store.statements() - statementsBefore;
    // The due payments' read, then one conditional update each (the claim); before, each answer that
    // changed nothing wrote the same payment again to set its next time.
    expect(reconciled).toBeGreaterThan(0);
    expect(statements).toBe(1 + reconciled);
    const after = await row(ref);
    expect(after.status).toBe('Pending');
    // Two minutes old: asked again two minutes from now.
    expect(Number(after.reconcile_at_ms)).toBe(h.clock.nowMs() + 2 * MINUTE_MS);
  });

  it('backs off while nothing happened and leaves the last word to expiry', async () => {
    const { ref } = await pendingPayment('IDR', 'OVO');
    while ((await h.payments.requestDueCollections()) > 0);
    h.clock.advance(2 * MINUTE_MS);
    expect(await h.jobs.reconciliation.runDue()).toBeGreaterThan(0);
    const next = Number((await row(ref)).reconcile_at_ms);
    expect(next).toBeGreaterThan(h.clock.nowMs());
    expect(next).toBeLessThanOrEqual(Number((await row(ref)).expires_at_ms));
    expect((await row(ref)).status).toBe('Pending');
  });
});
