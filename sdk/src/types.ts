// Wire types of the merchant API. They are the generated types of the service's OpenAPI document
// (api-types.ts), which is built from the same schemas that validate and serialize the routes.
import type { components, operations } from './api-types.js';

type Schemas = components['schemas'];
type JsonBody<Operation extends keyof operations> = operations[Operation] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

export type Currency = Schemas['Currency'];
export type PayInMethod = Schemas['PayInMethod'];
export type PayoutMethod = Schemas['PayoutMethod'];
export type PaymentStatus = Schemas['PaymentStatus'];
export type PayoutStatus = Schemas['PayoutStatus'];
/** The stable reason of an error answer (`message`); docs/errors.md lists when each is given. */
export type ErrorReason = Schemas['ErrorReason'];
/**
 * What an API key may call (docs/signing.md, Key scopes): a call outside the signing key's scope is
 * `403 KEY_SCOPE`; each operation of the OpenAPI document names the scope it needs in `x-key-scope`.
 */
export type KeyScope = Schemas['KeyScope'];

/** The `{code, message, data}` envelope every response carries. */
export interface ApiEnvelope<T> {
  code: string;
  message: string;
  data: T;
}

/** `data` of an error envelope; `errors` only on validation failures. */
export type ApiErrorData = Schemas['Error']['data'];

export type PaymentInitiateRequest = JsonBody<'paymentInitiate'>;
/** The answer of payment/initiate: `currency` is absent for INR, and it has no timestamps but expiresAt. */
export type PaymentInitiateResult = Schemas['PaymentInitiateResult'];
/** Looks a record up by the service's reference or by the merchant's own (exactly one of them). */
export type RecordQuery = { transactionRef: string } | { merchantRef: string };
/** The payment as payment/status, payment/fetch, sandbox completion and payment webhooks carry it. */
export type PaymentRecord = Schemas['PaymentRecord'];
export type PaymentRefundRequest = JsonBody<'paymentRefund'>;
/** The answer of payment/refund: the refunded amounts and refundedAt, without the payer details or timestamps. */
export type PaymentRefundResult = Schemas['PaymentRefundResult'];
/** Pay-in and payout methods of a currency with their bounds and this merchant's fees. */
export type PaymentMethodsInfo = Schemas['PaymentMethods'];

export type PayoutInitiateRequest = JsonBody<'payoutInitiate'>;
export type PayoutInitiateResult = Schemas['PayoutInitiateResult'];
export type PayoutRecord = Schemas['PayoutRecord'];
/** payout/accountInquiry: whose account is it? (`bankCode` omitted for INR UPI and EGP WALLET.) */
export type PayoutAccountInquiryRequest = JsonBody<'payoutAccountInquiry'>;
/** The holder's name as the bank resolved it, the bank, and the account masked but for its last four. */
export type PayoutAccountInquiryResult = Schemas['AccountInquiryResult'];
/** payout/batch: up to 1,000 ordinary payout/initiate bodies under one batch merchantRef. */
export type PayoutBatchRequest = Omit<JsonBody<'payoutBatch'>, 'items'> & { items: PayoutInitiateRequest[] };
/** The answer of payout/batch: every item accepted (transactionRef) or refused (reason, detail, errors). */
export type PayoutBatchResult = Schemas['PayoutBatchResult'];
export type PayoutBatchItemResult = Schemas['PayoutBatchItemResult'];
/** Looks a batch up by its merchantRef or by the batchId payout/batch answered (exactly one of them). */
export type PayoutBatchQuery = { merchantRef: string } | { batchId: string };
/** payout/batchStatus: counts per status and every item's status. */
export type PayoutBatchStatus = Schemas['PayoutBatchStatus'];
/** payout/approve and payout/reject: the payout waiting in PendingApproval, and an optional reason. */
export type PayoutDecisionRequest = JsonBody<'payoutApprove'>;

export type CurrencyRequest = JsonBody<'accountBalance'>;
export type BankEntry = Schemas['BankEntry'];
export type Balance = Schemas['Balance'];
export type UsdtRate = Schemas['UsdtRate'];

export type SandboxCompleteRequest = JsonBody<'sandboxPaymentComplete'>;

export type WebhookEventType = Schemas['WebhookEventType'];
/** A webhook body: the record, flat at the top level, plus the `event` object (contract section 8). */
export type PaymentWebhookPayload = Schemas['PaymentWebhook'];
export type PayoutWebhookPayload = Schemas['PayoutWebhook'];
/** payout.batch_completed: the batch record as payout/batchStatus returns it, plus `event`. */
export type PayoutBatchWebhookPayload = Schemas['PayoutBatchWebhook'];
export type WebhookPayload = PaymentWebhookPayload | PayoutWebhookPayload | PayoutBatchWebhookPayload;
/** `event` of a webhook body; its id is also the `webhook-id` header: deduplicate deliveries on it. */
export type WebhookEventInfo = WebhookPayload['event'];

export type WebhookDeliveryStatus = Schemas['WebhookDeliveryStatus'];
/** GET /v1/public-key: the current key (its PEM at the top level) and every key still listed, by id. */
export type ServicePublicKeys = Schemas['PublicKey'];
export type ServiceKeyEntry = Schemas['ServiceKeyEntry'];
/** One webhook event as the merchant's event log lists it. */
export type WebhookEventSummary = Schemas['WebhookEvent'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type WebhookEventDetail = Schemas['WebhookEventDetail'];
export type WebhookEventPage = Schemas['WebhookEventPage'];
export type WebhookEventQuery = JsonBody<'webhookEvents'>;

/** payment/list and payout/list: filters (all optional, every one given must match), limit and the cursor of the previous page. */
export type PaymentListQuery = JsonBody<'paymentList'>;
export type PayoutListQuery = JsonBody<'payoutList'>;
/** One page of records, newest first; pass nextCursor back with the same filters for the next page. */
export type PaymentPage = Schemas['PaymentPage'];
export type PayoutPage = Schemas['PayoutPage'];
/** account/statement: one currency, an optional created-at range, limit and cursor. */
export type StatementQuery = JsonBody<'accountStatement'>;
export type StatementLine = Schemas['StatementLine'];
export type StatementPage = Schemas['StatementPage'];
/** account/settlements: one currency and an optional range (default the last 31 UTC days). */
export type SettlementsQuery = JsonBody<'accountSettlements'>;
export type Settlements = Schemas['Settlements'];
export type SettlementDay = Schemas['SettlementDay'];
/** report/create: what to export (payments, payouts, statement, settlements) over [from, to). */
export type ReportRequest = JsonBody<'reportCreate'>;
/** A report: its status, and a 15-minute download link once Ready. */
export type Report = Schemas['Report'];
