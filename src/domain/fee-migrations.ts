// The schema history of the per-merchant fee and limit overrides (fees.ts). A shipped step is never
// edited; a change is a new step, listed under a new migration name in src/migrations.ts.
import type { Kysely } from 'kysely';

/** Step of 0002_ledger, after the ledger's tables. */
export async function createFeeAndLimitOverrides(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('merchant_fees')
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('bps', 'bigint', (c) => c.notNull())
    .addColumn('fixed_minor', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('merchant_fees_pk', ['merchant_id', 'currency', 'method', 'direction'])
    .execute();

  await db.schema
    .createTable('merchant_limits')
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('min_minor', 'bigint', (c) => c.notNull())
    .addColumn('max_minor', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('merchant_limits_pk', ['merchant_id', 'currency', 'method', 'direction'])
    .execute();
}
