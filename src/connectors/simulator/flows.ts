// SimulatorChannel: the Channel (and SandboxPayer) that talks to the bank simulator over real HTTP,
// with keep-alive connections and a deadline per request; verifies and maps its signed callbacks.
import { Pool } from 'undici';
import { systemClock, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Currency, Minor } from '../../core/money.js';
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
  type SandboxPayer,
} from '../channel.js';
import { type StatementFile } from '../statement.js';
import { dayOf } from '../../core/days.js';
import { CALLBACK_TOLERANCE_SECONDS, parseSimulatorCallback } from './notifications.js';
import {
  API_KEY_HEADER,
  refundRefusalReason,
  toCollectionState,
  toCreateCollectionBody,
  toPayoutState,
  toSubmitPayoutBody,
  type CollectionBody,
  type ErrorBody,
  type PayoutBody,
  type RefundResultBody,
  type ResolvedAccountBody,
} from './transformers.js';
import { Deadline } from '../../core/deadline.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
const CONNECTIONS = 16;

export interface SimulatorChannelOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly callbackSecret: string;
  /** Deadline of each request, connection to last body byte (default 10 s). */
  readonly timeoutMs?: number;
  /** Judges callback timestamps; share the simulator's clock. */
  readonly clock?: Clock;
}

/** The simulator refused a request (4xx) that no AppError of the contract describes: a bug or misconfiguration. */
export class SimulatorRejectedError extends Error {
  constructor(
    readonly upstreamStatus: number,
    readonly upstreamError: string,
    message: string,
  ) {
    super(message);
  }
}

interface Answer<T> {
  readonly status: number;
  readonly body: T;
}

const ref = (transactionRef: string): string => encodeURIComponent(transactionRef);

export class SimulatorChannel implements Channel, SandboxPayer {
  readonly name = 'simulator';
  readonly payoutCallbacks = true;
  private readonly pool: Pool;
  private readonly timeoutMs: number;
  private readonly clock: Clock;

  constructor(private readonly options: SimulatorChannelOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // The connect timeout too: undici ends a request still connecting only when its socket connects
    // (or undici's own 10 s connect timeout passes), whatever its signal says meanwhile.
    this.pool = new Pool(new URL(options.baseUrl).origin, { connections: CONNECTIONS, keepAliveTimeout: 30_000, connect: { timeout: this.timeoutMs } });
    this.clock = options.clock ?? systemClock;
  }

  async createCollection(request: CreateCollectionRequest): Promise<Collection> {
    const answer = await this.call<CollectionBody>('POST', '/v1/collections', toCreateCollectionBody(request));
    const collection = this.expectOk(answer, 'create collection');
    return { upstreamRef: collection.upstreamRef, instructions: collection.instructions };
  }

  async queryCollection(transactionRef: string): Promise<CollectionState> {
    const answer = await this.call<CollectionBody>('GET', `/v1/collections/${ref(transactionRef)}`);
    if (answer.status === 404) throw new AppError('NOT_FOUND', `The simulator has no collection ${transactionRef}.`);
    const collection = this.expectOk(answer, 'query collection');
    return toCollectionState(collection);
  }

  async refund(request: RefundRequest): Promise<{ readonly refundRef: string }> {
    const path = `/v1/collections/${ref(request.transactionRef)}/refund`;
    const answer = await this.call<RefundResultBody>('POST', path, { amountMinor: String(request.amountMinor) });
    if (answer.status === 422) {
      const refusal = answer.body as unknown as ErrorBody;
      throw new AppError(refundRefusalReason(refusal), `The upstream refused the refund: ${refusal.message}`);
    }
    return { refundRef: this.expectOk(answer, 'refund').refundRef };
  }

  async submitPayout(submission: PayoutSubmission): Promise<PayoutState> {
    return toPayoutState(this.expectOk(await this.call<PayoutBody>('POST', '/v1/payouts', toSubmitPayoutBody(submission)), 'submit payout'));
  }

  async queryPayout(transactionRef: string): Promise<PayoutState> {
    const answer = await this.call<PayoutBody>('GET', `/v1/payouts/${ref(transactionRef)}`);
    if (answer.status === 404) return { status: 'UNKNOWN' };
    return toPayoutState(this.expectOk(answer, 'query payout'));
  }

  /** Name enquiry at the simulated bank: a name derived from the account, or INVALID_ACCOUNT (accounts ending 0001). */
  async resolveAccount(request: { readonly currency: Currency; readonly method: string; readonly bankCode: string | null; readonly account: string }): Promise<ResolvedAccount> {
    const body = { currency: request.currency, method: request.method, bankCode: request.bankCode, account: request.account };
    const answer = await this.call<ResolvedAccountBody>('POST', '/v1/accounts/resolve', body);
    if (answer.status === 422) {
      const refusal = answer.body as unknown as Partial<ErrorBody>;
      throw new UpstreamRefusedError('INVALID_ACCOUNT', `the simulator knows no such account: ${refusal.message ?? ''}`.trim(), 422, refusal.error ?? null);
    }
    const resolved = this.expectOk(answer, 'resolve the account');
    return { accountName: resolved.accountName, bankCode: resolved.bankCode, account: resolved.account };
  }

  parseCallback(headers: Readonly<Record<string, string | string[] | undefined>>, rawBody: Buffer): ChannelCallback {
    const nowSeconds = Math.floor(this.clock.nowMs() / 1000);
    return parseSimulatorCallback(headers, rawBody, this.options.callbackSecret, nowSeconds, CALLBACK_TOLERANCE_SECONDS);
  }

  /** The payer action at the "bank"; `paidAmountMinor` simulates an under- or overpayment. */
  async completeCollection(transactionRef: string, outcome: 'Success' | 'Failed', options: { readonly paidAmountMinor?: Minor } = {}): Promise<void> {
    const body = options.paidAmountMinor === undefined ? { outcome } : { outcome, paidAmountMinor: String(options.paidAmountMinor) };
    const answer = await this.call<CollectionBody>('POST', `/sim/collections/${ref(transactionRef)}/complete`, body);
    if (answer.status === 404) throw new AppError('NOT_FOUND', `The simulator has no collection ${transactionRef} yet.`);
    if (answer.status === 409) throw new AppError('CONFLICT', `The collection ${transactionRef} is already final at the simulator.`);
    this.expectOk(answer, 'complete collection');
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /** The bank's statement of one UTC day (docs/simulator.md, "Statements"), as the CSV it serves. */
  async fetchStatement(dayStartMs: number): Promise<StatementFile> {
    const fileName = `${dayOf(dayStartMs)}.csv`;
    const answer = await this.send('GET', `/v1/statements/${fileName}`);
    if (answer.status !== 200) throw new UpstreamUnavailableError(`simulator GET /v1/statements/${fileName}: HTTP ${answer.status}`);
    return { fileName: `simulator-${fileName}`, content: answer.text };
  }

  /** One request; a timeout, a broken connection, a 5xx or an unreadable answer means the outcome is unknown. */
  private async call<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<Answer<T>> {
    const { status, text } = await this.send(method, path, body);
    try {
      return { status, body: JSON.parse(text) as T };
    } catch (error) {
      throw new UpstreamUnavailableError(`simulator ${method} ${path}: unreadable answer`, { cause: error });
    }
  }

  private async send(method: 'GET' | 'POST', path: string, body?: object): Promise<{ readonly status: number; readonly text: string }> {
    let status: number;
    let text: string;
    const deadline = new Deadline(this.timeoutMs);
    try {
      const response = await this.pool.request({
        method,
        path,
        headers: { [API_KEY_HEADER]: this.options.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: deadline.signal,
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      const why = deadline.passed ? 'timed out' : describe(error);
      throw new UpstreamUnavailableError(`simulator ${method} ${path}: no answer (${why}; deadline ${this.timeoutMs} ms)`, { cause: error });
    } finally {
      deadline.clear();
    }
    if (status >= 500) throw new UpstreamUnavailableError(`simulator ${method} ${path}: HTTP ${status}`);
    return { status, text };
  }

  private expectOk<T>(answer: Answer<T>, what: string): T {
    if (answer.status === 200) return answer.body;
    const refusal = answer.body as unknown as Partial<ErrorBody>;
    throw new SimulatorRejectedError(
      answer.status,
      refusal.error ?? 'UNKNOWN',
      `simulator refused to ${what}: HTTP ${answer.status} ${refusal.error ?? ''} ${refusal.message ?? ''}`.trim(),
    );
  }
}

const describe = (error: unknown): string => (error instanceof Error ? error.name + ': ' + error.message : String(error));
