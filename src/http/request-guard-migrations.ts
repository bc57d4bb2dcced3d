// The schema history of http/'s request guards: one-time signatures and shared rate-limit counters.
// A shipped step is never edited; a change is a new step, listed under a new name in src/migrations.ts.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** Step of 0001_foundation, after the merchants and their keys. */
export async function createUsedSignatures(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('used_signatures')
    .addColumn('signature_hash', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('used_signatures_expiry').on('used_signatures').column('expires_at_ms').execute();
}

/** Step of 0007_signature_paths_rate_windows, the first: a signature remembers its first path (contract section 6). */
export async function addSignaturePaths(db: Kysely<any>): Promise<void> {
  // Rows written before this migration have no path: they keep refusing every reuse, as they did.
  await db.schema.alterTable('used_signatures').addColumn('path', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema
    .alterTable('used_signatures')
    .addColumn('path_effect', 'text', (c) => c.notNull().defaultTo('change'))
    .execute();
}

/** Step of 0007_signature_paths_rate_windows, the second: per-second counters several API processes share. */
export async function createRateLimitWindows(db: Kysely<any>): Promise<void> {
  // Counters are worth nothing after their second, so on PostgreSQL they skip the WAL (no fsync per
  // request); a crash empties the table, which only forgives one second of traffic.
  const unlogged = db.getExecutor().adapter instanceof PostgresAdapter;
  let counters = db.schema.createTable('rate_limit_windows');
  if (unlogged) counters = counters.modifyFront(sql`unlogged`);
  await counters
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('window_s', 'bigint', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_windows_pk', ['bucket', 'window_s'])
    .execute();
  await db.schema.createIndex('rate_limit_windows_window').on('rate_limit_windows').column('window_s').execute();
}
