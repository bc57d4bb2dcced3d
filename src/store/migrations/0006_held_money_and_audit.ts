// Issue 9: the operator's way out for held late money (who resolved it, how, when) and one audit
// log for every operator action, filterable by merchant and action.
import { sql, type Kysely } from 'kysely';

async function generaliseAudit(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_log').renameColumn('subject', 'target').execute();
  await db.schema.alterTable('audit_log').addColumn('merchant_id', 'text').execute();
  // Before this migration only ledger moves were audited, and their subject was the merchant.
  await db.updateTable('audit_log').set({ merchant_id: sql`target` }).where('action', 'like', 'ledger.%').execute();
  await db.schema.createIndex('audit_log_merchant').on('audit_log').columns(['merchant_id', 'id']).execute();
  await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'id']).execute();
}

async function addResolutions(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('late_payments').addColumn('resolved_by', 'text').execute();
  await db.schema.alterTable('late_payments').addColumn('resolved_at_ms', 'bigint').execute();
  await db.schema.alterTable('late_payments').addColumn('resolution_note', 'text').execute();
  await db.schema.alterTable('late_payments').addColumn('credited_fee_minor', 'bigint').execute();
  await db.schema.createIndex('late_payments_merchant').on('late_payments').columns(['merchant_id', 'transaction_ref']).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await generaliseAudit(db);
  await addResolutions(db);
}
