// The webhooks' schema history: the outbox's events, their delivery attempts and the service's own
// signing keys. A shipped step is never edited; a change is a new step in src/migrations.ts.
import type { Kysely } from 'kysely';

async function createEvents(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('resource_kind', 'text', (c) => c.notNull())
    .addColumn('resource_ref', 'text', (c) => c.notNull())
    .addColumn('payload_json', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('destination_source', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempt_count', 'bigint', (c) => c.notNull())
    .addColumn('schedule_step', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('locked_until_ms', 'bigint')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at_ms', 'bigint')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema.createIndex('webhook_events_due').on('webhook_events').columns(['status', 'next_attempt_at_ms']).execute();
  await db.schema.createIndex('webhook_events_merchant').on('webhook_events').columns(['merchant_id', 'created_at_ms']).execute();
  await db.schema.createIndex('webhook_events_created').on('webhook_events').column('created_at_ms').execute();
  await db.schema.createIndex('webhook_events_resource').on('webhook_events').columns(['resource_kind', 'resource_ref']).execute();
}

async function createAttempts(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id'))
    .addColumn('attempt_no', 'bigint', (c) => c.notNull())
    .addColumn('started_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'bigint', (c) => c.notNull())
    .addColumn('http_status', 'bigint')
    .addColumn('error', 'text')
    .addColumn('response_snippet', 'text')
    .execute();
  await db.schema.createIndex('webhook_attempts_event').on('webhook_attempts').columns(['event_id', 'attempt_no']).execute();
}

async function createServiceKeys(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('service_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('public_key_pem', 'text', (c) => c.notNull())
    .addColumn('private_key_enc', 'text', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();
}

/** Step of 0004_webhooks (the whole of it). */
export async function createWebhookTables(db: Kysely<any>): Promise<void> {
  await createEvents(db);
  await createAttempts(db);
  await createServiceKeys(db);
}

/**
 * Step of 0025_webhook_events_by_merchant_resource: the events of one payment, payout or batch are
 * indexed under their merchant. `webhook_events_resource` (resource_kind, resource_ref) served no query:
 * the one read by resource, the console's record page, names the merchant and the ref but not the kind,
 * so both stores read the merchant's whole history through `webhook_events_merchant` (15 - 97 ms at
 * 15,000 events a merchant; docs/benchmarks.md, session 36). One index entry an event, as before.
 */
export async function indexEventsByMerchantResource(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_events_resource').execute();
  await db.schema.createIndex('webhook_events_merchant_resource').on('webhook_events').columns(['merchant_id', 'resource_ref', 'created_at_ms']).execute();
}
