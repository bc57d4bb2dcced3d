// The USDT rates' schema history (rates.ts). A shipped step is never edited; a change is a new step,
// listed under a new migration name in src/migrations.ts.
import type { Kysely } from 'kysely';

/** Step of 0001_foundation, after the one-time signatures. */
export async function createUsdtRates(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('usdt_rates')
    .addColumn('currency', 'text', (c) => c.primaryKey())
    .addColumn('reference_rate_micros', 'bigint', (c) => c.notNull())
    .addColumn('deposit_spread_bps', 'bigint', (c) => c.notNull())
    .addColumn('withdraw_spread_bps', 'bigint', (c) => c.notNull())
    .addColumn('set_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('set_by', 'text', (c) => c.notNull())
    .execute();
}
