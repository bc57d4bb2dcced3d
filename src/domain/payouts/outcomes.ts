// Step 6 of a payout's life: its outcome. Every status update is guarded by the one transition
// graph (payout-statuses.ts): Initiated -> Processing -> Success | Failed, or Initiated -> Failed;
// PendingApproval -> Failed only through the approvals (closePayout with that status as `from`).
// A final transition is one transaction holding the conditional status update, the ledger's
// completion or release of the reservation (ledger/payouts.ts) and the event (payout-events.ts), so
// it happens once, completely, or not at all; a final status never changes again. A batch's item
// also counts down its batch there (batch-completion.ts).
import { CompiledQuery, sql, type Transaction } from 'kysely';
import type { PayoutState } from '../../connectors/channel.js';
import { HotQuery, HotRowQuery } from '../../store/hot-query.js';
import type { Currency } from '../../core/money.js';
import { preparedOnPostgres } from '../../store/prepared.js';
import { isPostgres, type Database } from '../../store/schema.js';
import { oneStatementOn, unitKeys, writeGroupOf, type BatchKind, type RunOptions } from '../../store/write-group.js';
import { failureReasonOf } from '../failure-reasons.js';
import { noteBatchItemFinal } from './batch-completion.js';
import { assertReservationOf } from './intake.js';
import type { PayoutContext } from './payout-context.js';
import { enqueuePayoutOutcome, enqueuePayoutOutcomes } from './payout-events.js';
import { pollDelayMs } from './payout-limits.js';
import { readPayoutByRef } from './payout-repository.js';
import { assertTransition, upstreamStatusesBefore } from './payout-statuses.js';
import { FINAL_PAYOUT_STATUSES, type PayoutStatus, type PayoutsTable } from './payout-rows.js';

/**
 * Initiated -> Processing, with the first poll scheduled. `lease`: the submitting job's lease on the row,
 * given back in the same statement; only that lease (one that ran out and was taken over stays the
 * other worker's), and none when it is null (a callback's news: `locked_until_ms = NULL` is never true).
 */
const toProcessing = new HotQuery(6, (db, upstreamRef: string | null, utr: string | null, nextActionAtMs: bigint, updatedAtMs: bigint, lease: bigint | null, transactionRef: string) =>
  db
    .updateTable('payouts')
    .set((eb) => ({
      status: 'Processing',
      upstream_ref: upstreamRef,
      utr,
      query_attempts: 0n,
      next_action_at_ms: nextActionAtMs,
      updated_at_ms: updatedAtMs,
      locked_until_ms: eb.case().when('locked_until_ms', '=', lease).then(sql<bigint | null>`NULL`).else(eb.ref('locked_until_ms')).end(),
    }))
    .where('transaction_ref', '=', transactionRef)
    .where('status', 'in', upstreamStatusesBefore('Processing')),
);

/**
 * How long after its `queries`-th status query a Processing payout is polled again: soon where its
 * upstream sends no notice of the outcome, only as a backstop where it calls back (payout-limits.ts).
 * A channel that is gone (its credentials unset) is polled as one without callbacks.
 */
export function nextPollDelayMs(ctx: PayoutContext, row: Pick<PayoutsTable, 'channel'>, queries: number): number {
  let callsBack = false;
  try {
    callsBack = ctx.channels.byName(row.channel).payoutCallbacks === true;
  } catch {
    // The poll itself will meet the missing channel and retry later; schedule it as the safe default.
  }
  return pollDelayMs(queries, callsBack);
}

/**
 * Initiated -> Processing: the upstream took the payout. The first poll is scheduled. `lease`: the
 * submitting job's lease on the row, given back with the transition (one statement instead of two).
 */
export async function markProcessing(ctx: PayoutContext, row: PayoutsTable, state: PayoutState, lease?: bigint): Promise<boolean> {
  const nowMs = ctx.clock.nowMs();
  const change: ProcessingChange = {
    transactionRef: row.transaction_ref,
    upstreamRef: state.upstreamRef ?? row.upstream_ref,
    utr: state.utr ?? row.utr,
    nextActionAtMs: BigInt(nowMs + nextPollDelayMs(ctx, row, 0)),
    updatedAtMs: BigInt(nowMs),
    lease: lease ?? null,
  };
  const alone = (trx: Transaction<Database>) =>
    toProcessing.affected(trx, change.upstreamRef, change.utr, change.nextActionAtMs, change.updatedAtMs, change.lease, change.transactionRef);
  // On PostgreSQL the Processing transitions of a group go in as one statement (one round trip of the chain for all).
  const group = writeGroupOf(ctx.db);
  // The merchantRef too: a repeat's intake ahead of it in the group reads this row by it.
  const keys = [unitKeys.payout(row.transaction_ref), unitKeys.merchantRef(row.merchant_id, row.merchant_ref)] as const;
  const updated = isPostgres(ctx.db)
    ? await group.runBatched(TO_PROCESSING, change, keys, async (trx, _scope, batched) => (batched === null ? alone(trx) : batched ? 1n : 0n))
    : await group.run(alone, oneStatementOn(...keys));
  if (updated !== 1n) return false;
  assertTransition(row.status, 'Processing', row.transaction_ref);
  return true;
}

/** One payout's Initiated -> Processing, as toProcessing's parameters. */
interface ProcessingChange {
  readonly transactionRef: string;
  readonly upstreamRef: string | null;
  readonly utr: string | null;
  readonly nextActionAtMs: bigint;
  readonly updatedAtMs: bigint;
  readonly lease: bigint | null;
}

/** The first item of each payout, in order: a payout named twice in one group changes once, by its first item. */
function firstOfEach<T>(items: readonly T[], refOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const ref = refOf(item);
    if (seen.has(ref)) return false;
    seen.add(ref);
    return true;
  });
}

/** toProcessing for many payouts (PostgreSQL): $1 refs, $2 upstream refs, $3 UTRs, $4 next actions, $5 updated at, $6 leases, $7 the statuses it may come from. */
const TO_PROCESSING_MANY = preparedOnPostgres(`
UPDATE payouts p SET status = 'Processing', upstream_ref = u.upstream_ref, utr = u.utr, query_attempts = 0,
  next_action_at_ms = u.next_action_at_ms, updated_at_ms = u.updated_at_ms,
  locked_until_ms = CASE WHEN p.locked_until_ms = u.lease THEN NULL ELSE p.locked_until_ms END
FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[]) AS u(transaction_ref, upstream_ref, utr, next_action_at_ms, updated_at_ms, lease)
WHERE p.transaction_ref = u.transaction_ref AND p.status = ANY ($7::text[])
RETURNING p.transaction_ref`);

/**
 * A group's Processing transitions in one statement: answers, per change, whether it moved its
 * payout. A payout named twice moves once, by its first change, as one at a time would.
 */
const TO_PROCESSING: BatchKind<ProcessingChange, boolean> = {
  name: 'payouts to Processing',
  async run(trx, changes) {
    const first = firstOfEach(changes, (c) => c.transactionRef);
    const { rows } = await trx.executeQuery<{ transaction_ref: string }>(
      CompiledQuery.raw(TO_PROCESSING_MANY, [
        first.map((c) => c.transactionRef),
        first.map((c) => c.upstreamRef),
        first.map((c) => c.utr),
        first.map((c) => c.nextActionAtMs),
        first.map((c) => c.updatedAtMs),
        first.map((c) => c.lease),
        upstreamStatusesBefore('Processing'),
      ]),
    );
    const moved = new Set(rows.map((row) => row.transaction_ref));
    return changes.map((c) => moved.delete(c.transactionRef));
  },
};

/**
 * A final transition runs in its group without a savepoint (on PostgreSQL each savepoint statement is a
 * round trip the whole group waits for). It needs none: when the row is not in `from` it returns null
 * having written nothing, and anything else it throws is a bug or a database failure, which rolls the
 * whole group back and runs every unit of it again alone (write-group.ts), so it is never half written.
 * Alternating runs of the PostgreSQL payout cases: 5 – 10 % more payouts a second, and less CPU all-in
 * (docs/benchmarks.md, session 25).
 */
const FINAL_TRANSITION: RunOptions = { optimistic: true };

/**
 * Initiated | Processing -> Success (the reservation completes: the money left) or Failed (the
 * reservation is released back to available/credit), with payout.succeeded / payout.failed.
 * Returns the final row, or null when the payout was already final (nothing done).
 */
export function markFinal(
  ctx: PayoutContext,
  row: PayoutsTable,
  outcome: 'Success' | 'Failed',
  state: Pick<PayoutState, 'upstreamRef' | 'failureReason' | 'utr'>,
): Promise<PayoutsTable | null> {
  // A final status never changes: news about a payout read as final (a poll's answer, then the
  // callback with the same news) writes nothing and needs no unit of the write group.
  if (FINAL_PAYOUT_STATUSES.includes(row.status)) return Promise.resolve(null);
  // An upstream's news never ends a payout that waits for approval: it was never sent.
  return closePayout(ctx, row, outcome, state, upstreamStatusesBefore(outcome));
}

/**
 * The final transition itself, from any of `from`: the status update, the ledger's half and the
 * event in one transaction. Returns the final row, or null when the payout was not in `from`.
 */
export function closePayout(
  ctx: PayoutContext,
  row: PayoutsTable,
  outcome: 'Success' | 'Failed',
  state: Pick<PayoutState, 'upstreamRef' | 'failureReason' | 'utr'>,
  from: readonly PayoutStatus[],
  extra: { readonly approvalDecidedByKeyId?: string; readonly approvalReason?: string | null } = {},
): Promise<PayoutsTable | null> {
  // Group-committed with the other writes of the moment (write-group.ts), without a savepoint of its
  // own. On PostgreSQL a group's successes go in together (closeSuccesses): three statements for all
  // of them instead of four each in the group's chain.
  const group = writeGroupOf(ctx.db);
  const work = async (trx: Transaction<Database>) => {
    const nowMs = ctx.clock.nowMs();
    const updated = await closeRow.executeTakeFirst(
      trx,
      {
        status: outcome,
        failure_reason: outcome === 'Failed' ? failureReasonOf(state.failureReason) : null,
        upstream_ref: state.upstreamRef ?? row.upstream_ref,
        utr: state.utr ?? row.utr,
        next_action_at_ms: null,
        locked_until_ms: null,
        approval_expires_at_ms: null,
        approval_decided_by_key_id: extra.approvalDecidedByKeyId,
        approval_reason: extra.approvalReason,
        completed_at_ms: BigInt(nowMs),
        updated_at_ms: BigInt(nowMs),
      },
      [row.transaction_ref, ...from],
    );
    if (!updated) return null;
    assertTransition(row.status, outcome, row.transaction_ref);
    // The ledger's half (ledger/payouts.ts): held -> paid out and fee revenue, or held -> back to the merchant.
    const closed =
      outcome === 'Success'
        ? await ctx.ledger.completeReservation(trx, updated.transaction_ref)
        : await ctx.ledger.releaseReservation(trx, updated.transaction_ref);
    // The reservation closes with this transition and no other, so it was still held until now.
    if (closed.replayed) throw new Error(`payouts: reservation of ${updated.transaction_ref} was closed before its payout became final`);
    assertReservationOf(updated, closed);
    await enqueuePayoutOutcome(trx, updated, nowMs);
    return countedInBatch(trx, updated, nowMs);
  };
  // A success moves held to the platform; a failure gives the funds back, which later intakes split.
  const keys = [
    unitKeys.payout(row.transaction_ref),
    unitKeys.merchantRef(row.merchant_id, row.merchant_ref),
    ...(outcome === 'Failed' ? [unitKeys.funds(row.merchant_id, row.currency)] : []),
  ] as const;
  const plain = outcome === 'Success' && extra.approvalDecidedByKeyId === undefined && extra.approvalReason === undefined;
  if (!plain || !isPostgres(ctx.db)) return group.run(work, { ...FINAL_TRANSITION, keys });
  return group.runBatched(PAYOUT_SUCCESSES, { ctx, row, state, from }, keys, (trx, _scope, batched) =>
    batched === null ? work(trx) : batched.row === null ? Promise.resolve(null) : countedInBatch(trx, batched.row, Number(batched.row.updated_at_ms)),
  );
}

/** Last, so the batch row is locked only briefly: its count of open items drops, and the last one completes it. */
async function countedInBatch(trx: Transaction<Database>, updated: PayoutsTable, nowMs: number): Promise<PayoutsTable> {
  if (updated.batch_id !== null) await noteBatchItemFinal(trx, updated.batch_id, nowMs);
  return updated;
}

/** A success of a write group's batch on PostgreSQL (closePayout without an approval decision). */
interface SuccessItem {
  readonly ctx: PayoutContext;
  readonly row: PayoutsTable;
  readonly state: Pick<PayoutState, 'upstreamRef' | 'failureReason' | 'utr'>;
  readonly from: readonly PayoutStatus[];
}

const PAYOUT_SUCCESSES: BatchKind<SuccessItem, { readonly row: PayoutsTable | null }> = {
  name: 'payout successes',
  run: (trx, items) => closeSuccesses(trx, items),
};

/**
 * The payouts of `items` still in their `from` become Success with one update, their reservations
 * complete with one statement (ledger/payouts.ts completeReservations) and their events go in with
 * one more: what closePayout does for each, for all of them at once. An item whose payout was not
 * in its `from` (or repeats an earlier item's payout) answers null, having written nothing. Anything
 * out of place throws, which rolls the whole group back (write-group.ts).
 */
async function closeSuccesses(trx: Transaction<Database>, items: readonly SuccessItem[]): Promise<{ readonly row: PayoutsTable | null }[]> {
  const ctx = items[0]!.ctx;
  const nowMs = ctx.clock.nowMs();
  const first = firstOfEach(items, (item) => item.row.transaction_ref);
  const { rows } = await trx.executeQuery<PayoutsTable>(
    CompiledQuery.raw(CLOSE_SUCCESSES, [
      first.map((item) => item.row.transaction_ref),
      first.map((item) => item.state.upstreamRef ?? item.row.upstream_ref),
      first.map((item) => item.state.utr ?? item.row.utr),
      first.map((item) => item.from.join(',')),
      BigInt(nowMs),
    ]),
  );
  const updated = new Map(rows.map((row) => [row.transaction_ref, row]));
  const done = first.filter((item) => updated.has(item.row.transaction_ref)).map((item) => {
    assertTransition(item.row.status, 'Success', item.row.transaction_ref);
    return updated.get(item.row.transaction_ref)!;
  });
  const completed = await ctx.ledger.completeReservations(
    trx,
    done.map((row) => ({ ref: row.transaction_ref, merchantId: row.merchant_id, currency: row.currency as Currency, amountMinor: row.amount_minor, feeMinor: row.fee_minor })),
  );
  completed.forEach((reservation, i) => assertReservationOf(done[i]!, reservation));
  await enqueuePayoutOutcomes(trx, done, nowMs);
  const answered = new Set<string>();
  return items.map((item) => {
    const ref = item.row.transaction_ref;
    if (answered.has(ref)) return { row: null };
    answered.add(ref);
    return { row: updated.get(ref) ?? null };
  });
}

/** closeRow for many successes (closeSuccesses): $1 refs, $2 upstream refs, $3 UTRs, $4 each one's `from` (comma-joined), $5 now. */
const CLOSE_SUCCESSES = preparedOnPostgres(`
UPDATE payouts p SET status = 'Success', failure_reason = NULL, upstream_ref = u.upstream_ref, utr = u.utr,
  next_action_at_ms = NULL, locked_until_ms = NULL, approval_expires_at_ms = NULL, completed_at_ms = $5::bigint, updated_at_ms = $5::bigint
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u(transaction_ref, upstream_ref, utr, from_statuses)
WHERE p.transaction_ref = u.transaction_ref AND p.status = ANY (string_to_array(u.from_statuses, ','))
RETURNING p.*`);

/**
 * Applies what the upstream says about a payout: SUCCESS / FAILED make a live payout final,
 * PROCESSING moves Initiated to Processing, UNKNOWN changes nothing. Safe to repeat. Returns the
 * row as a final transition wrote it, else null.
 */
export async function applyUpstreamState(ctx: PayoutContext, row: PayoutsTable, state: PayoutState): Promise<PayoutsTable | null> {
  if (row.status === 'Success' && state.status === 'FAILED') {
    // A final status never changes (contract section 3), but money the bank sent back after paying
    // (a reversal) is at the provider again: the operator must hear of it to settle it by hand.
    ctx.log?.warn(
      { transactionRef: row.transaction_ref, channel: row.channel, upstreamRef: state.upstreamRef, failureReason: state.failureReason, alert: 'payout_reversed_after_success' },
      'upstream reports a successful payout as failed or reversed; the payout stays Success: reconcile with the provider',
    );
    return null;
  }
  switch (state.status) {
    case 'SUCCESS':
      return markFinal(ctx, row, 'Success', state);
    case 'FAILED':
      return markFinal(ctx, row, 'Failed', state);
    case 'PROCESSING':
      if (row.status === 'Initiated') await markProcessing(ctx, row, state);
      return null;
    case 'UNKNOWN':
      return null;
  }
}

/**
 * News about a payout from a channel's callback: applied unless it names another channel or
 * another upstream transfer than the payout's. Returns the payout afterwards, or null when unknown.
 */
export async function applyChannelNews(ctx: PayoutContext, transactionRef: string, state: PayoutState, fromChannel?: string): Promise<PayoutsTable | null> {
  const row = await readPayoutByRef(ctx.db, transactionRef);
  if (!row) {
    ctx.log?.warn({ transactionRef, status: state.status }, 'payout news for an unknown payout; ignored');
    return null;
  }
  const foreign =
    (fromChannel !== undefined && fromChannel !== row.channel) ||
    (row.upstream_ref !== null && state.upstreamRef !== undefined && row.upstream_ref !== state.upstreamRef);
  if (foreign) {
    ctx.log?.warn({ transactionRef, fromChannel, upstreamRef: state.upstreamRef }, 'payout news does not match the payout; ignored');
    return row;
  }
  // A row the news made final comes back from its update; a row read as final stays as read (news
  // already known writes nothing); anything else is read again.
  const closed = await applyUpstreamState(ctx, row, state);
  if (closed !== null) return closed;
  return FINAL_PAYOUT_STATUSES.includes(row.status) ? row : ((await readPayoutByRef(ctx.db, transactionRef)) ?? null);
}

/**
 * The final transition's update (compiled once per shape, store/hot-query.ts): the columns it sets (an
 * approval decision's only when one is given) and, after the transactionRef, the statuses it may come
 * from. The row as updated comes back with the update: no second round trip to read it.
 */
const closeRow = new HotRowQuery((db, set: Partial<PayoutsTable>, [transactionRef, ...from]: readonly unknown[]) =>
  db
    .updateTable('payouts')
    .set(set)
    .where('transaction_ref', '=', transactionRef as string)
    .where('status', 'in', from as PayoutStatus[])
    .returningAll(),
);
