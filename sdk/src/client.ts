// A thin client for the merchant API: every call is a signed JSON POST, answered with the {code, message, data}
// envelope. It resolves for every HTTP status so callers (and tests) can inspect error envelopes; only network
// failures reject.
import { createPrivateKey } from 'node:crypto';
import { signHmacSha256, signRsaSha512, type MerchantKey } from './signing.js';
import type {
  ApiEnvelope,
  Balance,
  BankEntry,
  CurrencyRequest,
  PaymentInitiateRequest,
  PaymentInitiateResult,
  PaymentListQuery,
  PaymentMethodsInfo,
  PaymentPage,
  PaymentRecord,
  PaymentRefundRequest,
  PaymentRefundResult,
  PayoutAccountInquiryRequest,
  PayoutAccountInquiryResult,
  PayoutBatchQuery,
  PayoutBatchRequest,
  PayoutBatchResult,
  PayoutBatchStatus,
  PayoutDecisionRequest,
  PayoutInitiateRequest,
  PayoutInitiateResult,
  PayoutListQuery,
  PayoutPage,
  PayoutRecord,
  RecordQuery,
  Report,
  ReportRequest,
  SandboxCompleteRequest,
  Settlements,
  SettlementsQuery,
  StatementPage,
  StatementQuery,
  UsdtRate,
  WebhookEventDetail,
  WebhookEventPage,
  WebhookEventQuery,
  WebhookEventSummary,
} from './types.js';

export interface PaymentClientOptions {
  /** e.g. `https://pay.example.com`; the `/v1/api/` prefix is added per call. */
  baseUrl: string;
  merchantId: string;
  key: MerchantKey;
  /** Current Unix time in seconds; injectable so tests can sign at a chosen instant. */
  clock?: () => number;
  fetch?: typeof fetch;
}

/** A request ready to send: `body` is exactly the text that was signed. */
export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

export interface ApiResult<T> {
  /** HTTP 200 with envelope code `"200"`. */
  ok: boolean;
  status: number;
  code: string;
  message: string;
  /** The operation's data on success; on errors an `ApiErrorData` (`{detail, errors?}`). */
  data: T;
  requestId: string | null;
  headers: Headers;
}

type Signer = (body: string, timestamp: string) => string;

const API_PREFIX = '/v1/api/';

function makeSigner(key: MerchantKey): Signer {
  if (key.type === 'HMAC-SHA256') return (body, timestamp) => signHmacSha256(key.secret, body, timestamp);
  // Parsed once: a bad key fails at construction rather than on the first call, and no call re-parses the PEM.
  const privateKey = createPrivateKey(key.privateKeyPem);
  return (body, timestamp) => signRsaSha512(privateKey, body, timestamp);
}

function isEnvelope(value: unknown): value is ApiEnvelope<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' && 'data' in value;
}

function parseEnvelope(text: string): ApiEnvelope<unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isEnvelope(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

async function toResult<T>(response: Response): Promise<ApiResult<T>> {
  const text = await response.text();
  // Something other than the service (a proxy, a load balancer) may answer; keep its text for diagnosis.
  const envelope = parseEnvelope(text) ?? {
    code: String(response.status),
    message: 'UNEXPECTED_RESPONSE',
    data: { detail: text },
  };
  return {
    ok: response.status === 200 && envelope.code === '200',
    status: response.status,
    code: envelope.code,
    message: envelope.message,
    data: envelope.data as T,
    requestId: response.headers.get('request-id'),
    headers: response.headers,
  };
}

export class PaymentClient {
  private readonly baseUrl: string;
  private readonly merchantId: string;
  private readonly sign: Signer;
  private readonly clock: () => number;
  private readonly fetchFn: typeof fetch;
  /** Per Timestamp still current, the path each body was signed for: see `timestampFor`. */
  private readonly pathsBySecond = new Map<number, Map<string, string>>();

  constructor(options: PaymentClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.merchantId = options.merchantId;
    this.sign = makeSigner(options.key);
    this.clock = options.clock ?? (() => Date.now() / 1000);
    // Wrapped so the global fetch is never called with this client as its receiver.
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /**
   * Serializes and signs a body with the current second as Timestamp. A string body is taken as the exact raw
   * text, so tests can sign malformed or hand-crafted bytes; the result can be altered and passed to `send`.
   * The same body signed twice in one second gives the same signature, which the service accepts again on the
   * same path (contract section 6). This knows no path: the typed calls and `request` also keep one body sent
   * to two paths in one second apart.
   */
  buildSignedRequest(body: object | string): SignedRequest {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return this.signAt(text, Math.floor(this.clock()));
  }

  private signAt(text: string, seconds: number): SignedRequest {
    const timestamp = String(seconds);
    return {
      body: text,
      headers: {
        'Content-Type': 'application/json',
        MerchantID: this.merchantId,
        Timestamp: timestamp,
        Signature: this.sign(text, timestamp),
      },
    };
  }

  /** POSTs a prepared request as is. A path starting with `/` is taken from the base URL, else from `/v1/api/`. */
  async send<T>(path: string, request: SignedRequest): Promise<ApiResult<T>> {
    const url = this.baseUrl + (path.startsWith('/') ? path : API_PREFIX + path);
    const response = await this.fetchFn(url, { method: 'POST', headers: request.headers, body: request.body });
    return toResult<T>(response);
  }

  request<T>(path: string, body: object | string): Promise<ApiResult<T>> {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return this.send<T>(path, this.signAt(text, this.timestampFor(path, text)));
  }

  /**
   * The current second, unless this body was already signed at it for another path: the service binds a
   * Signature to its first path and refuses it on another when either changes state (a status check then a
   * refund of one transactionRef in one second), so that call takes the next free second instead. The same
   * body for the same path keeps its second: the service answers a repeat like the first.
   */
  private timestampFor(path: string, text: string): number {
    const now = Math.floor(this.clock());
    for (const second of this.pathsBySecond.keys()) if (second < now) this.pathsBySecond.delete(second);
    for (let second = now; ; second += 1) {
      let paths = this.pathsBySecond.get(second);
      if (!paths) this.pathsBySecond.set(second, (paths = new Map()));
      const owner = paths.get(text);
      if (owner === undefined) paths.set(text, path);
      if (owner === undefined || owner === path) return second;
    }
  }

  paymentInitiate(request: PaymentInitiateRequest): Promise<ApiResult<PaymentInitiateResult>> {
    return this.request('payment/initiate', request);
  }

  paymentStatus(query: RecordQuery): Promise<ApiResult<PaymentRecord>> {
    return this.request('payment/status', query);
  }

  /** Same answer as `paymentStatus`, under the name the original provider of this interface uses. */
  paymentFetch(query: RecordQuery): Promise<ApiResult<PaymentRecord>> {
    return this.request('payment/fetch', query);
  }

  paymentRefund(request: PaymentRefundRequest): Promise<ApiResult<PaymentRefundResult>> {
    return this.request('payment/refund', request);
  }

  paymentMethods(request: CurrencyRequest): Promise<ApiResult<PaymentMethodsInfo>> {
    return this.request('payment/methods', request);
  }

  /** Your payments, newest first, a page at a time (docs/reporting.md). */
  paymentList(query: PaymentListQuery = {}): Promise<ApiResult<PaymentPage>> {
    return this.request('payment/list', query);
  }

  payoutInitiate(request: PayoutInitiateRequest): Promise<ApiResult<PayoutInitiateResult>> {
    return this.request('payout/initiate', request);
  }

  payoutStatus(query: RecordQuery): Promise<ApiResult<PayoutRecord>> {
    return this.request('payout/status', query);
  }

  /**
   * Approves a payout waiting in PendingApproval (maker-checker). Sign with another key than the one
   * that initiated it: construct a second client with that key. 403 APPROVER_SAME_KEY otherwise.
   */
  payoutApprove(request: PayoutDecisionRequest): Promise<ApiResult<PayoutRecord>> {
    return this.request('payout/approve', request);
  }

  /** Rejects a payout waiting in PendingApproval: it ends Failed (REJECTED_BY_MERCHANT), the funds come back. */
  payoutReject(request: PayoutDecisionRequest): Promise<ApiResult<PayoutRecord>> {
    return this.request('payout/reject', request);
  }

  /** Same answer as `payoutStatus`, under the original provider's name. */
  payoutFetch(query: RecordQuery): Promise<ApiResult<PayoutRecord>> {
    return this.request('payout/fetch', query);
  }

  /**
   * Name enquiry: the holder of the account a payout would go to, as the bank resolves it (answers
   * are cached about 10 minutes). Errors: 422 INVALID_ACCOUNT, 422 NAME_ENQUIRY_UNAVAILABLE, 503 UNAVAILABLE.
   */
  payoutAccountInquiry(request: PayoutAccountInquiryRequest): Promise<ApiResult<PayoutAccountInquiryResult>> {
    return this.request('payout/accountInquiry', request);
  }

  /** Up to 1,000 payouts in one call; each item is accepted or refused on its own unless `atomic` is true. */
  payoutBatch(request: PayoutBatchRequest): Promise<ApiResult<PayoutBatchResult>> {
    return this.request('payout/batch', request);
  }

  payoutBatchStatus(query: PayoutBatchQuery): Promise<ApiResult<PayoutBatchStatus>> {
    return this.request('payout/batchStatus', query);
  }

  /** Your payouts, newest first, a page at a time (docs/reporting.md). */
  payoutList(query: PayoutListQuery = {}): Promise<ApiResult<PayoutPage>> {
    return this.request('payout/list', query);
  }

  bankCodes(request: CurrencyRequest): Promise<ApiResult<BankEntry[]>> {
    return this.request('payout/bankCode', request);
  }

  balance(request: CurrencyRequest): Promise<ApiResult<Balance>> {
    return this.request('account/balance', request);
  }

  /** Every movement of your balances in one currency, newest first, with the balance after each. */
  statement(query: StatementQuery): Promise<ApiResult<StatementPage>> {
    return this.request('account/statement', query);
  }

  /** Per UTC day: collected, refunded, paid out, fees, settled and the net change of your balances. */
  settlements(query: SettlementsQuery): Promise<ApiResult<Settlements>> {
    return this.request('account/settlements', query);
  }

  /** Asks for a CSV export; answers at once (Pending). The same request again answers the same report. */
  reportCreate(request: ReportRequest): Promise<ApiResult<Report>> {
    return this.request('report/create', request);
  }

  /** A report's status, with a fresh download URL (valid 15 minutes) once it is Ready. */
  reportStatus(reportId: string): Promise<ApiResult<Report>> {
    return this.request('report/status', { reportId });
  }

  usdtRate(request: CurrencyRequest): Promise<ApiResult<UsdtRate>> {
    return this.request('account/usdt/rate', request);
  }

  /** This merchant's webhook events, newest first, with their delivery state. */
  webhookEvents(query: WebhookEventQuery = {}): Promise<ApiResult<WebhookEventPage>> {
    return this.request('webhook/events', query);
  }

  /** One event with the exact body sent and every delivery attempt. */
  webhookEvent(eventId: string): Promise<ApiResult<WebhookEventDetail>> {
    return this.request('webhook/event', { eventId });
  }

  /** Sends an event again (receivers deduplicate by its id). */
  webhookResend(eventId: string): Promise<ApiResult<WebhookEventSummary>> {
    return this.request('webhook/resend', { eventId });
  }

  /** Sandbox merchants only: completes a pending payment as the checkout page's buttons would. */
  sandboxCompletePayment(request: SandboxCompleteRequest): Promise<ApiResult<PaymentRecord>> {
    return this.request('sandbox/payment/complete', request);
  }
}
