// The reconciliation tables' schema history (reconciliation-rows.ts). A shipped step is never edited;
// a change is a new step, listed under a new migration name in src/migrations.ts.
import { sql, type Kysely } from 'kysely';

/** Step of 0014_reconciliation. */
export async function createReconciliationTables(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reconciliation_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connector', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('checksum', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('fetched_day', 'text')
    .addColumn('period_from_ms', 'bigint', (c) => c.notNull())
    .addColumn('period_to_ms', 'bigint', (c) => c.notNull())
    .addColumn('expects', 'text', (c) => c.notNull())
    .addColumn('imported_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('line_count', 'bigint', (c) => c.notNull())
    .addColumn('matched', 'bigint', (c) => c.notNull())
    .addColumn('amount_mismatch', 'bigint', (c) => c.notNull())
    .addColumn('status_mismatch', 'bigint', (c) => c.notNull())
    .addColumn('missing_ours', 'bigint', (c) => c.notNull())
    .addColumn('missing_theirs', 'bigint', (c) => c.notNull())
    .execute();
  // The same file twice is one run; a fetched day is fetched once (NULLs, the imports, never collide).
  await db.schema.createIndex('reconciliation_runs_checksum').unique().on('reconciliation_runs').columns(['connector', 'checksum']).execute();
  await db.schema.createIndex('reconciliation_runs_fetched_day').unique().on('reconciliation_runs').columns(['connector', 'fetched_day']).execute();
  await db.schema.createIndex('reconciliation_runs_listing').on('reconciliation_runs').columns(['imported_at_ms', 'id']).execute();
  await db.schema
    .createTable('reconciliation_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('line_number', 'bigint')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('upstream_ref', 'text')
    .addColumn('transaction_ref', 'text')
    .addColumn('merchant_id', 'text')
    .addColumn('their_currency', 'text')
    .addColumn('their_amount_minor', 'bigint')
    .addColumn('their_status', 'text')
    .addColumn('their_mapped_status', 'text')
    .addColumn('our_currency', 'text')
    .addColumn('our_amount_minor', 'bigint')
    .addColumn('our_status', 'text')
    .addColumn('our_mapped_status', 'text')
    .addColumn('resolved_at_ms', 'bigint')
    .addColumn('resolved_by', 'text')
    .addColumn('resolution_reason', 'text')
    .execute();
  await db.schema.createIndex('reconciliation_lines_run').on('reconciliation_lines').columns(['run_id', 'id']).execute();
  // The operator's worklist: lines still waiting for a resolution.
  await db.schema
    .createIndex('reconciliation_lines_unresolved')
    .on('reconciliation_lines')
    .columns(['run_id', 'id'])
    .where(sql.ref('resolved_at_ms'), 'is', null)
    .where(sql.ref('outcome'), '!=', 'matched')
    .execute();
}
