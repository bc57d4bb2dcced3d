// The merchants' webhook secret rotation with overlap: the replaced secret is kept, sealed, until
// its overlap ends. A shipped step is never edited; a change is a new step in src/migrations.ts.
import type { Kysely } from 'kysely';

/** Step of 0012_payout_approvals_key_rotation. */
export async function addPreviousWebhookSecret(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('merchants').addColumn('previous_webhook_secret_enc', 'text').execute();
  await db.schema.alterTable('merchants').addColumn('previous_webhook_secret_until_ms', 'bigint').execute();
}
