// Steps 2 and 3 of a payout's life: intake. A checked request becomes a payout row and its
// reservation of amount + fee in the ledger, in one transaction; a repeat answers the original.
import { AppError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Minor } from '../../core/money.js';
import type { Reservation } from '../../ledger/service.js';
import { withTransaction } from '../../store/transactions.js';
import type { Merchant } from '../../merchants/merchant-service.js';
import { requireCurrency } from '../request-rules.js';
import { approvalDeadline, approvalSettingOf } from './approvals.js';
import type { PayoutContext } from './payout-context.js';
import { enqueuePayoutPendingApproval } from './payout-events.js';
import { findPayoutForMerchant, insertPayoutIfNew } from './payout-repository.js';
import { buildPayoutDraft, payoutRequestHash, requirePayoutMethod, type PayoutDraft, type PayoutInitiateRequest } from './payout-request.js';
import type { PayoutsTable } from './payout-rows.js';

/**
 * Accepts a payout, or answers the original when the merchant repeats the same request under the
 * same merchantRef. The record and the reservation commit together (the reservation last, so the
 * merchant's balance rows are locked only until the commit); when the balance is short nothing is
 * written. The upstream is asked later, by the submission job.
 */
export async function acceptPayout(ctx: PayoutContext, merchant: Merchant, request: PayoutInitiateRequest, keyId: string | null = null): Promise<PayoutsTable> {
  const currency = requireCurrency(request.currency);
  const method = requirePayoutMethod(currency, request.method);
  const bounds = await ctx.fees.limitsFor(merchant.id, currency, method.method, 'payout');
  const upstreamCodes = (await ctx.banks?.upstreamCodes(merchant, currency)) ?? null;
  const draft = buildPayoutDraft(request, currency, method, bounds, merchant.mode, ctx.webhookUrlCheck, upstreamCodes);
  const hash = payoutRequestHash(draft);
  const feeMinor = await ctx.fees.feeFor(merchant.id, currency, method.method, 'payout', draft.amountMinor);
  const { channel, fallbacks } = ctx.channels.route(merchant, currency, method.method, 'payout');
  const approval = await approvalSettingOf(ctx.db, merchant.id);
  return withTransaction(ctx.db, async (trx) => {
    const nowMs = ctx.clock.nowMs();
    const fresh = newPayoutRow(merchant, draft, hash, feeMinor, channel.name, fallbacks, BigInt(nowMs), keyId);
    // Above the merchant's threshold it waits for a second key (approvals.ts), its funds reserved all the same.
    const deadline = approvalDeadline(approval, currency, draft.amountMinor, nowMs);
    if (deadline !== null) Object.assign(fresh, { status: 'PendingApproval', approval_expires_at_ms: deadline, next_action_at_ms: null });
    if (!(await insertPayoutIfNew(trx, fresh))) {
      const original = await findPayoutForMerchant(trx, merchant.id, { merchantRef: draft.merchantRef });
      if (!original) throw new Error(`payouts: merchantRef ${draft.merchantRef} conflicted but cannot be read`);
      if (original.request_hash !== hash) {
        throw new AppError('DUPLICATE_MERCHANT_REF', `merchantRef ${draft.merchantRef} was already used with a different payout request.`);
      }
      return original;
    }
    // Step 3, the ledger's: available (then credit) -> held, amount + fee (ledger/payouts.ts reserveForPayout).
    const reservation = await ctx.ledger.reserveForPayout(trx, {
      merchantId: merchant.id,
      currency,
      amountMinor: draft.amountMinor,
      feeMinor,
      ref: fresh.transaction_ref,
    });
    if (reservation.replayed) throw new Error(`payouts: ${fresh.transaction_ref} is new, yet the ledger had its reservation`);
    assertReservationOf(fresh, reservation);
    if (fresh.status === 'PendingApproval') await enqueuePayoutPendingApproval(trx, fresh, nowMs);
    return fresh;
  });
}

function newPayoutRow(
  merchant: Merchant,
  draft: PayoutDraft,
  hash: string,
  feeMinor: Minor,
  channel: string,
  fallbacks: readonly string[],
  nowMs: bigint,
  keyId: string | null,
): PayoutsTable {
  return {
    transaction_ref: newId(),
    merchant_id: merchant.id,
    merchant_ref: draft.merchantRef,
    request_hash: hash,
    currency: draft.currency,
    method: draft.method.method,
    amount_minor: draft.amountMinor,
    fee_minor: feeMinor,
    bank_code: draft.bankCode,
    beneficiary_name: draft.name,
    account: draft.account,
    phone: draft.phone,
    email: draft.email,
    webhook_url: draft.webhookUrl,
    status: 'Initiated',
    failure_reason: null,
    upstream_ref: null,
    utr: null,
    channel,
    fallback_channels: fallbacks.length > 0 ? fallbacks.join(',') : null,
    submit_attempts: 0n,
    query_attempts: 0n,
    next_action_at_ms: nowMs,
    locked_until_ms: null,
    created_at_ms: nowMs,
    updated_at_ms: nowMs,
    completed_at_ms: null,
    created_by_key_id: keyId,
    approval_expires_at_ms: null,
    approval_decided_by_key_id: null,
    approval_reason: null,
  };
}

/**
 * A payout's reservation holds exactly its amount and fee, made for it and no other: what the
 * outcome later completes or releases is then what intake took from the merchant.
 */
export function assertReservationOf(payout: PayoutsTable, reservation: Reservation): void {
  if (
    reservation.ref !== payout.transaction_ref ||
    reservation.merchantId !== payout.merchant_id ||
    reservation.amountMinor !== payout.amount_minor ||
    reservation.feeMinor !== payout.fee_minor
  ) {
    throw new Error(`payouts: reservation ${reservation.ref} does not hold payout ${payout.transaction_ref}'s amount and fee`);
  }
}
