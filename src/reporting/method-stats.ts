// The merchant home page's figures: per currency and pay-in method, how many payments were created
// since a moment, how many of them succeeded, and what the successful ones brought in. One grouped
// query; rates are left to the reader as integer counts, so nothing here is a float.
import { sql } from 'kysely';
import type { Currency, Minor } from '../core/money.js';
import type { Db } from '../store/schema.js';

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

export async function methodStats(db: Db, merchantId: string, sinceMs: number): Promise<MethodStats[]> {
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

/** Whole percent, rounded down, from integer counts; null when nothing was created. */
export const successPercent = (stats: Pick<MethodStats, 'total' | 'succeeded'>): number | null =>
  stats.total === 0 ? null : Math.floor((stats.succeeded * 100) / stats.total);
