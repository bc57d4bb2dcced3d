// Step 7 of a payout's life: its event. payout.succeeded or payout.failed goes to the outbox in
// the transaction of the final status change, so it is never lost and never sent for a rollback;
// payout.pending_approval likewise in intake's transaction.
import type { Executor } from '../../store/schema.js';
import { enqueueWebhookEvent, enqueueWebhookEvents, type EnqueueWebhookInput } from '../../webhooks/outbox.js';
import { payoutRecord } from './payout-records.js';
import type { PayoutsTable } from './payout-rows.js';

/** The event of a payout that just became final: payout.succeeded or payout.failed, its body the status record. */
function outcomeEvent(payout: PayoutsTable, nowMs: number): EnqueueWebhookInput {
  if (payout.status !== 'Success' && payout.status !== 'Failed') throw new Error(`payouts: no event for a payout in ${payout.status}`);
  return {
    merchantId: payout.merchant_id,
    type: payout.status === 'Success' ? 'payout.succeeded' : 'payout.failed',
    resourceKind: 'payout',
    resourceRef: payout.transaction_ref,
    record: { ...payoutRecord(payout) },
    webhookUrl: payout.webhook_url,
    nowMs,
  };
}

/** The webhook of a payout that just became final, in the transaction of its final status. */
export async function enqueuePayoutOutcome(trx: Executor, payout: PayoutsTable, nowMs: number): Promise<void> {
  await enqueueWebhookEvent(trx, outcomeEvent(payout, nowMs));
}

/** enqueuePayoutOutcome for many payouts final at the same moment (on PostgreSQL one statement). */
export async function enqueuePayoutOutcomes(trx: Executor, payouts: readonly PayoutsTable[], nowMs: number): Promise<void> {
  await enqueueWebhookEvents(trx, payouts.map((payout) => outcomeEvent(payout, nowMs)), nowMs);
}

/** payout.pending_approval, in intake's transaction: the payout waits for a second key (approvals.ts). */
export async function enqueuePayoutPendingApproval(trx: Executor, payout: PayoutsTable, nowMs: number): Promise<void> {
  if (payout.status !== 'PendingApproval') throw new Error(`payouts: no pending_approval event for a payout in ${payout.status}`);
  await enqueueWebhookEvent(trx, {
    merchantId: payout.merchant_id,
    type: 'payout.pending_approval',
    resourceKind: 'payout',
    resourceRef: payout.transaction_ref,
    record: { ...payoutRecord(payout) },
    webhookUrl: payout.webhook_url,
    nowMs,
  });
}
