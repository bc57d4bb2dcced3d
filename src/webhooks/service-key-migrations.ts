// The service signing key's rotation with overlap: a replaced key stays listed (and verifiable)
// until `retires_at_ms`; the current key has none. A shipped step is never edited.
import type { Kysely } from 'kysely';

/** Step of 0012_payout_approvals_key_rotation. */
export async function addServiceKeyRetirement(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('service_keys').addColumn('retires_at_ms', 'bigint').execute();
}
