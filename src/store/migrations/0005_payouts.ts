// Payouts (issue 5): one row per payout with its beneficiary, status, upstream reference and the
// payout job's schedule and lease. The ledger's reservation (ledger_reservations) shares its ref.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payouts')
    .addColumn('transaction_ref', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('merchant_ref', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('fee_minor', 'bigint', (c) => c.notNull())
    .addColumn('bank_code', 'text')
    .addColumn('beneficiary_name', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('upstream_ref', 'text')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('submit_attempts', 'bigint', (c) => c.notNull())
    .addColumn('query_attempts', 'bigint', (c) => c.notNull())
    .addColumn('next_action_at_ms', 'bigint')
    .addColumn('locked_until_ms', 'bigint')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('completed_at_ms', 'bigint')
    .execute();
  // The race-safe idempotency of payout/initiate: one merchantRef per merchant among payouts.
  await db.schema.createIndex('payouts_merchant_ref').unique().on('payouts').columns(['merchant_id', 'merchant_ref']).execute();
  // The payout job: due rows by status and time.
  await db.schema.createIndex('payouts_due').on('payouts').columns(['status', 'next_action_at_ms']).execute();
  // The operator's stuck listing.
  await db.schema.createIndex('payouts_status_updated').on('payouts').columns(['status', 'updated_at_ms']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payouts').execute();
}
