// Reads, claims and schedule updates on the payouts table. Every state change is a conditional
// update (WHERE status = ... / WHERE locked_until_ms = <my lease>), so concurrent callbacks, jobs,
// operators and requests can race without double effects.
import { CompiledQuery, sql, type SelectQueryBuilder } from 'kysely';
import type { PgReservedRecord } from '../../ledger/pg-posting.js';
import type { StoreKind } from '../../store/db.js';
import { BatchedLookup, HotBatchQuery, HotQuery, HotRowInsert } from '../../store/hot-query.js';
import type { Database, Db, Executor } from '../../store/schema.js';
import { withTransaction } from '../../store/transactions.js';
import { LIVE_PAYOUT_STATUSES } from './payout-statuses.js';
import { PAYOUT_COLUMN_KINDS, type PayoutStatus, type PayoutsTable } from './payout-rows.js';

// The statements every payout's life runs (intake's insert, the submission job's lease and attempt
// updates, the read behind each callback) are compiled once (store/hot-query.ts), not built by
// Kysely on every call.
const payoutByRef = new HotQuery(1, (db, transactionRef: string) => db.selectFrom('payouts').selectAll().where('transaction_ref', '=', transactionRef));

export async function findPayoutByRef(db: Executor, transactionRef: string): Promise<PayoutsTable | undefined> {
  return payoutByRef.executeTakeFirst(db, transactionRef);
}

/** Payouts by transactionRef, compiled once per number of refs. */
const payoutsByRefs = new BatchedLookup(
  payoutByRef,
  new HotBatchQuery(1, (db, _count, refs) => db.selectFrom('payouts').selectAll().where('transaction_ref', 'in', refs as string[])),
  (row: PayoutsTable) => row.transaction_ref,
);

/**
 * findPayoutByRef outside any transaction (a channel's news about a payout): on PostgreSQL the lookups
 * that arrive together share one statement, one round trip instead of one each.
 */
export function readPayoutByRef(db: Db, transactionRef: string): Promise<PayoutsTable | undefined> {
  return payoutsByRefs.read(db, transactionRef);
}

/** A merchant's payout by either reference; another merchant's payout reads as missing. */
export async function findPayoutForMerchant(
  db: Executor,
  merchantId: string,
  query: { readonly transactionRef: string } | { readonly merchantRef: string },
): Promise<PayoutsTable | undefined> {
  const base = db.selectFrom('payouts').selectAll().where('merchant_id', '=', merchantId);
  return 'transactionRef' in query
    ? base.where('transaction_ref', '=', query.transactionRef).executeTakeFirst()
    : base.where('merchant_ref', '=', query.merchantRef).executeTakeFirst();
}

/** Inserts unless the merchant already used this merchantRef for a payout; true when this call created the row. */
export async function insertPayoutIfNew(db: Executor, row: PayoutsTable): Promise<boolean> {
  return (await insertPayout.executeTakeFirst(db, row)) !== undefined;
}

/** payout/initiate's insert, compiled once (store/hot-query.ts). */
const insertPayout = new HotRowInsert((db, row: PayoutsTable) =>
  db
    .insertInto('payouts')
    .values(row)
    .onConflict((oc) => oc.columns(['merchant_id', 'merchant_ref']).doNothing())
    .returning('transaction_ref'),
);

/**
 * The payout row as the ledger's one-statement reservation writes it on PostgreSQL (intake.ts): every
 * column, typed, and the merchantRef's unique pair, whose conflict writes nothing.
 */
export const PAYOUT_RECORD: PgReservedRecord = {
  table: 'payouts',
  conflictColumns: ['merchant_id', 'merchant_ref'],
  columns: Object.entries(PAYOUT_COLUMN_KINDS),
};

/** A payout row's values in PAYOUT_RECORD's column order. */
export const payoutRecordValues = (row: PayoutsTable): unknown[] => PAYOUT_RECORD.columns.map(([name]) => row[name as keyof PayoutsTable]);

/** Rows per multi-row insert: well under SQLite's bound on statement parameters. */
const INSERT_CHUNK = 25;

/** insertPayoutIfNew for many rows, a few statements in all; answers the transactionRefs this call created. */
export async function insertPayoutsIfNew(db: Executor, rows: readonly PayoutsTable[]): Promise<Set<string>> {
  const created = new Set<string>();
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const inserted = await db
      .insertInto('payouts')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) => oc.columns(['merchant_id', 'merchant_ref']).doNothing())
      .returning('transaction_ref')
      .execute();
    for (const row of inserted) created.add(row.transaction_ref);
  }
  return created;
}

/** Removes payouts written earlier in the caller's transaction (a batch's items that found the balance short). */
export async function deleteUncommittedPayouts(db: Executor, transactionRefs: readonly string[]): Promise<void> {
  for (let i = 0; i < transactionRefs.length; i += INSERT_CHUNK) {
    await db.deleteFrom('payouts').where('transaction_ref', 'in', transactionRefs.slice(i, i + INSERT_CHUNK)).execute();
  }
}

/**
 * A payout the submission job claimed. `firstAttemptRecorded`: it was Initiated and never sent, and
 * the claim's own statement counted its first submission (`submit_attempts` 1, committed before the
 * request leaves, as recordSubmitAttempt would), so the job sends it without another write.
 */
export interface ClaimedPayout extends PayoutsTable {
  readonly firstAttemptRecorded: boolean;
}

/**
 * Claims up to `limit` payouts whose next action is due and that no live worker holds, with a lease
 * until `leaseUntilMs` (which is also the claim's token: later updates check it). The job that claims
 * a payout works on it at once, so a payout never sent has its first submission counted by the claim.
 */
export async function claimDuePayouts(db: Db, kind: StoreKind, nowMs: number, leaseUntilMs: number, limit: number): Promise<ClaimedPayout[]> {
  const claimed = await claimWithLease(db, kind, nowMs, leaseUntilMs, submissionsDue(nowMs, limit), true);
  return claimed.map((row) => {
    const firstAttemptRecorded = neverSent(row);
    return { ...row, submit_attempts: firstAttemptRecorded ? 1n : row.submit_attempts, firstAttemptRecorded };
  });
}

/**
 * The live statuses written into the claim's SQL as literals, not parameters: only then can either
 * store's planner prove the partial index `payouts_live_due` (0018) covers the query and read it in
 * due order, whatever plan it caches.
 */
const LIVE_STATUS_LITERALS = LIVE_PAYOUT_STATUSES.map((status) => sql.lit(status));

/** The submission job's pick: the earliest `limit` live payouts due by `nowMs`, in due order. */
export const submissionsDue =
  (nowMs: number, limit: number): DueSelection =>
  (query) =>
    query.where('status', 'in', LIVE_STATUS_LITERALS).where('next_action_at_ms', '<=', BigInt(nowMs)).orderBy('next_action_at_ms').limit(limit);

/** An Initiated payout no submission was ever recorded for: the upstream cannot have it. */
export const neverSent = (row: Pick<PayoutsTable, 'status' | 'submit_attempts'>): boolean => row.status === 'Initiated' && row.submit_attempts === 0n;

/** The payouts a job may claim: `select` narrows the free rows (status, due time, order, limit). */
type PayoutQuery = SelectQueryBuilder<Database, 'payouts', PayoutsTable>;
export type DueSelection = (query: PayoutQuery) => PayoutQuery;

/** The rows no live lease holds (none, or one run out by `nowMs`), narrowed by `select`: what a claim reads. */
export const freeDueRows = (executor: Executor, nowMs: number, select: DueSelection): PayoutQuery =>
  select(executor.selectFrom('payouts').selectAll().where((eb) => eb.or([eb('locked_until_ms', 'is', null), eb('locked_until_ms', '<=', BigInt(nowMs))])));

/**
 * The planner settings of a PostgreSQL claim's transaction. A queue's statistics are always wrong: the
 * live rows a claim looks for come and go between two ANALYZEs, so the planner, told the table holds
 * a handful of them, read every due row by bitmap and sorted them (measured with a backlog of 3,000:
 * 3.6 ms a claim of 16, against tens of µs for the ordered walk). With these off for this transaction
 * only, a claim walks its index in due order and stops at its limit, whatever the statistics say.
 */
const QUEUE_PLAN_SETTINGS = ['enable_bitmapscan', 'enable_seqscan', 'enable_sort'].map((name) => `set_config('${name}', 'off', true)`).join(', ');

/** Applies QUEUE_PLAN_SETTINGS to the rest of the transaction `trx` runs (PostgreSQL). */
export async function pinQueuePlan(trx: Executor): Promise<void> {
  await sql`SELECT ${sql.raw(QUEUE_PLAN_SETTINGS)}`.execute(trx);
}

/**
 * A PostgreSQL claim in one statement: the free rows `select` picks, locked (SKIP LOCKED), their lease
 * (and, with `countFirstAttempt`, the first submission of a row never sent: the CASE sees the values
 * picked, as they are locked), answered as picked.
 */
export function pgClaimStatement(trx: Executor, nowMs: number, leaseUntilMs: number, select: DueSelection, countFirstAttempt: boolean): CompiledQuery {
  const picked = freeDueRows(trx, nowMs, select).forUpdate().skipLocked().compile();
  const leaseParam = `$${picked.parameters.length + 1}`;
  const firstAttempt = countFirstAttempt ? `, submit_attempts = CASE WHEN p.status = 'Initiated' AND p.submit_attempts = 0 THEN 1 ELSE p.submit_attempts END` : '';
  return CompiledQuery.raw(
    `WITH picked AS MATERIALIZED (${picked.sql}),
leased AS (UPDATE payouts p SET locked_until_ms = ${leaseParam}${firstAttempt} FROM picked WHERE p.transaction_ref = picked.transaction_ref)
SELECT * FROM picked`,
    [...picked.parameters, BigInt(leaseUntilMs)],
  );
}

/**
 * The lease claim every payout job makes: the free rows `select` picks (no lease, or one in the past)
 * get `locked_until_ms = leaseUntilMs`. PostgreSQL picks rows with FOR UPDATE SKIP LOCKED so workers
 * never wait on each other, and leases them in the same statement (pgClaimStatement), planned as
 * QUEUE_PLAN_SETTINGS pin it; SQLite (one writer) claims each row with a conditional update that also
 * checks the status it was read in. With `countFirstAttempt`, a row never sent (neverSent) also gets
 * `submit_attempts` 1 in the same statement. Returns the claimed rows as read, with their lease set.
 */
export async function claimWithLease(
  db: Db,
  kind: StoreKind,
  nowMs: number,
  leaseUntilMs: number,
  select: DueSelection,
  countFirstAttempt = false,
): Promise<PayoutsTable[]> {
  const now = BigInt(nowMs);
  const lease = BigInt(leaseUntilMs);
  if (kind === 'postgres') {
    return withTransaction(db, async (trx) => {
      await pinQueuePlan(trx);
      const { rows } = await trx.executeQuery<PayoutsTable>(pgClaimStatement(trx, nowMs, leaseUntilMs, select, countFirstAttempt));
      return rows.map((row) => ({ ...row, locked_until_ms: lease }));
    });
  }
  const rows = await freeDueRows(db, nowMs, select).execute();
  if (rows.length === 0) return [];
  // Every claim of the run in one commit (one fsync): each is still a conditional update of its row.
  return db.transaction().execute(async (trx) => {
    const claimed: PayoutsTable[] = [];
    for (const row of rows) {
      const query = countFirstAttempt && neverSent(row) ? leaseFirstAttempt : leaseRow;
      if ((await query.affected(trx, lease, row.transaction_ref, row.status, now)) === 1n) claimed.push({ ...row, locked_until_ms: lease });
    }
    return claimed;
  });
}

/** SQLite's claim of one row read as due: the lease, unless another took the row or moved it meanwhile. */
const leaseRow = new HotQuery(4, (db, lease: bigint, transactionRef: string, status: PayoutStatus, now: bigint) =>
  db
    .updateTable('payouts')
    .set({ locked_until_ms: lease })
    .where('transaction_ref', '=', transactionRef)
    .where('status', '=', status)
    .where((eb) => eb.or([eb('locked_until_ms', 'is', null), eb('locked_until_ms', '<=', now)])),
);

/** leaseRow for a row read as never sent: the lease and its first submission counted, unless it moved meanwhile. */
const leaseFirstAttempt = new HotQuery(4, (db, lease: bigint, transactionRef: string, status: PayoutStatus, now: bigint) =>
  db
    .updateTable('payouts')
    .set({ locked_until_ms: lease, submit_attempts: 1n })
    .where('transaction_ref', '=', transactionRef)
    .where('status', '=', status)
    .where('submit_attempts', '=', 0n)
    .where((eb) => eb.or([eb('locked_until_ms', 'is', null), eb('locked_until_ms', '<=', now)])),
);

const countSubmitAttempt = new HotQuery(4, (db, attempts: bigint, transactionRef: string, lease: bigint, attemptsBefore: bigint) =>
  db
    .updateTable('payouts')
    .set({ submit_attempts: attempts })
    .where('transaction_ref', '=', transactionRef)
    .where('status', '=', 'Initiated')
    .where('locked_until_ms', '=', lease)
    .where('submit_attempts', '=', attemptsBefore),
);

/**
 * Records a submission about to be made, under the caller's lease; it must commit before the
 * request leaves, so a crash after sending is seen as "may have reached the upstream".
 */
export async function recordSubmitAttempt(db: Executor, row: PayoutsTable, lease: bigint): Promise<boolean> {
  return (await countSubmitAttempt.affected(db, row.submit_attempts + 1n, row.transaction_ref, lease, row.submit_attempts)) === 1n;
}

/** A refused payout goes to `next` (the rest of its route stays behind it), due at once; false if the lease was lost. */
export async function moveToNextChannel(db: Executor, row: PayoutsTable, lease: bigint, next: string, rest: readonly string[], nowMs: number): Promise<boolean> {
  const result = await db
    .updateTable('payouts')
    .set({
      channel: next,
      fallback_channels: rest.length > 0 ? rest.join(',') : null,
      submit_attempts: 0n,
      query_attempts: 0n,
      next_action_at_ms: BigInt(nowMs),
      locked_until_ms: null,
      updated_at_ms: BigInt(nowMs),
    })
    .where('transaction_ref', '=', row.transaction_ref)
    .where('status', '=', 'Initiated')
    .where('locked_until_ms', '=', lease)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Gives the row back with its next action time (and the query count that drives the backoff), if still ours. */
export async function releaseLease(db: Executor, transactionRef: string, lease: bigint, nextActionAtMs: number, queryAttempts: bigint): Promise<void> {
  await giveBackLease.execute(db, BigInt(nextActionAtMs), queryAttempts, transactionRef, lease);
}

const giveBackLease = new HotQuery(4, (db, nextActionAtMs: bigint, queryAttempts: bigint, transactionRef: string, lease: bigint) =>
  db
    .updateTable('payouts')
    .set({ locked_until_ms: null, next_action_at_ms: nextActionAtMs, query_attempts: queryAttempts })
    .where('transaction_ref', '=', transactionRef)
    .where('locked_until_ms', '=', lease)
    .where('status', 'in', [...LIVE_PAYOUT_STATUSES]),
);

/** Payouts in Processing whose record has not changed for `olderThanMs`, oldest first. */
export async function stuckPayouts(db: Executor, nowMs: number, olderThanMs: number, limit: number): Promise<PayoutsTable[]> {
  return db
    .selectFrom('payouts')
    .selectAll()
    .where('status', '=', 'Processing')
    .where('updated_at_ms', '<=', BigInt(nowMs - olderThanMs))
    .orderBy('updated_at_ms')
    .limit(limit)
    .execute();
}
