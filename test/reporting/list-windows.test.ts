// A list page filtered on currency or method, which no index serves, is read on SQLite a window of
// LIST_SCAN_WINDOW_ROWS of the merchant's rows at a time with a turn of the event loop between windows
// (reporting/lists.ts). Whatever the filters, range, position and limit, the page must be exactly the
// rows one query over the merchant's history answers: compared here with the same rows filtered and
// ordered in plain code, over a history of several windows whose edges fall inside runs of equal times.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Currency } from '../../src/core/money.js';
import type { PaymentsTable } from '../../src/domain/payments/payment-rows.js';
import { LIST_SCAN_WINDOW_ROWS, recordPage } from '../../src/reporting/lists.js';
import { openTestStore } from '../helpers/store.js';
import { turnsDuring } from '../helpers/loop-turns.js';
import { insertMerchant, T0_MS } from '../ledger/helpers.js';
import { storedPayment } from '../payments/api-helpers.js';

const STORE = process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite';
const M = 'm-windows';
const OTHER = 'm-windows-other';
/** Enough rows for three windows and part of a fourth. */
const ROWS = 3 * LIST_SCAN_WINDOW_ROWS + 1_234;

let store: Awaited<ReturnType<typeof openTestStore>>;
let rows: PaymentsTable[] = [];

beforeAll(async () => {
  store = await openTestStore();
  await insertMerchant(store.db, M);
  await insertMerchant(store.db, OTHER);
  // Seven rows share each time, so window edges fall inside runs of equal times; refs are not in time
  // order. IDR and QRIS are rare, and none of them at all in the newest window.
  rows = Array.from({ length: ROWS }, (_, n) => {
    const rare = n % 997 === 3 && n < 2 * LIST_SCAN_WINDOW_ROWS;
    return storedPayment(n % 11 === 0 ? OTHER : M, `pay-${String((n * 7919) % 100_003).padStart(6, '0')}-${n}`, T0_MS + Math.floor(n / 7) * 1_000, {
      currency: rare ? 'IDR' : n % 3 === 0 ? 'EGP' : 'INR',
      method: rare ? 'QRIS' : n % 5 === 0 ? 'UPI' : 'NATIVE',
      status: n % 4 === 0 ? 'Success' : 'Pending',
    });
  });
  for (let i = 0; i < rows.length; i += 500) await store.db.insertInto('payments').values(rows.slice(i, i + 500)).execute();
}, 120_000);

afterAll(async () => {
  await store.close();
  await store.location.drop();
});

interface Query {
  readonly currency?: Currency;
  readonly method?: string;
  readonly status?: string;
  readonly fromMs: number | null;
  readonly toMs: number | null;
  /** Index of the row the page starts after (in the merchant's newest-first order), or null. */
  readonly afterIndex: number | null;
  readonly limit: number;
}

const newestFirst = (a: PaymentsTable, b: PaymentsTable): number =>
  a.created_at_ms !== b.created_at_ms ? (a.created_at_ms > b.created_at_ms ? -1 : 1) : a.transaction_ref > b.transaction_ref ? -1 : a.transaction_ref < b.transaction_ref ? 1 : 0;

function expected(q: Query): string[] {
  const mine = rows.filter((r) => r.merchant_id === M).sort(newestFirst);
  const after = q.afterIndex === null ? null : mine[Math.min(q.afterIndex, mine.length - 1)]!;
  return mine
    .filter((r) => (q.currency === undefined || r.currency === q.currency) && (q.method === undefined || r.method === q.method) && (q.status === undefined || r.status === q.status))
    .filter((r) => (q.fromMs === null || r.created_at_ms >= BigInt(q.fromMs)) && (q.toMs === null || r.created_at_ms < BigInt(q.toMs)))
    .filter((r) => after === null || newestFirst(after, r) < 0)
    .slice(0, q.limit)
    .map((r) => r.transaction_ref);
}

async function actual(q: Query): Promise<string[]> {
  const mine = rows.filter((r) => r.merchant_id === M).sort(newestFirst);
  const afterRow = q.afterIndex === null ? null : mine[Math.min(q.afterIndex, mine.length - 1)]!;
  const after = afterRow === null ? null : { createdAtMs: afterRow.created_at_ms, id: afterRow.transaction_ref };
  const filters = { currency: q.currency, method: q.method, status: q.status };
  const page = await recordPage(store.db, 'payments', M, filters, { fromMs: q.fromMs, toMs: q.toMs }, after, q.limit);
  return page.map((r) => r.transaction_ref);
}

const SPAN_MS = Math.ceil(ROWS / 7) * 1_000;
const timeArb = fc.option(fc.integer({ min: 0, max: SPAN_MS }).map((ms) => T0_MS + ms), { nil: null });

describe(`list pages filtered on what no index serves (${STORE})`, () => {
  it('answer exactly the rows one query over the history answers, from any position', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          currency: fc.constantFrom<Currency | undefined>(undefined, 'IDR', 'EGP', 'INR', 'NGN'),
          method: fc.constantFrom<string | undefined>(undefined, 'QRIS', 'UPI', 'NATIVE', 'BANK'),
          status: fc.constantFrom<string | undefined>(undefined, undefined, 'Success'),
          fromMs: timeArb,
          toMs: timeArb,
          afterIndex: fc.option(fc.integer({ min: 0, max: ROWS }), { nil: null }),
          limit: fc.integer({ min: 1, max: 101 }),
        }),
        async (q) => {
          expect(await actual(q)).toEqual(expected(q));
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('finds the rare rows beyond the first windows, and an empty page when there are none', async () => {
    const rare = expected({ currency: 'IDR', fromMs: null, toMs: null, afterIndex: null, limit: 100 });
    expect(rare.length).toBeGreaterThan(3);
    expect(await actual({ currency: 'IDR', fromMs: null, toMs: null, afterIndex: null, limit: 100 })).toEqual(rare);
    expect(await actual({ currency: 'NGN', fromMs: null, toMs: null, afterIndex: null, limit: 50 })).toEqual([]);
    expect(await actual({ method: 'QRIS', currency: 'IDR', fromMs: null, toMs: null, afterIndex: null, limit: 2 })).toEqual(rare.slice(0, 2));
  });

  it('keeps the row on a window edge, wherever the page starts', async () => {
    // A window's edge is the row LIST_SCAN_WINDOW_ROWS - 1 rows below the position: starting a page that
    // far (or twice that far) above a rare row puts the edge exactly on it.
    const mine = rows.filter((r) => r.merchant_id === M).sort(newestFirst);
    const rareAt = mine.flatMap((r, i) => (r.currency === 'IDR' ? [i] : []));
    const starts = rareAt.flatMap((r) => [r - LIST_SCAN_WINDOW_ROWS, r - 2 * LIST_SCAN_WINDOW_ROWS]).filter((a) => a >= 0);
    expect(starts.length).toBeGreaterThan(3);
    for (const afterIndex of [...starts, LIST_SCAN_WINDOW_ROWS - 1]) {
      for (const limit of [1, 100]) {
        const q = { currency: 'IDR' as const, fromMs: null, toMs: null, afterIndex, limit };
        expect(await actual(q)).toEqual(expected(q));
      }
    }
  });

  // On PostgreSQL a page is one query whose reads wait on the server; on SQLite the windows give the
  // event loop its turns, which only a driver that answers at once can show.
  it.skipIf(STORE === 'PostgreSQL')('gives the event loop a turn between windows while it looks for rare rows', async () => {
    const { result: page, turns } = await turnsDuring(() => actual({ currency: 'NGN', fromMs: null, toMs: null, afterIndex: null, limit: 50 }));
    expect(page).toEqual([]);
    // The merchant's rows make four windows: a turn before each after the first.
    expect(turns).toBeGreaterThanOrEqual(3);
  });
});
