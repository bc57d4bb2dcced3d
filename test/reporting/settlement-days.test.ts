// account/settlements keeps the sums of each closed UTC day (settlement_days, migration 0026) and reads
// them instead of every posting of the day again. Whatever was kept before, and wherever a range starts
// and ends, the answer must be the one summed from the journal alone.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MS_PER_DAY } from '../../src/reporting/time-range.js';
import { SETTLEMENT_DAY_CLOSE_MS, SettlementDaysJob, settlementDays } from '../../src/reporting/settlements.js';
import { fund, insertMerchant, openLedger, T0_MS, type LedgerFixture } from '../ledger/helpers.js';
import { turnsDuring } from '../helpers/loop-turns.js';

const STORE = process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite';
const M = 'm-days';
const QUIET = 'm-quiet';
const HOUR = 60 * 60 * 1000;
/** The journal's days: T0 (a midnight) and the eight after it. */
const DAYS = 9;

let f: LedgerFixture;

/** The same range summed from the journal alone: with `nowMs` 0 no day has closed. */
const fromJournal = (merchantId: string, fromMs: number, toMs: number) => settlementDays(f.db, merchantId, 'INR', { fromMs, toMs }, 0);
const keptDays = async (merchantId: string) =>
  (await f.db.selectFrom('settlement_days').select('day').where('merchant_id', '=', merchantId).orderBy('day').execute()).map((r) => Number(r.day) - T0_MS / MS_PER_DAY);

beforeAll(async () => {
  f = await openLedger([M, QUIET], { settlementDelayMs: { INR: 20 * HOUR } });
  const tx = <T>(run: (trx: any) => Promise<T>) => f.db.transaction().execute(run);
  await fund(f.ledger, M, 'INR', 1_000_00n);
  // Payments, refunds, settlements and payouts every five hours, day 4 left without any movement.
  for (let step = 0; step * 5 * HOUR < DAYS * MS_PER_DAY - 5 * HOUR; step++) {
    const at = T0_MS + step * 5 * HOUR + 17 * 60_000;
    if (Math.floor((at - T0_MS) / MS_PER_DAY) === 4) continue;
    f.clock.set(at);
    await tx((trx) => f.ledger.creditPayment(trx, { merchantId: M, currency: 'INR', paidMinor: BigInt(100_00 + step), feeMinor: 2_00n, channel: 'sim', ref: `pay-${step}` }));
    if (step % 3 === 1) await tx((trx) => f.ledger.debitRefund(trx, { merchantId: M, currency: 'INR', paidMinor: 30_00n, channel: 'sim', ref: `rfd-${step}`, paymentRef: `pay-${step}` }));
    if (step % 4 === 2) {
      await tx((trx) => f.ledger.reserveForPayout(trx, { merchantId: M, currency: 'INR', amountMinor: 20_00n, feeMinor: 1_00n, ref: `po-${step}` }));
      await tx((trx) => f.ledger.completeReservation(trx, `po-${step}`));
    }
    await f.ledger.settlePending();
  }
});

afterAll(async () => {
  await f.close();
});

describe(`account/settlements from the kept days (${STORE})`, () => {
  it('keeps only whole days that closed an hour ago, a day without movement too, and answers as the journal does', async () => {
    const fromMs = T0_MS;
    const toMs = T0_MS + DAYS * MS_PER_DAY;
    expect(SETTLEMENT_DAY_CLOSE_MS).toBe(HOUR);
    // Day 6 ended 59 minutes ago: not closed yet. Days 0 to 5 are, day 4 with nothing moved.
    const nowMs = T0_MS + 7 * MS_PER_DAY + 59 * 60_000;
    const expected = await fromJournal(M, fromMs, toMs);
    expect(expected.map((d) => d.day)).toContain('2025-01-04');
    expect(expected.map((d) => d.day)).not.toContain('2025-01-05');
    expect(await settlementDays(f.db, M, 'INR', { fromMs, toMs }, nowMs)).toEqual(expected);
    expect(await keptDays(M)).toEqual([0, 1, 2, 3, 4, 5]);
    // Read again from what was kept.
    expect(await settlementDays(f.db, M, 'INR', { fromMs, toMs }, nowMs)).toEqual(expected);

    // Within the hour, an entry stamped a minute before midnight (a transaction begun then, or a
    // process whose clock lags) still lands in day 6, which was not kept; two minutes later it closes.
    f.clock.set(T0_MS + 7 * MS_PER_DAY - 60_000);
    await f.db.transaction().execute((trx) => f.ledger.creditPayment(trx, { merchantId: M, currency: 'INR', paidMinor: 77_00n, feeMinor: 0n, channel: 'sim', ref: 'pay-late' }));
    const withLate = await fromJournal(M, fromMs, toMs);
    expect(withLate.find((d) => d.day === '2025-01-07')!.collectedMinor).toBe(expected.find((d) => d.day === '2025-01-07')!.collectedMinor + 77_00n);
    expect(await settlementDays(f.db, M, 'INR', { fromMs, toMs }, nowMs + 2 * 60_000)).toEqual(withLate);
    expect(await keptDays(M)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(await settlementDays(f.db, M, 'INR', { fromMs, toMs }, nowMs + 2 * 60_000)).toEqual(withLate);

    // A merchant that never moved money keeps no day; nor does any merchant before its first entry.
    expect(await settlementDays(f.db, QUIET, 'INR', { fromMs, toMs }, nowMs)).toEqual([]);
    expect(await keptDays(QUIET)).toEqual([]);
    const years = { fromMs: Date.UTC(2001, 0, 1), toMs };
    expect(await settlementDays(f.db, M, 'INR', years, nowMs)).toEqual(withLate);
    expect(await keptDays(M)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('sums the missing days on both sides of kept ones without counting the kept twice', async () => {
    await f.db.deleteFrom('settlement_days').execute();
    const nowMs = T0_MS + 30 * MS_PER_DAY;
    const middle = { fromMs: T0_MS + 2 * MS_PER_DAY, toMs: T0_MS + 5 * MS_PER_DAY };
    expect(await settlementDays(f.db, M, 'INR', middle, nowMs)).toEqual(await fromJournal(M, middle.fromMs, middle.toMs));
    expect(await keptDays(M)).toEqual([2, 3, 4]);
    const all = { fromMs: T0_MS - MS_PER_DAY, toMs: T0_MS + DAYS * MS_PER_DAY };
    expect(await settlementDays(f.db, M, 'INR', all, nowMs)).toEqual(await fromJournal(M, all.fromMs, all.toMs));
    expect(await keptDays(M)).toEqual(Array.from({ length: DAYS }, (_, i) => i));
  });

  it('answers any range at any time as the journal alone does, whatever was kept before (property)', async () => {
    const instant = fc.integer({ min: -MS_PER_DAY, max: (DAYS + 1) * MS_PER_DAY }).map((offset) => T0_MS + offset);
    await fc.assert(
      fc.asyncProperty(instant, instant, fc.integer({ min: 0, max: (DAYS + 2) * MS_PER_DAY }), async (a, b, nowOffset) => {
        const [fromMs, toMs] = a <= b ? [a, b + 1] : [b, a + 1];
        const answer = await settlementDays(f.db, M, 'INR', { fromMs, toMs }, T0_MS + nowOffset);
        expect(answer).toEqual(await fromJournal(M, fromMs, toMs));
      }),
      { numRuns: 60 },
    );
  });

  it('has the background job keep the last week of closed days of the merchants that moved money, once a day', async () => {
    await f.db.deleteFrom('settlement_days').execute();
    // A third merchant, sorted last, with one payment on day 8.
    await insertMerchant(f.db, 'm-zz');
    f.clock.set(T0_MS + 8 * MS_PER_DAY + 3 * HOUR);
    await f.db.transaction().execute((trx) => f.ledger.creditPayment(trx, { merchantId: 'm-zz', currency: 'INR', paidMinor: 5_00n, feeMinor: 0n, channel: 'sim', ref: 'pay-zz' }));

    let nowMs = T0_MS + 10 * MS_PER_DAY + 2 * HOUR;
    // Two merchants a read: the pass pages through all three.
    const job = new SettlementDaysJob(f.db, { nowMs: () => nowMs }, ['INR', 'EGP'], 2);
    expect(await job.runOnce()).toBe(2);
    expect(await job.runOnce()).toBe(0);
    // Days 3 to 9 closed within the week; day 9 moved nothing but follows the first entry.
    expect(await keptDays(M)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(await keptDays('m-zz')).toEqual([8, 9]);
    expect(await keptDays(QUIET)).toEqual([]);
    expect(await f.db.selectFrom('settlement_days').select('day').where('currency', '=', 'EGP').execute()).toEqual([]);
    const all = { fromMs: T0_MS, toMs: T0_MS + 10 * MS_PER_DAY };
    expect(await settlementDays(f.db, M, 'INR', all, nowMs)).toEqual(await fromJournal(M, all.fromMs, all.toMs));

    // Nothing more until the next day has closed an hour, nor after the clock was set back.
    nowMs = T0_MS + 11 * MS_PER_DAY + HOUR - 1;
    expect(await job.runOnce()).toBe(0);
    nowMs = T0_MS + 9 * MS_PER_DAY;
    expect(await job.runOnce()).toBe(0);
    nowMs = T0_MS + 11 * MS_PER_DAY + HOUR;
    expect(await job.runOnce()).toBe(2);
    expect(await job.runOnce()).toBe(0);
    expect((await keptDays(M)).at(-1)).toBe(10);
    expect(await keptDays('m-zz')).toEqual([8, 9, 10]);
    // A week on, nobody moved money in the week: nothing kept, nothing counted.
    nowMs = T0_MS + 20 * MS_PER_DAY + HOUR;
    expect(await job.runOnce()).toBe(0);
    expect((await keptDays(M)).at(-1)).toBe(10);
  });

  it('lets two calls that find the same days missing both keep them, with the same answer', async () => {
    const fromMs = T0_MS;
    const toMs = T0_MS + DAYS * MS_PER_DAY;
    await f.db.deleteFrom('settlement_days').execute();
    const nowMs = T0_MS + 30 * MS_PER_DAY;
    const [first, second] = await Promise.all([
      settlementDays(f.db, M, 'INR', { fromMs, toMs }, nowMs),
      settlementDays(f.db, M, 'INR', { fromMs, toMs }, nowMs),
    ]);
    expect(first).toEqual(await fromJournal(M, fromMs, toMs));
    expect(second).toEqual(first);
    expect(await keptDays(M)).toEqual(Array.from({ length: DAYS }, (_, i) => i));
  });

  // On PostgreSQL every read is network I/O, so other tasks run between the reads anyway: only SQLite,
  // whose driver answers at once, tells whether the call gives the loop its turns.
  it.skipIf(STORE === 'PostgreSQL')('gives the event loop a turn between the days it sums, and keeps each of them', async () => {
    await f.db.deleteFrom('settlement_days').execute();
    const range = { fromMs: T0_MS, toMs: T0_MS + DAYS * MS_PER_DAY };
    const nowMs = T0_MS + 30 * MS_PER_DAY;
    // Another task's turns, counted while the call runs: better-sqlite3 answers at once, so without
    // the call's own turns this would not move until it had finished.
    const { result: answer, turns } = await turnsDuring(() => settlementDays(f.db, M, 'INR', range, nowMs, 0));
    expect(turns).toBeGreaterThanOrEqual(DAYS);
    expect(answer).toEqual(await fromJournal(M, range.fromMs, range.toMs));
    expect(await keptDays(M)).toEqual(Array.from({ length: DAYS }, (_, i) => i));
  });
});
