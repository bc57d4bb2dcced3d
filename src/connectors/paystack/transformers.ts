// Paystack's wire format as this connector speaks it (request and answer bodies of the Charge,
// Transaction, Transfer Recipient, Transfer and Bank APIs, webhook events) and the pure mapping
// between those bodies and ours: references, kobo amounts, statuses and refusal reasons.
import type { Minor } from '../../core/money.js';
import type { CollectionState, PayoutState, UpstreamCollectionStatus, UpstreamPayoutStatus } from '../channel.js';

/** Every answer is an envelope: `status` true with `data`, or false with a message (and on newer errors `type`/`code`). */
export interface Envelope<T> {
  readonly status: boolean;
  readonly message: string;
  readonly data?: T;
  readonly type?: string;
  readonly code?: string;
  /** Errors: what to do next. Paged lists (GET /bank with use_cursor): the cursor of the next page. */
  readonly meta?: { readonly nextStep?: string; readonly next?: string | null; readonly page?: number; readonly pageCount?: number };
}

/** POST /charge with a `bank_transfer` object: "Pay with Transfer", one account per charge. */
export interface ChargeRequestBody {
  readonly email: string;
  /** Kobo, as a JSON integer. */
  readonly amount: number;
  readonly reference: string;
  readonly currency: 'NGN';
  readonly bank_transfer: { readonly account_expires_at: string };
  readonly metadata?: Record<string, string>;
}

export interface PaystackBank {
  readonly name: string;
  readonly slug?: string;
  readonly id?: number;
  readonly code?: string;
}

/** The `data` of a charge answer (POST /charge, GET /charge/:reference) while it waits for the transfer. */
export interface ChargeData {
  readonly status: string;
  readonly reference: string;
  readonly amount?: number;
  readonly display_text?: string;
  readonly account_name?: string;
  readonly account_number?: string;
  readonly bank?: PaystackBank | null;
  readonly account_expires_at?: string;
  readonly id?: number;
  readonly gateway_response?: string | null;
}

/** The `data` of GET /transaction/verify/:reference and of the charge.success event. */
export interface TransactionData {
  readonly id: number;
  readonly status: string;
  readonly reference: string;
  /** What was actually paid, in kobo. */
  readonly amount: number;
  readonly requested_amount?: number;
  readonly currency: string;
  readonly channel: string;
  readonly gateway_response?: string | null;
  readonly paid_at?: string | null;
}

export interface RecipientRequestBody {
  readonly type: 'nuban';
  readonly name: string;
  readonly account_number: string;
  readonly bank_code: string;
  readonly currency: 'NGN';
}

export interface RecipientData {
  readonly recipient_code: string;
  readonly type: string;
  readonly name: string;
}

export interface TransferRequestBody {
  readonly source: 'balance';
  readonly amount: number;
  readonly recipient: string;
  readonly reference: string;
  readonly reason: string;
  readonly currency: 'NGN';
}

/** The `data` of POST /transfer, GET /transfer/verify/:reference and the transfer.* events. */
export interface TransferData {
  readonly reference: string;
  readonly status: string;
  readonly transfer_code: string;
  readonly amount: number;
  readonly currency: string;
  readonly failures?: unknown;
  readonly gateway_response?: string | null;
  readonly reason?: string | null;
}

export interface ResolvedAccountData {
  readonly account_number: string;
  readonly account_name: string;
  readonly bank_id?: number;
}

export interface WebhookEvent<T = unknown> {
  readonly event: string;
  readonly data: T;
}

// ---------------------------------------------------------------------------------------------
// References

/**
 * Paystack takes `[a-z0-9_-]` (transfers, lowercase only, at least 16 characters) and `[A-Za-z0-9.=-]`
 * (charges). Our transactionRef is a lowercase UUID, which both accept, so it goes as it is and
 * comes back unchanged in every answer and event. Anything else (not made by this service) is sent
 * as `pgx-` + the hex of its UTF-8 bytes (padded to 16), which both formats accept and which decodes back exactly.
 */
const PLAIN_REFERENCE = /^[a-z0-9-]{16,50}$/;
const ENCODED_PREFIX = 'pgx-';
const MIN_REFERENCE_LENGTH = 16;
const MAX_REFERENCE_LENGTH = 50;

/** Paystack's reference for our transactionRef, or null when no valid one fits 50 characters. */
export function toPaystackReference(transactionRef: string): string | null {
  if (PLAIN_REFERENCE.test(transactionRef) && !transactionRef.startsWith(ENCODED_PREFIX)) return transactionRef;
  const hex = ENCODED_PREFIX + Buffer.from(transactionRef, 'utf8').toString('hex');
  // Transfers want at least 16 characters: a short one is padded after a dash the decoder stops at.
  const encoded = hex.length >= MIN_REFERENCE_LENGTH ? hex : `${hex}-`.padEnd(MIN_REFERENCE_LENGTH, '0');
  return encoded.length <= MAX_REFERENCE_LENGTH ? encoded : null;
}

/** Our transactionRef from a Paystack reference (the inverse of toPaystackReference). */
export function fromPaystackReference(reference: string): string {
  if (!reference.startsWith(ENCODED_PREFIX)) return reference;
  const hex = reference.slice(ENCODED_PREFIX.length).split('-')[0]!;
  return /^(?:[0-9a-f]{2})+$/.test(hex) ? Buffer.from(hex, 'hex').toString('utf8') : reference;
}

// ---------------------------------------------------------------------------------------------
// Amounts: Paystack takes and answers kobo as JSON integers.

/** Kobo as a JSON number; refused (null) beyond what a double carries exactly. */
export const toKobo = (amountMinor: Minor): number | null =>
  amountMinor > 0n && amountMinor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(amountMinor) : null;

/** A kobo integer from an answer; null when it is not one. */
export const fromKobo = (value: unknown): Minor | null =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : null;

// ---------------------------------------------------------------------------------------------
// Statuses

/**
 * Transaction statuses (GET /transaction/verify, charge.success) and charge statuses (POST /charge,
 * GET /charge/:reference). `abandoned` for a bank-transfer charge means the account expired unpaid.
 * `reversed` is a paid transaction that was taken back (refund or chargeback): no longer paid.
 */
export const TRANSACTION_STATUS: Readonly<Record<string, UpstreamCollectionStatus>> = {
  success: 'PAID',
  failed: 'FAILED',
  reversed: 'FAILED',
  abandoned: 'EXPIRED',
  pending: 'PENDING',
  ongoing: 'PENDING',
  processing: 'PENDING',
  queued: 'PENDING',
  pending_bank_transfer: 'PENDING',
  send_pin: 'PENDING',
  send_otp: 'PENDING',
  send_phone: 'PENDING',
  send_birthday: 'PENDING',
  send_address: 'PENDING',
  open_url: 'PENDING',
  pay_offline: 'PENDING',
};

/**
 * Transfer statuses (POST /transfer, GET /transfer/verify, transfer.* events). `otp` waits for an
 * OTP that only the dashboard can give (the operator must switch transfer OTP off): the money may
 * still go, so it stays PROCESSING. `abandoned` is an OTP never given, `blocked` and `rejected` are
 * Paystack's own refusals, `reversed` came back after being sent: all final failures.
 */
export const TRANSFER_STATUS: Readonly<Record<string, UpstreamPayoutStatus>> = {
  success: 'SUCCESS',
  pending: 'PROCESSING',
  processing: 'PROCESSING',
  queued: 'PROCESSING',
  received: 'PROCESSING',
  otp: 'PROCESSING',
  failed: 'FAILED',
  reversed: 'FAILED',
  abandoned: 'FAILED',
  blocked: 'FAILED',
  rejected: 'FAILED',
};

/** Why a transfer in a final failed status failed, as our reason. */
export const TRANSFER_FAILURE_REASON: Readonly<Record<string, string>> = {
  failed: 'UPSTREAM_REJECTED',
  reversed: 'UPSTREAM_REJECTED',
  abandoned: 'UPSTREAM_REJECTED',
  blocked: 'UPSTREAM_REJECTED',
  rejected: 'UPSTREAM_REJECTED',
};

export const toCollectionState = (transaction: TransactionData): CollectionState | null => {
  const status = TRANSACTION_STATUS[transaction.status];
  if (status === undefined) return null;
  const paid = status === 'PAID' ? fromKobo(transaction.amount) : null;
  return {
    upstreamRef: transaction.reference,
    status,
    ...(paid === null ? {} : { paidAmountMinor: paid }),
    ...(status === 'FAILED' ? { failureReason: 'UPSTREAM_REJECTED' } : {}),
  };
};

/** A transfer's state; a failure takes the finer reason its gateway message names, where it names one. */
export const toPayoutState = (transfer: TransferData): PayoutState | null => {
  const status = TRANSFER_STATUS[transfer.status];
  if (status === undefined) return null;
  const reason = status === 'FAILED' ? (reasonFromMessage(transfer.gateway_response ?? '') ?? TRANSFER_FAILURE_REASON[transfer.status] ?? 'UPSTREAM_REJECTED') : null;
  return { status, upstreamRef: transfer.transfer_code, ...(reason === null ? {} : { failureReason: reason }) };
};

// ---------------------------------------------------------------------------------------------
// Refusals: Paystack's documented error messages and codes (docs "API errors: transfers") to ours.

/** Error `code`s that name a reason outright. */
export const ERROR_CODE_REASON: Readonly<Record<string, string>> = {
  invalid_transfer_recipient: 'INVALID_ACCOUNT',
  invalid_bank_code: 'INVALID_ACCOUNT',
  invalid_account_number: 'INVALID_ACCOUNT',
  account_resolve_failed: 'INVALID_ACCOUNT',
  insufficient_balance: 'INSUFFICIENT_FUNDS_UPSTREAM',
};

/** Error messages as the transfers error page lists their meanings; first match wins. */
export const ERROR_MESSAGE_REASON: readonly (readonly [RegExp, string])[] = [
  [/balance is not enough|insufficient (funds|balance)|not have (sufficient|enough) funds/i, 'INSUFFICIENT_FUNDS_UPSTREAM'],
  [/could not resolve account|cannot resolve account|account details are invalid|account number is invalid|invalid account|provide (a valid )?account number/i, 'INVALID_ACCOUNT'],
  [/unknown bank code|invalid bank code|bank code is invalid|provide (a )?bank code/i, 'INVALID_ACCOUNT'],
  [/recipient specified is invalid|invalid recipient/i, 'INVALID_ACCOUNT'],
  [/blacklist|watchlist|fraud/i, 'UPSTREAM_REJECTED'],
];

export function reasonFromMessage(message: string): string | null {
  for (const [pattern, reason] of ERROR_MESSAGE_REASON) if (pattern.test(message)) return reason;
  return null;
}

/** Our reason for a refusal envelope: its code, else its message, else UPSTREAM_REJECTED. */
export const refusalReason = (body: Partial<Envelope<unknown>>): string =>
  (body.code === undefined ? undefined : ERROR_CODE_REASON[body.code]) ?? reasonFromMessage(body.message ?? '') ?? 'UPSTREAM_REJECTED';

/** "Duplicate Transaction Reference" (charges, code duplicate_reference) or a transfer reference used before. */
export const isDuplicateReference = (body: Partial<Envelope<unknown>>): boolean =>
  body.code === 'duplicate_reference' || /duplicate (transaction |transfer )?reference|reference (has )?already (been )?used|reference already exists/i.test(body.message ?? '');

/** Paystack answers a lookup of an unknown reference with 404 (or, for older endpoints, 400 "... not found"). */
export const isNotFound = (status: number, body: Partial<Envelope<unknown>>): boolean =>
  status === 404 || (status === 400 && /not found/i.test(body.message ?? ''));
