// RazorpayChannel: UPI pay-ins as single-use fixed-amount UPI QR codes, their refunds, and RazorpayX
// payouts (IMPS to a bank account, UPI to a VPA) over real HTTP with HTTP Basic key_id:key_secret.
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { type StatementFile } from '../statement.js';
import { dayOf } from '../../core/days.js';
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
  type ResolvedAccount,
} from '../channel.js';
import type { Currency } from '../../core/money.js';
import { JsonClient, type HttpMethod, type JsonAnswer } from '../http-json.js';
import { parseRazorpayWebhook } from './notifications.js';
import {
  PAYOUT_IDEMPOTENCY_HEADER,
  REF_NOTE,
  REFUND_IDEMPOTENCY_HEADER,
  paidPayments,
  payoutRefusalReason,
  refFromNotes,
  toCollectionState,
  toInstructions,
  toPaise,
  toPayoutRequest,
  toPayoutState,
  toAccountValidationRequest,
  toQrCodeRequest,
  upstreamReference,
  type AccountValidation,
  type Collection as ListOf,
  type ErrorBody,
  type Payment,
  type Payout,
  type QrCode,
  type Refund,
} from './transformers.js';

export interface RazorpayChannelOptions {
  readonly baseUrl: string;
  readonly keyId: string;
  readonly keySecret: string;
  readonly webhookSecret: string;
  /** The RazorpayX business account payouts are paid from (not a secret). */
  readonly accountNumber: string;
  readonly timeoutMs: number;
  readonly clock: Clock;
}

type Answer = JsonAnswer;

/** The most the list endpoints give per page (QR codes and payouts alike). */
const PAGE = 100;
/** The recon report's largest page (count), and a bound on a runaway listing. */
const RECON_PAGE = 1000;
const MAX_RECON_PAGES = 200;
/** A lost-answer lookup reads at most this many pages of recent QR codes before concluding there is none. */
const MAX_LOOKUP_PAGES = 20;
/** QR codes are looked for from this long before the payment's expiry (checkouts live 30 minutes). */
const LOOKUP_WINDOW_MS = 2 * 60 * 60 * 1000;
const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;
/** How often a pending account validation is asked again, within the one request deadline. */
const VALIDATION_POLL_MS = 250;

const seg = (value: string): string => encodeURIComponent(value);

export class RazorpayChannel implements Channel {
  readonly name = 'razorpay';
  readonly payoutCallbacks = true;
  private readonly http: JsonClient;

  constructor(private readonly options: RazorpayChannelOptions) {
    this.http = new JsonClient('razorpay', options, {
      headers: { authorization: 'Basic ' + Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64') },
      // 409: an earlier request with the same idempotency key is still running; 429: rate limited.
      // Neither says what became of the request, so both are retried like a 5xx.
      unknownStatuses: [409, 429],
    });
  }

  async createCollection(request: CreateCollectionRequest): Promise<Collection> {
    if (request.currency !== 'INR' || request.method !== 'NATIVE') {
      throw new UpstreamRefusedError('UPSTREAM_REJECTED', `Razorpay takes INR NATIVE (UPI) pay-ins only, not ${request.currency} ${request.method}`);
    }
    const paise = toPaise(request.amountMinor);
    if (paise === null || paise < 100) throw new UpstreamRefusedError('UPSTREAM_REJECTED', 'Razorpay QR codes take at least 1.00 INR');
    // The QR codes API has no idempotency key: a QR code already made for this ref (an earlier
    // attempt whose answer was lost) is found by the reference in its notes and given again.
    const existing = await this.findQrCode(request.transactionRef, request.expiresAtMs - LOOKUP_WINDOW_MS);
    const qr =
      existing ??
      (await this.expect<QrCode>(
        'POST',
        '/v1/payments/qr_codes',
        toQrCodeRequest(request.transactionRef, request.merchantId, paise, request.expiresAtMs, this.options.clock.nowMs()),
        {},
        'create QR code',
      ));
    return { upstreamRef: qr.id, instructions: toInstructions(qr) };
  }

  async queryCollection(transactionRef: string, upstreamRef?: string | null): Promise<CollectionState> {
    const qr = upstreamRef
      ? await this.expect<QrCode>('GET', `/v1/payments/qr_codes/${seg(upstreamRef)}`, undefined, {}, 'fetch QR code')
      : await this.findQrCode(transactionRef, this.options.clock.nowMs() - 24 * LOOKUP_WINDOW_MS);
    if (qr === null) throw new AppError('NOT_FOUND', `Razorpay has no QR code for ${transactionRef}.`);
    const ours = refFromNotes(qr.notes);
    if (ours !== null && ours !== transactionRef) {
      throw new UpstreamRefusedError('UPSTREAM_REJECTED', `QR code ${qr.id} belongs to ${ours}, not ${transactionRef}`);
    }
    return toCollectionState(qr, await this.qrPayments(qr.id));
  }

  async refund(request: RefundRequest): Promise<{ readonly refundRef: string }> {
    const paid = paidPayments(await this.qrPayments(request.upstreamRef));
    const payment = paid[0];
    if (payment === undefined) throw new UpstreamRefusedError('PAYMENT_NOT_SUCCESSFUL', `QR code ${request.upstreamRef} has no captured payment to refund`);
    const paise = toPaise(request.amountMinor);
    if (paise === null) throw new UpstreamRefusedError('PAYMENT_NOT_REFUNDABLE', 'refund amount out of range');
    // The idempotency key makes a retry after a lost answer give back the same refund.
    const answer = await this.call('POST', `/v1/payments/${seg(payment.id)}/refund`, { amount: paise, notes: { [REF_NOTE]: request.transactionRef } }, {
      [REFUND_IDEMPOTENCY_HEADER]: upstreamReference(request.transactionRef),
    });
    if (answer.status === 200) return { refundRef: (answer.body as Refund).id };
    throw this.refusal(answer, 'refund', 'PAYMENT_NOT_REFUNDABLE');
  }

  async submitPayout(submission: PayoutSubmission): Promise<PayoutState> {
    if (submission.currency !== 'INR' || (submission.method !== 'BANK' && submission.method !== 'UPI')) {
      throw new UpstreamRefusedError('UPSTREAM_REJECTED', `RazorpayX pays INR BANK or UPI only, not ${submission.currency} ${submission.method}`);
    }
    if (submission.method === 'BANK' && !IFSC.test(submission.bankCode ?? '')) {
      throw new UpstreamRefusedError('INVALID_ACCOUNT', 'a BANK payout needs an 11-character IFSC in bankCode');
    }
    const paise = toPaise(submission.amountMinor);
    if (paise === null) throw new UpstreamRefusedError('UPSTREAM_REJECTED', 'payout amount out of range');
    const body = toPayoutRequest(submission, this.options.accountNumber, paise);
    const answer = await this.call('POST', '/v1/payouts', body, { [PAYOUT_IDEMPOTENCY_HEADER]: body.reference_id });
    if (answer.status === 200) return toPayoutState(answer.body as Payout);
    throw this.refusal(answer, 'create payout', payoutRefusalReason(answer.body as Partial<ErrorBody>));
  }

  async queryPayout(transactionRef: string): Promise<PayoutState> {
    const reference = upstreamReference(transactionRef);
    const query = new URLSearchParams({ account_number: this.options.accountNumber, reference_id: reference, count: String(PAGE) });
    const list = await this.expect<ListOf<Payout>>('GET', `/v1/payouts?${query}`, undefined, {}, 'fetch payouts');
    // One idempotency key makes at most one payout; the newest (first) one is the answer regardless.
    const payout = list.items.find((p) => p.reference_id === reference);
    return payout === undefined ? { status: 'UNKNOWN' } : toPayoutState(payout);
  }

  /**
   * Name enquiry through RazorpayX account validation (a penny drop or a penniless check, as Razorpay
   * chooses; it may cost a fee per call). Validation is asynchronous, so a pending one is asked again
   * until the request deadline; still pending then, the outcome is unknown.
   */
  async resolveAccount(request: { readonly currency: Currency; readonly method: string; readonly bankCode: string | null; readonly account: string }): Promise<ResolvedAccount> {
    if (request.currency !== 'INR' || (request.method !== 'BANK' && request.method !== 'UPI')) {
      throw new UpstreamRefusedError('UPSTREAM_REJECTED', `RazorpayX validates INR BANK or UPI accounts only, not ${request.currency} ${request.method}`);
    }
    if (request.method === 'BANK' && !IFSC.test(request.bankCode ?? '')) throw new UpstreamRefusedError('INVALID_ACCOUNT', 'a bank account needs an 11-character IFSC');
    const deadline = Date.now() + this.options.timeoutMs;
    const body = toAccountValidationRequest(this.options.accountNumber, request.method, request.bankCode, request.account);
    const answer = await this.call('POST', '/v1/fund_accounts/validations', body, {});
    if (answer.status !== 200 && answer.status !== 201) throw this.refusal(answer, 'validate account', payoutRefusalReason(answer.body as Partial<ErrorBody>));
    let validation = answer.body as AccountValidation;
    while (validation.status === 'created') {
      if (Date.now() + VALIDATION_POLL_MS >= deadline) throw new UpstreamUnavailableError(`account validation ${validation.id} still pending at the deadline`);
      await new Promise((resolve) => setTimeout(resolve, VALIDATION_POLL_MS));
      validation = await this.expect<AccountValidation>('GET', `/v1/fund_accounts/validations/${seg(validation.id)}`, undefined, {}, 'fetch account validation');
    }
    if (validation.status === 'failed') {
      throw new UpstreamUnavailableError(`account validation ${validation.id} failed: ${validation.status_details?.reason ?? 'no reason given'}`);
    }
    const result = validation.validation_results;
    if (result?.account_status !== 'active' || !result.registered_name) {
      throw new UpstreamRefusedError('INVALID_ACCOUNT', 'RazorpayX found no active account holder', 200, validation.status_details?.reason ?? null);
    }
    return { accountName: result.registered_name, bankCode: request.method === 'UPI' ? null : request.bankCode, account: request.account };
  }

  parseCallback(headers: Readonly<Record<string, string | string[] | undefined>>, rawBody: Buffer): ChannelCallback {
    return parseRazorpayWebhook(headers, rawBody, this.options.webhookSecret);
  }

  /**
   * The Settlement Recon report of the day (statement.ts), every page of it (count/skip), as one JSON
   * document. Razorpay's day is asked by its calendar date: year, month and day of the UTC day.
   */
  async fetchStatement(dayStartMs: number): Promise<StatementFile> {
    const date = new Date(dayStartMs);
    const items: unknown[] = [];
    for (let page = 0; page < MAX_RECON_PAGES; page += 1) {
      const query = new URLSearchParams({
        year: String(date.getUTCFullYear()),
        month: String(date.getUTCMonth() + 1).padStart(2, '0'),
        day: String(date.getUTCDate()).padStart(2, '0'),
        count: String(RECON_PAGE),
        skip: String(page * RECON_PAGE),
      });
      const list = await this.expect<ListOf<unknown>>('GET', `/v1/settlements/recon/combined?${query}`, undefined, {}, 'fetch the settlement recon report');
      if (!Array.isArray(list.items)) throw new UpstreamUnavailableError('razorpay settlement recon: answer without items');
      items.push(...list.items);
      if (list.items.length < RECON_PAGE) {
        return { fileName: `razorpay-${dayOf(dayStartMs)}.json`, content: JSON.stringify({ entity: 'collection', count: items.length, items }) };
      }
    }
    throw new UpstreamUnavailableError(`razorpay settlement recon: more than ${MAX_RECON_PAGES} pages in one day`);
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  /** The QR code whose notes carry our ref, among those created since `sinceMs`; null when none. */
  private async findQrCode(transactionRef: string, sinceMs: number): Promise<QrCode | null> {
    const from = Math.max(0, Math.floor(sinceMs / 1000));
    for (let page = 0; page < MAX_LOOKUP_PAGES; page++) {
      const query = new URLSearchParams({ from: String(from), count: String(PAGE), skip: String(page * PAGE) });
      const list = await this.expect<ListOf<QrCode>>('GET', `/v1/payments/qr_codes?${query}`, undefined, {}, 'list QR codes');
      const found = list.items.find((qr) => refFromNotes(qr.notes) === transactionRef);
      if (found !== undefined) return found;
      if (list.items.length < PAGE) return null;
    }
    // So many QR codes in the window that ours may be further on: unknown, not absent.
    throw new UpstreamUnavailableError(`more than ${MAX_LOOKUP_PAGES * PAGE} QR codes to search for ${transactionRef}`);
  }

  private async qrPayments(qrId: string): Promise<Payment[]> {
    const list = await this.expect<ListOf<Payment>>('GET', `/v1/payments/qr_codes/${seg(qrId)}/payments?count=${PAGE}`, undefined, {}, 'fetch QR payments');
    return [...list.items];
  }

  private async expect<T>(method: 'GET' | 'POST', path: string, body: object | undefined, headers: Record<string, string>, what: string): Promise<T> {
    const answer = await this.call(method, path, body, headers);
    if (answer.status === 200) return answer.body as T;
    throw this.refusal(answer, what, 'UPSTREAM_REJECTED');
  }

  /** A 4xx as a definitive refusal: credentials refused, or `reason` with Razorpay's code and text. */
  private refusal(answer: Answer, what: string, reason: string): UpstreamRefusedError {
    const error = (answer.body as Partial<ErrorBody> | null)?.error;
    const code = error?.reason && error.reason !== 'NA' ? error.reason : (error?.code ?? null);
    if (answer.status === 401 || answer.status === 403) {
      return new UpstreamRefusedError('UPSTREAM_REJECTED', `credentials refused by Razorpay (HTTP ${answer.status}) on ${what}`, answer.status, code);
    }
    return new UpstreamRefusedError(reason, `Razorpay refused to ${what}: HTTP ${answer.status} ${error?.description ?? ''}`.trim(), answer.status, code);
  }

  /** One request; no answer, a 5xx, a 409, a 429 or an unreadable body means the outcome is unknown. */
  private call(method: HttpMethod, path: string, body: object | undefined, headers: Record<string, string>): Promise<Answer> {
    return this.http.request({ method, path, body, headers });
  }
}
