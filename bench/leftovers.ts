// Clean-up between cases: the payments a case leaves Pending. `payment/initiate` leaves one for every
// request of its windows (15,000 – 29,000 a service), the list cases 2,000 each. Left alone, the
// service's reconciler asks the bank about each of them two minutes after it was made, then again at
// growing gaps until they expire after 30 minutes: waves of work that ran under the windows of the
// cases that followed (session 8, PostgreSQL: the database's CPU per payment/status doubled on the
// twins after their payment/initiate windows). Declining them through sandbox/payment/complete was
// tried first: about 9 ms of the machine's CPU each (the bank, its callback, the webhook record), over
// a minute per case.
//
// So the bench retires them the way the million are seeded: straight in the service's database,
// outside any window, each left as an expired pay-in is (Expired, completed now, nothing more to
// ask). No ledger entry belongs to a Pending payment, so no balance changes. The bench merchants have
// no webhook URL, so the payment.expired events the service would have recorded go nowhere either.
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { BenchContext } from './context.js';
import { BENCH_PG_URL } from './service.js';

const RETIRE_SQL = `UPDATE payments SET status = 'Expired', reconcile_at_ms = NULL, completed_at_ms = $1, updated_at_ms = $1 WHERE status = 'Pending'`;

/**
 * The reconciler's next question about each Pending payment taken away, the payment left as it is:
 * for a case whose set-up made payments that its windows read (payment/status), between the windows of
 * a million repeat (bench/run.ts runPaired). `expires_at_ms IS NOT NULL` (always true) lets both stores
 * read the Pending payments' partial index instead of the table.
 */
const HOLD_RECONCILER_SQL = `UPDATE payments SET reconcile_at_ms = NULL WHERE status = 'Pending' AND expires_at_ms IS NOT NULL AND reconcile_at_ms IS NOT NULL`;

/**
 * Runs one of the statements above on the service's store, straight (not through the service), with
 * `$1`, `$2` ... taking `parameters` in order; answers the rows changed.
 */
async function runOnStore(database: BenchContext['database'], statement: string, parameters: readonly number[]): Promise<number> {
  if (database.sqliteFile) {
    const db = new SQLite(database.sqliteFile);
    try {
      db.pragma('busy_timeout = 30000');
      // SQLite's `?` binds in order of appearance: `$n` becomes `?` with the n-th value, once per use.
      const inOrder = [...statement.matchAll(/\$(\d)/g)].map((use) => parameters[Number(use[1]) - 1]);
      return db.prepare(statement.replaceAll(/\$\d/g, '?')).run(...inOrder).changes;
    } finally {
      db.close();
    }
  }
  if (database.pgSchema) {
    const client = new pg.Client({ connectionString: BENCH_PG_URL, options: `-c search_path=${database.pgSchema}` });
    await client.connect();
    try {
      return (await client.query(statement, [...parameters])).rowCount ?? 0;
    } finally {
      await client.end();
    }
  }
  throw new Error('the service has neither a SQLite file nor a PostgreSQL schema the bench can reach');
}

/** Marks every Pending payment of the store Expired, completed now; answers how many. */
export function retirePendingPayments(database: BenchContext['database'], nowMs = Date.now()): Promise<number> {
  return runOnStore(database, RETIRE_SQL, [nowMs]);
}

/** Takes the reconciler's next question off every Pending payment (HOLD_RECONCILER_SQL); answers how many. */
export function holdReconciler(database: BenchContext['database']): Promise<number> {
  return runOnStore(database, HOLD_RECONCILER_SQL, []);
}

/** BenchCase.finish of the cases that leave payments Pending. */
export const retireLeftoverPayments = (ctx: BenchContext): Promise<number> => retirePendingPayments(ctx.database);
