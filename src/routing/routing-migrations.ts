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
