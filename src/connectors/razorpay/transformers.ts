// Razorpay's wire format as this connector speaks it (QR codes, payments, refunds, RazorpayX payouts,
// webhook events) and the pure mapping between those bodies and ours.
import { createHash } from 'node:crypto';
import type { Minor } from '../../core/money.js';
import type { CollectionState, PayoutState, PayoutSubmission, UpstreamCollectionStatus, UpstreamPayoutStatus } from '../channel.js';

/** The note key under which our transactionRef travels on QR codes, their payments and payouts. */
export const REF_NOTE = 'paygate_ref';

export const PAYOUT_IDEMPOTENCY_HEADER = 'x-payout-idempotency';
export const REFUND_IDEMPOTENCY_HEADER = 'x-refund-idempotency';

/** Razorpay's error envelope (every 4xx and 5xx). */
export interface ErrorBody {
  readonly error: {
    readonly code: string;
    readonly description: string;
    readonly source?: string | null;
    readonly step?: string | null;
    readonly reason?: string | null;
    readonly field?: string | null;
    readonly metadata?: unknown;
  };
}

export type Notes = Readonly<Record<string, string>> | readonly unknown[];

export interface QrCodeRequest {
  readonly type: 'upi_qr';
  readonly name: string;
  readonly usage: 'single_use';
  readonly fixed_amount: true;
  readonly payment_amount: number;
  readonly description: string;
  readonly close_by: number;
  readonly notes: Readonly<Record<string, string>>;
}

export interface QrCode {
  readonly id: string;
  readonly entity: 'qr_code';
  readonly created_at: number;
  readonly usage: string;
  readonly type: string;
  readonly image_url: string;
  /** Only on accounts with the image-content feature: the `upi://pay?...` string encoded in the QR. */
  readonly image_content?: string | null;
  readonly payment_amount: number | null;
  readonly status: 'active' | 'closed';
  readonly fixed_amount: boolean;
  readonly payments_amount_received: number;
  readonly payments_count_received: number;
  readonly notes: Notes;
  readonly close_by: number | string | null;
  readonly closed_at?: number | null;
  readonly close_reason?: 'on_demand' | 'paid' | null;
}

export interface Payment {
  readonly id: string;
  readonly entity: 'payment';
  readonly amount: number;
  readonly currency: string;
  readonly status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';
  readonly method: string;
  readonly amount_refunded: number;
  readonly captured: boolean;
  readonly notes: Notes;
}

export interface Collection<T> {
  readonly entity: 'collection';
  readonly count: number;
  readonly items: readonly T[];
}

export interface Refund {
  readonly id: string;
  readonly entity: 'refund';
  readonly amount: number;
  readonly payment_id: string;
  readonly status: 'pending' | 'processed' | 'failed';
}

export interface StatusDetails {
  readonly reason: string | null;
  readonly description: string | null;
  readonly source: string | null;
}

/** Every payout state RazorpayX documents (states-life-cycle). */
export type RazorpayPayoutStatus = 'queued' | 'pending' | 'scheduled' | 'processing' | 'processed' | 'reversed' | 'cancelled' | 'rejected' | 'failed';

export interface Payout {
  readonly id: string;
  readonly entity: 'payout';
  readonly amount: number;
  readonly currency: string;
  readonly status: RazorpayPayoutStatus;
  readonly mode: string;
  readonly utr: string | null;
  readonly reference_id: string | null;
  readonly notes: Notes;
  readonly status_details: StatusDetails | null;
}

export interface PayoutRequest {
  readonly account_number: string;
  readonly amount: number;
  readonly currency: 'INR';
  readonly mode: 'IMPS' | 'UPI';
  readonly purpose: 'payout';
  readonly fund_account:
    | { readonly account_type: 'bank_account'; readonly bank_account: { readonly name: string; readonly ifsc: string; readonly account_number: string }; readonly contact: Contact }
    | { readonly account_type: 'vpa'; readonly vpa: { readonly address: string }; readonly contact: Contact };
  readonly queue_if_low_balance: boolean;
  readonly reference_id: string;
  readonly notes: Readonly<Record<string, string>>;
}

interface Contact {
  readonly name: string;
  readonly email?: string;
  readonly contact?: string;
  readonly type: 'customer';
}

/** A webhook event: `payload` holds one `{entity}` per name in `contains`. */
export interface WebhookEvent {
  readonly entity: 'event';
  readonly account_id: string;
  readonly event: string;
  readonly contains: readonly string[];
  readonly payload: {
    readonly qr_code?: { readonly entity: QrCode };
    readonly payment?: { readonly entity: Payment };
    readonly payout?: { readonly entity: Payout };
    readonly refund?: { readonly entity: Refund };
  };
  readonly created_at: number;
}

// ---- amounts ----------------------------------------------------------------------------------

/** INR minor units are paise, which is what Razorpay counts in; only the JSON-number range matters. */
export function toPaise(amountMinor: Minor): number | null {
  if (amountMinor < 0n || amountMinor > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(amountMinor);
}

export const fromPaise = (paise: number): Minor => BigInt(paise);

// ---- references -------------------------------------------------------------------------------

const PLAIN_REFERENCE = /^[A-Za-z0-9_-]{10,36}$/;

/**
 * The payout reference_id (40 chars max) and the X-Payout-Idempotency key (4 to 36 chars of letters,
 * digits, '-', '_', space), and the X-Refund-Idempotency key (10 chars or more of letters, digits, '-',
 * '_'): one value fits all three. Our ref itself when it already fits, else a digest of it, so the
 * same transactionRef always gives the same key and a resubmission is recognised.
 */
export function upstreamReference(transactionRef: string): string {
  if (PLAIN_REFERENCE.test(transactionRef)) return transactionRef;
  return 'pg-' + createHash('sha256').update(transactionRef).digest('hex').slice(0, 32);
}

/** Our ref from the notes Razorpay echoes back; null when the object is not one of ours. */
export function refFromNotes(notes: Notes | null | undefined): string | null {
  if (notes === null || notes === undefined || Array.isArray(notes)) return null;
  const value = (notes as Record<string, unknown>)[REF_NOTE];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

// ---- pay-ins ------------------------------------------------------------------------------------

/** Razorpay refuses a close_by less than 15 minutes ahead; a minute of margin for clock drift. */
export const MIN_CLOSE_AHEAD_SECONDS = 16 * 60;

export function toQrCodeRequest(transactionRef: string, merchantId: string, paise: number, expiresAtMs: number, nowMs: number): QrCodeRequest {
  const closeBy = Math.max(Math.ceil(expiresAtMs / 1000), Math.floor(nowMs / 1000) + MIN_CLOSE_AHEAD_SECONDS);
  return {
    type: 'upi_qr',
    name: `Paygate ${transactionRef}`.slice(0, 60),
    usage: 'single_use',
    fixed_amount: true,
    payment_amount: paise,
    description: `Payment ${transactionRef}`.slice(0, 120),
    close_by: closeBy,
    notes: { [REF_NOTE]: transactionRef, merchant_id: merchantId.slice(0, 256) },
  };
}

/** What the checkout shows: the UPI string when the account gets `image_content`, else the QR image URL. */
export function toInstructions(qr: QrCode): { kind: 'UPI'; qrPayload: string; intentUrl?: string } {
  const content = typeof qr.image_content === 'string' && qr.image_content.length > 0 ? qr.image_content : null;
  if (content !== null && content.startsWith('upi://')) return { kind: 'UPI', qrPayload: content, intentUrl: content };
  return { kind: 'UPI', qrPayload: content ?? qr.image_url };
}

/** Payments that moved money to us: captured ones, and refunded ones (they were paid first). */
const PAID_PAYMENT_STATUSES: ReadonlySet<Payment['status']> = new Set(['captured', 'refunded']);

export const paidPayments = (payments: readonly Payment[]): Payment[] => payments.filter((p) => PAID_PAYMENT_STATUSES.has(p.status));

/**
 * A QR code and its payments as our collection state: any paid payment makes it PAID (with the
 * sum actually paid); else a closed code is EXPIRED (closed on demand or at close_by); else PENDING.
 * A declined UPI attempt leaves the code active for another try, so FAILED is never reported.
 */
export function toCollectionState(qr: QrCode, payments: readonly Payment[]): CollectionState {
  const paid = paidPayments(payments);
  if (paid.length > 0) {
    const total = paid.reduce((sum, p) => sum + fromPaise(p.amount), 0n);
    return { upstreamRef: qr.id, status: 'PAID', paidAmountMinor: total };
  }
  const status: UpstreamCollectionStatus = qr.status === 'closed' ? 'EXPIRED' : 'PENDING';
  return { upstreamRef: qr.id, status };
}

// ---- payouts ------------------------------------------------------------------------------------

/** Every documented payout status, as ours. Those not final stay PROCESSING until RazorpayX says more. */
export const PAYOUT_STATUS: Readonly<Record<RazorpayPayoutStatus, UpstreamPayoutStatus>> = {
  queued: 'PROCESSING', // waiting for balance or a partner bank; it may still go through
  pending: 'PROCESSING', // waiting for approval in the business's approval workflow
  scheduled: 'PROCESSING',
  processing: 'PROCESSING',
  processed: 'SUCCESS',
  reversed: 'FAILED', // money came back from the beneficiary side
  cancelled: 'FAILED', // a queued payout cancelled by the business
  rejected: 'FAILED', // rejected by an approver of the business
  failed: 'FAILED',
};

/** The documented status_details reasons of failed and reversed payouts, as our failure reasons. */
export const PAYOUT_FAILURE_REASON: Readonly<Record<string, string>> = {
  bank_account_closed: 'INVALID_ACCOUNT',
  bank_account_frozen: 'INVALID_ACCOUNT',
  bank_account_invalid: 'INVALID_ACCOUNT',
  beneficiary_account_dormant: 'INVALID_ACCOUNT',
  beneficiary_account_invalid: 'INVALID_ACCOUNT',
  beneficiary_vpa_invalid: 'INVALID_ACCOUNT',
  invalid_ifsc_code: 'INVALID_ACCOUNT',
  invalid_beneficiary: 'INVALID_ACCOUNT',
  imps_not_allowed: 'UPSTREAM_REJECTED',
  beneficiary_bank_rejected: 'UPSTREAM_REJECTED',
  transaction_limit_exceeded: 'AMOUNT_LIMIT_EXCEEDED',
  amount_limit_exhausted_neft: 'AMOUNT_LIMIT_EXCEEDED',
  insufficient_funds: 'INSUFFICIENT_FUNDS_UPSTREAM',
  beneficiary_bank_failure: 'BENEFICIARY_BANK_UNAVAILABLE',
  beneficiary_bank_offline: 'BENEFICIARY_BANK_UNAVAILABLE',
  beneficiary_bank_technical_error: 'BENEFICIARY_BANK_UNAVAILABLE',
  beneficiary_psp_offline: 'BENEFICIARY_BANK_UNAVAILABLE',
  npci_beneficiary_timeout: 'BENEFICIARY_BANK_UNAVAILABLE',
  gateway_down: 'UPSTREAM_ERROR',
  gateway_technical_error: 'UPSTREAM_ERROR',
  gateway_timeout: 'UPSTREAM_ERROR',
  server_error: 'UPSTREAM_ERROR',
  server_error_temporary: 'UPSTREAM_ERROR',
};

/** The reason of a final failure: by status_details.reason, else by the status that ended it. */
export function payoutFailureReason(payout: Pick<Payout, 'status' | 'status_details'>): string {
  const reason = payout.status_details?.reason;
  if (reason && PAYOUT_FAILURE_REASON[reason] !== undefined) return PAYOUT_FAILURE_REASON[reason];
  return 'UPSTREAM_REJECTED';
}

export function toPayoutState(payout: Payout): PayoutState {
  const status = PAYOUT_STATUS[payout.status] ?? 'PROCESSING';
  return {
    status,
    upstreamRef: payout.id,
    ...(status === 'FAILED' ? { failureReason: payoutFailureReason(payout) } : {}),
    ...(typeof payout.utr === 'string' && payout.utr.length > 0 ? { utr: payout.utr } : {}),
  };
}

/** Allowed in contact and account-holder names; anything else becomes a space. */
const NAME_UNSAFE = /[^a-zA-Z0-9 '’\-_/().]/g;

const cleanName = (name: string, max: number): string => name.replace(NAME_UNSAFE, ' ').replace(/\s+/g, ' ').trim().slice(0, max);

export function toPayoutRequest(submission: PayoutSubmission, accountNumber: string, paise: number): PayoutRequest {
  const contact: Contact = {
    name: cleanName(submission.name, 50),
    type: 'customer',
    ...(submission.email ? { email: submission.email } : {}),
    ...(submission.phone ? { contact: submission.phone } : {}),
  };
  const common = {
    account_number: accountNumber,
    amount: paise,
    currency: 'INR' as const,
    purpose: 'payout' as const,
    // A payout that cannot be paid now should fail, so the route can try its next connector.
    queue_if_low_balance: false,
    reference_id: upstreamReference(submission.transactionRef),
    notes: { [REF_NOTE]: submission.transactionRef },
  };
  if (submission.method === 'UPI') {
    return { ...common, mode: 'UPI', fund_account: { account_type: 'vpa', vpa: { address: submission.account }, contact } };
  }
  return {
    ...common,
    mode: 'IMPS',
    fund_account: {
      account_type: 'bank_account',
      bank_account: { name: cleanName(submission.name, 120), ifsc: submission.bankCode ?? '', account_number: submission.account },
      contact,
    },
  };
}

/** Our reason for a payout request RazorpayX refused outright (4xx), from the error's field and text. */
export function payoutRefusalReason(body: Partial<ErrorBody> | null): string {
  const error = body?.error;
  if (!error) return 'UPSTREAM_REJECTED';
  const field = error.field ?? '';
  const text = `${error.reason ?? ''} ${error.description ?? ''}`.toLowerCase();
  if (text.includes('insufficient')) return 'INSUFFICIENT_FUNDS_UPSTREAM';
  if (/ifsc|account_number|vpa|address/.test(field) && !field.startsWith('account_number')) return 'INVALID_ACCOUNT';
  if (/invalid (ifsc|vpa|upi|beneficiary|bank account)/.test(text)) return 'INVALID_ACCOUNT';
  return 'UPSTREAM_REJECTED';
}

// ---- account validation (name enquiry) ---------------------------------------------------------

export interface AccountValidationRequest {
  readonly source_account_number: string;
  readonly validation_type: 'optimized';
  readonly fund_account:
    | { readonly account_type: 'bank_account'; readonly bank_account: { readonly ifsc: string; readonly account_number: string }; readonly contact: Contact }
    | { readonly account_type: 'vpa'; readonly vpa: { readonly address: string }; readonly contact: Contact };
}

export interface AccountValidation {
  readonly id: string;
  readonly entity: 'fund_account.validation';
  readonly status: 'created' | 'completed' | 'failed';
  readonly validation_results: {
    readonly account_status: 'active' | 'invalid' | null;
    readonly registered_name: string | null;
  } | null;
  readonly status_details: StatusDetails | null;
}

/** Razorpay keeps a contact per validation; the holder's name is what we ask, so the contact is named for us. */
const ENQUIRY_CONTACT: Contact = { name: 'Paygate name enquiry', type: 'customer' };

export function toAccountValidationRequest(accountNumber: string, method: 'BANK' | 'UPI', bankCode: string | null, account: string): AccountValidationRequest {
  return {
    source_account_number: accountNumber,
    validation_type: 'optimized',
    fund_account:
      method === 'UPI'
        ? { account_type: 'vpa', vpa: { address: account }, contact: ENQUIRY_CONTACT }
        : { account_type: 'bank_account', bank_account: { ifsc: bankCode ?? '', account_number: account }, contact: ENQUIRY_CONTACT },
  };
}
