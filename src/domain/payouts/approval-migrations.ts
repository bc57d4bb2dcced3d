// The payout approvals' schema history (maker-checker): each merchant's thresholds and timeout, and
// on each payout the key that created it, the approval's deadline and who decided. A shipped step is
// never edited; a change is a new step in src/migrations.ts.
import { sql, type Kysely } from 'kysely';

/** Step of 0012_payout_approvals_key_rotation: the settings table and the payout's approval columns. */
export async function addPayoutApprovals(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payout_approval_settings')
    .addColumn('merchant_id', 'text', (c) => c.primaryKey().references('merchants.id'))
    // {"INR":"5000000",...}: minor units as strings per currency; a currency left out needs no approval.
    .addColumn('thresholds_json', 'text', (c) => c.notNull())
    .addColumn('timeout_seconds', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('payouts').addColumn('created_by_key_id', 'text').execute();
  await db.schema.alterTable('payouts').addColumn('approval_expires_at_ms', 'bigint').execute();
  await db.schema.alterTable('payouts').addColumn('approval_decided_by_key_id', 'text').execute();
  await db.schema.alterTable('payouts').addColumn('approval_reason', 'text').execute();
  // The expiry job: pending payouts by deadline.
  // Partial: only payouts waiting for approval are in it, so every other payout's writes skip it.
  await db.schema.createIndex('payouts_approval_due').on('payouts').column('approval_expires_at_ms').where(sql<boolean>`status = 'PendingApproval'`).execute();
}

/**
 * Step of 0022_payouts_approval_deadlines: `payouts_approval_due` names the deadline in its condition,
 * as the other queues' indexes do since 0020 and 0021 (payment-migrations.ts says why): the expiry
 * job's query compares the deadline and still reads it, while a rejection (by transaction_ref, from
 * PendingApproval) no longer can be planned on it. Under statistics from before a queue of pending
 * approvals, PostgreSQL read the whole queue for each such update.
 */
export async function indexApprovalDeadlines(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('payouts_approval_due').execute();
  await db.schema
    .createIndex('payouts_approval_due')
    .on('payouts')
    .column('approval_expires_at_ms')
    .where(sql<boolean>`status = 'PendingApproval' AND approval_expires_at_ms IS NOT NULL`)
    .execute();
}
