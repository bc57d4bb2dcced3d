// Late money (contract section 3): a payment paid after it expired stays Expired. Where the method
// has upstream refunds the money goes back to the payer through the channel; where it has not, or
// the channel refuses, it is held in the ledger's suspense account for the operator.
import { UpstreamUnavailableError } from '../../connectors/channel.js';
import { withTransaction } from '../../store/transactions.js';
import type { Executor } from '../../store/schema.js';
import type { PaymentContext } from './payment-context.js';
import { CLAIM_LEASE_MS, refundRetryDelayMs } from './payment-limits.js';
import type { LatePaymentsTable } from './payment-rows.js';
import { holdInSuspense } from './transitions.js';

const MAX_ERROR_LENGTH = 500;

async function latePaymentsDue(db: Executor, nowMs: number, limit: number): Promise<LatePaymentsTable[]> {
  return db
    .selectFrom('late_payments')
    .selectAll()
    .where('disposition', '=', 'refund_pending')
    .where('next_at_ms', '<=', BigInt(nowMs))
    .orderBy('next_at_ms')
    .limit(limit)
    .execute();
}

async function claim(db: Executor, late: LatePaymentsTable, leaseUntilMs: number): Promise<boolean> {
  const result = await db
    .updateTable('late_payments')
    .set({ next_at_ms: BigInt(leaseUntilMs), attempts: late.attempts + 1n })
    .where('transaction_ref', '=', late.transaction_ref)
    .where('disposition', '=', 'refund_pending')
    .where('next_at_ms', '=', late.next_at_ms)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH);

/** Claims up to `limit` late payments due to go back to their payers, for this worker only. */
export async function claimDueLatePayments(deps: PaymentContext, limit: number): Promise<LatePaymentsTable[]> {
  const nowMs = deps.clock.nowMs();
  const due = await latePaymentsDue(deps.db, nowMs, limit);
  const claimed = await Promise.all(due.map((late) => claim(deps.db, late, nowMs + CLAIM_LEASE_MS)));
  return due.filter((_, i) => claimed[i]);
}

/** Sends one late payment back to the payer unless another worker has it; false when it has. */
export async function returnLatePayment(deps: PaymentContext, late: LatePaymentsTable): Promise<boolean> {
  if (!(await claim(deps.db, late, deps.clock.nowMs() + CLAIM_LEASE_MS))) return false;
  await sendBack(deps, late);
  return true;
}

/**
 * Asks the channel to return a late payment this worker claimed (`late` as read before the claim).
 * Late money that is refunded never enters the ledger: it arrived at the channel and left it again.
 */
export async function sendBack(deps: PaymentContext, late: LatePaymentsTable): Promise<void> {
  const attempts = Number(late.attempts) + 1;
  const pending = (db: Executor) =>
    db.updateTable('late_payments').where('transaction_ref', '=', late.transaction_ref).where('disposition', '=', 'refund_pending');
  try {
    const answer = await deps.channels.byName(late.channel).refund({
      transactionRef: late.transaction_ref,
      upstreamRef: late.upstream_ref,
      amountMinor: late.paid_amount_minor,
    });
    await pending(deps.db)
      .set({ disposition: 'refunded', refund_upstream_ref: answer.refundRef, last_error: null, updated_at_ms: BigInt(deps.clock.nowMs()) })
      .execute();
  } catch (error) {
    const nowMs = deps.clock.nowMs();
    if (error instanceof UpstreamUnavailableError) {
      await pending(deps.db)
        .set({ next_at_ms: BigInt(nowMs + refundRetryDelayMs(attempts)), last_error: describe(error), updated_at_ms: BigInt(nowMs) })
        .execute();
      return;
    }
    deps.log?.warn({ err: error, transactionRef: late.transaction_ref }, 'channel refused to return a late payment; holding it');
    await withTransaction(deps.db, async (trx) => {
      const held = await pending(trx).set({ disposition: 'held', last_error: describe(error), updated_at_ms: BigInt(nowMs) }).executeTakeFirst();
      if (held.numUpdatedRows === 1n) await holdInSuspense(deps, trx, late);
    });
  }
}
