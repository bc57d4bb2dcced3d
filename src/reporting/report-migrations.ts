// Reporting's schema history (0013_reporting): the indexes the merchant lists, the statement and the
// settlements read by, and the reports table of CSV exports.
import { sql, type Kysely } from 'kysely';

async function indexRecordLists(db: Kysely<any>): Promise<void> {
  // Newest first per merchant, with or without a status filter; the keyset's tie-break is the id.
  for (const table of ['payments', 'payouts']) {
    await db.schema.createIndex(`${table}_merchant_created`).on(table).columns(['merchant_id', 'created_at_ms', 'transaction_ref']).execute();
    await db.schema
      .createIndex(`${table}_merchant_status_created`)
      .on(table)
      .columns(['merchant_id', 'status', 'created_at_ms', 'transaction_ref'])
      .execute();
  }
  // The statement names the payment a refund belongs to; refunds are few, so the index is partial.
  await db.schema.createIndex('payments_refund_ref').on('payments').column('refund_ref').where(sql<boolean>`refund_ref IS NOT NULL`).execute();
}

async function indexMerchantJournal(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('ledger_entries_merchant_currency_created')
    .on('ledger_entries')
    .columns(['merchant_id', 'currency', 'created_at_ms', 'id'])
    .execute();
}

async function createReports(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('filters_json', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('row_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('file_name', 'text')
    .addColumn('progress_json', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until_ms', 'bigint')
    .addColumn('failure', 'text')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('completed_at_ms', 'bigint')
    .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reports_due').on('reports').columns(['status', 'lease_until_ms']).execute();
  await db.schema.createIndex('reports_expiry').on('reports').columns(['status', 'expires_at_ms']).execute();
}

export async function createReporting(db: Kysely<any>): Promise<void> {
  await indexRecordLists(db);
  await indexMerchantJournal(db);
  await createReports(db);
}

/**
 * Step of 0026_settlement_days: the sums of each closed day that account/settlements (and the console's
 * home page, and the settlements export) have read once. Without them every call summed every posting of
 * its range again: over a merchant's 200,000 entries of a month, 450 ms on PostgreSQL and 630 ms on
 * SQLite, where it holds the event loop (docs/benchmarks.md, session 37). The primary key is the only
 * index: every read and write names the merchant, the currency and a range of days.
 */
export async function createSettlementDays(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('settlement_days')
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('sums_json', 'text', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('settlement_days_pk', ['merchant_id', 'currency', 'day'])
    .execute();
}
