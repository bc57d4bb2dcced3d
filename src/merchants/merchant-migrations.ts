// The merchants module's schema history: merchants and their API keys. A shipped step is never
// edited; a change is a new step, listed under a new migration name in src/migrations.ts.
import type { Kysely } from 'kysely';

/** Step of 0001_foundation (the first one). */
export async function createMerchantsAndKeys(db: Kysely<any>): Promise<void> {
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
}
