// Steps 2 and 3 of a payout's life: intake. A checked request becomes a payout row and its
// reservation of amount + fee in the ledger, in one transaction; a repeat answers the original.
import { AppError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Minor } from '../../core/money.js';
import type { Reservation } from '../../ledger/service.js';
import type { Executor } from '../../store/schema.js';
import { withTransaction } from '../../store/transactions.js';
import type { Merchant } from '../../merchants/merchant-service.js';
import { requireCurrency } from '../request-rules.js';
import type { PayoutContext } from './payout-context.js';
import { findPayoutForMerchant, insertPayoutIfNew } from './payout-repository.js';
import { buildPayoutDraft, payoutRequestHash, requirePayoutMethod, type PayoutDraft, type PayoutInitiateRequest } from './payout-request.js';
import type { PayoutsTable } from './payout-rows.js';

/**
 * Accepts a payout, or answers the original when the merchant repeats the same request under the
 * same merchantRef. The record and the reservation commit together (the reservation last, so the
 * merchant's balance rows are locked only until the commit); when the balance is short nothing is
 * written. The upstream is asked later, by the submission job.
 */
export async function acceptPayout(ctx: PayoutContext, merchant: Merchant, request: PayoutInitiateRequest): Promise<PayoutsTable> {
  const prepared = await preparePayout(ctx, merchant, request);
  return withTransaction(ctx.db, async (trx) => {
    const stored = await storePayout(trx, ctx, merchant, prepared, null);
    if (stored.row) return stored.row;
    const original = await findPayoutForMerchant(trx, merchant.id, { merchantRef: prepared.draft.merchantRef });
    if (!original) throw new Error(`payouts: merchantRef ${prepared.draft.merchantRef} conflicted but cannot be read`);
    if (original.request_hash !== prepared.hash) {
      throw new AppError('DUPLICATE_MERCHANT_REF', `merchantRef ${prepared.draft.merchantRef} was already used with a different payout request.`);
    }
    return original;
  });
}

/** A payout request that passed every rule, priced and routed: what intake stores. */
export interface PreparedPayout {
  readonly draft: PayoutDraft;
  readonly hash: string;
  readonly feeMinor: Minor;
  readonly channel: string;
  readonly fallbacks: readonly string[];
}

/** Steps 1 and the fee: every check that needs no transaction. Throws the request's AppError. */
export async function preparePayout(ctx: PayoutContext, merchant: Merchant, request: PayoutInitiateRequest): Promise<PreparedPayout> {
  const currency = requireCurrency(request.currency);
  const method = requirePayoutMethod(currency, request.method);
  const bounds = await ctx.fees.limitsFor(merchant.id, currency, method.method, 'payout');
  const upstreamCodes = (await ctx.banks?.upstreamCodes(merchant, currency)) ?? null;
  const draft = buildPayoutDraft(request, currency, method, bounds, merchant.mode, ctx.webhookUrlCheck, upstreamCodes);
  const hash = payoutRequestHash(draft);
  const feeMinor = await ctx.fees.feeFor(merchant.id, currency, method.method, 'payout', draft.amountMinor);
  const { channel, fallbacks } = ctx.channels.route(merchant, currency, method.method, 'payout');
  return { draft, hash, feeMinor, channel: channel.name, fallbacks };
}

/**
 * Step 2 and 3 inside the caller's transaction: the payout row, then its reservation. Answers
 * `{ row: null }` (nothing written) when the merchant already has a payout under this merchantRef;
 * throws INSUFFICIENT_BALANCE after writing the row, so a caller that goes on with its
 * transaction must roll this call back (a savepoint, as batch intake does).
 */
export async function storePayout(
  trx: Executor,
  ctx: PayoutContext,
  merchant: Merchant,
  prepared: PreparedPayout,
  batchId: string | null,
): Promise<{ readonly row: PayoutsTable | null }> {
  const { draft, hash, feeMinor } = prepared;
  const fresh = newPayoutRow(merchant, draft, hash, feeMinor, prepared.channel, prepared.fallbacks, BigInt(ctx.clock.nowMs()), batchId);
  if (!(await insertPayoutIfNew(trx, fresh))) return { row: null };
  // Step 3, the ledger's: available (then credit) -> held, amount + fee (ledger/payouts.ts reserveForPayout).
  const reservation = await ctx.ledger.reserveForPayout(trx, {
    merchantId: merchant.id,
    currency: draft.currency,
    amountMinor: draft.amountMinor,
    feeMinor,
    ref: fresh.transaction_ref,
  });
  if (reservation.replayed) throw new Error(`payouts: ${fresh.transaction_ref} is new, yet the ledger had its reservation`);
  assertReservationOf(fresh, reservation);
  return { row: fresh };
}

function newPayoutRow(
  merchant: Merchant,
  draft: PayoutDraft,
  hash: string,
  feeMinor: Minor,
  channel: string,
  fallbacks: readonly string[],
  nowMs: bigint,
  batchId: string | null,
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
    batch_id: batchId,
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
