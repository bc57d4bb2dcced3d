// The payment state machine's writes: Pending -> Success | Failed | Expired, Success -> Refund, and
// late money. Each is one transaction holding the conditional status update, its ledger journal and
// its webhook event, so a transition happens once, completely, or not at all.
import { sql, type Transaction, type UpdateObject } from 'kysely';
import type { CollectionState } from '../../connectors/channel.js';
import { withTransaction } from '../../store/transactions.js';
import type { Database, Executor } from '../../store/schema.js';
import { enqueueWebhookEvent } from '../../webhooks/outbox.js';
import type { WebhookEventType } from '../../webhooks/webhook-rows.js';
import type { Currency, Minor } from '../../core/money.js';
import { failureReasonOf } from '../failure-reasons.js';
import type { PaymentContext } from './payment-context.js';
import { methodRefundable, paymentRecord } from './records.js';
import { findByRef } from './repository.js';
import type { CollectionStateColumn, LatePaymentsTable, PaymentsTable } from './payment-rows.js';

/** What a transition writes with: the store, the clock and the ledger. */
export type TransitionContext = Pick<PaymentContext, 'db' | 'clock' | 'ledger'>;

async function announce(trx: Executor, row: PaymentsTable, type: WebhookEventType, nowMs: number): Promise<void> {
  await enqueueWebhookEvent(trx, {
    merchantId: row.merchant_id,
    type,
    resourceKind: 'payment',
    resourceRef: row.transaction_ref,
    record: { ...paymentRecord(row, nowMs) },
    webhookUrl: row.webhook_url,
    nowMs,
  });
}

/**
 * Runs `change` (a conditional update) and, when it changed the row, `effects` with the updated
 * row, all in one transaction. Returns the updated row, or null when the condition no longer held.
 */
async function transition(
  deps: TransitionContext,
  transactionRef: string,
  change: (trx: Transaction<Database>, nowMs: number) => Promise<bigint>,
  effects: (trx: Transaction<Database>, row: PaymentsTable, nowMs: number) => Promise<void>,
): Promise<PaymentsTable | null> {
  return withTransaction(deps.db, async (trx) => {
    const nowMs = deps.clock.nowMs();
    if ((await change(trx, nowMs)) !== 1n) return null;
    const row = await findByRef(trx, transactionRef);
    if (!row) throw new Error(`payments: ${transactionRef} vanished inside its own transaction`);
    await effects(trx, row, nowMs);
    return row;
  });
}

/**
 * Ends a Pending payment with `changes`: it stops being reconciled and is completed now. Answers the
 * rows changed, 0 when it had already left Pending (or, with onlyOnceExpired, had time left).
 */
async function endPending(
  trx: Transaction<Database>,
  transactionRef: string,
  nowMs: number,
  changes: UpdateObject<Database, 'payments'>,
  options: { readonly onlyOnceExpired?: boolean } = {},
): Promise<bigint> {
  const result = await trx
    .updateTable('payments')
    .set({ ...changes, reconcile_at_ms: null, completed_at_ms: BigInt(nowMs), updated_at_ms: BigInt(nowMs) })
    .where('transaction_ref', '=', transactionRef)
    .where('status', '=', 'Pending')
    .$if(options.onlyOnceExpired === true, (query) => query.where('expires_at_ms', '<=', BigInt(nowMs)))
    .executeTakeFirst();
  return result.numUpdatedRows;
}

/** The fee is fixed at creation; if the payer paid less than it, the merchant's net is zero, never negative. */
const feeOnPaid = (row: PaymentsTable, paidMinor: Minor): Minor => (row.fee_minor > paidMinor ? paidMinor : row.fee_minor);

/** Pending -> Success: credits paid - fee to pending and announces payment.succeeded. */
export function markSucceeded(deps: TransitionContext, row: PaymentsTable, state: CollectionState): Promise<PaymentsTable | null> {
  const paidMinor = state.paidAmountMinor ?? row.amount_minor;
  return transition(
    deps,
    row.transaction_ref,
    (trx, nowMs) =>
      endPending(trx, row.transaction_ref, nowMs, {
        status: 'Success',
        paid_amount_minor: paidMinor,
        fee_minor: feeOnPaid(row, paidMinor),
        upstream_ref: state.upstreamRef,
      }),
    async (trx, updated, nowMs) => {
      await deps.ledger.creditPayment(trx, {
        merchantId: updated.merchant_id,
        currency: updated.currency as Currency,
        paidMinor,
        feeMinor: updated.fee_minor,
        channel: updated.channel,
        ref: updated.transaction_ref,
      });
      await announce(trx, updated, 'payment.succeeded', nowMs);
    },
  );
}

/** Pending -> Failed with an UPPER_SNAKE reason; announces payment.failed. */
export function markFailed(deps: TransitionContext, row: PaymentsTable, reason: string): Promise<PaymentsTable | null> {
  return transition(
    deps,
    row.transaction_ref,
    (trx, nowMs) => endPending(trx, row.transaction_ref, nowMs, { status: 'Failed', failure_reason: failureReasonOf(reason) }),
    (trx, updated, nowMs) => announce(trx, updated, 'payment.failed', nowMs),
  );
}

/** Pending -> Expired once its time passed; a collection never prepared is abandoned. Announces payment.expired. */
export function markExpired(deps: TransitionContext, row: PaymentsTable): Promise<PaymentsTable | null> {
  return transition(
    deps,
    row.transaction_ref,
    (trx, nowMs) =>
      endPending(
        trx,
        row.transaction_ref,
        nowMs,
        {
          status: 'Expired',
          collection_state: sql<CollectionStateColumn>`CASE WHEN collection_state = 'requested' THEN 'failed' ELSE collection_state END`,
        },
        { onlyOnceExpired: true },
      ),
    (trx, updated, nowMs) => announce(trx, updated, 'payment.expired', nowMs),
  );
}

/**
 * Success -> Refund after the channel confirmed the refund of attempt `refundRef` (whose ledger
 * debit committed when the refund was accepted). Announces payment.refunded.
 */
export function markRefunded(deps: TransitionContext, row: PaymentsTable, refundRef: string, upstreamRefundRef: string) {
  return transition(
    deps,
    row.transaction_ref,
    async (trx, nowMs) => {
      const result = await trx
        .updateTable('payments')
        .set({
          status: 'Refund',
          refund_state: 'done',
          refund_upstream_ref: upstreamRefundRef,
          refund_next_at_ms: null,
          refunded_at_ms: BigInt(nowMs),
          updated_at_ms: BigInt(nowMs),
        })
        .where('transaction_ref', '=', row.transaction_ref)
        .where('status', '=', 'Success')
        .where('refund_state', '=', 'requested')
        .where('refund_ref', '=', refundRef)
        .executeTakeFirst();
      return result.numUpdatedRows;
    },
    (trx, updated, nowMs) => announce(trx, updated, 'payment.refunded', nowMs),
  );
}

/**
 * Money for a payment that can no longer take it (it expired, or failed, before the money came).
 * The payment keeps its status. Methods with upstream refunds send it back to the payer (the late
 * payment job does that); the others hold it in the ledger's suspense account for the operator.
 * Recorded once per payment: a repeated callback finds the row and changes nothing.
 */
export async function recordLatePayment(
  deps: TransitionContext,
  row: PaymentsTable,
  state: CollectionState,
): Promise<LatePaymentsTable | null> {
  const paidMinor = state.paidAmountMinor ?? row.amount_minor;
  const disposition = methodRefundable(row) ? 'refund_pending' : 'held';
  return withTransaction(deps.db, async (trx) => {
    const nowMs = BigInt(deps.clock.nowMs());
    const inserted = await trx
      .insertInto('late_payments')
      .values({
        transaction_ref: row.transaction_ref,
        merchant_id: row.merchant_id,
        currency: row.currency,
        method: row.method,
        channel: row.channel,
        upstream_ref: state.upstreamRef,
        paid_amount_minor: paidMinor,
        disposition,
        refund_upstream_ref: null,
        attempts: 0n,
        next_at_ms: nowMs,
        last_error: null,
        created_at_ms: nowMs,
        updated_at_ms: nowMs,
      })
      .onConflict((oc) => oc.column('transaction_ref').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted && disposition === 'held') await holdInSuspense(deps, trx, inserted);
    return inserted ?? null;
  });
}

/** Books late money the service keeps (for now) into suspense: clearing -> suspense. */
export async function holdInSuspense(deps: TransitionContext, trx: Executor, late: LatePaymentsTable): Promise<void> {
  await deps.ledger.recordUnallocated(trx, {
    currency: late.currency as Currency,
    paidMinor: late.paid_amount_minor,
    channel: late.channel,
    ref: late.transaction_ref,
    merchantId: late.merchant_id,
  });
}
