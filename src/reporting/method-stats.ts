// The merchant home page's figures: per currency and pay-in method, how many payments were created
// since a moment, how many of them succeeded, and what the successful ones brought in. Grouped
// queries; rates are left to the reader as integer counts, so nothing here is a float.
//
// On SQLite a read holds the event loop for as long as it takes (better-sqlite3 answers at once), and
// 30 days of a busy merchant are many rows: 200,000 payments took 117 - 206 ms in one query, during
// which no other request was served. So there the period is read an hour at a time, giving the loop a
// turn every METHOD_STATS_YIELD_AFTER_MS, and summed here: the same answer, the longest hold one
// hour's read. PostgreSQL's reads wait on the server, not on the loop, so there it stays two queries.
import { sql } from 'kysely';
import { LoopTurns } from '../core/loop-turns.js';
import type { Currency, Minor } from '../core/money.js';
import { isPostgres, type Db } from '../store/schema.js';

export interface MethodStats {
  readonly currency: Currency;
  readonly method: string;
  /** Payments created in the period. */
  readonly total: number;
  /** Of those, the ones that were paid (Success, or Success then refunded). */
  readonly succeeded: number;
  /** What the succeeded ones were paid, in minor units. */
  readonly volumeMinor: Minor;
}

/** Paid, whatever happened after: a refunded payment was a successful collection. */
const PAID_STATUSES = ['Success', 'Refund'];

/** The slice of the period one SQLite read covers. */
export const METHOD_STATS_SLICE_MS = 3_600_000;
/** How long the SQLite slices may hold the event loop before it gets a turn. */
export const METHOD_STATS_YIELD_AFTER_MS = 10;

/** The payments created in [sinceMs, untilMs) (no end when untilMs is null), per currency and method. */
export async function methodStats(db: Db, merchantId: string, sinceMs: number, untilMs: number | null = null): Promise<MethodStats[]> {
  const rows = await db
    .selectFrom('payments')
    .select((eb) => [
      'currency',
      'method',
      eb.fn.countAll<string | number | bigint>().as('total'),
      sql<string | number | bigint>`sum(case when ${sql.ref('status')} in (${sql.join(PAID_STATUSES)}) then 1 else 0 end)`.as('succeeded'),
      sql<string | number | bigint | null>`sum(case when ${sql.ref('status')} in (${sql.join(PAID_STATUSES)}) then ${sql.ref('paid_amount_minor')} else 0 end)`.as('volume'),
    ])
    .where('merchant_id', '=', merchantId)
    .where('created_at_ms', '>=', BigInt(sinceMs))
    .$if(untilMs !== null, (qb) => qb.where('created_at_ms', '<', BigInt(untilMs!)))
    .groupBy(['currency', 'method'])
    .orderBy('currency')
    .orderBy('method')
    .execute();
  return rows.map((row) => ({
    currency: row.currency as Currency,
    method: row.method,
    total: Number(row.total),
    succeeded: Number(row.succeeded),
    volumeMinor: BigInt(row.volume ?? 0),
  }));
}

/** Sums per currency and method, in currency then method order. */
export function sumMethodStats(parts: readonly (readonly MethodStats[])[]): MethodStats[] {
  const sums = new Map<string, { currency: Currency; method: string; total: number; succeeded: number; volumeMinor: Minor }>();
  for (const part of parts) {
    for (const s of part) {
      const key = `${s.currency} ${s.method}`;
      const sum = sums.get(key);
      if (sum === undefined) sums.set(key, { ...s });
      else {
        sum.total += s.total;
        sum.succeeded += s.succeeded;
        sum.volumeMinor += s.volumeMinor;
      }
    }
  }
  return [...sums.values()].sort((a, b) => (a.currency !== b.currency ? (a.currency < b.currency ? -1 : 1) : a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
}

export interface PeriodMethodStats {
  /** Every payment created since the period's start. */
  readonly period: MethodStats[];
  /** Those created since `recentFromMs` (today, on the home page). */
  readonly recent: MethodStats[];
}

export interface PeriodOptions {
  readonly sliceMs?: number;
  readonly yieldAfterMs?: number;
}

/**
 * The figures since `fromMs`, and since `recentFromMs` (later, within the period), read as the file's
 * header says: on SQLite in slices whose edges include `recentFromMs`, with turns for the event loop
 * between them; on PostgreSQL as the two halves.
 */
export async function periodMethodStats(
  db: Db,
  merchantId: string,
  period: { readonly fromMs: number; readonly recentFromMs: number; readonly nowMs: number },
  options: PeriodOptions = {},
): Promise<PeriodMethodStats> {
  const { fromMs, recentFromMs, nowMs } = period;
  if (!(fromMs <= recentFromMs)) throw new Error('method stats: the recent part must start within the period');
  const edges = isPostgres(db) ? [fromMs, recentFromMs] : sliceEdges(fromMs, recentFromMs, nowMs, options.sliceMs ?? METHOD_STATS_SLICE_MS);
  const turns = new LoopTurns(options.yieldAfterMs ?? METHOD_STATS_YIELD_AFTER_MS);
  const older: MethodStats[][] = [];
  const recent: MethodStats[][] = [];
  for (let i = 0; i < edges.length; i++) {
    await turns.maybeYield();
    const part = await methodStats(db, merchantId, edges[i]!, edges[i + 1] ?? null);
    (edges[i]! >= recentFromMs ? recent : older).push(part);
  }
  const recentSums = sumMethodStats(recent);
  return { period: sumMethodStats([...older, recentSums]), recent: recentSums };
}

/**
 * The slices' starts: every sliceMs from fromMs up to recentFromMs, then from recentFromMs up to nowMs.
 * Each slice ends where the next starts; the last has no end (a payment stamped ahead of this clock
 * still counts, as in one query over the period).
 */
export function sliceEdges(fromMs: number, recentFromMs: number, nowMs: number, sliceMs: number): number[] {
  const edges: number[] = [];
  for (let at = fromMs; at < recentFromMs; at += sliceMs) edges.push(at);
  edges.push(recentFromMs);
  for (let at = recentFromMs + sliceMs; at <= nowMs; at += sliceMs) edges.push(at);
  return edges;
}

/** Whole percent, rounded down, from integer counts; null when nothing was created. */
export const successPercent = (stats: Pick<MethodStats, 'total' | 'succeeded'>): number | null =>
  stats.total === 0 ? null : Math.floor((stats.succeeded * 100) / stats.total);
