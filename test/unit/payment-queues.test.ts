// The payments table's work queues as partial indexes (migration 0020_payments_live_queues): after the
// migration each queue's query still finds exactly the rows due, each store plans it on its own small
// index, and a finished payment is in none of them.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import type { PaymentsTable } from '../../src/domain/payments/payment-rows.js';
import {
  collectionsDue,
  collectionsDueQuery,
  expiredPending,
  expiredPendingQuery,
  reconciliationsDue,
  reconciliationsDueQuery,
  refundsDue,
  refundsDueQuery,
} from '../../src/domain/payments/repository.js';
import { MIGRATIONS } from '../../src/migrations.js';
import { collectionsWaiting } from '../../src/routing/connector-metrics.js';
import type { Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrator.js';
import { indexNamesOf, planOf } from '../helpers/plans.js';
import { openStoreBefore, openTestStore } from '../helpers/store.js';
import { storedPayment } from '../payments/api-helpers.js';

const STORE = process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite';
const NOW_MS = 1_800_000_000_000;
const MINUTE = 60_000;
/** Finished payments written before the statistics are taken: enough for PostgreSQL to plan by them. */
const HISTORY = Number(process.env.PAYMENT_QUEUES_HISTORY ?? 20_000);
const QUEUE_INDEXES = ['payments_pending_expiry', 'payments_collection_requested', 'payments_reconcile_at', 'payments_refund_requested'];
const OLD_INDEXES = ['payments_expiry', 'payments_collection_due', 'payments_reconcile_due', 'payments_refund_due'];

let counter = 0;
function payment(label: string, overrides: Partial<PaymentsTable>): PaymentsTable {
  counter += 1;
  return storedPayment('mch_queues', `${label}-${newId()}`, NOW_MS - 10 * MINUTE, {
    merchant_ref: `queues-${counter}`,
    expires_at_ms: BigInt(NOW_MS + 20 * MINUTE),
    ...overrides,
  });
}

/** `count` payments finished long ago, written in chunks: the table's history. */
async function writeHistory(store: Store, count: number): Promise<void> {
  for (let i = 0; i < count; i += 250) {
    const finished = Array.from({ length: Math.min(250, count - i) }, (_, k) =>
      payment(`old-${i + k}`, { status: 'Expired', collection_state: 'failed', expires_at_ms: BigInt(NOW_MS - 60 * MINUTE), completed_at_ms: BigInt(NOW_MS - 60 * MINUTE) }),
    );
    await store.db.insertInto('payments').values(finished).execute();
  }
}

describe(`migration 0020_payments_live_queues (${STORE})`, () => {
  it('keeps every queue answering the same rows from small indexes, and keeps them out of a payment\'s own updates', async () => {
    const { store, location } = await openStoreBefore('0020_payments_live_queues');
    try {
      await store.db
        .insertInto('merchants')
        .values({ id: 'mch_queues', name: 'Queues', status: 'active', mode: 'sandbox', rate_limit_per_second: 100n, webhook_secret_enc: 'x', created_at_ms: 0n, updated_at_ms: 0n } as never)
        .execute();
      // The table's statistics are taken while nothing waits in any queue (as after a quiet night).
      await writeHistory(store, HISTORY);
      await sql`ANALYZE payments`.execute(store.db);
      const rows = {
        toCollect: payment('collect', {}),
        collectLater: payment('later', { collection_next_at_ms: BigInt(NOW_MS + MINUTE) }),
        ready: payment('ready', { collection_state: 'ready', upstream_ref: 'up-1', reconcile_at_ms: BigInt(NOW_MS - MINUTE) }),
        readyLater: payment('ready-later', { collection_state: 'ready', upstream_ref: 'up-2', reconcile_at_ms: BigInt(NOW_MS + MINUTE) }),
        expired: payment('expired', { collection_state: 'ready', upstream_ref: 'up-3', reconcile_at_ms: BigInt(NOW_MS - MINUTE), expires_at_ms: BigInt(NOW_MS - MINUTE) }),
        refunding: payment('refunding', {
          status: 'Success',
          collection_state: 'ready',
          upstream_ref: 'up-4',
          completed_at_ms: BigInt(NOW_MS - 5 * MINUTE),
          refund_state: 'requested',
          refund_ref: 'rf-1',
          refund_next_at_ms: BigInt(NOW_MS - MINUTE),
        }),
        finished: payment('finished', { status: 'Expired', collection_state: 'failed', expires_at_ms: BigInt(NOW_MS - 30 * MINUTE), completed_at_ms: BigInt(NOW_MS - 30 * MINUTE) }),
        refunded: payment('refunded', { status: 'Refund', collection_state: 'ready', upstream_ref: 'up-5', refund_state: 'done', refund_ref: 'rf-2', refund_next_at_ms: null }),
      };
      await store.db.insertInto('payments').values(Object.values(rows)).execute();
      expect(await indexNamesOf(store, 'payments')).toEqual(expect.arrayContaining(OLD_INDEXES));

      const queues = async () => ({
        collect: (await collectionsDue(store.db, NOW_MS, 50)).map((r) => r.transaction_ref),
        expire: (await expiredPending(store.db, NOW_MS, 50)).map((r) => r.transaction_ref),
        reconcile: (await reconciliationsDue(store.db, NOW_MS, 50)).map((r) => r.transaction_ref),
        refund: (await refundsDue(store.db, NOW_MS, 50)).map((r) => r.transaction_ref),
      });
      const expected = {
        collect: [rows.toCollect.transaction_ref],
        expire: [rows.expired.transaction_ref],
        reconcile: [rows.ready.transaction_ref],
        refund: [rows.refunding.transaction_ref],
      };
      expect(await queues()).toEqual(expected);

      await migrate(store.db, MIGRATIONS, location.databaseSchema);
      const names = await indexNamesOf(store, 'payments');
      expect(names).toEqual(expect.arrayContaining(QUEUE_INDEXES));
      for (const old of OLD_INDEXES) expect(names).not.toContain(old);
      expect(await queues()).toEqual(expected);

      // A backlog builds up (the channel was down): 300 payments wait for their collection.
      await store.db
        .insertInto('payments')
        .values(Array.from({ length: 300 }, (_, i) => payment(`backlog-${i}`, {})))
        .execute();

      // Each queue's query, as the repository builds it, reads one of the queues' small indexes.
      const limit = 50;
      const now = BigInt(NOW_MS);
      // So does the /metrics count of payments waiting for their collection.
      const queueReads = [
        ...[collectionsDueQuery, expiredPendingQuery, reconciliationsDueQuery, refundsDueQuery].map((query) => query(store.db, now, limit).compile()),
        collectionsWaiting(store.db).compile(),
      ];
      for (const compiled of queueReads) {
        const plan = await planOf(store, compiled);
        expect(QUEUE_INDEXES.some((index) => plan.includes(index)), plan).toBe(true);
      }

      // A payment's own conditional updates (by transactionRef, checking its state) never walk a queue:
      // each queue's condition names its due time, which these updates do not compare. Before 0020,
      // PostgreSQL planned them on the collection queue when its statistics were older than the
      // backlog, as here, and each update read the whole backlog.
      const byRef = rows.toCollect.transaction_ref;
      const ownUpdates = [
        store.db
          .updateTable('payments')
          .set({ collection_state: 'ready', collection_json: '{}', upstream_ref: 'up-9', reconcile_at_ms: now })
          .where('transaction_ref', '=', byRef)
          .where('collection_state', '=', 'requested'),
        store.db
          .updateTable('payments')
          .set({ collection_lease_until_ms: now, collection_attempts: 1n })
          .where('transaction_ref', '=', byRef)
          .where('collection_state', '=', 'requested')
          .where('collection_attempts', '=', 0n),
        store.db.updateTable('payments').set({ status: 'Failed', reconcile_at_ms: null }).where('transaction_ref', '=', byRef).where('status', '=', 'Pending'),
      ];
      const primaryKey = STORE === 'SQLite' ? 'sqlite_autoindex_payments_1' : 'payments_pkey';
      for (const query of ownUpdates) expect(await planOf(store, query.compile())).toContain(primaryKey);
    } finally {
      await store.close();
      await location.drop();
    }
  });
});

describe(`the payments' queue reads as SQLite plans them shipped, without statistics (${STORE})`, () => {
  it('reads a queue index for every queue and for the /metrics count of waiting collections', async () => {
    // The service never runs ANALYZE on SQLite. Without statistics SQLite read the /metrics count through
    // payments_channel_created (every payment, in channel order, for its GROUP BY) until the count also
    // grouped by its due-time test (docs/benchmarks.md, session 36).
    const store = await openTestStore();
    try {
      const now = BigInt(NOW_MS);
      const reads = [
        ...[collectionsDueQuery, expiredPendingQuery, reconciliationsDueQuery, refundsDueQuery].map((query) => query(store.db, now, 50).compile()),
        collectionsWaiting(store.db).compile(),
      ];
      for (const compiled of reads) {
        const plan = await planOf(store, compiled);
        expect(QUEUE_INDEXES.some((index) => plan.includes(index)), plan).toBe(true);
      }
    } finally {
      await store.close();
      await store.location.drop();
    }
  });
});
