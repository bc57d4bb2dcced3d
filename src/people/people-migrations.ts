// The console's people tables. A shipped step is never edited; a change is a new step, listed under a
// new migration name in src/migrations.ts.
import type { Kysely } from 'kysely';

/** Step of 0015_console, after the audit log's address column. */
export async function createPeopleTables(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('console_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('totp_secret_sealed', 'text')
    .addColumn('totp_enabled_at_ms', 'bigint')
    .addColumn('totp_last_step', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_users_merchant').on('console_users').columns(['merchant_id', 'id']).execute();
  await db.schema
    .createTable('console_recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at_ms', 'bigint')
    .execute();
  await db.schema.createIndex('console_recovery_codes_user').on('console_recovery_codes').columns(['user_id']).execute();
  await db.schema
    .createTable('console_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_ms', 'bigint', (c) => c.notNull())
    .addColumn('address', 'text')
    .execute();
  await db.schema.createIndex('console_sessions_user').on('console_sessions').columns(['user_id']).execute();
  await db.schema
    .createTable('console_invitations')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('used_at_ms', 'bigint')
    .execute();
  await db.schema
    .createTable('console_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'bigint', (c) => c.notNull())
    .addColumn('lockouts', 'bigint', (c) => c.notNull())
    .addColumn('last_failure_ms', 'bigint', (c) => c.notNull())
    .addColumn('locked_until_ms', 'bigint', (c) => c.notNull())
    .execute();
}
