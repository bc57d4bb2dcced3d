// The audit log's schema history. A shipped step is never edited; a change is a new step, listed
// under a new migration name in src/migrations.ts.
import { sql, type Kysely } from 'kysely';

/** Step of 0001_foundation, the last: at first only ledger moves were audited, by subject. */
export async function createAuditLog(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('detail_json', 'text', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();
}

/** Step of 0006_held_money_and_audit, the first: one log for every operator action, by merchant and action. */
export async function generaliseAuditLog(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_log').renameColumn('subject', 'target').execute();
  await db.schema.alterTable('audit_log').addColumn('merchant_id', 'text').execute();
  // Before this migration only ledger moves were audited, and their subject was the merchant.
  await db.updateTable('audit_log').set({ merchant_id: sql`target` }).where('action', 'like', 'ledger.%').execute();
  await db.schema.createIndex('audit_log_merchant').on('audit_log').columns(['merchant_id', 'id']).execute();
  await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'id']).execute();
}

/** Step of 0015_console, the first: where an action came from (the console records every one's address). */
export async function addAuditAddress(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('address', 'text').execute();
  await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor', 'id']).execute();
}
