// The payout batches' schema: the batch table, and each payout's pointer to the batch it came in.
// A shipped step is never edited; a change is a new step in src/migrations.ts.
import type { Kysely } from 'kysely';

/** Step of 0010_payout_batches. */
export async function createPayoutBatches(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payout_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('merchant_ref', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('atomic', 'bigint', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('item_count', 'bigint', (c) => c.notNull())
    .addColumn('accepted_count', 'bigint', (c) => c.notNull())
    .addColumn('open_items', 'bigint', (c) => c.notNull())
    .addColumn('answer_json', 'text', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('completed_at_ms', 'bigint')
    .execute();
  // The race-safe idempotency of payout/batch: one batch merchantRef per merchant.
  await db.schema.createIndex('payout_batches_merchant_ref').unique().on('payout_batches').columns(['merchant_id', 'merchant_ref']).execute();
  await db.schema.alterTable('payouts').addColumn('batch_id', 'text').execute();
  // batchStatus reads a batch's items.
  // Partial: most payouts belong to no batch, and their writes need not touch this index.
  await db.schema.createIndex('payouts_batch').on('payouts').column('batch_id').where('batch_id', 'is not', null).execute();
}
