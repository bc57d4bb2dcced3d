// Wire types of the merchant API (interface-spec.md and contract.md). Amounts are JSON numbers in major units.

export type Currency = 'INR' | 'EGP' | 'NGN' | 'IDR';

/** Pay-in channels per currency (contract section 2). */
export type PayInMethod =
  | 'NATIVE'
  | 'TRANSFER'
  | 'BNI'
  | 'BRI'
  | 'MANDIRI'
  | 'PERMATA'
  | 'QRIS'
  | 'OVO'
  | 'DANA'
  | 'FAWRY'
  | 'WALLET';

export type PayoutMethod = 'BANK' | 'UPI' | 'TRANSFER' | 'WALLET';

export type PaymentStatus = 'Pending' | 'Success' | 'Failed' | 'Expired' | 'Refund';
export type PayoutStatus = 'Initiated' | 'Processing' | 'Success' | 'Failed';

/** The `{code, message, data}` envelope every response carries. */
export interface ApiEnvelope<T> {
  code: string;
  message: string;
  data: T;
}

/** `data` of an error envelope; `errors` only on validation failures. */
export interface ApiErrorData {
  detail: string;
  errors?: { field: string; problem: string }[];
}

export interface PaymentInitiateRequest {
  merchantRef: string;
  method: PayInMethod;
  currency: Currency;
  amount: number;
  name: string;
  email: string;
  phone: string;
  redirectUrl: string;
  webhookUrl?: string;
}

/** Looks a record up by the service's reference or by the merchant's own. */
export type RecordQuery = { transactionRef: string } | { merchantRef: string };

export interface PaymentRecord {
  transactionRef: string;
  merchantRef: string;
  /** A string, not PayInMethod: responses are not guaranteed to echo the request. */
  method: string;
  /** Absent in the INR answer of payment/initiate, as the interface shows; always present in status. */
  currency: Currency;
  amount: number;
  /** Payer details as given at creation (status and webhooks). */
  name?: string;
  email?: string;
  phone?: string;
  redirectUrl?: string;
  webhookUrl?: string;
  paidAmount?: number;
  fee?: number;
  status: PaymentStatus;
  checkoutUrl?: string;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
  expiresAt?: string;
  /** UPPER_SNAKE, e.g. `UPSTREAM_REJECTED`. */
  failureReason?: string;
  refundable?: boolean;
  refundableUntil?: string;
  refundedAt?: string;
}

export interface PaymentRefundRequest {
  transactionRef: string;
}

export interface PayoutInitiateRequest {
  merchantRef: string;
  currency: Currency;
  amount: number;
  method: PayoutMethod;
  /** Omitted for INR `UPI` and EGP `WALLET` payouts, where `account` identifies the beneficiary. */
  bankCode?: string;
  name: string;
  account: string;
  phone: string;
  email: string;
  webhookUrl?: string;
}

export interface PayoutRecord {
  transactionRef: string;
  merchantRef: string;
  method: string;
  currency: Currency;
  amount: number;
  fee: number;
  status: PayoutStatus;
  bankCode?: string;
  name?: string;
  account?: string;
  phone?: string;
  email?: string;
  webhookUrl?: string;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
  failureReason?: string;
  /** The upstream's reference of the transfer (e.g. the UTR for INR), once it has one. */
  upstreamRef?: string;
}

export interface CurrencyRequest {
  currency: Currency;
}

export interface BankEntry {
  bankCode: string;
  bankName: string;
}

export interface Balance {
  currency: Currency;
  available: number;
  pending: number;
  held: number;
  credit: number;
  security: number;
}

export interface UsdtRate {
  currency: Currency;
  deposit: number;
  withdraw: number;
  updatedAt: string;
}

/** Pay-in and payout methods of a currency with their bounds and fees; typed loosely on purpose. */
export interface PaymentMethodsInfo {
  currency?: Currency;
  [key: string]: unknown;
}

export interface SandboxCompleteRequest {
  transactionRef: string;
  outcome: 'Success' | 'Failed';
}

export type WebhookEventType =
  | 'payment.succeeded'
  | 'payment.failed'
  | 'payment.expired'
  | 'payment.refunded'
  | 'payment.late_credited'
  | 'payout.succeeded'
  | 'payout.failed';

export interface WebhookEventInfo {
  /** Also sent as the `webhook-id` header; deduplicate deliveries on it. */
  id: string;
  type: WebhookEventType;
  createdAt: string;
}

/** A webhook body: the record, flat at the top level, plus the `event` object (contract section 8). */
export type WebhookPayload =
  | (PaymentRecord & { event: WebhookEventInfo })
  | (PayoutRecord & { event: WebhookEventInfo });

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'no_destination';

/** One webhook event as the merchant's event log lists it. */
export interface WebhookEventSummary {
  id: string;
  merchantId: string;
  type: string;
  resourceKind: string;
  resourceRef: string;
  url: string | null;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
  lastError: string | null;
}

export interface WebhookAttempt {
  attemptNo: number;
  startedAt: string;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  responseSnippet: string | null;
}

export interface WebhookEventDetail extends WebhookEventSummary {
  payload: unknown;
  attempts: WebhookAttempt[];
}

export interface WebhookEventPage {
  events: WebhookEventSummary[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: string | null;
}

export interface WebhookEventQuery {
  limit?: number;
  status?: WebhookDeliveryStatus;
  before?: string;
}
