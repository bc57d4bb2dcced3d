// Pay-in's schema history: payments (checkout token, collection request, reconciliation, refund
// progress) and late payments. A shipped step is never edited; a change is a new step in src/migrations.ts.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

async function createPayments(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payments')
    .addColumn('transaction_ref', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('merchant_ref', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('fee_minor', 'bigint', (c) => c.notNull())
    .addColumn('paid_amount_minor', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('payer_name', 'text', (c) => c.notNull())
    .addColumn('payer_email', 'text', (c) => c.notNull())
    .addColumn('payer_phone', 'text', (c) => c.notNull())
    .addColumn('redirect_url', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('checkout_token_hash', 'text', (c) => c.notNull())
    .addColumn('checkout_token_enc', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('upstream_ref', 'text')
    .addColumn('collection_json', 'text')
    .addColumn('collection_state', 'text', (c) => c.notNull())
    .addColumn('collection_attempts', 'bigint', (c) => c.notNull())
    .addColumn('collection_next_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('reconcile_at_ms', 'bigint')
    .addColumn('refund_state', 'text')
    .addColumn('refund_ref', 'text')
    .addColumn('refund_upstream_ref', 'text')
    .addColumn('refund_attempts', 'bigint', (c) => c.notNull())
    .addColumn('refund_next_at_ms', 'bigint')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('completed_at_ms', 'bigint')
    .addColumn('refunded_at_ms', 'bigint')
    .execute();
  // The race-safe idempotency of payment/initiate: one merchantRef per merchant, enforced by the store.
  await db.schema.createIndex('payments_merchant_ref').unique().on('payments').columns(['merchant_id', 'merchant_ref']).execute();
  await db.schema.createIndex('payments_checkout_token').unique().on('payments').column('checkout_token_hash').execute();
  await db.schema.createIndex('payments_expiry').on('payments').columns(['status', 'expires_at_ms']).execute();
  await db.schema.createIndex('payments_collection_due').on('payments').columns(['collection_state', 'collection_next_at_ms']).execute();
  await db.schema.createIndex('payments_reconcile_due').on('payments').columns(['status', 'reconcile_at_ms']).execute();
  await db.schema.createIndex('payments_refund_due').on('payments').columns(['refund_state', 'refund_next_at_ms']).execute();
}

async function createLatePayments(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('late_payments')
    .addColumn('transaction_ref', 'text', (c) => c.primaryKey().references('payments.transaction_ref'))
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('upstream_ref', 'text', (c) => c.notNull())
    .addColumn('paid_amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('disposition', 'text', (c) => c.notNull())
    .addColumn('refund_upstream_ref', 'text')
    .addColumn('attempts', 'bigint', (c) => c.notNull())
    .addColumn('next_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('late_payments_due').on('late_payments').columns(['disposition', 'next_at_ms']).execute();
}

/** Step of 0003_payments (the whole of it). */
export async function createPaymentTables(db: Kysely<any>): Promise<void> {
  await createPayments(db);
  await createLatePayments(db);
}

/** Step of 0006_held_money_and_audit, the second: the operator's way out for held late money (who, how, when). */
export async function addLateResolutions(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('late_payments').addColumn('resolved_by', 'text').execute();
  await db.schema.alterTable('late_payments').addColumn('resolved_at_ms', 'bigint').execute();
  await db.schema.alterTable('late_payments').addColumn('resolution_note', 'text').execute();
  await db.schema.alterTable('late_payments').addColumn('credited_fee_minor', 'bigint').execute();
  await db.schema.createIndex('late_payments_merchant').on('late_payments').columns(['merchant_id', 'transaction_ref']).execute();
}

/** Step of 0008_connectors: finished payments by time, for the last hour's success rate per connector. */
export async function indexPaymentCompletion(db: Kysely<any>): Promise<void> {
  // Partial: a payment enters it once, when final; creation and the pending jobs never touch it.
  await db.schema.createIndex('payments_completed').on('payments').column('completed_at_ms').where('completed_at_ms', 'is not', null).execute();
}

/**
 * Step of 0014_reconciliation: a connector's pay-ins by creation time (a day's statement) and by the
 * upstream's references (a statement line without our reference). The reference indexes are partial:
 * a payment enters them when the upstream answers or refunds, never at intake.
 */
export async function indexPaymentsForStatements(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('payments_channel_created').on('payments').columns(['channel', 'created_at_ms']).execute();
  await db.schema.createIndex('payments_upstream_ref').on('payments').columns(['upstream_ref']).where('upstream_ref', 'is not', null).execute();
  await db.schema.createIndex('payments_refund_upstream_ref').on('payments').columns(['refund_upstream_ref']).where('refund_upstream_ref', 'is not', null).execute();
  await db.schema.createIndex('payments_refunded').on('payments').columns(['refunded_at_ms']).where('refunded_at_ms', 'is not', null).execute();
}

/**
 * Step of 0016_collection_leases: the collection job's claim takes its lease in a column of its own,
 * in no index, instead of moving `collection_next_at_ms` (in `payments_collection_due`). SQLite then
 * rewrites no index entry for a claim, and PostgreSQL can make it a HOT update, which adds no entry to
 * any of the table's indexes, when the row's page has room: the fill factor keeps a seventh of each new
 * page free for that (about one new version of a row; docs/architecture.md says how often it suffices).
 * Before, every payment's claim left a dead entry in each of the table's 15 indexes, which a large
 * table's vacuum may leave behind (docs/benchmarks.md, session 13).
 */
export async function addCollectionLeases(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('collection_lease_until_ms', 'bigint').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`ALTER TABLE payments SET (fillfactor = 85)`.execute(db);
}

/**
 * Step of 0020_payments_live_queues: the four work queues of the payments table (collections to ask
 * for, pending payments by expiry, reconciliations, refunds awaiting their outcome) become partial
 * indexes over the rows still in that queue, keyed by the due time alone. Before, each indexed every
 * payment ever made (a million finished payments were a million entries in each, none ever due
 * again), and every new payment wrote an entry in all four. Now a new payment enters two small indexes
 * (it is Pending and its collection is requested) and none of the reconciliation's or refunds', a
 * finished one leaves them all, and an update that takes a payment out of a queue adds no entry there.
 * Each condition also names the due time (`... IS NOT NULL`, true of every row the state selects):
 * the queue's own query implies it by comparing the due time, so both stores can read the index for
 * it, while a payment's own conditional updates (by transaction_ref, checking the state) do not, so no
 * planner can take a queue for them. With the old indexes and stale statistics PostgreSQL did, and
 * each update read the whole backlog (docs/architecture.md; test/unit/payment-queues.test.ts).
 */
export async function indexLiveQueuesOnly(db: Kysely<any>): Promise<void> {
  for (const name of ['payments_expiry', 'payments_collection_due', 'payments_reconcile_due', 'payments_refund_due']) {
    await db.schema.dropIndex(name).execute();
  }
  await db.schema.createIndex('payments_pending_expiry').on('payments').column('expires_at_ms').where(sql<boolean>`status = 'Pending' AND expires_at_ms IS NOT NULL`).execute();
  await db.schema
    .createIndex('payments_collection_requested')
    .on('payments')
    .column('collection_next_at_ms')
    .where(sql<boolean>`collection_state = 'requested' AND collection_next_at_ms IS NOT NULL`)
    .execute();
  await db.schema
    .createIndex('payments_reconcile_at')
    .on('payments')
    .column('reconcile_at_ms')
    .where(sql<boolean>`reconcile_at_ms IS NOT NULL`)
    .execute();
  await db.schema
    .createIndex('payments_refund_requested')
    .on('payments')
    .column('refund_next_at_ms')
    .where(sql<boolean>`refund_state = 'requested' AND refund_next_at_ms IS NOT NULL`)
    .execute();
}
