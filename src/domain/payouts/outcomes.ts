// The payout state machine's writes: Initiated -> Processing, and Initiated | Processing ->
// Success | Failed. A final transition is one transaction holding the conditional status update,
// the ledger's completion or release of the reservation, and the webhook event, so it happens once,
// completely, or not at all; a final status never changes again.
import type { PayoutState } from '../../channels/channel.js';
import type { LedgerService } from '../../ledger/service.js';
import { withTransaction } from '../../store/transactions.js';
import type { Db } from '../../store/schema.js';
import { enqueueWebhookEvent } from '../../webhooks/outbox.js';
import type { Clock } from '../../core/clock.js';
import { failureReasonOf } from '../payments/transitions.js';
import { pollDelayMs } from './payout-limits.js';
import { payoutRecord } from './payout-records.js';
import { findPayoutByRef } from './payout-repository.js';
import type { PayoutsTable } from './tables.js';

export interface PayoutTransitionDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ledger: LedgerService;
}

/** Initiated -> Processing: the upstream took the payout. The first poll is scheduled. */
export async function markProcessing(deps: PayoutTransitionDeps, row: PayoutsTable, state: PayoutState): Promise<boolean> {
  const nowMs = deps.clock.nowMs();
  const result = await deps.db
    .updateTable('payouts')
    .set({
      status: 'Processing',
      upstream_ref: state.upstreamRef ?? row.upstream_ref,
      query_attempts: 0n,
      next_action_at_ms: BigInt(nowMs + pollDelayMs(0)),
      updated_at_ms: BigInt(nowMs),
    })
    .where('transaction_ref', '=', row.transaction_ref)
    .where('status', '=', 'Initiated')
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * Initiated | Processing -> Success (the reservation completes: the money left) or Failed (the
 * reservation is released back to available/credit), with payout.succeeded / payout.failed.
 * Returns the final row, or null when the payout was already final (nothing done).
 */
export function markFinal(
  deps: PayoutTransitionDeps,
  row: PayoutsTable,
  outcome: 'Success' | 'Failed',
  state: Pick<PayoutState, 'upstreamRef' | 'failureReason'>,
): Promise<PayoutsTable | null> {
  return withTransaction(deps.db, async (trx) => {
    const nowMs = deps.clock.nowMs();
    const result = await trx
      .updateTable('payouts')
      .set({
        status: outcome,
        failure_reason: outcome === 'Failed' ? failureReasonOf(state.failureReason) : null,
        upstream_ref: state.upstreamRef ?? row.upstream_ref,
        next_action_at_ms: null,
        locked_until_ms: null,
        completed_at_ms: BigInt(nowMs),
        updated_at_ms: BigInt(nowMs),
      })
      .where('transaction_ref', '=', row.transaction_ref)
      .where('status', 'in', ['Initiated', 'Processing'])
      .executeTakeFirst();
    if (result.numUpdatedRows !== 1n) return null;
    const updated = await findPayoutByRef(trx, row.transaction_ref);
    if (!updated) throw new Error(`payouts: ${row.transaction_ref} vanished inside its own transaction`);
    if (outcome === 'Success') await deps.ledger.completeReservation(trx, updated.transaction_ref);
    else await deps.ledger.releaseReservation(trx, updated.transaction_ref);
    await enqueueWebhookEvent(trx, {
      merchantId: updated.merchant_id,
      type: outcome === 'Success' ? 'payout.succeeded' : 'payout.failed',
      resourceKind: 'payout',
      resourceRef: updated.transaction_ref,
      record: { ...payoutRecord(updated) },
      webhookUrl: updated.webhook_url,
      nowMs,
    });
    return updated;
  });
}
