// Merchants, their API keys, one-time signature records, USDT rates and the operator audit log.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('merchants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('rate_limit_per_second', 'bigint', (c) => c.notNull())
    .addColumn('payment_webhook_url', 'text')
    .addColumn('payout_webhook_url', 'text')
    .addColumn('webhook_secret_enc', 'text', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('public_key_pem', 'text')
    .addColumn('secret_enc', 'text')
    .addColumn('label', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at_ms', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_merchant').on('api_keys').columns(['merchant_id', 'status']).execute();

  await db.schema
    .createTable('used_signatures')
    .addColumn('signature_hash', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('used_signatures_expiry').on('used_signatures').column('expires_at_ms').execute();

  await db.schema
    .createTable('usdt_rates')
    .addColumn('currency', 'text', (c) => c.primaryKey())
    .addColumn('reference_rate_micros', 'bigint', (c) => c.notNull())
    .addColumn('deposit_spread_bps', 'bigint', (c) => c.notNull())
    .addColumn('withdraw_spread_bps', 'bigint', (c) => c.notNull())
    .addColumn('set_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('set_by', 'text', (c) => c.notNull())
    .execute();

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
