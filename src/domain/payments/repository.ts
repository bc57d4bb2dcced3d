// Reads and claims on the payments table. Every state change elsewhere is a conditional update
// (WHERE status = ...), so concurrent callbacks, jobs and requests can race without double effects.
import { GroupBatch } from '../../core/group-batch.js';
import { HotBatchQuery, HotQuery, HotRowInsert, HotRowsInsert } from '../../store/hot-query.js';
import type { Executor } from '../../store/schema.js';
import type { PaymentsTable } from './payment-rows.js';
import { PAYMENT_RECORD_COLUMNS, type PaymentRecordRow } from './records.js';

export async function findByRef(db: Executor, transactionRef: string): Promise<PaymentsTable | undefined> {
  return db.selectFrom('payments').selectAll().where('transaction_ref', '=', transactionRef).executeTakeFirst();
}

/** A merchant's payment by either reference; another merchant's payment reads as missing. */
export async function findForMerchant(
  db: Executor,
  merchantId: string,
  query: { readonly transactionRef: string } | { readonly merchantRef: string },
): Promise<PaymentsTable | undefined> {
  const base = db.selectFrom('payments').selectAll().where('merchant_id', '=', merchantId);
  return 'transactionRef' in query
    ? base.where('transaction_ref', '=', query.transactionRef).executeTakeFirst()
    : base.where('merchant_ref', '=', query.merchantRef).executeTakeFirst();
}

/** payment/status's read by merchantRef: only the record's columns, compiled once. */
const recordByMerchantRef = new HotQuery(2, (db, merchantId: string, merchantRef: string) =>
  db.selectFrom('payments').select(PAYMENT_RECORD_COLUMNS).where('merchant_id', '=', merchantId).where('merchant_ref', '=', merchantRef),
);

/** Records by transactionRef with their owner, compiled once per number of refs. */
const recordsByTransactionRef = new HotBatchQuery(1, (db, _count, refs) =>
  db
    .selectFrom('payments')
    .select([...PAYMENT_RECORD_COLUMNS, 'merchant_id'])
    .where('transaction_ref', 'in', refs as string[]),
);

interface RecordRead {
  readonly merchantId: string;
  readonly transactionRef: string;
}

/** Bounded so one read stays a small statement. */
const MAX_READS_PER_BATCH = 100;

/**
 * payment/status's reads outside any transaction. Lookups by transactionRef arriving together share
 * one statement (on PostgreSQL a round trip each was most of the read's cost); each answers only a
 * payment of the merchant that asked, so another merchant's payment reads as missing.
 */
export class PaymentRecordReads {
  private readonly byTransactionRef = new GroupBatch<RecordRead, PaymentRecordRow | undefined>(MAX_READS_PER_BATCH, (batch) =>
    this.readAll(batch),
  );

  constructor(private readonly db: Executor) {}

  find(merchantId: string, query: { readonly transactionRef: string } | { readonly merchantRef: string }): Promise<PaymentRecordRow | undefined> {
    return 'transactionRef' in query
      ? this.byTransactionRef.add({ merchantId, transactionRef: query.transactionRef })
      : recordByMerchantRef.executeTakeFirst(this.db, merchantId, query.merchantRef);
  }

  private async readAll(batch: readonly RecordRead[]): Promise<(PaymentRecordRow | undefined)[]> {
    const rows = await recordsByTransactionRef.execute(this.db, [...new Set(batch.map((read) => read.transactionRef))]);
    const byRef = new Map(rows.map((row) => [row.transaction_ref, row]));
    return batch.map((read) => {
      const row = byRef.get(read.transactionRef);
      return row !== undefined && row.merchant_id === read.merchantId ? row : undefined;
    });
  }
}

export async function findByTokenHash(db: Executor, tokenHash: string): Promise<PaymentsTable | undefined> {
  return db.selectFrom('payments').selectAll().where('checkout_token_hash', '=', tokenHash).executeTakeFirst();
}

/** Inserts unless the merchant already used this merchantRef; true when this call created the row. */
export async function insertIfNew(db: Executor, row: PaymentsTable): Promise<boolean> {
  return (await insertPayment.executeTakeFirst(db, row)) !== undefined;
}

/** payment/initiate's one-row insert, compiled once (store/hot-query.ts). */
const insertPayment = new HotRowInsert((db, row: PaymentsTable) =>
  db
    .insertInto('payments')
    .values(row)
    .onConflict((oc) => oc.columns(['merchant_id', 'merchant_ref']).doNothing())
    .returning('transaction_ref'),
);

/** payment/initiate's group-committed insert, compiled once per number of rows (store/hot-query.ts). */
const insertPayments = new HotRowsInsert((db, rows: readonly PaymentsTable[]) =>
  db
    .insertInto('payments')
    .values([...rows])
    .onConflict((oc) => oc.columns(['merchant_id', 'merchant_ref']).doNothing())
    .returning('transaction_ref'),
);

/**
 * Inserts each row unless its merchant already used its merchantRef (another row of the same list
 * included: the first one wins), in one statement and so one commit; answers the transactionRefs
 * of the rows it created.
 */
export async function insertAllIfNew(db: Executor, rows: readonly PaymentsTable[]): Promise<Set<string>> {
  const inserted = await insertPayments.execute(db, rows);
  return new Set(inserted.map((r) => r.transaction_ref));
}

/**
 * The four queues' reads, as queries (each job runs them through the functions below; the tests of
 * migration 0020 plan them as they are): each compares its queue's due time, which is what lets both
 * stores read the queue's partial index for it (payment-migrations.ts).
 */
export const collectionsDueQuery = (db: Executor, nowMs: bigint, limit: number) =>
  db
    .selectFrom('payments')
    .selectAll()
    .where('collection_state', '=', 'requested')
    .where('collection_next_at_ms', '<=', nowMs)
    .where((eb) => eb.or([eb('collection_lease_until_ms', 'is', null), eb('collection_lease_until_ms', '<=', nowMs)]))
    .orderBy('collection_next_at_ms')
    .limit(limit);

export const expiredPendingQuery = (db: Executor, nowMs: bigint, limit: number) =>
  db
    .selectFrom('payments')
    .selectAll()
    .where('status', '=', 'Pending')
    .where('expires_at_ms', '<=', nowMs)
    .where((eb) => eb.or([eb('reconcile_at_ms', 'is', null), eb('reconcile_at_ms', '<=', nowMs)]))
    .orderBy('expires_at_ms')
    .limit(limit);

export const reconciliationsDueQuery = (db: Executor, nowMs: bigint, limit: number) =>
  db
    .selectFrom('payments')
    .selectAll()
    .where('status', '=', 'Pending')
    .where('reconcile_at_ms', '<=', nowMs)
    .where('expires_at_ms', '>', nowMs)
    .orderBy('reconcile_at_ms')
    .limit(limit);

export const refundsDueQuery = (db: Executor, nowMs: bigint, limit: number) =>
  db.selectFrom('payments').selectAll().where('refund_state', '=', 'requested').where('refund_next_at_ms', '<=', nowMs).orderBy('refund_next_at_ms').limit(limit);

/**
 * The collection job's read of due payments, compiled once: the job runs it whenever it has free slots.
 * On PostgreSQL it is planned for each call's values, not once for any (a generic plan of a range
 * over the due time could not know how few rows are due).
 */
const dueCollections = new HotQuery(2, collectionsDueQuery, { preparedOnServer: false });

/** Payments whose collection the channel should be asked for now: due, and no worker's lease on them. */
export async function collectionsDue(db: Executor, nowMs: number, limit: number): Promise<PaymentsTable[]> {
  return dueCollections.execute(db, BigInt(nowMs), limit);
}

/** The same test for one row as read: its collection is still to be asked for, it is due, and nobody holds it. */
export function collectionIsDue(row: PaymentsTable, nowMs: number): boolean {
  const lease = row.collection_lease_until_ms;
  return row.collection_state === 'requested' && Number(row.collection_next_at_ms) <= nowMs && (lease === null || Number(lease) <= nowMs);
}

/** Pending payments past their expiry, oldest first, skipping those waiting to ask the channel again. */
export async function expiredPending(db: Executor, nowMs: number, limit: number): Promise<PaymentsTable[]> {
  return expiredPendingQuery(db, BigInt(nowMs), limit).execute();
}

/** Pending payments, not yet expired, whose collection the channel should be asked about. */
export async function reconciliationsDue(db: Executor, nowMs: number, limit: number): Promise<PaymentsTable[]> {
  return reconciliationsDueQuery(db, BigInt(nowMs), limit).execute();
}

/** Refunds whose outcome the channel has not confirmed and whose lease ran out. */
export async function refundsDue(db: Executor, nowMs: number, limit: number): Promise<PaymentsTable[]> {
  return refundsDueQuery(db, BigInt(nowMs), limit).execute();
}

/**
 * Every new payment's claim, compiled once. On PostgreSQL it is planned with each call's values: a
 * plan made once for any values took the collection queue's index (then `payments_collection_due`,
 * collection_state = $n) for the primary key when the table's statistics could not tell them apart (a
 * table not yet analyzed), and every claim walked every payment still waiting for its collection
 * (session 17: 5 ms a claim). Since 0020 the queue's index names the due time in its condition, which
 * this update does not compare, so no plan of it can use the queue (payment-migrations.ts).
 */
const collectionClaim = new HotQuery(
  4,
  (db, leaseUntilMs: bigint, attempts: bigint, transactionRef: string, attemptsRead: bigint) =>
    db
      .updateTable('payments')
      .set({ collection_lease_until_ms: leaseUntilMs, collection_attempts: attempts })
      .where('transaction_ref', '=', transactionRef)
      .where('collection_state', '=', 'requested')
      .where('collection_attempts', '=', attemptsRead),
  { preparedOnServer: false },
);

/**
 * Takes a collection request for this worker until `leaseUntilMs`: succeeds only if no other claim
 * came between (every claim counts an attempt) and the request is still to be made, so two workers
 * never ask the channel at the same time. It writes only columns in no index (`collection_attempts`,
 * `collection_lease_until_ms`): no index entry is rewritten, and on PostgreSQL it is a HOT update
 * when the page has room.
 */
export async function claimCollection(db: Executor, row: PaymentsTable, leaseUntilMs: number): Promise<boolean> {
  return (await collectionClaim.affected(db, BigInt(leaseUntilMs), row.collection_attempts + 1n, row.transaction_ref, row.collection_attempts)) === 1n;
}

/**
 * Takes a pending payment for this worker's reconciliation or expiry until `leaseUntilMs`: moves its
 * reconcile time there only if it still holds the value read, so one worker asks the channel. A
 * reconciliation's lease is its next regular time (reconciler.ts), an expiry's CLAIM_LEASE_MS.
 */
export async function claimReconciliation(db: Executor, row: PaymentsTable, leaseUntilMs: number): Promise<boolean> {
  const result = await db
    .updateTable('payments')
    .set({ reconcile_at_ms: BigInt(leaseUntilMs) })
    .where('transaction_ref', '=', row.transaction_ref)
    .where('status', '=', 'Pending')
    .where((eb) => (row.reconcile_at_ms === null ? eb('reconcile_at_ms', 'is', null) : eb('reconcile_at_ms', '=', row.reconcile_at_ms)))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** The same for a refund whose outcome is unknown. */
export async function claimRefund(db: Executor, row: PaymentsTable, leaseUntilMs: number): Promise<boolean> {
  if (row.refund_ref === null || row.refund_next_at_ms === null) return false;
  const result = await db
    .updateTable('payments')
    .set({ refund_next_at_ms: BigInt(leaseUntilMs), refund_attempts: row.refund_attempts + 1n })
    .where('transaction_ref', '=', row.transaction_ref)
    .where('refund_state', '=', 'requested')
    .where('refund_ref', '=', row.refund_ref)
    .where('refund_next_at_ms', '=', row.refund_next_at_ms)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
