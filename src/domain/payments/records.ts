// How a payment row is shown: the merchant's record (status, fetch and every webhook body), the
// initiate and refund answers, and the payer's checkout view. Amounts leave as major-unit numbers.
import type { CollectionInstructions } from '../../connectors/channel.js';
import { isoFromMs } from '../../core/clock.js';
import { findMethod } from '../methods.js';
import { toMajor, type Currency } from '../../core/money.js';
import type { CheckoutView, PaymentStatus } from './checkout-view.js';
import { REFUND_WINDOW_MS } from './payment-limits.js';
import type { PaymentsTable } from './payment-rows.js';
import type { InitiateRequest } from './payment-request.js';

/** The payment as status/fetch return it and as webhooks carry it (contract sections 4 and 8). */
export interface PaymentRecord extends Omit<InitiateRequest, 'currency'> {
  readonly transactionRef: string;
  readonly currency: Currency;
  readonly status: PaymentStatus;
  /** What the payer paid; 0 until the payment succeeded. */
  readonly paidAmount: number;
  /** The fee fixed at creation; charged only when the payment succeeds. */
  readonly fee: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly completedAt?: string;
  readonly expiresAt: string;
  readonly refundedAt?: string;
  readonly failureReason?: string;
  /** Would a refund be accepted right now? */
  readonly refundable: boolean;
  /** Last moment a refund is accepted, for successful payments of refundable methods. */
  readonly refundableUntil?: string;
}

export interface InitiateResult {
  readonly transactionRef: string;
  readonly merchantRef: string;
  readonly method: string;
  /** Absent for INR, as in the interface's INR sample; present for every other currency. */
  readonly currency?: Currency;
  readonly amount: number;
  readonly checkoutUrl: string;
  readonly status: PaymentStatus;
  readonly expiresAt: string;
}

export interface RefundResult {
  readonly transactionRef: string;
  readonly merchantRef: string;
  readonly currency: Currency;
  readonly method: string;
  readonly amount: number;
  readonly paidAmount: number;
  readonly fee: number;
  readonly status: PaymentStatus;
  readonly refundedAt?: string;
}

export const methodRefundable = (row: Pick<PaymentsTable, 'currency' | 'method'>): boolean =>
  findMethod(row.currency as Currency, 'payin', row.method)?.refundable ?? false;

/** Until when a successful payment of a refundable method may be refunded; null otherwise. */
export function refundDeadlineMs(row: Pick<PaymentsTable, 'currency' | 'method' | 'status' | 'completed_at_ms'>): number | null {
  if (!methodRefundable(row) || row.completed_at_ms === null) return null;
  if (row.status !== 'Success' && row.status !== 'Refund') return null;
  return Number(row.completed_at_ms) + REFUND_WINDOW_MS;
}

const optionalIso = (ms: bigint | null): string | undefined => (ms === null ? undefined : isoFromMs(ms));

/** The columns the record is made of: what a read that answers records (a list) needs to select. */
export const PAYMENT_RECORD_COLUMNS = [
  'transaction_ref',
  'merchant_ref',
  'method',
  'currency',
  'amount_minor',
  'payer_name',
  'payer_email',
  'payer_phone',
  'redirect_url',
  'webhook_url',
  'status',
  'paid_amount_minor',
  'fee_minor',
  'created_at_ms',
  'updated_at_ms',
  'completed_at_ms',
  'expires_at_ms',
  'refunded_at_ms',
  'failure_reason',
  'refund_state',
] as const satisfies readonly (keyof PaymentsTable)[];

export type PaymentRecordRow = Pick<PaymentsTable, (typeof PAYMENT_RECORD_COLUMNS)[number]>;

export function paymentRecord(row: PaymentRecordRow, nowMs: number): PaymentRecord {
  const deadlineMs = refundDeadlineMs(row);
  const refundable = row.status === 'Success' && deadlineMs !== null && nowMs <= deadlineMs && row.refund_state !== 'requested';
  return {
    transactionRef: row.transaction_ref,
    merchantRef: row.merchant_ref,
    method: row.method,
    currency: row.currency as Currency,
    amount: toMajor(row.amount_minor),
    name: row.payer_name,
    email: row.payer_email,
    phone: row.payer_phone,
    redirectUrl: row.redirect_url,
    ...(row.webhook_url === null ? {} : { webhookUrl: row.webhook_url }),
    status: row.status,
    paidAmount: toMajor(row.paid_amount_minor ?? 0n),
    fee: toMajor(row.fee_minor),
    createdAt: isoFromMs(row.created_at_ms),
    updatedAt: isoFromMs(row.updated_at_ms),
    ...(row.completed_at_ms === null ? {} : { completedAt: optionalIso(row.completed_at_ms) }),
    expiresAt: isoFromMs(row.expires_at_ms),
    ...(row.refunded_at_ms === null ? {} : { refundedAt: optionalIso(row.refunded_at_ms) }),
    ...(row.failure_reason === null ? {} : { failureReason: row.failure_reason }),
    refundable,
    ...(deadlineMs === null || row.status !== 'Success' ? {} : { refundableUntil: isoFromMs(deadlineMs) }),
  };
}

/**
 * Until when paymentRecord(row, t) answers the same for every t from nowMs on: the time enters the record
 * only through `refundable`, which turns false once the refund deadline has passed. Infinity: for good.
 */
export function paymentRecordStableUntilMs(row: PaymentRecordRow, nowMs: number): number {
  const deadlineMs = refundDeadlineMs(row);
  return deadlineMs !== null && nowMs <= deadlineMs ? deadlineMs : Infinity;
}

/** What the operator sees of a payment: the record plus the connector that serves it and its reference there. */
export interface OperatorPaymentView extends PaymentRecord {
  readonly merchantId: string;
  readonly channel: string;
  readonly upstreamRef: string | null;
  /** requested, ready or failed: whether the connector has prepared the payer's instructions. */
  readonly collectionState: string;
}

export function operatorPaymentView(row: PaymentsTable, nowMs: number): OperatorPaymentView {
  return {
    ...paymentRecord(row, nowMs),
    merchantId: row.merchant_id,
    channel: row.channel,
    upstreamRef: row.upstream_ref,
    collectionState: row.collection_state,
  };
}

export function initiateResult(row: PaymentsTable, checkoutUrl: string): InitiateResult {
  return {
    transactionRef: row.transaction_ref,
    merchantRef: row.merchant_ref,
    method: row.method,
    ...(row.currency === 'INR' ? {} : { currency: row.currency as Currency }),
    amount: toMajor(row.amount_minor),
    checkoutUrl,
    status: row.status,
    expiresAt: isoFromMs(row.expires_at_ms),
  };
}

export function refundResult(row: PaymentsTable): RefundResult {
  return {
    transactionRef: row.transaction_ref,
    merchantRef: row.merchant_ref,
    currency: row.currency as Currency,
    method: row.method,
    amount: toMajor(row.amount_minor),
    paidAmount: toMajor(row.paid_amount_minor ?? 0n),
    fee: toMajor(row.fee_minor),
    status: row.status,
    ...(row.refunded_at_ms === null ? {} : { refundedAt: isoFromMs(row.refunded_at_ms) }),
  };
}

export function checkoutView(row: PaymentsTable, merchant: { readonly name: string; readonly mode: 'sandbox' | 'live' }): CheckoutView {
  return {
    transactionRef: row.transaction_ref,
    merchantName: merchant.name,
    currency: row.currency as Currency,
    method: row.method,
    amount: toMajor(row.amount_minor),
    status: row.status,
    expiresAt: isoFromMs(row.expires_at_ms),
    expiresAtMs: Number(row.expires_at_ms),
    redirectUrl: row.redirect_url,
    sandbox: merchant.mode === 'sandbox',
    instructions: row.collection_json === null ? null : (JSON.parse(row.collection_json) as CollectionInstructions),
    failureReason: row.failure_reason,
  };
}
