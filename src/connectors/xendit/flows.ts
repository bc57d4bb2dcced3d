// XenditChannel: our Channel over Xendit's REST API (HTTP Basic with the secret key, JSON), with
// a deadline per request. No answer, a 5xx or an unreadable body means "outcome unknown"
// (UpstreamUnavailableError); a 4xx is a definitive refusal (UpstreamRefusedError) except an
// idempotency conflict, which means the object already exists and is looked up instead.
import { AppError } from '../../core/errors.js';
import type { Clock } from '../../core/clock.js';
import {
  UpstreamRefusedError,
  UpstreamUnavailableError,
  type Channel,
  type ChannelCallback,
  type Collection,
  type CollectionState,
  type CreateCollectionRequest,
  type PayoutState,
  type PayoutSubmission,
  type RefundRequest,
} from '../channel.js';
import { type StatementFile } from '../statement.js';
import { DAY_MS, dayOf } from '../../core/days.js';
import { JsonClient, type HttpMethod, type JsonAnswer } from '../http-json.js';
import { parseXenditCallback } from './notifications.js';
import {
  DUPLICATE_ERRORS,
  EWALLET_CHANNELS,
  IDR_PAYOUT_CHANNELS,
  PAYOUT_CREATE_ERROR,
  QR_PAYMENT_STATUS,
  VA_BANKS,
  VA_STATUS,
  ewalletCollectionState,
  ewalletInstructions,
  fromRupiah,
  productOfUpstreamRef,
  toE164Indonesia,
  toPayoutState,
  toRupiah,
  toVirtualAccountName,
  type EwalletChargeBody,
  type PayoutBody,
  type QrCodeBody,
  type QrPaymentBody,
  type VirtualAccountBody,
  type XenditError,
} from './transformers.js';

/** The QR Codes API version this connector speaks (sent as the `api-version` header). */
export const QR_API_VERSION = '2022-07-31';

export interface XenditChannelOptions {
  readonly baseUrl: string;
  readonly secretKey: string;
  readonly callbackToken: string;
  readonly timeoutMs: number;
  readonly clock: Clock;
}

type Answer = JsonAnswer;

const enc = encodeURIComponent;
/** List Transactions pages: its largest page, and a bound on a runaway listing. */
const STATEMENT_PAGE_SIZE = 50;
const MAX_STATEMENT_PAGES = 2000;

export class XenditChannel implements Channel {
  readonly name = 'xendit';
  readonly payoutCallbacks = true;
  private readonly http: JsonClient;

  constructor(private readonly options: XenditChannelOptions) {
    // HTTP Basic with the secret key as the user name and no password.
    const authorization = 'Basic ' + Buffer.from(`${options.secretKey}:`, 'utf8').toString('base64');
    this.http = new JsonClient('xendit', options, { headers: { authorization } });
  }

  // ----- pay-ins ------------------------------------------------------------------------------

  async createCollection(request: CreateCollectionRequest): Promise<Collection> {
    if (request.currency !== 'IDR') throw new UpstreamRefusedError('UNSUPPORTED_CURRENCY', `Xendit connector takes IDR only, not ${request.currency}`);
    const amount = toRupiah(request.amountMinor);
    if (amount === null) throw new UpstreamRefusedError('UPSTREAM_REJECTED', 'Xendit takes IDR in whole rupiah; the amount has sen');
    if (request.method in VA_BANKS) return this.createVirtualAccount(request, amount);
    if (request.method === 'QRIS') return this.createQrCode(request, amount);
    if (request.method in EWALLET_CHANNELS) return this.createEwalletCharge(request, amount);
    throw new UpstreamRefusedError('UNSUPPORTED_METHOD', `Xendit connector has no IDR pay-in method ${request.method}`);
  }

  private async createVirtualAccount(request: CreateCollectionRequest, amount: number): Promise<Collection> {
    const body = {
      external_id: request.transactionRef,
      bank_code: request.method,
      name: toVirtualAccountName(request.payerName),
      currency: 'IDR',
      is_closed: true,
      expected_amount: amount,
      is_single_use: true,
      expiration_date: new Date(request.expiresAtMs).toISOString(),
    };
    const va = this.expectOk<VirtualAccountBody>(
      await this.call('POST', '/callback_virtual_accounts', body, { 'x-idempotency-key': request.transactionRef }),
      'create virtual account',
    );
    return {
      upstreamRef: va.id,
      instructions: { kind: 'VIRTUAL_ACCOUNT', accountNumber: va.account_number, bankName: VA_BANKS[request.method]!, accountName: va.name },
    };
  }

  private async createQrCode(request: CreateCollectionRequest, amount: number): Promise<Collection> {
    const body = {
      reference_id: request.transactionRef,
      type: 'DYNAMIC',
      currency: 'IDR',
      amount,
      expires_at: new Date(request.expiresAtMs).toISOString(),
    };
    const qr = this.expectOk<QrCodeBody>(
      await this.call('POST', '/qr_codes', body, { 'api-version': QR_API_VERSION, 'idempotency-key': request.transactionRef }),
      'create QR code',
    );
    return { upstreamRef: qr.id, instructions: { kind: 'QRIS', qrPayload: qr.qr_string } };
  }

  private async createEwalletCharge(request: CreateCollectionRequest, amount: number): Promise<Collection> {
    const channelCode = EWALLET_CHANNELS[request.method]!;
    let channelProperties: Record<string, string>;
    if (request.method === 'OVO') {
      const mobile = toE164Indonesia(request.payerPhone);
      if (mobile === null) throw new UpstreamRefusedError('INVALID_ACCOUNT', 'OVO needs the payer\'s Indonesian mobile number');
      channelProperties = { mobile_number: mobile };
    } else {
      channelProperties = { success_redirect_url: request.redirectUrl };
    }
    const body = {
      reference_id: request.transactionRef,
      currency: 'IDR',
      amount,
      checkout_method: 'ONE_TIME_PAYMENT',
      channel_code: channelCode,
      channel_properties: channelProperties,
    };
    const charge = this.expectOk<EwalletChargeBody>(
      await this.call('POST', '/ewallets/charges', body, { 'x-idempotency-key': request.transactionRef }),
      'create e-wallet charge',
    );
    return { upstreamRef: charge.id, instructions: ewalletInstructions(charge, request.payerPhone) };
  }

  async queryCollection(transactionRef: string, upstreamRef?: string | null): Promise<CollectionState> {
    // Xendit finds these objects by its own id only; without it there is nothing to ask for.
    if (!upstreamRef) throw new AppError('NOT_FOUND', `Xendit objects are found by their id; payment ${transactionRef} has none.`);
    const product = productOfUpstreamRef(upstreamRef);
    if (product === 'EWALLET') {
      return ewalletCollectionState(this.expectOk<EwalletChargeBody>(await this.call('GET', `/ewallets/charges/${enc(upstreamRef)}`), 'query e-wallet charge'));
    }
    if (product === 'QR') return this.queryQrCode(upstreamRef);
    return this.queryVirtualAccount(upstreamRef);
  }

  private async queryVirtualAccount(id: string): Promise<CollectionState> {
    const va = this.expectOk<VirtualAccountBody>(await this.call('GET', `/callback_virtual_accounts/${enc(id)}`), 'query virtual account');
    if (VA_STATUS[va.status] !== 'INACTIVE') return { upstreamRef: va.id, status: 'PENDING' };
    const expiresAtMs = va.expiration_date ? Date.parse(va.expiration_date) : Number.NaN;
    if (!Number.isNaN(expiresAtMs) && expiresAtMs <= this.options.clock.nowMs()) return { upstreamRef: va.id, status: 'EXPIRED' };
    // A closed, single-use VA turns INACTIVE before its expiry only by being paid, and only the exact amount.
    const paid = fromRupiah(va.expected_amount);
    return { upstreamRef: va.id, status: 'PAID', ...(paid === null ? {} : { paidAmountMinor: paid }) };
  }

  private async queryQrCode(id: string): Promise<CollectionState> {
    const payment = await this.succeededQrPayment(id);
    if (payment !== null) {
      const paid = fromRupiah(payment.amount);
      return { upstreamRef: id, status: 'PAID', ...(paid === null ? {} : { paidAmountMinor: paid }) };
    }
    const qr = this.expectOk<QrCodeBody>(await this.call('GET', `/qr_codes/${enc(id)}`, undefined, { 'api-version': QR_API_VERSION }), 'query QR code');
    const expiresAtMs = qr.expires_at ? Date.parse(qr.expires_at) : Number.NaN;
    const expired = qr.status === 'INACTIVE' || (!Number.isNaN(expiresAtMs) && expiresAtMs <= this.options.clock.nowMs());
    return { upstreamRef: id, status: expired ? 'EXPIRED' : 'PENDING' };
  }

  private async succeededQrPayment(qrId: string): Promise<QrPaymentBody | null> {
    const answer = this.expectOk<{ data?: QrPaymentBody[] }>(
      await this.call('GET', `/qr_codes/${enc(qrId)}/payments`, undefined, { 'api-version': QR_API_VERSION }),
      'list QR payments',
    );
    return (answer.data ?? []).find((p) => QR_PAYMENT_STATUS[p.status] === 'PAID') ?? null;
  }

  // ----- refunds ------------------------------------------------------------------------------

  async refund(request: RefundRequest): Promise<{ readonly refundRef: string }> {
    const product = productOfUpstreamRef(request.upstreamRef);
    if (product === 'VA') throw new UpstreamRefusedError('PAYMENT_NOT_REFUNDABLE', 'Xendit cannot refund virtual account payments');
    const amount = toRupiah(request.amountMinor);
    if (amount === null) throw new UpstreamRefusedError('UPSTREAM_REJECTED', 'Xendit refunds IDR in whole rupiah; the amount has sen');
    if (product === 'QR') {
      const payment = await this.succeededQrPayment(request.upstreamRef);
      if (payment === null) throw new UpstreamRefusedError('PAYMENT_NOT_SUCCESSFUL', 'the QR code has no succeeded payment at Xendit');
      const answer = await this.call(
        'POST',
        `/qr_codes/payments/${enc(payment.id)}/refunds`,
        { reference_id: request.transactionRef, amount },
        { 'api-version': QR_API_VERSION, 'idempotency-key': `refund-${request.transactionRef}` },
      );
      return { refundRef: this.expectRefundOk<{ id: string }>(answer).id };
    }
    const charge = this.expectOk<EwalletChargeBody>(await this.call('GET', `/ewallets/charges/${enc(request.upstreamRef)}`), 'query e-wallet charge');
    if (charge.channel_code === EWALLET_CHANNELS.OVO) {
      // Xendit refunds no OVO one-time payment; a same-day void (full amount, our only kind) returns it.
      const answer = await this.call('POST', `/ewallets/charges/${enc(charge.id)}/void`, undefined, { 'x-idempotency-key': `void-${request.transactionRef}` });
      return { refundRef: `void-${this.expectRefundOk<EwalletChargeBody>(answer).id}` };
    }
    const answer = await this.call(
      'POST',
      `/ewallets/charges/${enc(charge.id)}/refunds`,
      { amount, reason: 'REQUESTED_BY_CUSTOMER' },
      { 'x-idempotency-key': `refund-${request.transactionRef}` },
    );
    return { refundRef: this.expectRefundOk<{ id: string }>(answer).id };
  }

  private expectRefundOk<T>(answer: Answer): T {
    if (answer.status === 200 || answer.status === 201) return answer.body as T;
    const error = errorOf(answer);
    if (answer.status === 401 || answer.status === 403) throw credentialsRefused(answer.status, error);
    throw new UpstreamRefusedError(
      error.error_code === 'REFUND_WINDOW_EXPIRED' || error.error_code === 'VOID_WINDOW_EXPIRED' ? 'REFUND_WINDOW_EXPIRED' : 'PAYMENT_NOT_REFUNDABLE',
      `Xendit refused the refund: ${error.error_code} ${error.message}`.trim(),
      answer.status,
      error.error_code,
    );
  }

  // ----- payouts ------------------------------------------------------------------------------

  async submitPayout(submission: PayoutSubmission): Promise<PayoutState> {
    if (submission.currency !== 'IDR' || submission.method !== 'TRANSFER') {
      throw new UpstreamRefusedError('UNSUPPORTED_METHOD', `Xendit connector pays out IDR TRANSFER only, not ${submission.currency} ${submission.method}`);
    }
    const channelCode = submission.bankCode === null ? undefined : IDR_PAYOUT_CHANNELS[submission.bankCode];
    if (channelCode === undefined) throw new UpstreamRefusedError('INVALID_BANK_CODE', `no Xendit payout channel for bank code ${submission.bankCode ?? '(none)'}`);
    const amount = toRupiah(submission.amountMinor);
    if (amount === null) throw new UpstreamRefusedError('UPSTREAM_REJECTED', 'Xendit pays IDR in whole rupiah; the amount has sen');
    const body = {
      reference_id: submission.transactionRef,
      channel_code: channelCode,
      channel_properties: { account_number: submission.account, account_holder_name: submission.name },
      amount,
      currency: 'IDR',
      description: `Payout ${submission.transactionRef}`.slice(0, 100),
    };
    const answer = await this.call('POST', '/v2/payouts', body, { 'idempotency-key': submission.transactionRef });
    if (answer.status === 200 || answer.status === 201) return toPayoutState(answer.body as PayoutBody);
    const error = errorOf(answer);
    if (DUPLICATE_ERRORS.has(error.error_code)) {
      // The key was used before: the payout exists. Its state, never a refusal that could send it elsewhere.
      const state = await this.queryPayout(submission.transactionRef);
      if (state.status === 'UNKNOWN') throw new UpstreamUnavailableError(`xendit: duplicate payout ${submission.transactionRef} reported but not found`);
      return state;
    }
    if (answer.status === 401 || answer.status === 403) throw credentialsRefused(answer.status, error);
    throw new UpstreamRefusedError(
      PAYOUT_CREATE_ERROR[error.error_code] ?? 'UPSTREAM_REJECTED',
      `Xendit refused the payout: ${error.error_code} ${error.message}`.trim(),
      answer.status,
      error.error_code,
    );
  }

  async queryPayout(transactionRef: string): Promise<PayoutState> {
    const answer = this.expectOk<unknown>(await this.call('GET', `/v2/payouts?reference_id=${enc(transactionRef)}`), 'query payout');
    // The reference documents a bare array; the generated SDK reads {data: [...]}. Either is accepted.
    const list = Array.isArray(answer) ? answer : ((answer as { data?: unknown[] } | null)?.data ?? []);
    const payouts = (list as PayoutBody[]).filter((p) => p && p.reference_id === transactionRef);
    if (payouts.length === 0) return { status: 'UNKNOWN' };
    // One idempotency key makes one payout; should there be more, the newest word is the last one listed.
    return toPayoutState(payouts[payouts.length - 1]!);
  }

  // ----- callbacks ----------------------------------------------------------------------------

  parseCallback(headers: Readonly<Record<string, string | string[] | undefined>>, rawBody: Buffer): ChannelCallback {
    return parseXenditCallback(headers, rawBody, this.options.callbackToken);
  }

  // ----- reconciliation ------------------------------------------------------------------------

  /** The day's statement (statement.ts): List Transactions of the UTC day, every page (after_id cursor). */
  async fetchStatement(dayStartMs: number): Promise<StatementFile> {
    const data: unknown[] = [];
    let after: string | null = null;
    for (let page = 0; page < MAX_STATEMENT_PAGES; page += 1) {
      const query = new URLSearchParams({
        'created[gte]': new Date(dayStartMs).toISOString(),
        'created[lte]': new Date(dayStartMs + DAY_MS - 1).toISOString(),
        limit: String(STATEMENT_PAGE_SIZE),
      });
      if (after !== null) query.set('after_id', after);
      const list = this.expectOk<{ readonly data?: unknown; readonly has_more?: unknown }>(await this.call('GET', `/transactions?${query}`), 'list transactions');
      if (!Array.isArray(list.data)) throw new UpstreamUnavailableError('xendit list transactions: answer without data');
      data.push(...list.data);
      const last = list.data[list.data.length - 1] as { readonly id?: unknown } | undefined;
      if (list.has_more !== true || typeof last?.id !== 'string') {
        return { fileName: `xendit-${dayOf(dayStartMs)}.json`, content: JSON.stringify({ has_more: false, data }) };
      }
      after = last.id;
    }
    throw new UpstreamUnavailableError(`xendit list transactions: more than ${MAX_STATEMENT_PAGES} pages in one day`);
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  // ----- transport ----------------------------------------------------------------------------

  private call(method: HttpMethod, path: string, body?: object, headers: Record<string, string> = {}): Promise<Answer> {
    return this.http.request({ method, path, body, headers });
  }

  private expectOk<T>(answer: Answer, what: string): T {
    if (answer.status === 200 || answer.status === 201) return answer.body as T;
    const error = errorOf(answer);
    if (answer.status === 401 || answer.status === 403) throw credentialsRefused(answer.status, error);
    if (answer.status === 404) throw new AppError('NOT_FOUND', `Xendit has no such object (${what}): ${error.error_code}`);
    throw new UpstreamRefusedError(
      refusalReason(error.error_code),
      `Xendit refused to ${what}: ${error.error_code} ${error.message}`.trim(),
      answer.status,
      error.error_code,
    );
  }
}

/** Pay-in creation refusals -> our reasons. */
function refusalReason(code: string): string {
  switch (code) {
    case 'UNSUPPORTED_CURRENCY':
      return 'UNSUPPORTED_CURRENCY';
    case 'CHANNEL_NOT_ACTIVATED':
    case 'BANK_NOT_SUPPORTED_ERROR':
    case 'CHANNEL_CODE_NOT_SUPPORTED_ERROR':
      return 'METHOD_NOT_ENABLED';
    case 'INVALID_ACCOUNT_DETAILS':
    case 'INVALID_PHONE_NUMBER':
      return 'INVALID_ACCOUNT';
    default:
      return 'UPSTREAM_REJECTED';
  }
}

function errorOf(answer: Answer): XenditError {
  const body = answer.body as Partial<XenditError> | null;
  return {
    error_code: typeof body?.error_code === 'string' ? body.error_code : `HTTP_${answer.status}`,
    message: typeof body?.message === 'string' ? body.message : '',
  };
}

const credentialsRefused = (status: number, error: XenditError): UpstreamRefusedError =>
  new UpstreamRefusedError('UPSTREAM_REJECTED', `credentials refused by Xendit: ${error.error_code}`, status, error.error_code);
