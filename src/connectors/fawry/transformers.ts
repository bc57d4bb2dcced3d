// FawryPay's wire format as this connector speaks it (charge, status V2, refund, server notification
// V2) and the pure mapping between its bodies and ours: references, EGP decimals built from minor
// units by string arithmetic, the request signatures, every documented order status and status code.
import { createHash } from 'node:crypto';
import type { Minor } from '../../core/money.js';
import type { CollectionState, CreateCollectionRequest, UpstreamCollectionStatus } from '../channel.js';

export const CHARGE_PATH = '/ECommerceWeb/Fawry/payments/charge';
export const STATUS_PATH = '/ECommerceWeb/Fawry/payments/status/v2';
export const REFUND_PATH = '/ECommerceWeb/Fawry/payments/refund';

/** Our pay-in methods and the `paymentMethod` Fawry's charge API takes for each. */
export const FAWRY_PAYMENT_METHOD = { FAWRY: 'PayAtFawry', WALLET: 'MWALLET' } as const;
export type OurMethod = keyof typeof FAWRY_PAYMENT_METHOD;

/** A charge item: Fawry requires at least one; we send the whole payment as one. */
export interface ChargeItem {
  readonly itemId: string;
  readonly description: string;
  readonly price: RawDecimal;
  readonly quantity: number;
}

/** The charge request body (PayAtFawry reference number or MWALLET request-to-pay). */
export interface ChargeRequestBody {
  readonly merchantCode: string;
  readonly merchantRefNum: string;
  readonly customerName: string;
  readonly customerMobile: string;
  readonly customerEmail: string;
  readonly paymentMethod: string;
  readonly amount: RawDecimal;
  readonly currencyCode: 'EGP';
  readonly language: 'en-gb';
  readonly description: string;
  readonly chargeItems: readonly ChargeItem[];
  /** PayAtFawry only: epoch milliseconds after which the reference can no longer be paid. */
  readonly paymentExpiry?: number;
  /** MWALLET only: the wallet the request-to-pay goes to. */
  readonly debitMobileWalletNo?: string;
  readonly orderWebHookUrl?: string;
  readonly signature: string;
}

/** Every Fawry answer carries these; statusCode 200 is success, anything else a documented refusal. */
export interface FawryStatusFields {
  readonly type?: string;
  readonly statusCode?: number | string;
  readonly statusDescription?: string;
}

/** The charge answer (amounts already as exact decimal strings, see quoteAmounts). */
export interface ChargeResponseBody extends FawryStatusFields {
  readonly referenceNumber?: string;
  readonly merchantRefNumber?: string;
  readonly orderAmount?: string;
  readonly paymentAmount?: string;
  readonly fawryFees?: string;
  readonly paymentMethod?: string;
  readonly orderStatus?: string;
  readonly expirationTime?: number;
}

/** The Get Payment Status V2 answer and the V2 server notification share these fields. */
export interface OrderStatusBody extends FawryStatusFields {
  readonly requestId?: string;
  readonly fawryRefNumber?: string;
  readonly merchantRefNumber?: string;
  readonly customerMobile?: string;
  readonly customerMail?: string;
  readonly paymentAmount?: string;
  readonly orderAmount?: string;
  readonly fawryFees?: string;
  readonly orderStatus?: string;
  readonly paymentMethod?: string;
  readonly paymentTime?: number;
  readonly paymentRefrenceNumber?: string;
  readonly orderExpiryDate?: number;
  readonly failureErrorCode?: number | string;
  readonly failureReason?: string;
  readonly messageSignature?: string;
}

export interface RefundRequestBody {
  readonly merchantCode: string;
  readonly referenceNumber: string;
  readonly refundAmount: RawDecimal;
  readonly reason: string;
  readonly signature: string;
}

// ---- amounts ------------------------------------------------------------------------------------

/** A decimal written into the JSON text exactly as given ("100.00"), never through a float. */
export class RawDecimal {
  constructor(readonly text: string) {}
}

/** 12345n -> "123.45": the two-decimal form Fawry's bodies and signatures use. */
export function toDecimal(minor: Minor): string {
  if (minor < 0n) throw new RangeError('negative amount');
  return `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;
}

const DECIMAL = /^(\d{1,15})(?:\.(\d+))?$/;

/** "840.0", "152.00", "20" -> minor units; null when it is not an amount or has non-zero sub-cent digits. */
export function fromDecimal(text: string): Minor | null {
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (/[1-9]/.test(fraction.slice(2))) return null;
  return BigInt(match[1]!) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, '0'));
}

/** Serializes a body, writing every RawDecimal as a bare JSON number with its exact digits. */
export function toJson(body: object): string {
  const marker = '\u0000dec:';
  const text = JSON.stringify(body, (_key, value: unknown) => (value instanceof RawDecimal ? marker + value.text : value));
  return text.replace(/"\\u0000dec:(\d+\.\d{2})"/g, '$1');
}

const AMOUNT_FIELDS = ['paymentAmount', 'orderAmount', 'fawryFees', 'refundAmount', 'amount', 'price', 'shippingFees'];
const AMOUNT_NUMBER = new RegExp(`"(${AMOUNT_FIELDS.join('|')})"(\\s*:\\s*)(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`, 'g');

/**
 * Parses a Fawry answer or notification with its amount fields kept as the decimal text Fawry wrote
 * (JSON.parse would turn 350.10 into a float): bare numbers of those fields become strings first.
 */
export function parseWithExactAmounts(text: string): unknown {
  return JSON.parse(text.replace(AMOUNT_NUMBER, '"$1"$2"$3"'));
}

/** An amount field as read by parseWithExactAmounts (a string, or absent / empty). */
export function amountText(value: unknown): string | null {
  if (typeof value === 'string' && value.length > 0) return value;
  return null;
}

/** The two-decimal text of a received amount, as the notification signature takes it. */
export function twoDecimals(text: string): string | null {
  const minor = fromDecimal(text);
  return minor === null ? null : toDecimal(minor);
}

// ---- references ---------------------------------------------------------------------------------

const UUID = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i;
const COMPACT_UUID = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/;
const PLAIN_REF = /^[A-Za-z0-9]{1,50}$/;

/**
 * Our transactionRef (a UUID) as Fawry's merchantRefNum: the 32 lower-case hex digits without
 * hyphens, the alphanumeric form Fawry's own samples use; deterministic, so a retry asks for the
 * same order. A plain alphanumeric reference of up to 50 characters passes unchanged.
 */
export function toMerchantRefNum(transactionRef: string): string | null {
  const uuid = UUID.exec(transactionRef);
  if (uuid) return uuid.slice(1).join('').toLowerCase();
  return PLAIN_REF.test(transactionRef) ? transactionRef : null;
}

/** Fawry's merchantRefNumber back to our transactionRef (the inverse of toMerchantRefNum). */
export function fromMerchantRefNumber(merchantRefNumber: string): string {
  const compact = COMPACT_UUID.exec(merchantRefNumber);
  return compact ? compact.slice(1).join('-') : merchantRefNumber;
}

/** The payer's mobile as Fawry wants it (11 digits, 01xxxxxxxxx); null when it is not an Egyptian mobile. */
export function toEgyptianMobile(phone: string): string | null {
  const digits = phone.replace(/[\s\-()]/g, '');
  const local = digits.startsWith('+20') ? '0' + digits.slice(3) : digits.startsWith('0020') ? '0' + digits.slice(4) : digits.startsWith('20') && digits.length === 12 ? '0' + digits.slice(2) : digits;
  return /^01[0125]\d{8}$/.test(local) ? local : null;
}

// ---- signatures ---------------------------------------------------------------------------------

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Charge: merchantCode + merchantRefNum + customerProfileId (we send none: "") + paymentMethod +
 * amount (two decimals) + debitMobileWalletNo (MWALLET only) + secureKey.
 */
export const chargeSignature = (merchantCode: string, merchantRefNum: string, paymentMethod: string, amount: string, walletNo: string, secureKey: string): string =>
  sha256Hex(merchantCode + merchantRefNum + '' + paymentMethod + amount + walletNo + secureKey);

/** Get Payment Status V2: merchantCode + merchantRefNumber + secureKey. */
export const statusSignature = (merchantCode: string, merchantRefNumber: string, secureKey: string): string =>
  sha256Hex(merchantCode + merchantRefNumber + secureKey);

/** Refund: merchantCode + referenceNumber + refundAmount (two decimals) + reason (if any) + secureKey. */
export const refundSignature = (merchantCode: string, referenceNumber: string, refundAmount: string, reason: string, secureKey: string): string =>
  sha256Hex(merchantCode + referenceNumber + refundAmount + reason + secureKey);

/**
 * Server notification V2 `messageSignature`: fawryRefNumber + merchantRefNumber + paymentAmount (two
 * decimals) + orderAmount (two decimals) + orderStatus + paymentMethod + paymentRefrenceNumber (if
 * any) + secureKey.
 */
export const notificationSignature = (
  fields: { fawryRefNumber: string; merchantRefNumber: string; paymentAmount: string; orderAmount: string; orderStatus: string; paymentMethod: string; paymentRefrenceNumber: string },
  secureKey: string,
): string =>
  sha256Hex(fields.fawryRefNumber + fields.merchantRefNumber + fields.paymentAmount + fields.orderAmount + fields.orderStatus + fields.paymentMethod + fields.paymentRefrenceNumber + secureKey);

// ---- requests -----------------------------------------------------------------------------------

export interface Merchant {
  readonly merchantCode: string;
  readonly secureKey: string;
}

export function toChargeBody(
  merchant: Merchant,
  request: CreateCollectionRequest,
  method: OurMethod,
  merchantRefNum: string,
  mobile: string,
  callbackUrl: string,
): ChargeRequestBody {
  const amount = toDecimal(request.amountMinor);
  const paymentMethod = FAWRY_PAYMENT_METHOD[method];
  const walletNo = method === 'WALLET' ? mobile : '';
  return {
    merchantCode: merchant.merchantCode,
    merchantRefNum,
    customerName: request.payerName,
    customerMobile: mobile,
    customerEmail: request.payerEmail,
    paymentMethod,
    amount: new RawDecimal(amount),
    currencyCode: 'EGP',
    language: 'en-gb',
    description: `Payment ${request.transactionRef}`,
    chargeItems: [{ itemId: merchantRefNum, description: 'Payment', price: new RawDecimal(amount), quantity: 1 }],
    ...(method === 'FAWRY' ? { paymentExpiry: request.expiresAtMs } : { debitMobileWalletNo: mobile }),
    ...(callbackUrl ? { orderWebHookUrl: callbackUrl } : {}),
    signature: chargeSignature(merchant.merchantCode, merchantRefNum, paymentMethod, amount, walletNo, merchant.secureKey),
  };
}

// ---- statuses -----------------------------------------------------------------------------------

/**
 * Every documented orderStatus (charge answer, status V2, notification V2) and what it means for a
 * pay-in. A reference that was paid and later refunded, partly or wholly, was paid: the refund is
 * ours to record, the payment itself succeeded. CANCELED before payment ends it like a decline.
 */
export const ORDER_STATUS: Readonly<Record<string, UpstreamCollectionStatus>> = {
  NEW: 'PENDING',
  UNPAID: 'PENDING',
  PAID: 'PAID',
  DELIVERED: 'PAID',
  REFUNDED: 'PAID',
  PARTIAL_REFUNDED: 'PAID',
  CANCELED: 'FAILED',
  CANCELLED: 'FAILED',
  FAILED: 'FAILED',
  EXPIRED: 'EXPIRED',
};

/** Statuses after which the order was paid, so paidAmountMinor is reported. */
const PAID_STATUSES = new Set(['PAID', 'DELIVERED', 'REFUNDED', 'PARTIAL_REFUNDED']);

export const mapOrderStatus = (orderStatus: string | undefined): UpstreamCollectionStatus | null =>
  orderStatus === undefined ? null : (ORDER_STATUS[orderStatus.toUpperCase()] ?? null);

/** The status codes Fawry documents in its answers' `statusCode`. */
export const STATUS_CODE = {
  SUCCESS: '200',
  MERCHANT_CODE_INVALID: '9901',
  REFERENCE_BLANK: '9944',
  SIGNATURE_INVALID: '9946',
  PAYMENT_NOT_FOUND: '9938',
} as const;

/** Codes that mean our credentials (merchant code, or the secure key behind the signature) are refused. */
export const CREDENTIAL_CODES: ReadonlySet<string> = new Set([STATUS_CODE.MERCHANT_CODE_INVALID, STATUS_CODE.SIGNATURE_INVALID]);

/**
 * Fawry's documented status codes (status, charge and refund answers) to our failure reasons. Every
 * one of them is a refusal of the request, not of the payer; anything unlisted is UPSTREAM_REJECTED too.
 */
export const FAILURE_REASON: Readonly<Record<string, string>> = {
  '9901': 'UPSTREAM_REJECTED',
  '9944': 'UPSTREAM_REJECTED',
  '9946': 'UPSTREAM_REJECTED',
  '9938': 'UPSTREAM_REJECTED',
};

export const failureReasonFor = (code: string | null): string => (code === null ? 'UPSTREAM_REJECTED' : (FAILURE_REASON[code] ?? 'UPSTREAM_REJECTED'));

export const statusCodeOf = (body: FawryStatusFields): string | null =>
  body.statusCode === undefined || body.statusCode === null ? null : String(body.statusCode);

/**
 * What the payer paid toward the order. Fawry's paymentAmount includes its fee when the customer
 * bears it (paymentAmount = orderAmount + fawryFees); then the order received orderAmount.
 */
export function paidAmount(paymentAmount: string | null, orderAmount: string | null, fawryFees: string | null): Minor | null {
  const paid = paymentAmount === null ? null : fromDecimal(paymentAmount);
  const order = orderAmount === null ? null : fromDecimal(orderAmount);
  const fees = fawryFees === null ? 0n : (fromDecimal(fawryFees) ?? 0n);
  if (paid === null) return order;
  if (order !== null && fees > 0n && paid === order + fees) return order;
  return paid;
}

/** A status V2 answer or a notification as our CollectionState; null when its orderStatus is unknown. */
export function toCollectionState(body: OrderStatusBody, fallbackUpstreamRef: string): CollectionState | null {
  const status = mapOrderStatus(body.orderStatus);
  if (status === null) return null;
  const upstreamRef = body.fawryRefNumber ?? fallbackUpstreamRef;
  const paid = PAID_STATUSES.has(String(body.orderStatus).toUpperCase())
    ? paidAmount(amountText(body.paymentAmount), amountText(body.orderAmount), amountText(body.fawryFees))
    : null;
  return {
    upstreamRef,
    status,
    ...(paid === null ? {} : { paidAmountMinor: paid }),
    ...(status === 'FAILED' ? { failureReason: failedReason(body) } : {}),
  };
}

/** Why a FAILED or CANCELED order ended: cancelled at Fawry, or the payer's side declined it. */
const failedReason = (body: OrderStatusBody): string =>
  String(body.orderStatus).toUpperCase().startsWith('CANCEL') ? 'UPSTREAM_CANCELLED' : 'UPSTREAM_DECLINED';

/** Is the order's paymentMethod a mobile wallet (refundable), as Fawry names it in its answers? */
export const isWalletMethod = (paymentMethod: string | undefined): boolean =>
  paymentMethod !== undefined && /^(MWALLET|MOBILE[ _]?WALLET|WALLET)$/i.test(paymentMethod.trim());
