// Steps 2 and 3 of a payout's life: intake. A checked request becomes a payout row and its
// reservation of amount + fee in the ledger, in one transaction; a repeat answers the original.
import { AppError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Minor } from '../../core/money.js';
import type { Reservation } from '../../ledger/service.js';
import { withTransaction } from '../../store/transactions.js';
import type { Merchant } from '../../merchants/merchant-service.js';
import { requireCurrency } from '../request-rules.js';
import { checkBeneficiaryName, type NameCheckOutcome } from './name-check.js';
import type { NameEnquiry } from './name-enquiry.js';
import type { PayoutContext } from './payout-context.js';
import { findPayoutForMerchant, insertPayoutIfNew } from './payout-repository.js';
import { buildPayoutDraft, payoutRequestHash, requirePayoutMethod, type PayoutDraft, type PayoutInitiateRequest } from './payout-request.js';
import type { PayoutsTable } from './payout-rows.js';

/**
 * Accepts a payout, or answers the original when the merchant repeats the same request under the
 * same merchantRef. The record and the reservation commit together (the reservation last, so the
 * merchant's balance rows are locked only until the commit); when the balance is short nothing is
 * written. The upstream is asked later, by the submission job.
 *
 * With `nameCheck: true` the account's holder is resolved first (through `names`) and a name that
 * does not match is refused with nothing stored. A repeat of a payout already accepted answers the
 * original without asking the bank again: the original's check stands, whatever the bank says now.
 */
export async function acceptPayout(ctx: PayoutContext, merchant: Merchant, request: PayoutInitiateRequest, names: NameEnquiry): Promise<PayoutsTable> {
  const currency = requireCurrency(request.currency);
  const method = requirePayoutMethod(currency, request.method);
  const bounds = await ctx.fees.limitsFor(merchant.id, currency, method.method, 'payout');
  const upstreamCodes = (await ctx.banks?.upstreamCodes(merchant, currency)) ?? null;
  const draft = buildPayoutDraft(request, currency, method, bounds, merchant.mode, ctx.webhookUrlCheck, upstreamCodes);
  const hash = payoutRequestHash(draft);
  const feeMinor = await ctx.fees.feeFor(merchant.id, currency, method.method, 'payout', draft.amountMinor);
  const { channel, fallbacks } = ctx.channels.route(merchant, currency, method.method, 'payout');
  let nameCheck: NameCheckOutcome | null = null;
  if (draft.nameCheck) {
    const original = await findPayoutForMerchant(ctx.db, merchant.id, { merchantRef: draft.merchantRef });
    if (original) return theOriginal(original, draft, hash);
    nameCheck = await checkBeneficiaryName(names, merchant, draft);
  }
  return withTransaction(ctx.db, async (trx) => {
    const fresh = newPayoutRow(merchant, draft, hash, feeMinor, channel.name, fallbacks, BigInt(ctx.clock.nowMs()), nameCheck);
    if (!(await insertPayoutIfNew(trx, fresh))) {
      const original = await findPayoutForMerchant(trx, merchant.id, { merchantRef: draft.merchantRef });
      if (!original) throw new Error(`payouts: merchantRef ${draft.merchantRef} conflicted but cannot be read`);
      return theOriginal(original, draft, hash);
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
    return fresh;
  });
}

/** A repeated merchantRef: the original payout when the body is the same, else DUPLICATE_MERCHANT_REF. */
function theOriginal(original: PayoutsTable, draft: PayoutDraft, hash: string): PayoutsTable {
  if (original.request_hash !== hash) {
    throw new AppError('DUPLICATE_MERCHANT_REF', `merchantRef ${draft.merchantRef} was already used with a different payout request.`);
  }
  return original;
}

function newPayoutRow(
  merchant: Merchant,
  draft: PayoutDraft,
  hash: string,
  feeMinor: Minor,
  channel: string,
  fallbacks: readonly string[],
  nowMs: bigint,
  nameCheck: NameCheckOutcome | null,
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
    name_check_name: nameCheck?.resolvedName ?? null,
    name_check_score: nameCheck === null ? null : BigInt(nameCheck.score),
    name_check_threshold: nameCheck === null ? null : BigInt(nameCheck.threshold),
    fallback_channels: fallbacks.length > 0 ? fallbacks.join(',') : null,
    submit_attempts: 0n,
    query_attempts: 0n,
    next_action_at_ms: nowMs,
    locked_until_ms: null,
    created_at_ms: nowMs,
    updated_at_ms: nowMs,
    completed_at_ms: null,
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
