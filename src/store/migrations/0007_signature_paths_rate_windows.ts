// One-time signatures remember the path they were first accepted on (contract section 6), and
// per-merchant request counters per second let several API processes share one rate limit.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Rows written before this migration have no path: they keep refusing every reuse, as they did.
  await db.schema.alterTable('used_signatures').addColumn('path', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema
    .alterTable('used_signatures')
    .addColumn('path_effect', 'text', (c) => c.notNull().defaultTo('change'))
    .execute();

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
