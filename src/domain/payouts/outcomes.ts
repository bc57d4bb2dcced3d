// Step 6 of a payout's life: its outcome. Every status update is guarded by the one transition
// graph (payout-statuses.ts): Initiated -> Processing -> Success | Failed, or Initiated -> Failed;
// PendingApproval -> Failed only through the approvals (closePayout with that status as `from`).
// A final transition is one transaction holding the conditional status update, the ledger's
// completion or release of the reservation (ledger/payouts.ts) and the event (payout-events.ts), so
// it happens once, completely, or not at all; a final status never changes again. A batch's item
// also counts down its batch there (batch-completion.ts).
import { sql } from 'kysely';
import type { PayoutState } from '../../connectors/channel.js';
import { HotQuery, HotRowQuery } from '../../store/hot-query.js';
import { ONE_STATEMENT, writeGroupOf, type RunOptions } from '../../store/write-group.js';
import { failureReasonOf } from '../failure-reasons.js';
import { noteBatchItemFinal } from './batch-completion.js';
import { assertReservationOf } from './intake.js';
import type { PayoutContext } from './payout-context.js';
import { enqueuePayoutOutcome } from './payout-events.js';
import { pollDelayMs } from './payout-limits.js';
import { findPayoutByRef } from './payout-repository.js';
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
  const updated = await writeGroupOf(ctx.db).run(
    (trx) =>
      toProcessing.affected(trx, state.upstreamRef ?? row.upstream_ref, state.utr ?? row.utr, BigInt(nowMs + nextPollDelayMs(ctx, row, 0)), BigInt(nowMs), lease ?? null, row.transaction_ref),
    ONE_STATEMENT,
  );
  if (updated !== 1n) return false;
  assertTransition(row.status, 'Processing', row.transaction_ref);
  return true;
}

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
  // Group-committed with the other writes of the moment (write-group.ts), without a savepoint of its own.
  return writeGroupOf(ctx.db).run(async (trx) => {
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
    // Last, so the batch row is locked only briefly: its count of open items drops, and the last one completes it.
    if (updated.batch_id !== null) await noteBatchItemFinal(trx, updated.batch_id, nowMs);
    return updated;
  }, FINAL_TRANSITION);
}

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
  const row = await findPayoutByRef(ctx.db, transactionRef);
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
  return FINAL_PAYOUT_STATUSES.includes(row.status) ? row : ((await findPayoutByRef(ctx.db, transactionRef)) ?? null);
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
