// The payouts' queues after migration 0021_payouts_live_queues: each index's condition names its time
// column, so the jobs' queries (which compare it) still read the small partial indexes, and a payout's
// own conditional updates (by transactionRef, checking its status) are planned on the primary key even
// when the statistics were taken before a backlog arrived. Before 0021 PostgreSQL planned those updates
// on `payouts_status_updated` and read every payout of the status for each.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { approvalsExpired } from '../../src/domain/payouts/approvals.js';
import { freeDueRows, stuckPayouts, submissionsDue } from '../../src/domain/payouts/payout-repository.js';
import type { PayoutStatus, PayoutsTable } from '../../src/domain/payouts/payout-rows.js';
import { MIGRATIONS } from '../../src/migrations.js';
import { payoutsInFlight } from '../../src/routing/connector-metrics.js';
import type { Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrator.js';
import { insertMerchant, T0_MS } from '../ledger/helpers.js';
import { indexNamesOf, planOf } from '../helpers/plans.js';
import { storedPayout } from './helpers.js';
import { openStoreBefore } from '../helpers/store.js';

const STORE = process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite';
const M = 'm-queues';
const NOW = T0_MS + 3_600_000;
/** Final payouts written before the statistics are taken: enough for PostgreSQL to plan by them. */
const HISTORY = 20_000;

function payout(ref: string, status: PayoutStatus, at: { due?: number; updated?: number; approvalExpires?: number } = {}): PayoutsTable {
  return storedPayout(M, ref, status, {
    submit_attempts: status === 'Initiated' ? 0n : 1n,
    next_action_at_ms: at.due === undefined ? null : BigInt(at.due),
    updated_at_ms: BigInt(at.updated ?? T0_MS),
    approval_expires_at_ms: at.approvalExpires === undefined ? null : BigInt(at.approvalExpires),
  });
}

/** `HISTORY` final payouts, written before the statistics are taken. */
async function writeHistory(store: Store): Promise<void> {
  await insertMerchant(store.db, M);
  for (let i = 0; i < HISTORY; i += 200) {
    const done = Array.from({ length: 200 }, (_, k) => payout(`done-${i + k}`, (i + k) % 2 === 0 ? 'Success' : 'Failed'));
    await store.db.insertInto('payouts').values(done).execute();
  }
  await sql`ANALYZE payouts`.execute(store.db);
}

const PRIMARY_KEY = STORE === 'SQLite' ? 'sqlite_autoindex_payouts_1' : 'payouts_pkey';

describe(`migration 0021_payouts_live_queues (${STORE})`, () => {
  it("keeps the jobs' queries on the small indexes and a payout's own updates on its primary key", async () => {
    const { store, location } = await openStoreBefore('0021_payouts_live_queues');
    try {
      await writeHistory(store);
      // The bank was down: 300 payouts wait to be sent, 20 wait for the bank's answer (5 of them stuck
      // for an hour), 5 wait for approval.
      const backlog = [
        ...Array.from({ length: 300 }, (_, i) => payout(`init-${i}`, 'Initiated', { due: T0_MS + i * 1_000 })),
        ...Array.from({ length: 20 }, (_, i) => payout(`proc-${i}`, 'Processing', { due: NOW + 60_000, updated: i < 5 ? T0_MS : NOW - 60_000 })),
        ...Array.from({ length: 5 }, (_, i) => payout(`approval-${i}`, 'PendingApproval', { approvalExpires: NOW + 3_600_000 })),
      ];
      for (let i = 0; i < backlog.length; i += 100) await store.db.insertInto('payouts').values(backlog.slice(i, i + 100)).execute();

      const due = () => freeDueRows(store.db, NOW, submissionsDue(NOW, 16));
      const stuck = async () => (await stuckPayouts(store.db, NOW, 30 * 60_000, 50)).map((r) => r.transaction_ref);
      const inFlight = async () => (await payoutsInFlight(store.db).execute()).map((r) => `${r.channel}/${r.status}/${Number(r.n)}`).sort();
      const before = { due: (await due().execute()).map((r) => r.transaction_ref), stuck: await stuck(), inFlight: await inFlight() };
      expect(before.due).toHaveLength(16);
      expect(before.stuck).toEqual(['proc-0', 'proc-1', 'proc-2', 'proc-3', 'proc-4']);
      expect(before.inFlight).toEqual(['simulator/Initiated/300', 'simulator/Processing/20']);

      await migrate(store.db, MIGRATIONS, location.databaseSchema);
      const names = await indexNamesOf(store, 'payouts');
      expect(names).toEqual(expect.arrayContaining(['payouts_live_due', 'payouts_processing_updated']));
      expect(names).not.toContain('payouts_status_updated');
      expect({ due: (await due().execute()).map((r) => r.transaction_ref), stuck: await stuck(), inFlight: await inFlight() }).toEqual(before);

      // The jobs' reads and the /metrics count each read a partial queue index.
      const reads = {
        payouts_live_due: [due(), payoutsInFlight(store.db)],
        payouts_processing_updated: [
          store.db
            .selectFrom('payouts')
            .selectAll()
            .where('status', '=', 'Processing')
            .where('updated_at_ms', '<=', BigInt(NOW - 30 * 60_000))
            .orderBy('updated_at_ms')
            .limit(50),
        ],
      };
      for (const [index, queries] of Object.entries(reads)) {
        for (const query of queries) expect(await planOf(store, query.compile())).toContain(index);
      }

      // A payout's own updates, shaped as the submission job's and the outcomes' are.
      const ref = 'init-10';
      const lease = BigInt(NOW + 45_000);
      const ownUpdates = [
        store.db
          .updateTable('payouts')
          .set({ locked_until_ms: lease, submit_attempts: 1n })
          .where('transaction_ref', '=', ref)
          .where('status', '=', 'Initiated')
          .where('submit_attempts', '=', 0n)
          .where((eb) => eb.or([eb('locked_until_ms', 'is', null), eb('locked_until_ms', '<=', BigInt(NOW))])),
        store.db.updateTable('payouts').set({ status: 'Processing', updated_at_ms: BigInt(NOW) }).where('transaction_ref', '=', ref).where('status', 'in', ['Initiated']),
        store.db
          .updateTable('payouts')
          .set({ status: 'Success', next_action_at_ms: null, completed_at_ms: BigInt(NOW) })
          .where('transaction_ref', '=', ref)
          .where('status', 'in', ['Initiated', 'Processing']),
        store.db
          .updateTable('payouts')
          .set({ locked_until_ms: null, next_action_at_ms: BigInt(NOW + 5_000) })
          .where('transaction_ref', '=', ref)
          .where('locked_until_ms', '=', lease)
          .where('status', 'in', ['Initiated', 'Processing']),
      ];
      for (const query of ownUpdates) expect(await planOf(store, query.compile())).toContain(PRIMARY_KEY);
    } finally {
      await store.close();
      await location.drop();
    }
  });
});

describe(`migration 0022_payouts_approval_deadlines (${STORE})`, () => {
  it("keeps the approval expiry on the deadlines' index and a decision on the payout's primary key", async () => {
    const { store, location } = await openStoreBefore('0022_payouts_approval_deadlines');
    try {
      await writeHistory(store);
      // A batch of 300 payouts waits for approval, all with one deadline; 5 passed theirs.
      const waiting = [
        ...Array.from({ length: 300 }, (_, i) => payout(`approval-${i}`, 'PendingApproval', { approvalExpires: NOW + 3_600_000 })),
        ...Array.from({ length: 5 }, (_, i) => payout(`lapsed-${i}`, 'PendingApproval', { approvalExpires: NOW - 60_000 + i })),
      ];
      for (let i = 0; i < waiting.length; i += 100) await store.db.insertInto('payouts').values(waiting.slice(i, i + 100)).execute();
      const expired = async () => (await freeDueRows(store.db, NOW, approvalsExpired(NOW, 16)).execute()).map((r) => r.transaction_ref);
      expect(await expired()).toEqual(['lapsed-0', 'lapsed-1', 'lapsed-2', 'lapsed-3', 'lapsed-4']);

      await migrate(store.db, MIGRATIONS, location.databaseSchema);
      expect(await expired()).toEqual(['lapsed-0', 'lapsed-1', 'lapsed-2', 'lapsed-3', 'lapsed-4']);
      expect(await planOf(store, freeDueRows(store.db, NOW, approvalsExpired(NOW, 16)).compile())).toContain('payouts_approval_due');

      // An approval (as approvePayout writes it) and a rejection (closePayout from PendingApproval).
      const ref = 'approval-7';
      const decisions = [
        store.db
          .updateTable('payouts')
          .set({ status: 'Initiated', approval_expires_at_ms: null, next_action_at_ms: BigInt(NOW) })
          .where('transaction_ref', '=', ref)
          .where('status', '=', 'PendingApproval')
          .where(sql<bigint>`coalesce(approval_expires_at_ms, 0)`, '>', BigInt(NOW)),
        store.db.updateTable('payouts').set({ status: 'Failed', completed_at_ms: BigInt(NOW) }).where('transaction_ref', '=', ref).where('status', 'in', ['PendingApproval']),
      ];
      for (const query of decisions) expect(await planOf(store, query.compile())).toContain(PRIMARY_KEY);
    } finally {
      await store.close();
      await location.drop();
    }
  });
});
