// Xendit's wire format as this connector speaks it (the legacy per-product APIs for Indonesia:
// fixed virtual accounts, QR codes 2022-07-31, e-wallet charges, and Payouts v2) and the pure
// mapping between its bodies and ours: amounts, references, statuses and failure codes.
import type { Minor } from '../../core/money.js';
import type { CollectionInstructions, CollectionState, PayoutState, UpstreamCollectionStatus, UpstreamPayoutStatus } from '../channel.js';

// ---------------------------------------------------------------------------------------------
// Wire types (field names as Xendit documents them)

export interface XenditError {
  readonly error_code: string;
  readonly message: string;
}

/** POST /callback_virtual_accounts and GET /callback_virtual_accounts/{id}. */
export interface VirtualAccountBody {
  readonly id: string;
  readonly external_id: string;
  readonly owner_id?: string;
  readonly bank_code: string;
  readonly merchant_code?: string;
  readonly account_number: string;
  readonly name: string;
  readonly currency?: string;
  readonly is_single_use?: boolean;
  readonly is_closed?: boolean;
  readonly expected_amount?: number;
  readonly expiration_date?: string;
  /** PENDING while the bank registers the number, ACTIVE when payable, INACTIVE when paid (single use) or expired. */
  readonly status: string;
}

/** The "fixed virtual account paid" callback (no `event` field, no status: it always means a payment). */
export interface VirtualAccountPaymentCallback {
  readonly id: string;
  readonly payment_id: string;
  readonly callback_virtual_account_id: string;
  readonly external_id: string;
  readonly bank_code: string;
  readonly account_number: string;
  readonly amount: number;
  readonly merchant_code?: string;
  readonly transaction_timestamp?: string;
  readonly currency?: string;
  readonly owner_id?: string;
}

/** POST /qr_codes and GET /qr_codes/{id} (api-version 2022-07-31). */
export interface QrCodeBody {
  readonly id: string;
  readonly reference_id: string;
  readonly business_id?: string;
  readonly type: string;
  readonly currency: string;
  readonly amount: number;
  readonly channel_code?: string;
  /** ACTIVE (payable) or INACTIVE (paid or expired). */
  readonly status: string;
  readonly qr_string: string;
  readonly expires_at?: string;
  readonly created?: string;
  readonly updated?: string;
}

/** One payment of a QR code (GET /qr_codes/{id}/payments, and `data` of the qr.payment callback). */
export interface QrPaymentBody {
  readonly id: string;
  readonly qr_id: string;
  readonly reference_id: string;
  readonly currency: string;
  readonly amount: number;
  readonly status: string;
  readonly channel_code?: string;
  readonly created?: string;
}

/** POST /ewallets/charges and GET /ewallets/charges/{id}. */
export interface EwalletChargeBody {
  readonly id: string;
  readonly reference_id: string;
  readonly status: string;
  readonly currency: string;
  readonly charge_amount: number;
  readonly capture_amount?: number | null;
  readonly refunded_amount?: number | null;
  readonly checkout_method: string;
  readonly channel_code: string;
  readonly channel_properties?: Record<string, unknown>;
  readonly actions?: {
    readonly desktop_web_checkout_url?: string | null;
    readonly mobile_web_checkout_url?: string | null;
    readonly mobile_deeplink_checkout_url?: string | null;
    readonly qr_checkout_string?: string | null;
  } | null;
  readonly failure_code?: string | null;
  readonly void_status?: string | null;
}

/** The Payout object of /v2/payouts. */
export interface PayoutBody {
  readonly id: string;
  readonly reference_id: string;
  readonly amount: number;
  readonly currency: string;
  readonly channel_code: string;
  readonly status: string;
  readonly failure_code?: string | null;
}

// ---------------------------------------------------------------------------------------------
// Methods

export const VA_BANKS: Readonly<Record<string, string>> = {
  BNI: 'Bank Negara Indonesia (BNI)',
  BRI: 'Bank Rakyat Indonesia (BRI)',
  MANDIRI: 'Bank Mandiri',
  PERMATA: 'Bank Permata',
};

export const EWALLET_CHANNELS: Readonly<Record<string, string>> = { OVO: 'ID_OVO', DANA: 'ID_DANA' };

export type XenditProduct = 'VA' | 'QR' | 'EWALLET';

/** Which product an upstream reference belongs to: QR codes are `qr_...`, charges `ewc_...`, VAs Xendit object ids. */
export const productOfUpstreamRef = (upstreamRef: string): XenditProduct =>
  upstreamRef.startsWith('qr_') ? 'QR' : upstreamRef.startsWith('ewc_') ? 'EWALLET' : 'VA';

// ---------------------------------------------------------------------------------------------
// Amounts: Xendit takes IDR in whole rupiah; we carry two decimals.

/** Whole rupiah for Xendit, or null when the amount has sen (which Xendit cannot take; we refuse rather than round). */
export function toRupiah(amountMinor: Minor): number | null {
  if (amountMinor < 0n || amountMinor % 100n !== 0n) return null;
  const whole = amountMinor / 100n;
  if (whole > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(whole);
}

/** Xendit's amount (a JSON number, normally whole rupiah) in our minor units, through its decimal text; null when it is not an amount. */
export function fromRupiah(amount: unknown): Minor | null {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return null;
  const match = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(String(amount));
  if (!match) return null;
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

// ---------------------------------------------------------------------------------------------
// Payer details

/** Xendit's OVO charge wants the mobile number in E.164 (+62...). */
export function toE164Indonesia(phone: string): string | null {
  const digits = phone.replace(/[\s-]/g, '');
  if (/^\+62\d{8,13}$/.test(digits)) return digits;
  if (/^62\d{8,13}$/.test(digits)) return '+' + digits;
  if (/^0\d{8,13}$/.test(digits)) return '+62' + digits.slice(1);
  if (/^8\d{7,12}$/.test(digits)) return '+62' + digits;
  return null;
}

/** VA names: several banks take letters and spaces only; never empty. */
export function toVirtualAccountName(payerName: string): string {
  const cleaned = payerName.replace(/[^A-Za-z ]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 50);
  return cleaned.length > 0 ? cleaned : 'Customer';
}

// ---------------------------------------------------------------------------------------------
// Collection statuses

/** Virtual account status (GET) -> ours. INACTIVE is decided with the expiry: before it, a single-use VA was paid. */
export const VA_STATUS: Readonly<Record<string, 'PENDING' | 'INACTIVE'>> = {
  PENDING: 'PENDING',
  ACTIVE: 'PENDING',
  INACTIVE: 'INACTIVE',
};

/** QR payment statuses. */
export const QR_PAYMENT_STATUS: Readonly<Record<string, UpstreamCollectionStatus>> = {
  SUCCEEDED: 'PAID',
};

/**
 * E-wallet charge statuses. VOIDED and REFUNDED only follow a SUCCEEDED charge: the payer did
 * pay, the money went back through our own refund, so the collection itself stays paid.
 */
export const EWALLET_STATUS: Readonly<Record<string, UpstreamCollectionStatus>> = {
  PENDING: 'PENDING',
  SUCCEEDED: 'PAID',
  FAILED: 'FAILED',
  VOIDED: 'PAID',
  REFUNDED: 'PAID',
};

/** E-wallet charge failure codes (charge callbacks) -> our failureReason. */
export const EWALLET_FAILURE: Readonly<Record<string, string>> = {
  ACCOUNT_ACCESS_BLOCKED: 'PAYER_ACCOUNT_BLOCKED',
  INVALID_MERCHANT_CREDENTIALS: 'UPSTREAM_REJECTED',
  USER_DECLINED_PAYMENT: 'PAYER_DECLINED',
  USER_DID_NOT_AUTHORIZE_THE_PAYMENT: 'PAYER_DECLINED',
  USER_CANCELLED: 'PAYER_DECLINED',
  INVALID_ACCOUNT_DETAILS: 'INVALID_ACCOUNT',
  ACCOUNT_NOT_ACTIVATED: 'INVALID_ACCOUNT',
  MAXIMUM_LIMIT_REACHED: 'PAYER_LIMIT_EXCEEDED',
  INSUFFICIENT_BALANCE: 'PAYER_INSUFFICIENT_FUNDS',
  USER_UNREACHABLE: 'PAYER_UNREACHABLE',
  CHANNEL_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  PARTNER_TIMEOUT_ERROR: 'UPSTREAM_UNAVAILABLE',
  INVALID_TOKEN: 'UPSTREAM_REJECTED',
  SERVER_ERROR: 'UPSTREAM_REJECTED',
};

export const ewalletFailureReason = (code: string | null | undefined): string =>
  (code ? EWALLET_FAILURE[code] : undefined) ?? 'UPSTREAM_REJECTED';

export function ewalletCollectionState(charge: EwalletChargeBody): CollectionState {
  const status = EWALLET_STATUS[charge.status] ?? 'PENDING';
  if (status === 'PAID') {
    const paid = fromRupiah(charge.capture_amount ?? charge.charge_amount);
    return { upstreamRef: charge.id, status, ...(paid === null ? {} : { paidAmountMinor: paid }) };
  }
  if (status === 'FAILED') return { upstreamRef: charge.id, status, failureReason: ewalletFailureReason(charge.failure_code) };
  return { upstreamRef: charge.id, status };
}

/** The page the payer confirms a DANA payment on: the app deeplink first, then the mobile or desktop page. */
export const ewalletCheckoutUrl = (charge: EwalletChargeBody): string | undefined =>
  charge.actions?.mobile_deeplink_checkout_url ?? charge.actions?.mobile_web_checkout_url ?? charge.actions?.desktop_web_checkout_url ?? undefined;

export function ewalletInstructions(charge: EwalletChargeBody, payerPhone: string): CollectionInstructions {
  const url = ewalletCheckoutUrl(charge);
  return { kind: 'EWALLET', walletPhone: payerPhone, ...(url === undefined ? {} : { intentUrl: url }) };
}

// ---------------------------------------------------------------------------------------------
// Payouts

/** Payout status (v2) -> ours. REVERSED comes after SUCCEEDED when the bank returns the money. */
export const PAYOUT_STATUS: Readonly<Record<string, UpstreamPayoutStatus>> = {
  ACCEPTED: 'PROCESSING',
  PENDING_COMPLIANCE_ASSESSMENT: 'PROCESSING',
  REQUESTED: 'PROCESSING',
  READY: 'PROCESSING',
  LOCKED: 'PROCESSING',
  SUCCEEDED: 'SUCCESS',
  FAILED: 'FAILED',
  CANCELLED: 'FAILED',
  COMPLIANCE_REJECTED: 'FAILED',
  EXPIRED: 'FAILED',
  REVERSED: 'FAILED',
};

/** Payout failure_code -> our failureReason. */
export const PAYOUT_FAILURE: Readonly<Record<string, string>> = {
  INSUFFICIENT_BALANCE: 'INSUFFICIENT_FUNDS_UPSTREAM',
  INVALID_DESTINATION: 'INVALID_ACCOUNT',
  REJECTED_BY_CHANNEL: 'UPSTREAM_REJECTED',
  TEMPORARY_TRANSFER_ERROR: 'UPSTREAM_TEMPORARY_FAILURE',
  TRANSFER_ERROR: 'UPSTREAM_REJECTED',
  DESTINATION_MAXIMUM_LIMIT: 'DESTINATION_LIMIT_EXCEEDED',
  UNKNOWN_BANK_NETWORK_ERROR: 'UPSTREAM_REJECTED',
  ACCOUNT_NAME_MISMATCH: 'ACCOUNT_NAME_MISMATCH',
};

/** Why a payout in a failed status failed; statuses without a failure_code get their own reason. */
export function payoutFailureReason(status: string, code: string | null | undefined): string {
  if (status === 'CANCELLED') return 'PAYOUT_CANCELLED';
  if (status === 'COMPLIANCE_REJECTED') return 'COMPLIANCE_REJECTED';
  if (status === 'REVERSED') return 'PAYOUT_REVERSED';
  if (status === 'EXPIRED') return 'PAYOUT_EXPIRED';
  return (code ? PAYOUT_FAILURE[code] : undefined) ?? 'UPSTREAM_REJECTED';
}

export function toPayoutState(payout: PayoutBody): PayoutState {
  const status = PAYOUT_STATUS[payout.status] ?? 'PROCESSING';
  return {
    status,
    upstreamRef: payout.id,
    ...(status === 'FAILED' ? { failureReason: payoutFailureReason(payout.status, payout.failure_code) } : {}),
  };
}

/** Error codes Xendit answers a create-payout with (HTTP 4xx) -> our failureReason. */
export const PAYOUT_CREATE_ERROR: Readonly<Record<string, string>> = {
  API_VALIDATION_ERROR: 'UPSTREAM_REJECTED',
  INVALID_JSON_FORMAT: 'UPSTREAM_REJECTED',
  CHANNEL_CODE_NOT_SUPPORTED_ERROR: 'INVALID_BANK_CODE',
  RECIPIENT_ACCOUNT_NUMBER_ERROR: 'INVALID_ACCOUNT',
  RECIPIENT_AMOUNT_ERROR: 'AMOUNT_OUT_OF_RANGE',
  MAXIMUM_TRANSFER_LIMIT_ERROR: 'AMOUNT_OUT_OF_RANGE',
  INSUFFICIENT_BALANCE: 'INSUFFICIENT_FUNDS_UPSTREAM',
  REQUEST_FORBIDDEN_ERROR: 'UPSTREAM_REJECTED',
  INVALID_API_KEY: 'UPSTREAM_REJECTED',
};

/** Idempotency conflicts: the payout already exists at Xendit, so the answer is "look it up", never "refused". */
export const DUPLICATE_ERRORS: ReadonlySet<string> = new Set(['DUPLICATE_ERROR', 'DUPLICATE_TRANSACTION_ERROR', 'IDEMPOTENCY_ERROR']);

/**
 * Our 5-digit IDR bank codes (src/domain/banks/idr.ts: BI clearing code padded, 900xx for
 * e-wallets) -> Xendit payout channel codes, for the destinations Xendit's payout channel list
 * names. A code missing here is refused before anything is sent (INVALID_BANK_CODE).
 */
export const IDR_PAYOUT_CHANNELS: Readonly<Record<string, string>> = {
  '00002': 'ID_BRI',
  '00033': 'ID_BAML',
  '00037': 'ID_ARTHA',
  '00129': 'ID_BALI',
  '00133': 'ID_BENGKULU',
  '00137': 'ID_BANTEN',
  '00459': 'ID_BISNIS_INTERNASIONAL',
  '00494': 'ID_AGRONIAGA',
  '00501': 'ID_BCA_DIGITAL',
  '00531': 'ID_AMAR',
  '00536': 'ID_BCA_SYR',
  '00567': 'ID_ALLO',
  '00947': 'ID_ALADIN',
  '00008': 'ID_MANDIRI',
  '00009': 'ID_BNI',
  '00011': 'ID_DANAMON',
  '00013': 'ID_PERMATA',
  '00014': 'ID_BCA',
  '00016': 'ID_MAYBANK',
  '00019': 'ID_PANIN',
  '00022': 'ID_CIMB',
  '00023': 'ID_UOB',
  '00028': 'ID_OCBC',
  '00031': 'ID_CITIBANK',
  '00041': 'ID_HSBC',
  '00046': 'ID_DBS',
  '00110': 'ID_BJB',
  '00111': 'ID_DKI',
  '00147': 'ID_MUAMALAT',
  '00153': 'ID_SINARMAS',
  '00200': 'ID_BTN',
  '00213': 'ID_BTPN',
  '00426': 'ID_MEGA',
  '00441': 'ID_BUKOPIN',
  '00451': 'ID_BSI',
  '00535': 'ID_SEABANK',
  '00542': 'ID_JAGO',
  '90001': 'ID_GOPAY',
  '90002': 'ID_OVO',
  '90003': 'ID_DANA',
  '90004': 'ID_SHOPEEPAY',
  '90005': 'ID_LINKAJA',
};

// ---------------------------------------------------------------------------------------------
// Small readers for untrusted JSON

export type Json = Record<string, unknown>;

export function asObject(value: unknown): Json | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

export const str = (body: Json, field: string): string | null => {
  const value = body[field];
  return typeof value === 'string' && value.length > 0 ? value : null;
};
