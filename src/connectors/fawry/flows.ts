// FawryChannel: EGP pay-ins through FawryPay's server-to-server APIs over real HTTP. FAWRY is a
// PayAtFawry reference number, WALLET an MWALLET request-to-pay to the payer's mobile; the status V2
// query, refunds of wallet payments and the V2 server notifications complete it. Fawry sends no
// payouts here. Every request is signed in its body (SHA-256 over documented fields + secure key).
import { AppError } from '../../core/errors.js';
import {
  UpstreamRefusedError,
  UpstreamUnavailableError,
  type Channel,
  type ChannelCallback,
  type Collection,
  type CollectionInstructions,
  type CollectionState,
  type CreateCollectionRequest,
  type PayoutState,
  type RefundRequest,
} from '../channel.js';
import type { ConnectorOptions } from '../connector.js';
import { JsonClient, withoutQuery, type HttpMethod } from '../http-json.js';
import { parseFawryNotification } from './notifications.js';
import {
  CHARGE_PATH,
  CREDENTIAL_CODES,
  REFUND_PATH,
  STATUS_CODE,
  STATUS_PATH,
  failureReasonFor,
  isWalletMethod,
  mapOrderStatus,
  parseWithExactAmounts,
  refundSignature,
  statusCodeOf,
  statusSignature,
  toChargeBody,
  toCollectionState,
  toDecimal,
  toEgyptianMobile,
  toJson,
  toMerchantRefNum,
  RawDecimal,
  type ChargeResponseBody,
  type FawryStatusFields,
  type Merchant,
  type OrderStatusBody,
  type OurMethod,
} from './transformers.js';

const REFUND_REASON = 'Merchant refund';

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export class FawryChannel implements Channel {
  readonly name = 'fawry';
  private readonly http: JsonClient;
  private readonly merchant: Merchant;

  constructor(private readonly options: ConnectorOptions) {
    // Requests carry no credential header: each body (or query) is signed with the secure key instead.
    this.http = new JsonClient('fawry', options, { parse: readAnswer });
    this.merchant = { merchantCode: options.credentials.merchantCode ?? '', secureKey: options.credentials.secureKey ?? '' };
  }

  /**
   * Fawry's charge is not idempotent, so the order is looked up by our reference first and reused
   * when it exists; a refused charge is looked up once more (a first charge may have landed).
   */
  async createCollection(request: CreateCollectionRequest): Promise<Collection> {
    const method = this.ourMethod(request);
    const merchantRefNum = this.merchantRefNum(request.transactionRef);
    const mobile = toEgyptianMobile(request.payerPhone);
    if (mobile === null) throw new UpstreamRefusedError('INVALID_ACCOUNT', 'Fawry needs the payer\'s Egyptian mobile number (01xxxxxxxxx).');

    const existing = await this.findOrder(merchantRefNum);
    if (existing !== null) return this.collectionOf(existing.fawryRefNumber, method, mobile);

    const body = toChargeBody(this.merchant, request, method, merchantRefNum, mobile, this.options.callbackUrl);
    const answer = await this.call('POST', CHARGE_PATH, toJson(body));
    const charge = answer.body as ChargeResponseBody;
    const code = statusCodeOf(charge);
    if (answer.status === 200 && (code === null || code === STATUS_CODE.SUCCESS) && charge.referenceNumber) {
      return this.collectionOf(String(charge.referenceNumber), method, mobile);
    }
    const refusal = this.refusal(answer, 'charge');
    const landed = await this.findOrder(merchantRefNum);
    if (landed !== null) return this.collectionOf(landed.fawryRefNumber, method, mobile);
    throw refusal;
  }

  async queryCollection(transactionRef: string, upstreamRef?: string | null): Promise<CollectionState> {
    const order = await this.findOrder(this.merchantRefNum(transactionRef));
    if (order === null) throw new AppError('NOT_FOUND', `Fawry has no order for ${transactionRef}.`);
    const state = toCollectionState(order, upstreamRef ?? order.fawryRefNumber ?? '');
    if (state === null) throw new UpstreamUnavailableError(`Fawry answered an orderStatus we do not know: ${String(order.orderStatus)}`);
    return state;
  }

  /**
   * Only wallet payments refund (cash paid at a Fawry outlet does not). The order is read first: its
   * method decides, and an order already REFUNDED or PARTIAL_REFUNDED means an earlier attempt of
   * this refund landed. We make at most one refund per payment (the whole payment, or the whole odd
   * sum a payer sent), so a partly refunded order is ours too: an odd sum smaller than the order
   * leaves it PARTIAL_REFUNDED, and refunding again after a lost answer would pay the payer twice.
   */
  async refund(request: RefundRequest): Promise<{ readonly refundRef: string }> {
    const order = await this.findOrder(this.merchantRefNum(request.transactionRef));
    if (order === null) throw new UpstreamRefusedError('PAYMENT_NOT_SUCCESSFUL', `Fawry has no order for ${request.transactionRef}.`);
    if (!isWalletMethod(order.paymentMethod)) {
      throw new UpstreamRefusedError('PAYMENT_NOT_REFUNDABLE', `Fawry does not refund ${String(order.paymentMethod)} payments.`);
    }
    const referenceNumber = order.fawryRefNumber ?? request.upstreamRef;
    const status = String(order.orderStatus).toUpperCase();
    if (status === 'REFUNDED' || status === 'PARTIAL_REFUNDED') return { refundRef: referenceNumber };
    if (mapOrderStatus(order.orderStatus) !== 'PAID') {
      throw new UpstreamRefusedError('PAYMENT_NOT_SUCCESSFUL', `The Fawry order is ${status}, not paid.`);
    }
    const refundAmount = toDecimal(request.amountMinor);
    const body = {
      merchantCode: this.merchant.merchantCode,
      referenceNumber,
      refundAmount: new RawDecimal(refundAmount),
      reason: REFUND_REASON,
      signature: refundSignature(this.merchant.merchantCode, referenceNumber, refundAmount, REFUND_REASON, this.merchant.secureKey),
    };
    const answer = await this.call('POST', REFUND_PATH, toJson(body));
    const code = statusCodeOf(answer.body as FawryStatusFields);
    if (answer.status === 200 && code === STATUS_CODE.SUCCESS) return { refundRef: referenceNumber };
    throw this.refusal(answer, 'refund');
  }

  submitPayout(): Promise<PayoutState> {
    return Promise.reject(new UpstreamRefusedError('UPSTREAM_REJECTED', 'The Fawry connector sends no payouts.'));
  }

  /** No payout is ever sent through Fawry, so none can be found. */
  queryPayout(): Promise<PayoutState> {
    return Promise.resolve({ status: 'UNKNOWN' });
  }

  parseCallback(_headers: Readonly<Record<string, string | string[] | undefined>>, rawBody: Buffer): ChannelCallback {
    return parseFawryNotification(rawBody, this.merchant.secureKey);
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  /** The order Fawry holds for our reference (status V2), or null when it has none (9938). */
  private async findOrder(merchantRefNumber: string): Promise<(OrderStatusBody & { fawryRefNumber: string }) | null> {
    const query = new URLSearchParams({
      merchantCode: this.merchant.merchantCode,
      merchantRefNumber,
      signature: statusSignature(this.merchant.merchantCode, merchantRefNumber, this.merchant.secureKey),
    });
    const answer = await this.call('GET', `${STATUS_PATH}?${query.toString()}`);
    const order = answer.body as OrderStatusBody;
    const code = statusCodeOf(order);
    if (code === STATUS_CODE.PAYMENT_NOT_FOUND) return null;
    if (answer.status !== 200 || (code !== null && code !== STATUS_CODE.SUCCESS)) throw this.refusal(answer, 'status query');
    if (!order.fawryRefNumber || !order.orderStatus) throw new UpstreamUnavailableError('Fawry status V2 answer lacks fawryRefNumber or orderStatus');
    return { ...order, fawryRefNumber: String(order.fawryRefNumber) };
  }

  private collectionOf(referenceNumber: string, method: OurMethod, mobile: string): Collection {
    const instructions: CollectionInstructions =
      method === 'FAWRY' ? { kind: 'FAWRY', referenceCode: referenceNumber } : { kind: 'MOBILE_WALLET', walletPhone: mobile, referenceCode: referenceNumber };
    return { upstreamRef: referenceNumber, instructions };
  }

  private ourMethod(request: CreateCollectionRequest): OurMethod {
    if (request.currency !== 'EGP' || (request.method !== 'FAWRY' && request.method !== 'WALLET')) {
      throw new UpstreamRefusedError('UPSTREAM_REJECTED', `Fawry takes EGP FAWRY and WALLET pay-ins, not ${request.currency} ${request.method}.`);
    }
    return request.method;
  }

  private merchantRefNum(transactionRef: string): string {
    const ref = toMerchantRefNum(transactionRef);
    if (ref === null) throw new UpstreamRefusedError('UPSTREAM_REJECTED', `The reference ${transactionRef} cannot be a Fawry merchantRefNum.`);
    return ref;
  }

  /** A definitive refusal as our error: credentials refused, or the documented code's reason. */
  private refusal(answer: Answer, what: string): UpstreamRefusedError {
    const fields = answer.body as FawryStatusFields & { code?: unknown; description?: unknown; reason?: unknown };
    const code = statusCodeOf(fields) ?? (fields.code === undefined ? null : String(fields.code));
    const description = String(fields.statusDescription ?? fields.description ?? fields.reason ?? '').slice(0, 200);
    if (answer.status === 401 || answer.status === 403 || (code !== null && CREDENTIAL_CODES.has(code))) {
      return new UpstreamRefusedError('UPSTREAM_REJECTED', `Fawry ${what}: credentials refused (${code ?? answer.status} ${description})`.trim(), answer.status, code);
    }
    return new UpstreamRefusedError(failureReasonFor(code), `Fawry refused the ${what}: ${code ?? answer.status} ${description}`.trim(), answer.status, code);
  }

  /** One request; no answer, a timeout, a 5xx or an unreadable body leaves the outcome unknown. */
  private async call(method: HttpMethod, path: string, body?: string): Promise<Answer> {
    const answer = await this.http.request({ method, path, body });
    if (answer.body === null || typeof answer.body !== 'object' || Array.isArray(answer.body)) {
      throw new UpstreamUnavailableError(`fawry ${method} ${withoutQuery(path)}: answer is not an object`);
    }
    return { status: answer.status, body: answer.body as Record<string, unknown> };
  }
}

/**
 * Fawry's answers with their amounts kept as exact decimal text. Refused credentials may come back
 * as a non-JSON page; that is still a definite refusal, read as an empty answer.
 */
function readAnswer(text: string, status: number): unknown {
  try {
    return parseWithExactAmounts(text);
  } catch (error) {
    if (status === 401 || status === 403) return {};
    throw error;
  }
}
