// account/settlements: per UTC day of one currency, what the merchant's ledger entries moved:
// collected (gross paid in), refunded, paid out, fees, settled (pending to available) and the net
// change of its five balances. Closed days' sums are kept (settlement_days): a missing one is summed
// from the journal once, a day a read; the rest of a range is read by grouped queries. Days without
// movement are left out of the answer.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { validationError } from '../core/errors.js';
import { LoopTurns } from '../core/loop-turns.js';
import { toMajor, type Currency, type Minor } from '../core/money.js';
import { BALANCE_KINDS } from '../ledger/accounts.js';
import type { Executor } from '../store/schema.js';
import type { SettlementDaysTable } from './report-rows.js';
import { MS_PER_DAY, parseRange, utcDay } from './time-range.js';

/** The longest range one call (or one export) of settlements spans, and the default when none is given. */
export const SETTLEMENT_MAX_DAYS = 366;
export const SETTLEMENT_DEFAULT_DAYS = 31;

export interface SettlementQuery {
  readonly currency: Currency;
  readonly from?: string;
  readonly to?: string;
}

export interface SettlementDayMinor {
  readonly day: string;
  collectedMinor: Minor;
  refundedMinor: Minor;
  paidOutMinor: Minor;
  feesMinor: Minor;
  settledMinor: Minor;
  netMinor: Minor;
}

export interface SettlementDay {
  readonly date: string;
  readonly currency: Currency;
  readonly collected: number;
  readonly refunded: number;
  readonly paidOut: number;
  readonly fees: number;
  readonly settled: number;
  readonly net: number;
}

const BUCKETS = new Set<string>(BALANCE_KINDS);
const COLLECTIONS = new Set(['payment_credit', 'late_credit']);
const REFUNDS = new Set(['refund', 'refund_reversal']);

/** Adds one grouped sum (a day, an entry kind, an account kind) to the day's totals. */
function addTo(day: SettlementDayMinor, entryKind: string, accountKind: string, sum: Minor): void {
  if (COLLECTIONS.has(entryKind) && (accountKind === 'pending' || accountKind === 'fee_revenue')) day.collectedMinor += sum;
  if (REFUNDS.has(entryKind) && (accountKind === 'pending' || accountKind === 'available')) day.refundedMinor -= sum;
  if (entryKind === 'payout_complete' && accountKind === 'settlement') day.paidOutMinor += sum;
  if (accountKind === 'fee_revenue') day.feesMinor += sum;
  if (entryKind === 'settlement' && accountKind === 'pending') day.settledMinor -= sum;
  if (BUCKETS.has(accountKind)) day.netMinor += sum;
}

/** A range of time, both ends known (start included, end excluded). */
export interface DayRange {
  readonly fromMs: number;
  readonly toMs: number;
}

/** The range a settlements call covers: as given, else the last SETTLEMENT_DEFAULT_DAYS days up to now. */
export function settlementRange(query: Pick<SettlementQuery, 'from' | 'to'>, nowMs: number, maxDays: number | null): DayRange {
  const given = parseRange(query);
  const toMs = given.toMs ?? (Math.floor(nowMs / MS_PER_DAY) + 1) * MS_PER_DAY;
  const fromMs = given.fromMs ?? toMs - SETTLEMENT_DEFAULT_DAYS * MS_PER_DAY;
  if (fromMs >= toMs) throw validationError('to', 'must be after from');
  if (maxDays !== null && toMs - fromMs > maxDays * MS_PER_DAY) throw validationError('from', `must be at most ${maxDays} days before to`);
  return { fromMs, toMs };
}

/**
 * How long after a UTC day ends it counts as closed, its sums kept (settlement_days). An entry is stamped
 * with its process's clock when it is posted, so a day may still take one while a transaction begun
 * before midnight commits, or from a process whose clock lags; an hour leaves room for both. The service's
 * transactions last milliseconds; processes sharing a database must keep their clocks within the hour
 * (docs/operations.md), or a kept day would miss an entry stamped into it later.
 */
export const SETTLEMENT_DAY_CLOSE_MS = 60 * 60 * 1000;

/** One grouped sum of the journal: a day, an entry kind, an account kind. */
interface DaySum {
  readonly day: number;
  readonly entryKind: string;
  readonly accountKind: string;
  readonly total: Minor;
}

/** The journal's sums per day, entry kind and account kind over [fromMs, toMs), read from the postings. */
async function journalSums(db: Executor, merchantId: string, currency: Currency, fromMs: number, toMs: number): Promise<DaySum[]> {
  const rows = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_postings as p', 'p.entry_id', 'e.id')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .select((eb) => [
      eb(eb.ref('e.created_at_ms'), '/', BigInt(MS_PER_DAY)).as('day'),
      'e.kind as entry_kind',
      'a.kind as account_kind',
      eb.fn.sum<bigint>('p.amount_minor').as('total'),
    ])
    .where('e.merchant_id', '=', merchantId)
    .where('e.currency', '=', currency)
    .where('e.created_at_ms', '>=', BigInt(fromMs))
    .where('e.created_at_ms', '<', BigInt(toMs))
    .groupBy(['day', 'e.kind', 'a.kind'])
    .execute();
  return rows.map((r) => ({ day: Number(r.day), entryKind: r.entry_kind, accountKind: r.account_kind, total: BigInt(r.total) }));
}

/**
 * The sums of the closed days fromDay to lastDay (day numbers, lastDay excluded): those kept in
 * settlement_days, and the others summed from the journal once and kept, a day without movement since
 * the merchant's first entry too.
 * Two calls racing over the same day both sum it and the first write stands; the sums are the same.
 */
async function closedDaySums(
  db: Executor,
  merchantId: string,
  currency: Currency,
  fromDay: number,
  lastDay: number,
  nowMs: number,
  yieldAfterMs = SETTLEMENT_YIELD_AFTER_MS,
): Promise<DaySum[]> {
  // Days before the merchant's first entry in the currency moved nothing and are not kept: a call over
  // years of nothing (a `from` of 0001-01-01) writes no row, so reads keep no more days than there is
  // history. The first entry is the start of an index range.
  const first = await db
    .selectFrom('ledger_entries')
    .select('created_at_ms')
    .where('merchant_id', '=', merchantId)
    .where('currency', '=', currency)
    .orderBy('created_at_ms')
    .limit(1)
    .executeTakeFirst();
  if (first === undefined) return [];
  const firstDay = Math.max(fromDay, Math.floor(Number(first.created_at_ms) / MS_PER_DAY));
  if (firstDay >= lastDay) return [];
  const kept = await db
    .selectFrom('settlement_days')
    .select(['day', 'sums_json'])
    .where('merchant_id', '=', merchantId)
    .where('currency', '=', currency)
    .where('day', '>=', BigInt(firstDay))
    .where('day', '<', BigInt(lastDay))
    .execute();
  const sums: DaySum[] = [];
  const keptDays = new Set<number>();
  for (const row of kept) {
    keptDays.add(Number(row.day));
    for (const [entryKind, accountKind, total] of JSON.parse(row.sums_json) as [string, string, string][]) {
      sums.push({ day: Number(row.day), entryKind, accountKind, total: BigInt(total) });
    }
  }
  const missing: number[] = [];
  for (let day = firstDay; day < lastDay; day++) if (!keptDays.has(day)) missing.push(day);
  if (missing.length === 0) return sums;
  // Each missing day is summed by a read of its own, and the event loop gets a turn whenever the reads
  // have held it for SETTLEMENT_YIELD_AFTER_MS: better-sqlite3 answers at once, so one read over the
  // missing days held every other request for the whole call (476 - 924 ms measured for a month of one
  // merchant's 200,000 entries; a year's range twelve times that).
  const rows: SettlementDaysTable[] = [];
  const turns = new LoopTurns(yieldAfterMs);
  for (const day of missing) {
    await turns.maybeYield();
    const daySums = await journalSums(db, merchantId, currency, day * MS_PER_DAY, (day + 1) * MS_PER_DAY);
    sums.push(...daySums);
    rows.push({
      merchant_id: merchantId,
      currency,
      day: BigInt(day),
      sums_json: JSON.stringify(daySums.map((d) => [d.entryKind, d.accountKind, d.total.toString()])),
      created_at_ms: BigInt(nowMs),
    });
    if (rows.length === DAYS_PER_INSERT) await keepDays(db, rows.splice(0));
  }
  if (rows.length > 0) await keepDays(db, rows);
  return sums;
}

/** Keeps days' sums; a day another call kept meanwhile stays as it was (the same sums). */
async function keepDays(db: Executor, rows: readonly SettlementDaysTable[]): Promise<void> {
  await db
    .insertInto('settlement_days')
    .values([...rows])
    .onConflict((oc) => oc.columns(['merchant_id', 'currency', 'day']).doNothing())
    .execute();
}

/**
 * How long closedDaySums reads before it gives the event loop a turn: a day's read is the most it
 * holds the loop beyond this.
 */
export const SETTLEMENT_YIELD_AFTER_MS = 10;

/** Days written by one insert: five values a day, well under SQLite's limit of bound values. */
const DAYS_PER_INSERT = 100;

/**
 * Totals per day in the range, newest day first. The whole days of the range that closed
 * (SETTLEMENT_DAY_CLOSE_MS) come from their kept sums; the rest (today, a day not yet closed, and the
 * part days at either end of a range that does not start or end at midnight) from the journal.
 */
export async function settlementDays(
  db: Executor,
  merchantId: string,
  currency: Currency,
  range: DayRange,
  nowMs: number,
  yieldAfterMs = SETTLEMENT_YIELD_AFTER_MS,
): Promise<SettlementDayMinor[]> {
  const { fromMs, toMs } = range;
  const firstDay = Math.ceil(fromMs / MS_PER_DAY);
  const lastDay = Math.min(Math.floor(toMs / MS_PER_DAY), Math.floor((nowMs - SETTLEMENT_DAY_CLOSE_MS) / MS_PER_DAY));
  let sums: DaySum[];
  if (firstDay >= lastDay) {
    sums = await journalSums(db, merchantId, currency, fromMs, toMs);
  } else {
    sums = await closedDaySums(db, merchantId, currency, firstDay, lastDay, nowMs, yieldAfterMs);
    if (fromMs < firstDay * MS_PER_DAY) sums = sums.concat(await journalSums(db, merchantId, currency, fromMs, firstDay * MS_PER_DAY));
    if (lastDay * MS_PER_DAY < toMs) sums = sums.concat(await journalSums(db, merchantId, currency, lastDay * MS_PER_DAY, toMs));
  }
  const days = new Map<string, SettlementDayMinor>();
  for (const sum of sums) {
    const day = utcDay(sum.day * MS_PER_DAY);
    let totals = days.get(day);
    if (!totals) {
      totals = { day, collectedMinor: 0n, refundedMinor: 0n, paidOutMinor: 0n, feesMinor: 0n, settledMinor: 0n, netMinor: 0n };
      days.set(day, totals);
    }
    addTo(totals, sum.entryKind, sum.accountKind, sum.total);
  }
  return [...days.values()].sort((a, b) => (a.day < b.day ? 1 : -1));
}

export const settlementView = (currency: Currency, d: SettlementDayMinor): SettlementDay => ({
  date: d.day,
  currency,
  collected: toMajor(d.collectedMinor),
  refunded: toMajor(d.refundedMinor),
  paidOut: toMajor(d.paidOutMinor),
  fees: toMajor(d.feesMinor),
  settled: toMajor(d.settledMinor),
  net: toMajor(d.netMinor),
});

/** The closed days a run of the settlement-days job makes sure are kept: the last week's. */
export const SETTLEMENT_DAYS_PREPARED = 7;
/** Merchants read at a time during a pass (each with every currency). */
const MERCHANTS_PER_READ = 100;
/** Between the job's checks whether another day has closed. */
const SETTLEMENT_DAYS_IDLE_MS = 60_000;

/**
 * The background job that keeps each merchant's closed days before anyone asks, so that the first
 * account/settlements call after a day closed (or the console's home page) reads kept sums instead of
 * summing the day's postings. When a day has closed (and at each start: its progress is in memory), one
 * run makes a pass over the merchants and keeps the last SETTLEMENT_DAYS_PREPARED closed days of each
 * currency a merchant moved money in during them; a merchant without such entries costs one index probe
 * a currency and keeps nothing (a later call keeps its empty days cheaply). The pass gives the event loop
 * a turn after each merchant: better-sqlite3 answers at once, so it would otherwise run as one block.
 * Where several workers run it, each makes its own pass; a day both sum is written once.
 */
export class SettlementDaysJob {
  readonly name = 'settlement-days';
  readonly idleIntervalMs = SETTLEMENT_DAYS_IDLE_MS;
  /** The end day (exclusive, in days since 1970) of the last finished pass. */
  private preparedEndDay: number | null = null;

  constructor(
    private readonly db: Executor,
    private readonly clock: { nowMs(): number },
    private readonly currencies: readonly Currency[],
    private readonly merchantsPerRead = MERCHANTS_PER_READ,
  ) {}

  /** A pass, when a day closed since the last one: answers how many merchant currencies had days to keep. */
  async runOnce(): Promise<number> {
    const endDay = Math.floor((this.clock.nowMs() - SETTLEMENT_DAY_CLOSE_MS) / MS_PER_DAY);
    // A clock set back finds its days prepared already.
    if (this.preparedEndDay !== null && endDay <= this.preparedEndDay) return 0;
    const fromDay = endDay - SETTLEMENT_DAYS_PREPARED;
    let kept = 0;
    for (let cursor = ''; ; ) {
      const merchants = await this.db.selectFrom('merchants').select('id').where('id', '>', cursor).orderBy('id').limit(this.merchantsPerRead).execute();
      for (const { id } of merchants) {
        for (const currency of this.currencies) {
          if (await this.movedIn(id, currency, fromDay, endDay)) {
            await closedDaySums(this.db, id, currency, fromDay, endDay, this.clock.nowMs());
            kept += 1;
          }
        }
        await nextTurn();
      }
      if (merchants.length < this.merchantsPerRead) break;
      cursor = merchants.at(-1)!.id;
    }
    this.preparedEndDay = endDay;
    return kept;
  }

  /** Whether the merchant has an entry in the currency from fromDay to endDay (excluded). */
  private async movedIn(merchantId: string, currency: Currency, fromDay: number, endDay: number): Promise<boolean> {
    const entry = await this.db
      .selectFrom('ledger_entries')
      .select('id')
      .where('merchant_id', '=', merchantId)
      .where('currency', '=', currency)
      .where('created_at_ms', '>=', BigInt(fromDay * MS_PER_DAY))
      .where('created_at_ms', '<', BigInt(endDay * MS_PER_DAY))
      .limit(1)
      .executeTakeFirst();
    return entry !== undefined;
  }
}
