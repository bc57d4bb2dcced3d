// How a payout row is shown: the merchant's record (status, fetch and every webhook body), the
// initiate answer, and the operator's view. Amounts leave as major-unit numbers.
import { isoFromMs, MS_PER_SECOND } from '../../core/clock.js';
import { toMajor, type Currency } from '../../core/money.js';
import { scoreShown } from './name-check.js';
import { displayMethod, type PayoutInitiateRequest } from './payout-request.js';
import type { PayoutStatus, PayoutsTable } from './payout-rows.js';

/** The payout as status/fetch return it and as webhooks carry it (contract sections 4 and 8). */
/** The name check a payout passed (initiated with nameCheck: true): score and threshold 0..1. */
export interface PayoutNameCheck {
  readonly resolvedName: string;
  readonly score: number;
  readonly threshold: number;
}

export interface PayoutRecord extends Omit<PayoutInitiateRequest, 'currency' | 'nameCheck'> {
  readonly transactionRef: string;
  readonly currency: Currency;
  readonly fee: number;
  readonly status: PayoutStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly completedAt?: string;
  readonly failureReason?: string;
  /** The upstream's reference of the transfer, once the channel gave one. */
  readonly upstreamRef?: string;
  /** The bank's reference (India: the UTR) where the channel gives one besides its own id. */
  readonly utr?: string;
  /** Present when the payout was initiated with nameCheck: true. */
  readonly nameCheck?: PayoutNameCheck;
  /** PendingApproval only: when it fails with APPROVAL_EXPIRED unless decided first. */
  readonly approvalExpiresAt?: string;
}

/** The answer of payout/initiate: the record's identity, amounts and status. */
export type PayoutInitiateResult = Pick<PayoutRecord, 'transactionRef' | 'merchantRef' | 'method' | 'currency' | 'amount' | 'fee' | 'status'>;

/** The columns the record is made of: what a read that answers records (a list) needs to select. */
export const PAYOUT_RECORD_COLUMNS = [
  'transaction_ref',
  'merchant_ref',
  'method',
  'currency',
  'amount_minor',
  'fee_minor',
  'bank_code',
  'beneficiary_name',
  'account',
  'phone',
  'email',
  'webhook_url',
  'status',
  'created_at_ms',
  'updated_at_ms',
  'completed_at_ms',
  'failure_reason',
  'upstream_ref',
  'utr',
  'name_check_name',
  'name_check_score',
  'name_check_threshold',
  'approval_expires_at_ms',
] as const satisfies readonly (keyof PayoutsTable)[];

export type PayoutRecordRow = Pick<PayoutsTable, (typeof PAYOUT_RECORD_COLUMNS)[number]>;

export function payoutRecord(row: PayoutRecordRow): PayoutRecord {
  return {
    transactionRef: row.transaction_ref,
    merchantRef: row.merchant_ref,
    method: displayMethod(row.currency, row.method),
    currency: row.currency as Currency,
    amount: toMajor(row.amount_minor),
    fee: toMajor(row.fee_minor),
    ...(row.bank_code === null ? {} : { bankCode: row.bank_code }),
    name: row.beneficiary_name,
    account: row.account,
    phone: row.phone,
    email: row.email,
    ...(row.webhook_url === null ? {} : { webhookUrl: row.webhook_url }),
    status: row.status,
    createdAt: isoFromMs(row.created_at_ms),
    updatedAt: isoFromMs(row.updated_at_ms),
    ...(row.completed_at_ms === null ? {} : { completedAt: isoFromMs(row.completed_at_ms) }),
    ...(row.failure_reason === null ? {} : { failureReason: row.failure_reason }),
    ...(row.upstream_ref === null ? {} : { upstreamRef: row.upstream_ref }),
    ...(row.utr === null ? {} : { utr: row.utr }),
    ...(row.name_check_name === null ? {} : { nameCheck: nameCheckOf(row) }),
    ...(row.approval_expires_at_ms === null ? {} : { approvalExpiresAt: isoFromMs(row.approval_expires_at_ms) }),
  };
}

function nameCheckOf(row: PayoutRecordRow): PayoutNameCheck {
  return { resolvedName: row.name_check_name!, score: scoreShown(row.name_check_score ?? 0n), threshold: scoreShown(row.name_check_threshold ?? 0n) };
}

/**
 * The answer of payout/initiate. Status is the stored one: a repeated initiate of a payout that
 * progressed meanwhile answers its current status (the record is the same payout).
 */
export function payoutInitiateResult(row: PayoutsTable): PayoutInitiateResult {
  const { transactionRef, merchantRef, method, currency, amount, fee, status } = payoutRecord(row);
  return { transactionRef, merchantRef, method, currency, amount, fee, status };
}

/** What the operator sees of a payout: the record plus the job's bookkeeping. */
export interface OperatorPayoutView extends PayoutRecord {
  readonly merchantId: string;
  /** The connector that serves it, and those it would fall back to on a refusal at submission. */
  readonly channel: string;
  readonly fallbackChannels: string[];
  readonly submitAttempts: number;
  readonly queryAttempts: number;
  readonly nextActionAt?: string;
  /** Seconds since the payout last changed. */
  readonly ageSeconds: number;
}

export function operatorView(row: PayoutsTable, nowMs: number): OperatorPayoutView {
  return {
    ...payoutRecord(row),
    merchantId: row.merchant_id,
    channel: row.channel,
    fallbackChannels: row.fallback_channels === null ? [] : row.fallback_channels.split(','),
    submitAttempts: Number(row.submit_attempts),
    queryAttempts: Number(row.query_attempts),
    ...(row.next_action_at_ms === null ? {} : { nextActionAt: isoFromMs(row.next_action_at_ms) }),
    ageSeconds: Math.max(0, Math.floor((nowMs - Number(row.updated_at_ms)) / MS_PER_SECOND)),
  };
}
