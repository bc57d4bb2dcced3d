// Steps 2 and 3 of a payout's life: intake. A checked request becomes a payout row and its
// reservation of amount + fee in the ledger, in one transaction; a repeat answers the original.
import type { Transaction } from 'kysely';
import { AppError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Currency, Minor } from '../../core/money.js';
import type { ManyRecordReservation, Reservation } from '../../ledger/service.js';
import { halfLeaseLeft, type PooledJob } from '../../core/pooled-job.js';
import { isPostgres, type Database, type Executor } from '../../store/schema.js';
import { refusedUnwritten, unitKeys, writeGroupOf, type BatchKind, type UnitScope } from '../../store/write-group.js';
import type { Merchant } from '../../merchants/merchant-service.js';
import { computeFee } from '../fees.js';
import type { AmountBounds } from '../methods.js';
import { requireCurrency } from '../request-rules.js';
import { approvalDeadline, readApprovalSetting, type PayoutApprovalSetting } from './approvals.js';
import { checkBeneficiaryName, type NameCheckOutcome } from './name-check.js';
import type { NameEnquiry } from './name-enquiry.js';
import type { PayoutContext } from './payout-context.js';
import { enqueuePayoutPendingApproval } from './payout-events.js';
import { findPayoutForMerchant, insertPayoutIfNew, PAYOUT_RECORD, payoutRecordValues, type ClaimedPayout } from './payout-repository.js';
import { payoutLeaseMs } from './payout-limits.js';
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
export async function acceptPayout(
  ctx: PayoutContext,
  merchant: Merchant,
  request: PayoutInitiateRequest,
  names: NameEnquiry,
  keyId: string | null = null,
  /** The submission job, to hand the new payout to when it runs in this process and has a free slot. */
  submissions?: PooledJob<ClaimedPayout>,
): Promise<PayoutsTable> {
  const prepared = await preparePayout(ctx, merchant, request, payoutTerms(ctx, merchant), async (draft) => {
    const original = await findPayoutForMerchant(ctx.db, merchant.id, { merchantRef: draft.merchantRef });
    return original ? { original } : { check: await checkBeneficiaryName(names, merchant, draft) };
  });
  if ('original' in prepared) return theOriginal(prepared.original, prepared.draft.merchantRef, prepared.hash);
  // A free slot of the submission job in this process: the row is written with the job's lease and its
  // first submission counted (as the job's claim would write them), and goes upstream once committed.
  const slot = submissions?.reserveSlot() ?? null;
  const leaseMs = payoutLeaseMs(ctx);
  const leaseUntilMs = slot ? BigInt(ctx.clock.nowMs() + leaseMs) : null;
  let accepted: { readonly row: PayoutsTable; readonly fresh: boolean };
  try {
    // Group-committed with the payouts arriving at the same time (write-group.ts). The row and its
    // reservation are written both or neither, so the unit needs no savepoint of its own; on
    // PostgreSQL the group's payouts go in together, in one statement (ledger/payouts.ts
    // reserveManyWithRecord), one round trip of the group's chain for all of them.
    const fresh = newPayoutRow(merchant, prepared, BigInt(ctx.clock.nowMs()), { batchId: null, keyId, leaseUntilMs });
    const work = async (trx: Transaction<Database>, scope: UnitScope, batched: ManyRecordReservation | null) => {
      const stored = await storePayout(trx, ctx, fresh, scope, batched);
      if (stored.row) return { row: stored.row, fresh: true };
      const original = await findPayoutForMerchant(trx, merchant.id, { merchantRef: prepared.draft.merchantRef });
      if (!original) throw new Error(`payouts: merchantRef ${prepared.draft.merchantRef} conflicted but cannot be read`);
      try {
        return { row: theOriginal(original, prepared.draft.merchantRef, prepared.hash), fresh: false };
      } catch (error) {
        throw refusedUnwritten(error);
      }
    };
    const group = writeGroupOf(ctx.db);
    // What its place in the group's order decides: the funds it splits and the merchantRef it takes.
    const keys = [unitKeys.funds(fresh.merchant_id, fresh.currency), unitKeys.merchantRef(fresh.merchant_id, fresh.merchant_ref)] as const;
    accepted = isPostgres(ctx.db)
      ? await group.runBatched(PAYOUT_INTAKES, { ctx, row: fresh }, keys, work)
      : await group.run((trx, scope) => work(trx, scope, null), { optimistic: true, keys });
  } catch (error) {
    slot?.release();
    throw error;
  }
  if (slot) {
    const { row, fresh } = accepted;
    // Sent from here only while half its lease is left; otherwise the claims take it once the lease
    // has run out and ask the bank first (a channel's deadline is well inside half the lease).
    const ours = fresh && leaseUntilMs !== null && row.locked_until_ms === leaseUntilMs;
    if (ours && halfLeaseLeft(ctx.clock.nowMs(), leaseUntilMs, leaseMs)) slot.start({ ...row, firstAttemptRecorded: true });
    else slot.release();
  }
  return accepted.row;
}

/** A repeated merchantRef: the original payout when the body is the same, else DUPLICATE_MERCHANT_REF. */
function theOriginal(original: PayoutsTable, merchantRef: string, hash: string): PayoutsTable {
  if (original.request_hash !== hash) {
    throw new AppError('DUPLICATE_MERCHANT_REF', `merchantRef ${merchantRef} was already used with a different payout request.`);
  }
  return original;
}

/** A payout request that passed every rule, priced and routed: what intake stores. */
export interface PreparedPayout {
  readonly draft: PayoutDraft;
  readonly hash: string;
  readonly feeMinor: Minor;
  readonly channel: string;
  readonly fallbacks: readonly string[];
  /** The name check's outcome when the request asked for one (`nameCheck: true`), else null. */
  readonly nameCheck: NameCheckOutcome | null;
  /** The merchant's maker-checker setting (approvals.ts): above its threshold the payout waits in PendingApproval. */
  readonly approval: PayoutApprovalSetting | null;
}

/** Where a new payout came from: its batch (null for payout/initiate) and the API key that signed the request. */
export interface PayoutOrigin {
  readonly batchId: string | null;
  /** An approval must come from another key than this one; null when no key signed (operator tools, tests). */
  readonly keyId: string | null;
  /**
   * Set when this process submits the payout itself as soon as it is committed (acceptPayout): the
   * lease the row is written with, its first submission counted, as the submission job's claim does.
   */
  readonly leaseUntilMs?: bigint | null;
}

/**
 * Runs the name check of a request that asked for one, after every other rule passed: the payout
 * already stored under its merchantRef (a repeat: no new check), or the check's outcome. Throws
 * ACCOUNT_NAME_MISMATCH, INVALID_ACCOUNT, NAME_ENQUIRY_UNAVAILABLE or UNAVAILABLE.
 */
export type NameCheckStep = (draft: PayoutDraft) => Promise<{ readonly original: PayoutsTable } | { readonly check: NameCheckOutcome }>;

/** What a merchant's payouts are checked and priced by, per currency and method: each read once per holder. */
export interface PayoutTerms {
  bounds(currency: Currency, method: string): Promise<AmountBounds>;
  fee(currency: Currency, method: string, amountMinor: Minor): Promise<Minor>;
  upstreamCodes(currency: Currency): Promise<ReadonlySet<string> | null>;
  /** The merchant's approval setting (approvals.ts), or null when no payout of it waits for approval. */
  approval(): Promise<PayoutApprovalSetting | null>;
}

/** The merchant's terms, each read on first use and then kept: a batch of a thousand items reads them once. */
export function payoutTerms(ctx: PayoutContext, merchant: Merchant): PayoutTerms {
  const loaded = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    let value = loaded.get(key);
    if (!value) loaded.set(key, (value = load()));
    return value as Promise<T>;
  };
  return {
    bounds: (currency, method) => once(`bounds ${currency} ${method}`, () => ctx.fees.limitsFor(merchant.id, currency, method, 'payout')),
    fee: async (currency, method, amountMinor) =>
      computeFee(await once(`fee ${currency} ${method}`, () => ctx.fees.ruleFor(merchant.id, currency, method, 'payout')), 'payout', amountMinor),
    upstreamCodes: (currency) => once(`banks ${currency}`, async () => (await ctx.banks?.upstreamCodes(merchant, currency)) ?? null),
    approval: () => once('approval', () => readApprovalSetting(ctx.db, merchant.id)),
  };
}

/** Steps 1 and the fee: every check that needs no transaction. Throws the request's AppError. */
export async function preparePayout(
  ctx: PayoutContext,
  merchant: Merchant,
  request: PayoutInitiateRequest,
  terms: PayoutTerms,
  nameStep: NameCheckStep,
): Promise<PreparedPayout | (Omit<PreparedPayout, 'nameCheck' | 'approval'> & { readonly original: PayoutsTable })> {
  const currency = requireCurrency(request.currency);
  const method = requirePayoutMethod(currency, request.method);
  const bounds = await terms.bounds(currency, method.method);
  const upstreamCodes = await terms.upstreamCodes(currency);
  const draft = buildPayoutDraft(request, currency, method, bounds, merchant.mode, ctx.webhookUrlCheck, upstreamCodes);
  const hash = payoutRequestHash(draft);
  const feeMinor = await terms.fee(currency, method.method, draft.amountMinor);
  const { channel, fallbacks } = ctx.channels.route(merchant, currency, method.method, 'payout');
  const routed = { draft, hash, feeMinor, channel: channel.name, fallbacks };
  const named = draft.nameCheck ? await nameStep(draft) : null;
  if (named && 'original' in named) return { ...routed, original: named.original };
  return { ...routed, nameCheck: named?.check ?? null, approval: await terms.approval() };
}

/** A payout of a write group's batch on PostgreSQL: its row, written with its reservation. */
interface IntakeItem {
  readonly ctx: PayoutContext;
  readonly row: PayoutsTable;
}

const recordOf = (row: PayoutsTable) => ({ shape: PAYOUT_RECORD, values: payoutRecordValues(row) });

/** A group's new payouts and their reservations in one statement (PostgreSQL); each unit goes on from its answer in storePayout. */
const PAYOUT_INTAKES: BatchKind<IntakeItem, ManyRecordReservation> = {
  name: 'payout intake',
  run: (trx, items) => items[0]!.ctx.ledger.reserveManyWithRecord(trx, items.map(({ row }) => ({ input: reservationOf(row), record: recordOf(row) }))),
};

/**
 * Steps 2 and 3 inside the caller's transaction: the payout row `fresh` (newPayoutRow), then its
 * reservation (and, for a payout that waits for approval, payout.pending_approval). Answers
 * `{ row: null }` (nothing written) when the merchant already has a payout under this merchantRef.
 */
export async function storePayout(
  trx: Executor,
  ctx: PayoutContext,
  fresh: PayoutsTable,
  /**
   * The write group's scope of the unit. With one, the ledger writes the row and its reservation both
   * or neither (on PostgreSQL in one statement), so the unit needs a savepoint only for PostgreSQL's
   * step-by-step path.
   */
  scope?: UnitScope,
  /** What the group's statement for its payouts did for this one (PostgreSQL), or null: this call writes it. */
  batched: ManyRecordReservation | null = null,
): Promise<{ readonly row: PayoutsTable | null }> {
  if (scope) {
    const together = batched !== null && batched.outcome !== 'retry' ? batched : await ctx.ledger.reserveWithRecord(trx, reservationOf(fresh), recordOf(fresh));
    if (together.outcome === 'record_exists') return { row: null };
    if (together.outcome === 'short') {
      // A payout under this merchantRef answers even when the balance is short now (as the insert
      // first would): one may have committed while this statement waited for the balance's lock.
      if (await findPayoutForMerchant(trx, fresh.merchant_id, { merchantRef: fresh.merchant_ref })) return { row: null };
      throw refusedUnwritten(together.refusal);
    }
    if (together.outcome === 'reserved') {
      assertReservationOf(fresh, together.reservation);
      await announceIfPending(trx, fresh);
      return { row: fresh };
    }
    // Nothing written (PostgreSQL, the merchant's first payout): step by step, under a savepoint.
    await scope.protect();
  }
  if (!(await insertPayoutIfNew(trx, fresh))) return { row: null };
  await reservePayout(trx, ctx, fresh);
  await announceIfPending(trx, fresh);
  return { row: fresh };
}

const reservationOf = (row: PayoutsTable) => ({
  merchantId: row.merchant_id,
  currency: row.currency as Currency,
  amountMinor: row.amount_minor,
  feeMinor: row.fee_minor,
  ref: row.transaction_ref,
});

/** A payout just stored in PendingApproval with its funds reserved: payout.pending_approval in the same transaction. */
export async function announceIfPending(trx: Executor, row: PayoutsTable): Promise<void> {
  if (row.status === 'PendingApproval') await enqueuePayoutPendingApproval(trx, row, Number(row.created_at_ms));
}

/**
 * Step 3, the ledger's, for a payout row just written in `trx`: available (then credit) -> held,
 * amount + fee (ledger/payouts.ts reserveForPayout). When the balance is short it throws
 * INSUFFICIENT_BALANCE having written nothing, so the caller may remove the row and go on.
 */
export async function reservePayout(trx: Executor, ctx: PayoutContext, row: PayoutsTable, options: { readonly lockFirst?: boolean } = {}): Promise<void> {
  const reservation = await ctx.ledger.reserveForPayout(trx, reservationOf(row), options);
  if (reservation.replayed) throw new Error(`payouts: ${row.transaction_ref} is new, yet the ledger had its reservation`);
  assertReservationOf(row, reservation);
}

/**
 * The row of a new payout, Initiated and due at once; above the merchant's approval threshold
 * PendingApproval instead, never due for the submission job, until approved (approvals.ts).
 */
export function newPayoutRow(merchant: Merchant, prepared: PreparedPayout, nowMs: bigint, origin: PayoutOrigin): PayoutsTable {
  const { draft, hash, feeMinor, channel, fallbacks, nameCheck, approval } = prepared;
  const approvalExpiresAtMs = approvalDeadline(approval, draft.currency, draft.amountMinor, Number(nowMs));
  const pending = approvalExpiresAtMs !== null;
  // A payout awaiting approval is never submitted, so it is never leased at intake.
  const leased = !pending && origin.leaseUntilMs != null;
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
    status: pending ? 'PendingApproval' : 'Initiated',
    failure_reason: null,
    upstream_ref: null,
    utr: null,
    channel,
    name_check_name: nameCheck?.resolvedName ?? null,
    name_check_score: nameCheck === null ? null : BigInt(nameCheck.score),
    name_check_threshold: nameCheck === null ? null : BigInt(nameCheck.threshold),
    fallback_channels: fallbacks.length > 0 ? fallbacks.join(',') : null,
    submit_attempts: leased ? 1n : 0n,
    query_attempts: 0n,
    next_action_at_ms: pending ? null : nowMs,
    locked_until_ms: leased ? origin.leaseUntilMs! : null,
    created_at_ms: nowMs,
    updated_at_ms: nowMs,
    completed_at_ms: null,
    batch_id: origin.batchId,
    created_by_key_id: origin.keyId,
    approval_expires_at_ms: approvalExpiresAtMs,
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
