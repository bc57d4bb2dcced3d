// payment/list and payout/list through HTTP with signed requests: every filter against a brute-force
// filter of the same records, limit bounds, and the cursor's edges (empty page, exact boundary,
// inserts between pages, forged, another merchant's, other filters, expired).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentRecord, PayoutRecord } from '../../sdk/src/index.js';
import { initiateBody } from '../payments/api-helpers.js';
import { fund, payoutBody, until } from '../payouts/helpers.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { allPages, bruteFilter, newestFirst } from './helpers.js';
import { listRecordCounts } from '../helpers/metrics.js';

let server: TestServer;
let merchant: TestMerchant;
let other: TestMerchant;
const payments: PaymentRecord[] = [];
const payouts: PayoutRecord[] = [];

async function createPayment(who: TestMerchant, currency: 'INR' | 'IDR' | 'EGP', method: 'NATIVE' | 'QRIS' | 'WALLET', outcome?: 'Success' | 'Failed') {
  const created = await who.client.paymentInitiate(initiateBody(currency, method));
  expect(created.status).toBe(200);
  if (outcome) expect((await who.client.sandboxCompletePayment({ transactionRef: created.data.transactionRef, outcome })).status).toBe(200);
  return (await who.client.paymentStatus({ transactionRef: created.data.transactionRef })).data;
}

beforeAll(async () => {
  server = await startTestServer();
  merchant = await server.createMerchant();
  other = await server.createMerchant();
  const plan = [
    ['INR', 'NATIVE', 'Success'],
    ['INR', 'NATIVE', 'Failed'],
    ['INR', 'NATIVE', undefined],
    ['IDR', 'QRIS', 'Success'],
    ['IDR', 'QRIS', undefined],
    ['EGP', 'WALLET', 'Failed'],
    ['INR', 'NATIVE', 'Success'],
  ] as const;
  for (const [currency, method, outcome] of plan) {
    payments.push(await createPayment(merchant, currency, method, outcome));
    // Distinct creation times, so time ranges can cut between any two records.
    server.clock.advance(1000);
  }
  // Two in the same millisecond range of one second are fine too: ties are ordered by transactionRef.
  payments.push(await createPayment(merchant, 'INR', 'NATIVE'));
  for (let i = 0; i < 2; i += 1) await createPayment(other, 'INR', 'NATIVE', 'Success');

  for (const currency of ['INR', 'NGN', 'IDR'] as const) await fund(server, merchant.id, currency, 100_000_000n);
  for (const [currency, method] of [['INR', 'BANK'], ['INR', 'UPI'], ['NGN', 'TRANSFER'], ['IDR', 'TRANSFER']] as const) {
    const created = await merchant.client.payoutInitiate(payoutBody(currency, method));
    expect(created.status).toBe(200);
    payouts.push(await until(merchant, created.data.transactionRef, ['Success', 'Failed']));
    server.clock.advance(1000);
  }
}, 60_000);
afterAll(async () => server.close());

describe('payment/list', () => {
  it('lists every payment of the merchant, newest first, as payment/status shows it', async () => {
    const listed = await allPages<PaymentRecord>(merchant.client, 'payment/list', {}, 3);
    expect(listed.map((p) => p.transactionRef)).toEqual(newestFirst(payments).map((p) => p.transactionRef));
    for (const record of listed) {
      const status = await merchant.client.paymentStatus({ transactionRef: record.transactionRef });
      expect(record).toEqual(status.data);
    }
  });

  it('filters by status, currency, method, an exact merchantRef or transactionRef', async () => {
    const all = await allPages<PaymentRecord>(merchant.client, 'payment/list', {});
    const cases: Record<string, string>[] = [
      { status: 'Success' },
      { status: 'Pending' },
      { status: 'Refund' },
      { currency: 'IDR' },
      { method: 'WALLET' },
      { currency: 'INR', status: 'Success' },
      { merchantRef: payments[2]!.merchantRef },
      { transactionRef: payments[4]!.transactionRef },
    ];
    for (const filters of cases) {
      const listed = await allPages<PaymentRecord>(merchant.client, 'payment/list', filters, 2);
      expect(listed, JSON.stringify(filters)).toEqual(bruteFilter(all, filters));
    }
  });

  it('filters by a created-at range: from inclusive, to exclusive', async () => {
    const ordered = newestFirst(payments).reverse();
    const from = ordered[1]!.createdAt;
    const to = ordered[5]!.createdAt;
    const listed = await allPages<PaymentRecord>(merchant.client, 'payment/list', { from, to });
    expect(listed.map((p) => p.transactionRef)).toEqual(bruteFilter(newestFirst(payments), { from, to }).map((p) => p.transactionRef));
    expect(listed.some((p) => p.createdAt === from)).toBe(true);
    expect(listed.some((p) => p.createdAt === to)).toBe(false);
    const day = await allPages<PaymentRecord>(merchant.client, 'payment/list', { from: '2000-01-01', to: '2000-01-02' });
    expect(day).toEqual([]);
  });

  it('agrees with a brute-force filter for random filter combinations', async () => {
    const all = await allPages<PaymentRecord>(merchant.client, 'payment/list', {});
    const times = [...new Set(all.map((p) => p.createdAt))].sort();
    const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          status: optional(fc.constantFrom('Pending', 'Success', 'Failed', 'Expired', 'Refund')),
          currency: optional(fc.constantFrom('INR', 'IDR', 'EGP', 'NGN')),
          method: optional(fc.constantFrom('NATIVE', 'QRIS', 'WALLET', 'TRANSFER')),
          from: optional(fc.constantFrom(...times.slice(0, -1))),
          merchantRef: optional(fc.constantFrom(...all.map((p) => p.merchantRef), 'unknown-ref')),
          limit: fc.integer({ min: 1, max: 4 }),
        }),
        async ({ limit, ...filters }) => {
          const given = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) as Record<string, string>;
          const listed = await allPages<PaymentRecord>(merchant.client, 'payment/list', given, limit);
          expect(listed).toEqual(bruteFilter(all, given));
        },
      ),
      { numRuns: 25 },
    );
  });

  it("matches nothing for another merchant's references", async () => {
    const theirs = (await allPages<PaymentRecord>(other.client, 'payment/list', {}))[0]!;
    for (const filters of [{ transactionRef: theirs.transactionRef }, { merchantRef: theirs.merchantRef }]) {
      const answer = await merchant.client.request<any>('payment/list', filters);
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ items: [], nextCursor: null });
    }
    const mine = await allPages<PaymentRecord>(other.client, 'payment/list', {});
    expect(mine.every((p) => !payments.some((q) => q.transactionRef === p.transactionRef))).toBe(true);
    expect(mine).toHaveLength(2);
  });
});

describe('payout/list', () => {
  it('lists and filters payouts as payout/status shows them; TRANSFER matches NGN bank payouts', async () => {
    const all = await allPages<PayoutRecord>(merchant.client, 'payout/list', {}, 3);
    expect(all.map((p) => p.transactionRef)).toEqual(newestFirst(payouts).map((p) => p.transactionRef));
    for (const record of all) expect(record).toEqual((await merchant.client.payoutStatus({ transactionRef: record.transactionRef })).data);
    for (const filters of [{ currency: 'INR' }, { method: 'UPI' }, { method: 'TRANSFER' }, { status: 'Success' }, { status: 'Initiated' }, { merchantRef: payouts[1]!.merchantRef }]) {
      const listed = await allPages<PayoutRecord>(merchant.client, 'payout/list', filters, 1);
      expect(listed, JSON.stringify(filters)).toEqual(bruteFilter(all, filters));
    }
    expect((await allPages<PayoutRecord>(merchant.client, 'payout/list', { method: 'TRANSFER' })).map((p) => p.currency).sort()).toEqual(['IDR', 'NGN']);
    expect(await allPages<PayoutRecord>(other.client, 'payout/list', {})).toEqual([]);
  });
});

describe('pages and cursors', () => {
  it('bounds the limit to 1..100', async () => {
    for (const limit of [0, 101, -1, 2.5]) {
      const answer = await merchant.client.request<any>('payment/list', { limit });
      expect(answer.status, String(limit)).toBe(400);
      expect(answer.message).toBe('VALIDATION_FAILED');
    }
    for (const limit of [1, 100]) expect((await merchant.client.request<any>('payment/list', { limit })).status).toBe(200);
  });

  it('ends with nextCursor null on an exact page boundary and on an empty list', async () => {
    const n = payments.length;
    const exact = await merchant.client.paymentList({ limit: n });
    expect(exact.data.items).toHaveLength(n);
    expect(exact.data.nextCursor).toBeNull();
    const short = await merchant.client.paymentList({ limit: n - 1 });
    expect(short.data.nextCursor).toEqual(expect.any(String));
    const last = await merchant.client.paymentList({ limit: n - 1, cursor: short.data.nextCursor! });
    expect(last.data.items).toHaveLength(1);
    expect(last.data.nextCursor).toBeNull();
    const none = await merchant.client.paymentList({ status: 'Refund' });
    expect(none.data).toEqual({ items: [], nextCursor: null });
  });

  it('neither repeats nor skips a record when payments are created between pages', async () => {
    const before = await allPages<PaymentRecord>(merchant.client, 'payment/list', {});
    const first = await merchant.client.request<any>('payment/list', { limit: 3 });
    const added = [await createPayment(merchant, 'INR', 'NATIVE'), await createPayment(merchant, 'INR', 'NATIVE')];
    payments.push(...added);
    const seen: PaymentRecord[] = [...first.data.items];
    let cursor: string | null = first.data.nextCursor;
    while (cursor !== null) {
      const page = await merchant.client.request<any>('payment/list', { limit: 2, cursor });
      expect(page.status).toBe(200);
      seen.push(...page.data.items);
      cursor = page.data.nextCursor;
    }
    expect(seen.map((p) => p.transactionRef)).toEqual(before.map((p) => p.transactionRef));
  });

  it('refuses a forged cursor, a cursor of another merchant, and a cursor with other filters', async () => {
    const first = await merchant.client.request<any>('payment/list', { limit: 2, currency: 'INR' });
    const cursor: string = first.data.nextCursor;
    const [payload, mac] = cursor.split('.');
    const flipped = (text: string) => text.slice(0, -1) + (text.endsWith('A') ? 'B' : 'A');
    const forged = [flipped(cursor), `${flipped(payload!)}.${mac}`, payload!, 'not-a-cursor', `${Buffer.from('["1","2"]').toString('base64url')}.${mac}`];
    for (const bad of forged) {
      const answer = await merchant.client.request<any>('payment/list', { limit: 2, currency: 'INR', cursor: bad });
      expect(answer.status, bad).toBe(400);
      expect(answer.message).toBe('VALIDATION_FAILED');
      expect(answer.data.errors[0].field).toBe('cursor');
    }
    const theirs = await other.client.request<any>('payment/list', { limit: 2, currency: 'INR', cursor });
    expect(theirs.status).toBe(400);
    const otherFilters = await merchant.client.request<any>('payment/list', { limit: 2, currency: 'IDR', cursor });
    expect(otherFilters.status).toBe(400);
    const otherList = await merchant.client.request<any>('payout/list', { limit: 2, currency: 'INR', cursor });
    expect(otherList.status).toBe(400);
    // Only the limit may change between pages.
    expect((await merchant.client.request<any>('payment/list', { limit: 5, currency: 'INR', cursor })).status).toBe(200);
  });

  it('refuses unknown fields, inverted or unreadable ranges', async () => {
    const bodies = [
      { sort: 'asc' },
      { from: '2026-02-01', to: '2026-01-01' },
      { from: '2026-01-01', to: '2026-01-01' },
      { from: 'yesterday' },
      { from: '2026-13-45' },
      { status: 'Paid' },
    ];
    for (const body of bodies) {
      for (const path of ['payment/list', 'payout/list']) {
        const answer = await merchant.client.request<any>(path, body);
        expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(answer.code).toBe('400');
        expect(answer.data.detail).toEqual(expect.any(String));
      }
    }
  });

  it('refuses a cursor older than a day', async () => {
    const first = await merchant.client.request<any>('payment/list', { limit: 1 });
    server.clock.advance(25 * 60 * 60 * 1000);
    const answer = await merchant.client.request<any>('payment/list', { limit: 1, cursor: first.data.nextCursor });
    expect(answer.status).toBe(400);
    expect(answer.data.errors[0].field).toBe('cursor');
  });
});

// On PostgreSQL the items come from records rendered once per row content (src/reporting/rendered-records.ts):
// a page served again after a change, or after the refund deadline, must show what payment/status shows.
describe('a page read again', () => {
  const listedNow = async (who: TestMerchant, transactionRef: string) => {
    const page = await who.client.request<any>('payment/list', { limit: 100 });
    expect(page.status).toBe(200);
    return (page.data.items as PaymentRecord[]).find((item) => item.transactionRef === transactionRef);
  };

  it('shows a payment refundable until its deadline and not after it', async () => {
    const payment = await createPayment(merchant, 'INR', 'NATIVE', 'Success');
    expect(payment.refundable).toBe(true);
    expect(await listedNow(merchant, payment.transactionRef)).toEqual(payment);
    expect(await listedNow(merchant, payment.transactionRef)).toEqual(payment);
    server.clock.advance(Date.parse(payment.refundableUntil!) - server.clock.nowMs() + 1);
    const later = (await merchant.client.paymentStatus({ transactionRef: payment.transactionRef })).data;
    expect(later.refundable).toBe(false);
    expect(await listedNow(merchant, payment.transactionRef)).toEqual(later);
  });

  it('shows a change made after the page was first read', async () => {
    const payment = await createPayment(merchant, 'INR', 'NATIVE', 'Success');
    expect(await listedNow(merchant, payment.transactionRef)).toEqual(payment);
    const refund = await merchant.client.paymentRefund({ transactionRef: payment.transactionRef });
    expect(refund.status).toBe(200);
    const after = (await merchant.client.paymentStatus({ transactionRef: payment.transactionRef })).data;
    expect(after).not.toEqual(payment);
    expect(await listedNow(merchant, payment.transactionRef)).toEqual(after);
  });

  it('shows a change that left updated_at as it was', async () => {
    const payment = await createPayment(merchant, 'INR', 'NATIVE');
    expect(await listedNow(merchant, payment.transactionRef)).toEqual(payment);
    // A writer that forgot updated_at: the version of the row (on PostgreSQL its xmin) still changes.
    await server.services.store.db.updateTable('payments').set({ payer_name: 'Renamed Payer' }).where('transaction_ref', '=', payment.transactionRef).execute();
    const listed = await listedNow(merchant, payment.transactionRef);
    expect(listed?.name).toBe('Renamed Payer');
    expect(listed?.updatedAt).toBe(payment.updatedAt);
    expect(listed).toEqual((await merchant.client.paymentStatus({ transactionRef: payment.transactionRef })).data);
  });

  it('counts on /metrics the items served from the rendered records and those rendered anew', async () => {
    const counted = () => listRecordCounts(server.baseUrl);
    const before = await counted();
    const page = await merchant.client.request<any>('payment/list', { limit: 5 });
    expect(page.data.items).toHaveLength(5);
    await merchant.client.request<any>('payment/list', { limit: 5 });
    const after = await counted();
    if (process.env.TEST_STORE === 'postgres') {
      // The first read renders what is not kept yet; the second serves all five from the records.
      expect(after.hit - before.hit).toBeGreaterThanOrEqual(5);
      expect(after.hit + after.miss - before.hit - before.miss).toBe(10);
      expect(after.kept).toBeGreaterThan(0);
    } else {
      // SQLite's rows have no version to key them by: every item is rendered as read, none kept.
      expect(after).toEqual({ hit: 0, miss: 0, kept: 0 });
    }
  });
});
