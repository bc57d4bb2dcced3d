// Maker-checker for payouts. A merchant may set, per currency, an amount above which a payout waits
// in PendingApproval (funds reserved, never sent upstream) until a request signed with ANOTHER of the
// merchant's keys approves it (-> Initiated, the submission job takes it) or rejects it (-> Failed,
// REJECTED_BY_MERCHANT, funds released). Nobody deciding within the timeout ends it the same way
// with APPROVAL_EXPIRED, done by a lease-claimed job like the others.
import { sql } from 'kysely';
import { AppError, notFound, validationError } from '../../core/errors.js';
import { DEFAULT_JOB_CONCURRENCY, PooledJob } from '../../core/pooled-job.js';
import { CURRENCIES, isCurrency, toMajor, toMinor, type Currency, type Minor } from '../../core/money.js';
import { recordAudit } from '../../audit/audit-log.js';
import type { Merchant } from '../../merchants/merchant-service.js';
import type { StoreKind } from '../../store/db.js';
import { BatchedLookup, HotBatchQuery, HotQuery } from '../../store/hot-query.js';
import type { Db, Executor } from '../../store/schema.js';
import { withTransaction } from '../../store/transactions.js';
import { closePayout } from './outcomes.js';
import type { PayoutContext } from './payout-context.js';
import { PAYOUT_JOB_MAX_IDLE_MS, payoutLeaseMs } from './payout-limits.js';
import { claimWithLease, findPayoutByRef, findPayoutForMerchant, type DueSelection } from './payout-repository.js';
import { assertTransition } from './payout-statuses.js';
import type { PayoutApprovalSettingsTable, PayoutsTable } from './payout-rows.js';

export const REJECTED_BY_MERCHANT = 'REJECTED_BY_MERCHANT';
export const APPROVAL_EXPIRED = 'APPROVAL_EXPIRED';
export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 86_400;
export const MIN_APPROVAL_TIMEOUT_SECONDS = 60;
export const MAX_APPROVAL_TIMEOUT_SECONDS = 30 * 86_400;

/** A merchant's setting as the admin API and CLI show it: thresholds in major units. */
export interface PayoutApprovalView {
  readonly merchantId: string;
  /** Per currency: payouts of a larger amount wait for approval. null: approval is off. */
  readonly thresholdAmount: Partial<Record<Currency, number>> | null;
  readonly timeoutSeconds: number;
}

export interface PayoutApprovalSetting {
  readonly thresholds: ReadonlyMap<Currency, Minor>;
  readonly timeoutSeconds: number;
}

const approvalSettingRow = new HotQuery(1, (db, merchantId: string) => db.selectFrom('payout_approval_settings').selectAll().where('merchant_id', '=', merchantId));

/** Read for every payout/initiate: on PostgreSQL the reads of a moment in one statement (store/hot-query.ts). */
const approvalSettingRows = new BatchedLookup(
  approvalSettingRow,
  new HotBatchQuery(1, (db, _count, ids) => db.selectFrom('payout_approval_settings').selectAll().where('merchant_id', 'in', ids as string[])),
  (row: PayoutApprovalSettingsTable) => row.merchant_id,
);

/** The merchant's setting, or null when none of its payouts need approval. */
export async function approvalSettingOf(db: Executor, merchantId: string): Promise<PayoutApprovalSetting | null> {
  return settingOf(await approvalSettingRow.executeTakeFirst(db, merchantId));
}

/**
 * approvalSettingOf outside any transaction, as payout intake reads it before its own: the same
 * answer, on PostgreSQL read together with the other payouts' arriving at the same moment.
 */
export async function readApprovalSetting(db: Db, merchantId: string): Promise<PayoutApprovalSetting | null> {
  return settingOf(await approvalSettingRows.read(db, merchantId));
}

function settingOf(row: PayoutApprovalSettingsTable | undefined): PayoutApprovalSetting | null {
  if (!row) return null;
  const parsed = JSON.parse(row.thresholds_json) as Record<string, string>;
  const thresholds = new Map<Currency, Minor>();
  for (const [currency, minor] of Object.entries(parsed)) if (isCurrency(currency)) thresholds.set(currency, BigInt(minor));
  return { thresholds, timeoutSeconds: Number(row.timeout_seconds) };
}

/** When a payout of this amount must wait, the deadline of its approval; else null. Strictly above the threshold. */
export function approvalDeadline(setting: PayoutApprovalSetting | null, currency: Currency, amountMinor: Minor, nowMs: number): bigint | null {
  const threshold = setting?.thresholds.get(currency);
  if (threshold === undefined || amountMinor <= threshold) return null;
  return BigInt(nowMs + setting!.timeoutSeconds * 1000);
}

export async function approvalView(db: Executor, merchantId: string): Promise<PayoutApprovalView> {
  const setting = await approvalSettingOf(db, merchantId);
  if (!setting) return { merchantId, thresholdAmount: null, timeoutSeconds: DEFAULT_APPROVAL_TIMEOUT_SECONDS };
  const thresholdAmount: Partial<Record<Currency, number>> = {};
  for (const [currency, minor] of setting.thresholds) thresholdAmount[currency] = toMajor(minor);
  return { merchantId, thresholdAmount, timeoutSeconds: setting.timeoutSeconds };
}

/**
 * Sets (or with null thresholds, removes) a merchant's approval setting. Payouts already pending
 * keep their deadline; the setting applies to payouts initiated from now on.
 */
export async function setApprovalSetting(
  db: Db,
  nowMs: number,
  merchantId: string,
  input: { readonly thresholdAmount: Readonly<Record<string, number | null | undefined>> | null; readonly timeoutSeconds?: number },
  actor: string,
): Promise<PayoutApprovalView> {
  const timeoutSeconds = input.timeoutSeconds ?? DEFAULT_APPROVAL_TIMEOUT_SECONDS;
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < MIN_APPROVAL_TIMEOUT_SECONDS || timeoutSeconds > MAX_APPROVAL_TIMEOUT_SECONDS) {
    throw validationError('timeoutSeconds', `must be a whole number of seconds from ${MIN_APPROVAL_TIMEOUT_SECONDS} to ${MAX_APPROVAL_TIMEOUT_SECONDS}`);
  }
  const thresholds: Record<string, string> = {};
  for (const [currency, amount] of Object.entries(input.thresholdAmount ?? {})) {
    if (!isCurrency(currency)) throw validationError(`thresholdAmount.${currency}`, `is not a currency (${CURRENCIES.join(', ')})`);
    if (amount === null || amount === undefined) continue;
    const minor = toMinor(amount);
    if (minor === null || minor < 0n) throw validationError(`thresholdAmount.${currency}`, 'must be an amount of at most 2 decimals, 0 or more');
    thresholds[currency] = minor.toString();
  }
  const off = Object.keys(thresholds).length === 0;
  await withTransaction(db, async (trx) => {
    const merchant = await trx.selectFrom('merchants').select('id').where('id', '=', merchantId).executeTakeFirst();
    if (!merchant) throw new AppError('NOT_FOUND', `No merchant ${merchantId}.`);
    await trx.deleteFrom('payout_approval_settings').where('merchant_id', '=', merchantId).execute();
    if (!off) {
      await trx
        .insertInto('payout_approval_settings')
        .values({ merchant_id: merchantId, thresholds_json: JSON.stringify(thresholds), timeout_seconds: BigInt(timeoutSeconds), updated_at_ms: BigInt(nowMs) })
        .execute();
    }
    const details = { thresholdMinor: off ? null : thresholds, timeoutSeconds };
    await recordAudit(trx, { actor, action: 'merchant.payout_approval', target: merchantId, merchantId, details, nowMs });
  });
  return approvalView(db, merchantId);
}

/** Who asks: the merchant and the id of the key whose signature the request carried. */
export interface Approver {
  readonly merchant: Merchant;
  readonly keyId: string;
}

/** The pending payout an approver may decide on, or the contract's refusal (404, 409, 403). */
async function pendingFor(ctx: PayoutContext, approver: Approver, transactionRef: string): Promise<PayoutsTable> {
  const row = await findPayoutForMerchant(ctx.db, approver.merchant.id, { transactionRef });
  if (!row) throw notFound('payout');
  if (row.status !== 'PendingApproval') {
    throw new AppError('PAYOUT_NOT_PENDING_APPROVAL', `Payout ${transactionRef} is ${row.status}, not PendingApproval.`);
  }
  if (row.approval_expires_at_ms !== null && row.approval_expires_at_ms <= BigInt(ctx.clock.nowMs())) {
    throw new AppError('PAYOUT_NOT_PENDING_APPROVAL', `The approval of payout ${transactionRef} expired; it is being failed with ${APPROVAL_EXPIRED}.`);
  }
  if (row.created_by_key_id === approver.keyId) {
    throw new AppError('APPROVER_SAME_KEY', 'A payout must be approved or rejected with another key than the one that initiated it.');
  }
  return row;
}

const raced = (transactionRef: string): AppError =>
  new AppError('PAYOUT_NOT_PENDING_APPROVAL', `Payout ${transactionRef} was decided or expired meanwhile.`);

/** PendingApproval -> Initiated: due for the submission job at once. Returns the payout afterwards. */
export async function approvePayout(ctx: PayoutContext, approver: Approver, transactionRef: string, reason: string | null): Promise<PayoutsTable> {
  const row = await pendingFor(ctx, approver, transactionRef);
  const nowMs = ctx.clock.nowMs();
  const result = await ctx.db
    .updateTable('payouts')
    .set({
      status: 'Initiated',
      approval_expires_at_ms: null,
      approval_decided_by_key_id: approver.keyId,
      approval_reason: reason,
      next_action_at_ms: BigInt(nowMs),
      locked_until_ms: null,
      updated_at_ms: BigInt(nowMs),
    })
    .where('transaction_ref', '=', row.transaction_ref)
    .where('status', '=', 'PendingApproval')
    // Not yet expired, written so that it implies nothing about the deadline being set: the deadline
    // index's condition (0022) stays unproven, so no planner can read the queue for this update.
    .where(sql<bigint>`coalesce(approval_expires_at_ms, 0)`, '>', BigInt(nowMs))
    .executeTakeFirst();
  if (result.numUpdatedRows !== 1n) throw raced(transactionRef);
  assertTransition(row.status, 'Initiated', row.transaction_ref);
  return (await findPayoutByRef(ctx.db, transactionRef))!;
}

/** PendingApproval -> Failed (REJECTED_BY_MERCHANT): the reservation is released and payout.failed sent. */
export async function rejectPayout(ctx: PayoutContext, approver: Approver, transactionRef: string, reason: string | null): Promise<PayoutsTable> {
  const row = await pendingFor(ctx, approver, transactionRef);
  const closed = await closePayout(ctx, row, 'Failed', { failureReason: REJECTED_BY_MERCHANT }, ['PendingApproval'], {
    approvalDecidedByKeyId: approver.keyId,
    approvalReason: reason,
  });
  if (!closed) throw raced(transactionRef);
  return closed;
}

/**
 * Pending payouts past their deadline that no live worker holds, leased until `leaseUntilMs` (the
 * same pattern as claimDuePayouts: SKIP LOCKED on PostgreSQL, a conditional update on SQLite).
 */
function claimExpired(db: Db, kind: StoreKind, nowMs: number, leaseUntilMs: number, limit: number): Promise<PayoutsTable[]> {
  return claimWithLease(db, kind, nowMs, leaseUntilMs, approvalsExpired(nowMs, limit));
}

/**
 * The expiry job's pick: the earliest `limit` pending approvals past their deadline, from the index of
 * deadlines (`payouts_approval_due`). The status is a literal, as the payout job's claim writes its
 * statuses: SQLite proves a partial index's condition from literals only.
 */
export const approvalsExpired =
  (nowMs: number, limit: number): DueSelection =>
  (query) =>
    query.where('status', '=', sql.lit('PendingApproval')).where('approval_expires_at_ms', '<=', BigInt(nowMs)).orderBy('approval_expires_at_ms').limit(limit);

/** The approval expiry job: pending payouts past their deadline end Failed with APPROVAL_EXPIRED. */
export function approvalExpiryJob(ctx: PayoutContext): PooledJob<PayoutsTable> {
  const leaseMs = payoutLeaseMs(ctx);
  return new PooledJob({
    name: 'payout-approval-expiry',
    idleIntervalMs: Math.min(ctx.idleIntervalMs ?? PAYOUT_JOB_MAX_IDLE_MS, PAYOUT_JOB_MAX_IDLE_MS),
    concurrency: ctx.concurrency ?? DEFAULT_JOB_CONCURRENCY,
    claim: (limit) => {
      const nowMs = ctx.clock.nowMs();
      return claimExpired(ctx.db, ctx.storeKind, nowMs, nowMs + leaseMs, limit);
    },
    // Conditional on PendingApproval: an approval that won the race leaves nothing to do.
    process: (row) => closePayout(ctx, row, 'Failed', { failureReason: APPROVAL_EXPIRED }, ['PendingApproval']),
  });
}
