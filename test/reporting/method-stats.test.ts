// The merchant home page's per-method figures (reporting/method-stats.ts): read in slices on SQLite,
// with turns for the event loop between them, and summed. Whatever the payments and wherever the
// period, the slices must answer exactly what one query over the period and one over its recent part
// answer.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENCIES } from '../../src/core/money.js';
import { methodStats, periodMethodStats, sliceEdges } from '../../src/reporting/method-stats.js';
import type { PaymentsTable } from '../../src/domain/payments/payment-rows.js';
import { openTestStore } from '../helpers/store.js';
import { turnsDuring } from '../helpers/loop-turns.js';
import { insertMerchant, T0_MS } from '../ledger/helpers.js';
import { storedPayment } from '../payments/api-helpers.js';

const STORE = process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite';
const M = 'm-stats';
const OTHER = 'm-stats-other';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let store: Awaited<ReturnType<typeof openTestStore>>;
let refs = 0;

beforeAll(async () => {
  store = await openTestStore();
  await insertMerchant(store.db, M);
  await insertMerchant(store.db, OTHER);
});

afterAll(async () => {
  await store.close();
  await store.location.drop();
});

const STATUSES = ['Pending', 'Success', 'Failed', 'Expired', 'Refund'] as const;

const paymentArb = fc.record({
  merchant: fc.constantFrom(M, M, M, OTHER),
  // Whole minutes, as the period's edges are, so payments often fall on a slice's edge.
  offsetMs: fc.integer({ min: -24 * 60, max: 4 * 24 * 60 }).map((minutes) => minutes * 60_000),
  currency: fc.constantFrom(...CURRENCIES),
  method: fc.constantFrom('NATIVE', 'UPI', 'QRIS', 'BANK'),
  status: fc.constantFrom(...STATUSES),
  paidMinor: fc.bigInt({ min: 1n, max: 10n ** 12n }),
});

type PaymentSpec = typeof paymentArb extends fc.Arbitrary<infer T> ? T : never;

const rowOf = (p: PaymentSpec): PaymentsTable =>
  storedPayment(p.merchant, `ms-${++refs}`, T0_MS + p.offsetMs, {
    currency: p.currency,
    method: p.method,
    status: p.status,
    paid_amount_minor: p.status === 'Success' || p.status === 'Refund' ? p.paidMinor : null,
  });

describe(`the home page's per-method figures (${STORE})`, () => {
  it('answer, from slices, what one query over the period and one over its recent part answer', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(paymentArb, { maxLength: 60 }),
        fc.integer({ min: 0, max: 2 * 24 * 60 }).map((minutes) => minutes * 60_000),
        fc.integer({ min: 0, max: 2 * 24 * 60 }).map((minutes) => minutes * 60_000),
        fc.integer({ min: -HOUR, max: 2 * DAY }),
        fc.constantFrom(HOUR, 7 * 60_000, DAY, 5 * DAY),
        async (payments, fromOffset, recentAfter, nowAfter, sliceMs) => {
          await store.db.deleteFrom('payments').execute();
          if (payments.length > 0) await store.db.insertInto('payments').values(payments.map(rowOf)).execute();
          const fromMs = T0_MS + fromOffset;
          const recentFromMs = fromMs + recentAfter;
          const nowMs = recentFromMs + nowAfter;
          const answer = await periodMethodStats(store.db, M, { fromMs, recentFromMs, nowMs }, { sliceMs, yieldAfterMs: 0 });
          expect(answer.period).toEqual(await methodStats(store.db, M, fromMs));
          expect(answer.recent).toEqual(await methodStats(store.db, M, recentFromMs));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('cuts the period into slices whose edges include the recent part and end at the clock', () => {
    expect(sliceEdges(0, 3 * HOUR, 4 * HOUR + 5, HOUR)).toEqual([0, HOUR, 2 * HOUR, 3 * HOUR, 4 * HOUR]);
    // The recent part starts between two slice edges of the period: the last older slice ends there.
    expect(sliceEdges(0, 90 * 60_000, 90 * 60_000, HOUR)).toEqual([0, HOUR, 90 * 60_000]);
    expect(sliceEdges(HOUR, HOUR, 0, HOUR)).toEqual([HOUR]);
  });

  // On PostgreSQL every read is network I/O, so other tasks run between the reads anyway: only SQLite,
  // whose driver answers at once, tells whether the slices give the loop its turns.
  it.skipIf(STORE === 'PostgreSQL')('gives the event loop a turn between its slices on SQLite', async () => {
    await store.db.deleteFrom('payments').execute();
    const rows = Array.from({ length: 48 }, (_, i) => storedPayment(M, `turn-${i}`, T0_MS + i * HOUR + 60_000, { status: 'Success', paid_amount_minor: 100n }));
    await store.db.insertInto('payments').values(rows).execute();
    const { result: answer, turns } = await turnsDuring(() =>
      periodMethodStats(store.db, M, { fromMs: T0_MS, recentFromMs: T0_MS + DAY, nowMs: T0_MS + 2 * DAY - 1 }, { yieldAfterMs: 0 }),
    );
    // 48 hourly slices, a turn before each.
    expect(turns).toBeGreaterThanOrEqual(47);
    expect(answer.period).toMatchObject([{ currency: 'INR', method: 'NATIVE', total: 48, succeeded: 48, volumeMinor: 4_800n }]);
    expect(answer.recent).toMatchObject([{ total: 24, succeeded: 24, volumeMinor: 2_400n }]);
  });
});
