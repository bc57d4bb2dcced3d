// Refunds (contract section 10). Money first, channel second: one transaction checks the rules,
// marks the payment as refunding and debits the ledger (so INSUFFICIENT_BALANCE is known before any
// upstream call); then the channel is asked, and Success -> Refund commits with its event. A refund
// is therefore never sent upstream without its debit. If the channel's answer is lost, the same
// refund is asked again (the channel keys refunds by transactionRef; the refund job claims each retry
// with a lease) until it answers; if the channel refuses, the debit is given back. Two refund calls for
// one payment refund it once.
import { UpstreamUnavailableError } from '../../connectors/channel.js';
import { withTransaction } from '../../store/transactions.js';
import { recordAudit } from '../../audit/audit-log.js';
import { monotonicMs, sleep } from '../../core/clock.js';
import { AppError, notFound } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Currency } from '../../core/money.js';
import type { PaymentContext } from './payment-context.js';
import {
  CLAIM_LEASE_MS,
  IN_FLIGHT_POLL_INTERVAL_MS,
  REFUND_IN_FLIGHT_WAIT_MS,
  REFUND_RACE_MAX_ROUNDS,
  REFUND_WINDOW_MS,
  refundRetryDelayMs,
} from './payment-limits.js';
import { methodRefundable } from './records.js';
import { claimRefund, findByRef, findForMerchant, refundsDue } from './repository.js';
import type { PaymentsTable } from './payment-rows.js';
import { markRefunded } from './transitions.js';

const stillWithChannel = (): AppError =>
  new AppError('UNAVAILABLE', 'The refund is accepted and the channel has not confirmed it yet; it is retried automatically. Repeat the call to see the outcome.');

const refusedByChannel = (): AppError =>
  new AppError('PAYMENT_NOT_REFUNDABLE', 'The channel refused the refund; the amount was returned to your balance.');

/** Throws the contract's reason when a refund of this payment is not allowed now. */
export function assertRefundable(row: PaymentsTable, nowMs: number): void {
  if (row.status !== 'Success') {
    throw new AppError('PAYMENT_NOT_SUCCESSFUL', `The payment is ${row.status}; only a successful payment can be refunded.`);
  }
  if (!methodRefundable(row)) {
    throw new AppError('PAYMENT_NOT_REFUNDABLE', `${row.currency} ${row.method} payments cannot be refunded through the channel.`);
  }
  if (row.completed_at_ms === null || nowMs > Number(row.completed_at_ms) + REFUND_WINDOW_MS) {
    throw new AppError('REFUND_WINDOW_EXPIRED', 'A refund is accepted only within 30 minutes after the payment completed.');
  }
}

export class Refunds {
  constructor(private readonly deps: PaymentContext) {}

  /**
   * Refunds a merchant's payment, or answers the refund already made. Resolves with the row in status
   * Refund. `actor` (a console user) is recorded in the audit log in the transaction that accepts it.
   */
  async refund(merchantId: string, transactionRef: string, actor?: string): Promise<PaymentsTable> {
    for (let round = 0; round < REFUND_RACE_MAX_ROUNDS; round += 1) {
      const row = await findForMerchant(this.deps.db, merchantId, { transactionRef });
      if (!row) throw notFound('payment');
      if (row.status === 'Refund') return row;
      if (row.refund_state === 'requested') return this.awaitOutcome(row);
      assertRefundable(row, this.deps.clock.nowMs());
      const accepted = await this.accept(row, actor);
      if (accepted) return this.submit(accepted);
    }
    throw stillWithChannel();
  }

  /** Claims up to `limit` refunds whose channel answer was lost or never asked for (a crash). */
  async claimDue(limit: number): Promise<PaymentsTable[]> {
    const due = await refundsDue(this.deps.db, this.deps.clock.nowMs(), limit);
    const leaseUntilMs = this.deps.clock.nowMs() + CLAIM_LEASE_MS;
    const claimed = await Promise.all(due.map((row) => claimRefund(this.deps.db, row, leaseUntilMs)));
    return due.filter((_, i) => claimed[i]).map(claimedCopy);
  }

  /** Asks the channel again for a refund `claimDue` took; its refusal or silence is recorded, not thrown. */
  async retryClaimed(row: PaymentsTable): Promise<void> {
    await this.submit(row).catch((error: unknown) => {
      if (!(error instanceof AppError)) throw error;
    });
  }

  /**
   * Marks the payment as refunding under a fresh refund id and debits the paid amount (pending
   * first, then available), in one transaction. Null when another call got there first.
   */
  private accept(row: PaymentsTable, actor?: string): Promise<PaymentsTable | null> {
    return withTransaction(this.deps.db, async (trx) => {
      const nowMs = this.deps.clock.nowMs();
      const refundRef = newId();
      const claimed = await trx
        .updateTable('payments')
        .set({
          refund_state: 'requested',
          refund_ref: refundRef,
          refund_upstream_ref: null,
          refund_attempts: 1n,
          refund_next_at_ms: BigInt(nowMs + CLAIM_LEASE_MS),
          // The record changes (refundable turns false), so its updatedAt does too.
          updated_at_ms: BigInt(nowMs),
        })
        .where('transaction_ref', '=', row.transaction_ref)
        .where('status', '=', 'Success')
        .where((eb) => eb.or([eb('refund_state', 'is', null), eb('refund_state', '=', 'rejected')]))
        .executeTakeFirst();
      if (claimed.numUpdatedRows !== 1n) return null;
      await this.deps.ledger.debitRefund(trx, {
        merchantId: row.merchant_id,
        currency: row.currency as Currency,
        paidMinor: paidOf(row),
        channel: row.channel,
        ref: refundRef,
        paymentRef: row.transaction_ref,
      });
      if (actor !== undefined) {
        await recordAudit(trx, { actor, action: 'payment.refund', target: row.transaction_ref, merchantId: row.merchant_id, details: { merchantRef: row.merchant_ref, refundRef }, nowMs });
      }
      return (await findByRef(trx, row.transaction_ref))!;
    });
  }

  /** Asks the channel for the refund of the current attempt and records its answer. */
  private async submit(row: PaymentsTable): Promise<PaymentsTable> {
    const refundRef = row.refund_ref!;
    let upstreamRefundRef: string;
    try {
      const answer = await this.deps.channels.byName(row.channel).refund({
        transactionRef: row.transaction_ref,
        upstreamRef: row.upstream_ref ?? '',
        amountMinor: paidOf(row),
      });
      upstreamRefundRef = answer.refundRef;
    } catch (error) {
      if (error instanceof UpstreamUnavailableError) {
        await this.retryLater(row);
        throw stillWithChannel();
      }
      this.deps.log?.warn({ err: error, transactionRef: row.transaction_ref, refundRef }, 'channel refused a refund; returning the debit');
      await this.giveBack(row);
      throw refusedByChannel();
    }
    const refunded = await markRefunded(this.deps, row, refundRef, upstreamRefundRef);
    return refunded ?? (await findByRef(this.deps.db, row.transaction_ref))!;
  }

  /** Another call is refunding this payment: wait for its outcome, or take over once its lease ran out. */
  private async awaitOutcome(first: PaymentsTable): Promise<PaymentsTable> {
    // A real-time wait for the other call's channel answer, so the system clock and not the business clock.
    const deadlineMs = monotonicMs() + REFUND_IN_FLIGHT_WAIT_MS;
    let row = first;
    for (;;) {
      if (row.status === 'Refund') return row;
      if (row.refund_state === 'rejected') throw refusedByChannel();
      if (row.refund_state !== 'requested') throw new Error(`payments: refund of ${row.transaction_ref} left in state ${row.refund_state}`);
      const leaseOver = row.refund_next_at_ms !== null && Number(row.refund_next_at_ms) <= this.deps.clock.nowMs();
      if (leaseOver && (await claimRefund(this.deps.db, row, this.deps.clock.nowMs() + CLAIM_LEASE_MS))) return this.submit(claimedCopy(row));
      if (monotonicMs() >= deadlineMs) throw stillWithChannel();
      await sleep(IN_FLIGHT_POLL_INTERVAL_MS);
      row = (await findByRef(this.deps.db, row.transaction_ref))!;
    }
  }

  private async retryLater(row: PaymentsTable): Promise<void> {
    const attempts = Number(row.refund_attempts);
    await this.deps.db
      .updateTable('payments')
      .set({ refund_next_at_ms: BigInt(this.deps.clock.nowMs() + refundRetryDelayMs(attempts)) })
      .where('transaction_ref', '=', row.transaction_ref)
      .where('refund_state', '=', 'requested')
      .where('refund_ref', '=', row.refund_ref)
      .execute();
  }

  /**
   * The channel refused: in one transaction the attempt is closed as rejected and its debit is
   * undone exactly (back to pending and available as it was taken). The payment stays Success.
   */
  private async giveBack(row: PaymentsTable): Promise<void> {
    const refundRef = row.refund_ref!;
    await withTransaction(this.deps.db, async (trx) => {
      const closed = await trx
        .updateTable('payments')
        .set({ refund_state: 'rejected', refund_next_at_ms: null, updated_at_ms: BigInt(this.deps.clock.nowMs()) })
        .where('transaction_ref', '=', row.transaction_ref)
        .where('refund_state', '=', 'requested')
        .where('refund_ref', '=', refundRef)
        .executeTakeFirst();
      if (closed.numUpdatedRows !== 1n) return;
      await this.deps.ledger.reverseRefund(trx, {
        merchantId: row.merchant_id,
        currency: row.currency as Currency,
        channel: row.channel,
        ref: refundRef,
        paymentRef: row.transaction_ref,
      });
    });
  }
}

/** The row as claimRefund left it (one more attempt), so the retry delay grows. */
const claimedCopy = (row: PaymentsTable): PaymentsTable => ({ ...row, refund_attempts: row.refund_attempts + 1n });

function paidOf(row: PaymentsTable): bigint {
  if (row.paid_amount_minor === null) throw new Error(`payments: ${row.transaction_ref} has no paid amount`);
  return row.paid_amount_minor;
}
