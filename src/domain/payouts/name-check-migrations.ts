// The name check's schema history (0009_name_checks): what a payout initiated with nameCheck: true
// was checked against. A shipped step is never edited; a change is a new step in src/migrations.ts.
import type { Kysely } from 'kysely';

/** Step of 0009_name_checks: the holder's name the bank resolved, the score and the threshold (ten-thousandths). */
export async function addPayoutNameChecks(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payouts').addColumn('name_check_name', 'text').execute();
  await db.schema.alterTable('payouts').addColumn('name_check_score', 'bigint').execute();
  await db.schema.alterTable('payouts').addColumn('name_check_threshold', 'bigint').execute();
}
