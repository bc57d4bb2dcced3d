// PaymobChannel: EGP payouts through Paymob's Payouts (disbursement) API over real HTTP. It holds an
// OAuth2 access token (password grant), reuses it until shortly before it expires, renews it with the
// refresh token, and fetches a new one once when Paymob answers 401. Pay-ins are not Paymob's job here.
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
import type { ConnectorOptions } from '../connector.js';
import { JsonClient, type HttpMethod, type JsonAnswer } from '../http-json.js';
import { parsePaymobCallback } from './notifications.js';
import {
  clientReferenceId,
  describeStatus,
  isBankBody,
  reasonForCode,
  serializeInstantCashin,
  statusCodeOf,
  toInstantCashinBody,
  toPayoutState,
  type DisbursementAnswer,
  type InquiryAnswer,
  type InquiryBody,
  type TokenAnswer,
  type TokenError,
} from './transformers.js';

/** A token is renewed this long before Paymob's stated expiry, so a request never carries one that lapses in flight. */
const TOKEN_MARGIN_MS = 60_000;
/** Used when a token answer gives no readable lifetime: the documentation says tokens last 60 minutes. */
const DEFAULT_TOKEN_SECONDS = 3600;

type Answer = JsonAnswer;

interface HeldToken {
  readonly accessToken: string;
  readonly refreshToken: string | null;
  readonly expiresAtMs: number;
}

/** The code Paymob answers a transaction it considers a duplicate with (per its error list). */
const DUPLICATE_CODES: readonly string[] = ['501'];

const payoutsOnly = (): UpstreamRefusedError => new UpstreamRefusedError('UPSTREAM_REJECTED', 'paymob serves payouts only');

const credentialsRefused = (status: number, code: string | null): UpstreamRefusedError =>
  new UpstreamRefusedError('UPSTREAM_REJECTED', `credentials refused by paymob (HTTP ${status}${code ? ` ${code}` : ''}); check clientId, clientSecret, username and password`, status, code);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

export class PaymobChannel implements Channel {
  readonly name = 'paymob';
  /** Its base URL carries the API's path prefix, e.g. `/api/secure`, under which `o/token/`, `disburse/`... live. */
  private readonly http: JsonClient;
  private readonly clock: Clock;
  private token: HeldToken | null = null;
  private pendingToken: Promise<HeldToken> | null = null;

  constructor(private readonly options: ConnectorOptions) {
    // An empty body is an answer too (some refusals carry none); it reads as null.
    this.http = new JsonClient('paymob', options, { parse: (text) => (text === '' ? null : (JSON.parse(text) as unknown)) });
    this.clock = options.clock;
  }

  async createCollection(_request: CreateCollectionRequest): Promise<Collection> {
    throw payoutsOnly();
  }

  async queryCollection(_transactionRef: string): Promise<CollectionState> {
    throw payoutsOnly();
  }

  async refund(_request: RefundRequest): Promise<{ readonly refundRef: string }> {
    throw payoutsOnly();
  }

  /**
   * One instant cash-in. Paymob has no idempotency key, so this never looks for an earlier attempt
   * itself: the payout job asks queryPayout before any resubmission, which finds an earlier attempt
   * by the client_reference_id derived from our transactionRef.
   */
  async submitPayout(submission: PayoutSubmission): Promise<PayoutState> {
    const body = toInstantCashinBody(submission);
    const answer = await this.authorized('POST', '/disburse/', serializeInstantCashin(body));
    const disbursement = isObject(answer.body) ? (answer.body as DisbursementAnswer) : null;
    // A disbursement Paymob recorded (even a failed one) is a state, whatever the HTTP status.
    if (disbursement?.disbursement_status !== undefined) return toPayoutState(disbursement);
    if (answer.status >= 200 && answer.status < 300) {
      throw new UpstreamUnavailableError(`paymob POST disburse/: HTTP ${answer.status} without a disbursement status`);
    }
    const code = disbursement === null ? null : statusCodeOf(disbursement);
    const description = disbursement === null ? '' : describeStatus(disbursement.status_description);
    if (code !== null && DUPLICATE_CODES.includes(code)) {
      // Paymob may already hold this payout: never let a "duplicate" refusal send it to another connector.
      const earlier = await this.queryPayout(submission.transactionRef);
      if (earlier.status !== 'UNKNOWN') return earlier;
      throw new UpstreamUnavailableError(`paymob answered ${code} (duplicate) for a payout its inquiry does not show yet`);
    }
    throw new UpstreamRefusedError(reasonForCode(code), `paymob refused the disbursement: HTTP ${answer.status} ${code ?? ''} ${description}`.trim(), answer.status, code);
  }

  /**
   * Finds the payout by the client_reference_id derived from our transactionRef. Paymob's inquiry
   * keeps wallet and bank transactions apart, so wallets are asked first, then banks; found in
   * neither, Paymob never received it (UNKNOWN).
   */
  async queryPayout(transactionRef: string): Promise<PayoutState> {
    const reference = clientReferenceId(transactionRef);
    for (const bank of [false, true]) {
      const found = await this.inquire(reference, bank);
      if (found !== null) return toPayoutState(found);
    }
    return { status: 'UNKNOWN' };
  }

  parseCallback(headers: Readonly<Record<string, string | string[] | undefined>>, rawBody: Buffer): ChannelCallback {
    return parsePaymobCallback(headers, rawBody);
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  private async inquire(reference: string, bank: boolean): Promise<DisbursementAnswer | null> {
    const body: InquiryBody = { transactions_ids_list: [reference], bank_transactions: bank };
    const answer = await this.authorized('GET', '/transaction/inquire/', JSON.stringify(body));
    if (answer.status === 404) return null;
    if (answer.status !== 200 || !isObject(answer.body) || !Array.isArray((answer.body as Partial<InquiryAnswer>).results)) {
      if (answer.status >= 400 && answer.status < 500) {
        const code = isObject(answer.body) ? statusCodeOf(answer.body as DisbursementAnswer) : null;
        throw new UpstreamRefusedError('UPSTREAM_REJECTED', `paymob refused the transaction inquiry: HTTP ${answer.status}`, answer.status, code);
      }
      throw new UpstreamUnavailableError(`paymob GET transaction/inquire/: HTTP ${answer.status} without results`);
    }
    const results = (answer.body as unknown as InquiryAnswer).results;
    return results.find((row) => isObject(row) && (row.client_reference_id === reference || row.transaction_id === reference)) ?? null;
  }

  /** A call with the bearer token; on a 401 the token is dropped and the call made once more with a fresh one. */
  private async authorized(method: 'GET' | 'POST', path: string, json: string): Promise<Answer> {
    for (let attempt = 0; ; attempt += 1) {
      const token = await this.accessToken();
      const answer = await this.call(method, path, json, { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' });
      if (answer.status === 401 && attempt === 0) {
        // Paymob no longer takes this token (revoked or expired early): renew it, by refresh token first.
        if (this.token === token) this.token = { ...token, expiresAtMs: 0 };
        continue;
      }
      if (answer.status === 401 || answer.status === 403) {
        throw credentialsRefused(answer.status, isObject(answer.body) ? statusCodeOf(answer.body as DisbursementAnswer) : null);
      }
      if (answer.status === 429) throw new UpstreamUnavailableError(`paymob ${method} ${path}: rate limited (HTTP 429)`);
      return answer;
    }
  }

  /** The held token while it is fresh; else one renewal shared by every caller waiting for it. */
  private async accessToken(): Promise<HeldToken> {
    const held = this.token;
    if (held !== null && this.clock.nowMs() < held.expiresAtMs - TOKEN_MARGIN_MS) return held;
    if (this.pendingToken === null) {
      this.pendingToken = this.renewToken(held).finally(() => {
        this.pendingToken = null;
      });
    }
    return this.pendingToken;
  }

  private async renewToken(previous: HeldToken | null): Promise<HeldToken> {
    if (previous?.refreshToken) {
      const refreshed = await this.requestToken({ grant_type: 'refresh_token', refresh_token: previous.refreshToken });
      // A refused refresh token (used or revoked) is not a credentials problem: sign in again below.
      if (refreshed !== null) return refreshed;
    }
    const fresh = await this.requestToken({
      grant_type: 'password',
      username: this.options.credentials.username ?? '',
      password: this.options.credentials.password ?? '',
    });
    if (fresh === null) throw credentialsRefused(400, 'invalid_grant');
    return fresh;
  }

  /** `POST {ENV}/o/token/`, client authenticated with HTTP Basic as the documentation's samples do; null on invalid_grant. */
  private async requestToken(form: Record<string, string>): Promise<HeldToken | null> {
    const basic = Buffer.from(`${this.options.credentials.clientId ?? ''}:${this.options.credentials.clientSecret ?? ''}`).toString('base64');
    const answer = await this.call('POST', '/o/token/', new URLSearchParams(form).toString(), {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
    });
    const refusal = isObject(answer.body) ? (answer.body as Partial<TokenError>) : {};
    if (answer.status === 400 && refusal.error === 'invalid_grant') return null;
    if (answer.status >= 400) throw credentialsRefused(answer.status, typeof refusal.error === 'string' ? refusal.error : null);
    const body = isObject(answer.body) ? (answer.body as Partial<TokenAnswer>) : {};
    if (typeof body.access_token !== 'string' || body.access_token === '') {
      throw new UpstreamUnavailableError('paymob POST o/token/: answer without an access token');
    }
    const seconds = Number(body.expires_in);
    const lifetime = Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TOKEN_SECONDS;
    this.token = {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : null,
      expiresAtMs: this.clock.nowMs() + lifetime * 1000,
    };
    return this.token;
  }

  /** One request; no answer, a 5xx or an unreadable body means the outcome is unknown. */
  private call(method: HttpMethod, path: string, body: string, headers: Record<string, string>): Promise<Answer> {
    return this.http.request({ method, path, body, headers });
  }
}
