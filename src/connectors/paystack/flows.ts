// PaystackChannel: NGN pay-ins by "Pay with Transfer" (a one-time account per charge) and NGN
// payouts by transfer to a NUBAN recipient, over Paystack's REST API with the secret key as a
// bearer token; bank list and account name enquiry; webhook events verified with the same key.
import { AppError } from '../../core/errors.js';
import type { Currency } from '../../core/money.js';
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
  type ResolvedAccount,
  type UpstreamBank,
} from '../channel.js';
import { type StatementFile } from '../statement.js';
import { DAY_MS, dayOf } from '../../core/days.js';
import { JsonClient, withoutQuery, type HttpMethod } from '../http-json.js';
import { parsePaystackEvent } from './notifications.js';
import {
  isDuplicateReference,
  isNotFound,
  refusalReason,
  toCollectionState,
  toKobo,
  toPaystackReference,
  toPayoutState,
  type ChargeData,
  type ChargeRequestBody,
  type Envelope,
  type PaystackBank,
  type RecipientData,
  type RecipientRequestBody,
  type ResolvedAccountData,
  type TransactionData,
  type TransferData,
  type TransferRequestBody,
} from './transformers.js';

const NUBAN = /^\d{10}$/;
const BANK_CODE = /^\d{3,6}$/;
/** The bank list is paged; Nigeria has a few hundred institutions, so this bounds a runaway cursor. */
const MAX_BANK_PAGES = 20;
/** Statement pages: Paystack's largest page, and a bound on a runaway listing (100 000 items a day). */
const STATEMENT_PAGE_SIZE = 100;
const MAX_STATEMENT_PAGES = 1000;

export interface PaystackChannelOptions {
  readonly baseUrl: string;
  readonly secretKey: string;
  readonly timeoutMs: number;
}

interface Answer<T> {
  readonly status: number;
  readonly body: Envelope<T>;
}

interface BankListItem extends PaystackBank {
  readonly active?: boolean;
  readonly is_deleted?: boolean;
}

const path = (value: string): string => encodeURIComponent(value);

export class PaystackChannel implements Channel {
  readonly name = 'paystack';
  readonly payoutCallbacks = true;
  private readonly http: JsonClient;

  constructor(private readonly options: PaystackChannelOptions) {
    this.http = new JsonClient('paystack', options, {
      headers: { authorization: `Bearer ${options.secretKey}` },
      // Rate limited: Paystack did not act on the request, but says nothing final about it either.
      unknownStatuses: [429],
    });
  }

  async createCollection(request: CreateCollectionRequest): Promise<Collection> {
    if (request.currency !== 'NGN' || request.method !== 'TRANSFER') {
      throw new UpstreamRefusedError('UPSTREAM_REJECTED', `Paystack takes NGN TRANSFER pay-ins only, not ${request.currency} ${request.method}`);
    }
    const reference = this.reference(request.transactionRef);
    const amount = toKobo(request.amountMinor);
    if (amount === null) throw new UpstreamRefusedError('UPSTREAM_REJECTED', `amount ${request.amountMinor} kobo cannot be charged`);
    const body: ChargeRequestBody = {
      email: request.payerEmail,
      amount,
      reference,
      currency: 'NGN',
      bank_transfer: { account_expires_at: new Date(request.expiresAtMs).toISOString() },
      metadata: { merchant_id: request.merchantId },
    };
    const answer = await this.call<ChargeData>('POST', '/charge', body);
    if (answer.status === 200 && answer.body.status === true) return this.toCollection(answer.body.data, 'charge');
    // The charge exists (our earlier request got through but its answer was lost): Paystack refuses
    // the reference twice, so the one charge it has is looked up and shown again.
    if (answer.status === 400 && isDuplicateReference(answer.body)) {
      const existing = await this.call<ChargeData>('GET', `/charge/${path(reference)}`);
      if (existing.status === 200 && existing.body.status === true) return this.toCollection(existing.body.data, 'charge check');
      throw this.refusal(existing, 'check the existing charge');
    }
    throw this.refusal(answer, 'create the charge');
  }

  async queryCollection(transactionRef: string, upstreamRef?: string | null): Promise<CollectionState> {
    const reference = upstreamRef ?? this.reference(transactionRef);
    const answer = await this.call<TransactionData>('GET', `/transaction/verify/${path(reference)}`);
    if (isNotFound(answer.status, answer.body)) throw new AppError('NOT_FOUND', `Paystack has no transaction ${reference}.`);
    if (answer.status !== 200 || answer.body.status !== true) throw this.refusal(answer, 'verify the transaction');
    const transaction = answer.body.data;
    const state = transaction === undefined ? null : toCollectionState(transaction);
    if (state === null) throw new UpstreamUnavailableError(`paystack verify ${reference}: unreadable transaction status`);
    return state;
  }

  /** Paystack cannot send a bank-transfer payment back through its refund API here (the scope). */
  refund(): Promise<{ readonly refundRef: string }> {
    return Promise.reject(new UpstreamRefusedError('PAYMENT_NOT_REFUNDABLE', 'NGN TRANSFER payments through Paystack are not refundable upstream'));
  }

  async submitPayout(submission: PayoutSubmission): Promise<PayoutState> {
    // The contract also lets NGN bank payouts be called TRANSFER (the original interface's name).
    if (submission.currency !== 'NGN' || (submission.method !== 'BANK' && submission.method !== 'TRANSFER')) {
      throw new UpstreamRefusedError('UPSTREAM_REJECTED', `Paystack sends NGN BANK payouts only, not ${submission.currency} ${submission.method}`);
    }
    if (submission.bankCode === null || !BANK_CODE.test(submission.bankCode)) throw new UpstreamRefusedError('INVALID_ACCOUNT', 'a Nigerian bank code is required');
    if (!NUBAN.test(submission.account)) throw new UpstreamRefusedError('INVALID_ACCOUNT', 'the account is not a 10-digit NUBAN');
    const reference = this.reference(submission.transactionRef);
    const amount = toKobo(submission.amountMinor);
    if (amount === null) throw new UpstreamRefusedError('UPSTREAM_REJECTED', `amount ${submission.amountMinor} kobo cannot be sent`);

    // Paystack answers a recipient for the same account with the existing record, so a
    // resubmission makes no second recipient.
    const recipientBody: RecipientRequestBody = {
      type: 'nuban',
      name: submission.name,
      account_number: submission.account,
      bank_code: submission.bankCode,
      currency: 'NGN',
    };
    const recipient = await this.call<RecipientData>('POST', '/transferrecipient', recipientBody);
    const recipientCode = recipient.body.data?.recipient_code;
    if ((recipient.status !== 200 && recipient.status !== 201) || recipient.body.status !== true || typeof recipientCode !== 'string') {
      throw this.refusal(recipient, 'create the transfer recipient');
    }

    const transferBody: TransferRequestBody = {
      source: 'balance',
      amount,
      recipient: recipientCode,
      reference,
      reason: `Payout ${submission.transactionRef}`,
      currency: 'NGN',
    };
    const answer = await this.call<TransferData>('POST', '/transfer', transferBody);
    if (answer.status === 200 && answer.body.status === true) return this.toPayout(answer.body.data, 'transfer');
    // The reference was used before: the transfer exists, so its state is the answer.
    if (answer.status === 400 && isDuplicateReference(answer.body)) {
      const known = await this.queryPayout(submission.transactionRef);
      if (known.status !== 'UNKNOWN') return known;
    }
    throw this.refusal(answer, 'initiate the transfer');
  }

  async queryPayout(transactionRef: string): Promise<PayoutState> {
    const reference = toPaystackReference(transactionRef);
    if (reference === null) return { status: 'UNKNOWN' };
    const answer = await this.call<TransferData>('GET', `/transfer/verify/${path(reference)}`);
    if (isNotFound(answer.status, answer.body)) return { status: 'UNKNOWN' };
    if (answer.status !== 200 || answer.body.status !== true) throw this.refusal(answer, 'verify the transfer');
    return this.toPayout(answer.body.data, 'transfer verify');
  }

  parseCallback(headers: Readonly<Record<string, string | string[] | undefined>>, rawBody: Buffer): ChannelCallback {
    return parsePaystackEvent(headers, rawBody, this.options.secretKey);
  }

  async listBanks(currency: Currency): Promise<readonly UpstreamBank[]> {
    if (currency !== 'NGN') return [];
    const banks: UpstreamBank[] = [];
    let next: string | null = null;
    for (let page = 0; page < MAX_BANK_PAGES; page += 1) {
      const query = new URLSearchParams({ country: 'nigeria', currency: 'NGN', use_cursor: 'true', perPage: '100' });
      if (next !== null) query.set('next', next);
      const answer: Answer<BankListItem[]> = await this.call<BankListItem[]>('GET', `/bank?${query}`);
      if (answer.status !== 200 || answer.body.status !== true || !Array.isArray(answer.body.data)) throw this.refusal(answer, 'list banks');
      for (const bank of answer.body.data) {
        if (typeof bank.code === 'string' && bank.code !== '' && bank.active !== false && bank.is_deleted !== true) banks.push({ code: bank.code, name: bank.name });
      }
      next = answer.body.meta?.next ?? null;
      if (next === null || next === '') break;
    }
    return banks;
  }

  async resolveAccount(request: { readonly currency: Currency; readonly method: string; readonly bankCode: string | null; readonly account: string }): Promise<ResolvedAccount> {
    if (request.currency !== 'NGN' || request.bankCode === null || !BANK_CODE.test(request.bankCode) || !NUBAN.test(request.account)) {
      throw new UpstreamRefusedError('INVALID_ACCOUNT', 'Paystack resolves 10-digit NUBANs with a Nigerian bank code only');
    }
    const query = new URLSearchParams({ account_number: request.account, bank_code: request.bankCode });
    const answer = await this.call<ResolvedAccountData>('GET', `/bank/resolve?${query}`);
    const data = answer.body.data;
    if (answer.status === 200 && answer.body.status === true && typeof data?.account_name === 'string') {
      return { accountName: data.account_name, bankCode: request.bankCode, account: request.account };
    }
    // Any refusal of a name enquiry means there is no such account to pay (other than bad credentials).
    const refusal = this.refusal(answer, 'resolve the account');
    if (refusal.failureReason === 'UPSTREAM_REJECTED' && answer.status !== 401 && answer.status !== 403) {
      throw new UpstreamRefusedError('INVALID_ACCOUNT', refusal.message, refusal.upstreamStatus, refusal.upstreamCode);
    }
    throw refusal;
  }

  /**
   * The day's statement (statement.ts): every transaction and transfer created in the UTC day, paged
   * through List Transactions and List Transfers, as the JSON document the statement format reads.
   */
  async fetchStatement(dayStartMs: number): Promise<StatementFile> {
    const from = new Date(dayStartMs).toISOString();
    const to = new Date(dayStartMs + DAY_MS - 1).toISOString();
    const transactions = await this.listAll('/transaction', from, to, 'list transactions');
    const transfers = await this.listAll('/transfer', from, to, 'list transfers');
    return { fileName: `paystack-${dayOf(dayStartMs)}.json`, content: JSON.stringify({ transactions, transfers }) };
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  /** Every item of a paged list between two times (Paystack pages with page/perPage and answers meta.pageCount). */
  private async listAll(route: string, from: string, to: string, what: string): Promise<unknown[]> {
    const items: unknown[] = [];
    for (let page = 1; page <= MAX_STATEMENT_PAGES; page += 1) {
      const query = new URLSearchParams({ from, to, perPage: String(STATEMENT_PAGE_SIZE), page: String(page) });
      const answer = await this.call<unknown[]>('GET', `${route}?${query}`);
      if (answer.status !== 200 || answer.body.status !== true || !Array.isArray(answer.body.data)) throw this.refusal(answer, what);
      items.push(...answer.body.data);
      const pageCount = answer.body.meta?.pageCount;
      if (answer.body.data.length < STATEMENT_PAGE_SIZE || (typeof pageCount === 'number' && page >= pageCount)) return items;
    }
    throw new UpstreamUnavailableError(`paystack ${what}: more than ${MAX_STATEMENT_PAGES} pages in one day`);
  }

  private reference(transactionRef: string): string {
    const reference = toPaystackReference(transactionRef);
    if (reference === null) throw new UpstreamRefusedError('UPSTREAM_REJECTED', 'the transaction reference cannot be expressed as a Paystack reference');
    return reference;
  }

  private toCollection(data: ChargeData | undefined, what: string): Collection {
    if (data?.status === 'pending_bank_transfer' && typeof data.account_number === 'string' && data.account_number !== '') {
      return {
        upstreamRef: data.reference,
        instructions: {
          kind: 'VIRTUAL_ACCOUNT',
          accountNumber: data.account_number,
          bankName: data.bank?.name ?? '',
          ...(typeof data.account_name === 'string' ? { accountName: data.account_name } : {}),
        },
      };
    }
    if (data !== undefined && typeof data.status === 'string' && data.status !== 'pending_bank_transfer') {
      throw new UpstreamRefusedError('UPSTREAM_REJECTED', `Paystack ${what} answered status ${data.status}, not an account to pay`, 200, data.status);
    }
    throw new UpstreamUnavailableError(`paystack ${what}: answer without account details`);
  }

  private toPayout(data: TransferData | undefined, what: string): PayoutState {
    const state = data === undefined ? null : toPayoutState(data);
    if (state === null) throw new UpstreamUnavailableError(`paystack ${what}: unreadable transfer status`);
    return state;
  }

  /** A definitive refusal: credentials, or the mapped reason of Paystack's message and code. */
  private refusal(answer: Answer<unknown>, what: string): UpstreamRefusedError {
    const message = answer.body.message ?? '';
    if (answer.status === 401 || answer.status === 403) {
      return new UpstreamRefusedError('UPSTREAM_REJECTED', `credentials refused by Paystack (HTTP ${answer.status}) to ${what}`, answer.status, answer.body.code ?? null);
    }
    return new UpstreamRefusedError(refusalReason(answer.body), `Paystack refused to ${what}: HTTP ${answer.status} ${message}`.trim(), answer.status, answer.body.code ?? null);
  }

  /** One request; a timeout, a broken connection, a 5xx, a 429, an unreadable answer or one without Paystack's envelope leaves the outcome unknown. */
  private async call<T>(method: HttpMethod, route: string, body?: object): Promise<Answer<T>> {
    const answer = await this.http.request({ method, path: route, body });
    const parsed = answer.body;
    if (parsed === null || typeof parsed !== 'object' || typeof (parsed as { status?: unknown }).status !== 'boolean') {
      throw new UpstreamUnavailableError(`paystack ${method} ${withoutQuery(route)}: answer is not a Paystack envelope (HTTP ${answer.status})`);
    }
    return { status: answer.status, body: parsed as Envelope<T> };
  }
}
