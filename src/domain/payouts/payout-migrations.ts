// The payouts' schema history: one row per payout with its beneficiary, status, upstream reference
// and the job's schedule and lease. A shipped step is never edited; a change is a new step in src/migrations.ts.
import { sql, type Kysely } from 'kysely';

/** Step of 0005_payouts (the whole of it); the ledger's reservation shares the payout's ref. */
export async function createPayoutsTable(db: Kysely<any>): Promise<void> {
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

/** The way back from 0005_payouts. */
export async function dropPayoutsTable(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payouts').execute();
}

/** Step of 0008_connectors: the route's remaining connectors, the bank's UTR, and finished payouts by time (the metrics). */
export async function addPayoutFallbacks(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payouts').addColumn('fallback_channels', 'text').execute();
  await db.schema.alterTable('payouts').addColumn('utr', 'text').execute();
  // Partial: a payout enters it once, when final; intake and polling never touch it.
  await db.schema.createIndex('payouts_completed').on('payouts').column('completed_at_ms').where('completed_at_ms', 'is not', null).execute();
}

/** Step of 0014_reconciliation: a connector's payouts by creation time (a day's statement) and by the upstream's reference (partial: set once it answered). */
export async function indexPayoutsForStatements(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('payouts_channel_created').on('payouts').columns(['channel', 'created_at_ms']).execute();
  await db.schema.createIndex('payouts_upstream_ref').on('payouts').columns(['upstream_ref']).where('upstream_ref', 'is not', null).execute();
}

/**
 * Step of 0018_payouts_live_due: the submission job's claim reads the due payouts in time order from an
 * index of the live ones alone. `payouts_due` led with the status, so a claim over two statuses read
 * every due row of both and sorted them: with a backlog of thousands waiting to be sent, each claim of
 * 16 walked the whole backlog. This index holds only payouts the job acts on (LIVE_PAYOUT_STATUSES,
 * written out: a shipped step never changes), in due order, so a claim reads the rows in flight and
 * the `limit` it takes. Final payouts leave it, so it stays as small as the live set.
 */
export async function indexLivePayoutsByDueTime(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('payouts_live_due')
    .on('payouts')
    .column('next_action_at_ms')
    .where(sql.ref('status'), 'in', [sql.lit('Initiated'), sql.lit('Processing')])
    .execute();
  await db.schema.dropIndex('payouts_due').execute();
}

/**
 * Step of 0021_payouts_live_queues: the payouts' two status-led queues name their time column in their
 * condition, as the payments' do since 0020 (payment-migrations.ts). `payouts_live_due` is rebuilt with
 * `next_action_at_ms IS NOT NULL` added (true of every live payout: only PendingApproval and final
 * payouts have none), and `payouts_status_updated`, a full index over every payout led by its status,
 * gives way to `payouts_processing_updated`, the Processing payouts alone by their last change (the
 * stuck-payout check, its one reader). The jobs' own queries compare those times, so both stores still
 * read the indexes for them; a payout's own conditional updates (by transaction_ref, checking the
 * status) do not, so no planner can take a queue for them. With statistics taken while nothing was in
 * flight PostgreSQL did, and each update of a backlog of 3,000 payouts read all of them.
 */
export async function indexPayoutQueuesByTime(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('payouts_live_due').execute();
  await db.schema
    .createIndex('payouts_live_due')
    .on('payouts')
    .column('next_action_at_ms')
    .where(sql<boolean>`status IN ('Initiated', 'Processing') AND next_action_at_ms IS NOT NULL`)
    .execute();
  await db.schema.dropIndex('payouts_status_updated').execute();
  await db.schema
    .createIndex('payouts_processing_updated')
    .on('payouts')
    .column('updated_at_ms')
    .where(sql<boolean>`status = 'Processing' AND updated_at_ms IS NOT NULL`)
    .execute();
}
