// The routing tables' schema history (routing-rows.ts). A shipped step is never edited; a change is a
// new step, listed under a new migration name in src/migrations.ts.
import type { Kysely } from 'kysely';

/** Step of 0008_connectors. */
export async function createRoutingTables(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('connector_settings')
    .addColumn('connector', 'text', (c) => c.primaryKey())
    .addColumn('base_url', 'text')
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('connector_credentials')
    .addColumn('connector', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('connector_credentials_pk', ['connector', 'field'])
    .execute();
  await db.schema
    .createTable('connector_routes')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('connectors', 'text', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('connector_routes_pk', ['scope', 'currency', 'direction', 'method'])
    .execute();
}

/**
 * Step of 0027_completions_by_connector: the last hour's final statuses that /metrics reports per
 * connector, method and status (connector-metrics.ts) are read from the index alone. The partial
 * indexes of 0008 held the completion time only, so each counted row was also read from its table: a
 * scrape over 360,000 payments finished in the hour held SQLite's event loop for 1,148 ms, and 176 ms
 * with the columns in the index. A payment or payout enters it once, when final (a refund changes a
 * payment's status in it). The new indexes are built before the old ones are dropped: on PostgreSQL a
 * build lets the tables be read, a drop holds them from everyone until the migration commits.
 */
export async function coverCompletionCounts(db: Kysely<any>): Promise<void> {
  for (const table of ['payments', 'payouts'] as const) {
    await db.schema
      .createIndex(`${table}_completed_counts`)
      .on(table)
      .columns(['completed_at_ms', 'channel', 'method', 'status'])
      .where('completed_at_ms', 'is not', null)
      .execute();
  }
  for (const table of ['payments', 'payouts'] as const) await db.schema.dropIndex(`${table}_completed`).execute();
}
