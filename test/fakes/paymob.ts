// A fake of Paymob's Payouts (disbursement) API as a real HTTP server on 127.0.0.1: the OAuth2 token
// endpoint (password and refresh grants, client authenticated with HTTP Basic), instant cash-in and
// the transaction inquiry, under the documented {ENV} prefix /api/secure, answering in the shapes of
// test/fixtures/connectors/paymob/*.json. Paymob documents no payout notifications, so the fake sends
// none; `callbackUrl` is kept settable only so an end-to-end test can be written the same way as for
// the other connectors. Test controls are plain methods.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { clientReferenceId } from '../../src/connectors/paymob/transformers.js';

const FIXTURES = path.resolve(__dirname, '../fixtures/connectors/paymob');
export const paymobFixture = <T = Record<string, unknown>>(name: string): T =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as T;

export const BASE_PATH = '/api/secure';

export interface PaymobFakeOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly username: string;
  readonly password: string;
  /** Lifetime of access tokens the fake issues (the documentation: 3600 s). */
  readonly tokenSeconds?: number;
}

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly rawBody: string;
}

/** A fault for the next request to a path: a fixed answer, no answer at all, or the work done and the answer lost. */
export type FakeAnswer = { readonly status: number; readonly body: unknown } | 'hang' | 'drop';

export interface Outcome {
  readonly status: 'successful' | 'pending' | 'failed';
  readonly code: string;
}

export interface FakeTransaction {
  readonly transaction_id: string;
  readonly issuer: string;
  readonly amount: number;
  /** The amount exactly as it arrived in the JSON text. */
  readonly amountText: string;
  readonly msisdn: string | null;
  readonly bank_card_number: string | null;
  readonly bank_code: string | null;
  readonly bank_transaction_type: string | null;
  readonly full_name: string;
  readonly client_reference_id: string | null;
  disbursement_status: string;
  status_code: string;
  status_description: string;
  readonly created_at: string;
  updated_at: string;
}

/** Descriptions the fake gives per code; Paymob's wording differs, the codes are what the connector reads. */
const DESCRIPTIONS: Record<string, string> = {
  '200': 'Transaction received and validated successfully. Dispatched for being processed by the issuer',
  '8000': 'Transaction received and validated successfully, dispatched for being processed by the bank',
  '618': 'Receiving mobile number is not registered as a wallet holder',
  '4055': 'Receiving wallet does not exist',
  '6005': 'Insufficient balance',
  '6061': 'Transaction exceeds the daily limit',
  '583': 'Transaction exceeds the allowed limit',
  '000105': 'Bank account is not valid',
};

const ISSUERS = ['vodafone', 'etisalat', 'orange', 'aman', 'bank_wallet', 'bank_card', 'instant_bank'];
const BANK_CODES = new Set(['AUB', 'MIDB', 'BDC', 'HSBC', 'CAE', 'EGB', 'UB', 'QNB', 'ARAB', 'ENBD', 'ABK', 'NBK', 'ABC', 'FAB', 'ADIB', 'CIB', 'HDB', 'MISR', 'AAIB', 'EALB', 'EDBE', 'FAIB', 'BLOM', 'ADCB', 'BOA', 'SAIB', 'NBE', 'ABRK', 'POST', 'NSB', 'IDB', 'SCB', 'MASH', 'AIB', 'GASC', 'ARIB', 'PDAC', 'NBG', 'CBE', 'BBE']);
const AMOUNT_LITERAL = /"amount"\s*:\s*(-?\d+(?:\.\d+)?)/;

export class PaymobFake {
  readonly requests: LoggedRequest[] = [];
  readonly transactions = new Map<string, FakeTransaction>();
  /** Where notifications would go; Paymob documents none, so nothing is ever sent there. */
  callbackUrl: string | null = null;
  private readonly faults = new Map<string, FakeAnswer[]>();
  private readonly programmed = new Map<string, Outcome[]>();
  private readonly accessTokens = new Map<string, number>();
  private readonly refreshTokens = new Set<string>();
  private readonly hanging: http.ServerResponse[] = [];

  private constructor(
    private readonly server: http.Server,
    private readonly options: PaymobFakeOptions,
  ) {}

  static async start(options: PaymobFakeOptions): Promise<PaymobFake> {
    const server = http.createServer();
    const fake = new PaymobFake(server, options);
    server.on('request', (req, res) => void fake.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** {ENV} of the fake: give this to the connector as its baseUrl. */
  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}${BASE_PATH}`;
  }

  /** The next request to `apiPath` (e.g. '/disburse/') meets this fault instead of the normal answer. */
  nextAnswer(apiPath: string, answer: FakeAnswer): void {
    const queue = this.faults.get(apiPath) ?? [];
    queue.push(answer);
    this.faults.set(apiPath, queue);
  }

  /** The next disbursement to this msisdn or bank account ends this way at once. */
  programme(account: string, outcome: Outcome): void {
    const queue = this.programmed.get(account) ?? [];
    queue.push(outcome);
    this.programmed.set(account, queue);
  }

  /** The payout we sent for `transactionRef` (found by the client_reference_id derived from it). */
  payoutFor(transactionRef: string): FakeTransaction | undefined {
    const reference = clientReferenceId(transactionRef);
    return [...this.transactions.values()].find((t) => t.client_reference_id === reference);
  }

  /** The bank (or issuer) settles a pending payout. */
  completePayout(transactionRef: string): void {
    this.finish(transactionRef, 'successful', '200');
  }

  /** The bank (or issuer) refuses a pending payout with a documented code. */
  failPayout(transactionRef: string, code: string): void {
    this.finish(transactionRef, 'failed', code);
  }

  /** Every access token stops working (as after a revocation): the next call gets 401. */
  revokeAccessTokens(): void {
    this.accessTokens.clear();
  }

  requestsTo(apiPath: string): LoggedRequest[] {
    return this.requests.filter((r) => r.path.split('?')[0] === BASE_PATH + apiPath);
  }

  async close(): Promise<void> {
    for (const res of this.hanging.splice(0)) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private finish(transactionRef: string, status: string, code: string): void {
    const payout = this.payoutFor(transactionRef);
    if (payout === undefined) throw new Error(`the fake has no payout for ${transactionRef}`);
    payout.disbursement_status = status;
    payout.status_code = code;
    payout.status_description = DESCRIPTIONS[code] ?? 'Transaction failed';
    payout.updated_at = new Date().toISOString();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const fullPath = req.url ?? '/';
    this.requests.push({ method: req.method ?? '', path: fullPath, headers: req.headers, rawBody });
    const apiPath = fullPath.split('?')[0]!.slice(BASE_PATH.length);

    const fault = this.faults.get(apiPath)?.shift();
    if (fault === 'hang') {
      this.hanging.push(res);
      return;
    }
    if (fault !== undefined && fault !== 'drop') return send(res, fault.status, fault.body);

    const answer = this.route(req.method ?? '', apiPath, req.headers, rawBody);
    if (fault === 'drop') {
      this.hanging.push(res);
      return;
    }
    send(res, answer.status, answer.body);
  }

  private route(method: string, apiPath: string, headers: http.IncomingHttpHeaders, rawBody: string): { status: number; body: unknown } {
    if (!fullPathKnown(apiPath)) return { status: 404, body: { detail: 'Not found.' } };
    if (apiPath === '/o/token/') return method === 'POST' ? this.token(headers, rawBody) : notAllowed(method);
    if (!this.authenticated(headers)) return { status: 401, body: paymobFixture('unauthenticated') };
    if (apiPath === '/disburse/') return method === 'POST' ? this.disburse(rawBody) : notAllowed(method);
    return method === 'GET' ? this.inquire(rawBody) : notAllowed(method);
  }

  /** OAuth2 token endpoint: client by HTTP Basic (or client_id/client_secret fields), then the grant. */
  private token(headers: http.IncomingHttpHeaders, rawBody: string): { status: number; body: unknown } {
    const form = new URLSearchParams(rawBody);
    let clientId = form.get('client_id');
    let clientSecret = form.get('client_secret');
    const basic = /^Basic (.+)$/.exec(headers.authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      clientId = decoded.slice(0, colon);
      clientSecret = decoded.slice(colon + 1);
    }
    if (clientId !== this.options.clientId || clientSecret !== this.options.clientSecret) {
      return { status: 401, body: paymobFixture('token-invalid-client') };
    }
    const grant = form.get('grant_type');
    if (grant === 'password') {
      if (form.get('username') !== this.options.username || form.get('password') !== this.options.password) {
        return { status: 400, body: paymobFixture('token-invalid-grant') };
      }
      return { status: 200, body: this.issueToken() };
    }
    if (grant === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? '';
      // A refresh token lasts until it is used once.
      if (!this.refreshTokens.delete(refresh)) return { status: 400, body: paymobFixture('token-invalid-grant') };
      return { status: 200, body: this.issueToken() };
    }
    return { status: 400, body: { error: 'unsupported_grant_type' } };
  }

  private issueToken(): Record<string, unknown> {
    const seconds = this.options.tokenSeconds ?? 3600;
    const access = randomUUID().replace(/-/g, '').slice(0, 30);
    const refresh = randomUUID().replace(/-/g, '').slice(0, 30);
    this.accessTokens.set(access, Date.now() + seconds * 1000);
    this.refreshTokens.add(refresh);
    return { ...paymobFixture('token-answer'), access_token: access, refresh_token: refresh, expires_in: seconds };
  }

  private authenticated(headers: http.IncomingHttpHeaders): boolean {
    const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '');
    const expiresAt = bearer ? this.accessTokens.get(bearer[1]!) : undefined;
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  private disburse(rawBody: string): { status: number; body: unknown } {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody) as Record<string, unknown>;
    } catch {
      return { status: 400, body: { status_code: '400', status_description: 'JSON parse error' } };
    }
    const problems: Record<string, string[]> = {};
    const amountText = AMOUNT_LITERAL.exec(rawBody)?.[1];
    if (typeof body.amount !== 'number' || amountText === undefined || !/^\d+(\.\d{1,2})?$/.test(amountText) || body.amount <= 0) {
      problems.amount = ['A positive number with at most 2 decimal places is required.'];
    }
    const issuer = typeof body.issuer === 'string' ? body.issuer.toLowerCase() : '';
    if (!ISSUERS.includes(issuer)) problems.issuer = ['Not a valid issuer.'];
    const isBank = issuer === 'bank_card' || issuer === 'instant_bank';
    if (!isBank && !(typeof body.msisdn === 'string' && /^01\d{9}$/.test(body.msisdn))) problems.msisdn = ['Phone number is not valid.'];
    if (isBank) {
      if (typeof body.bank_card_number !== 'string' || body.bank_card_number === '') problems.bank_card_number = ['This field is required.'];
      if (typeof body.bank_code !== 'string' || !BANK_CODES.has(body.bank_code)) problems.bank_code = ['Not a valid bank code.'];
      if (typeof body.full_name !== 'string' || body.full_name === '') problems.full_name = ['This field is required.'];
      if (issuer === 'bank_card' && !['salary', 'credit_card', 'prepaid_card', 'cash_transfer'].includes(String(body.bank_transaction_type).toLowerCase())) {
        problems.bank_transaction_type = ['Not a valid transaction type.'];
      }
    }
    const reference = body.client_reference_id;
    if (reference !== undefined && !(typeof reference === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(reference))) {
      problems.client_reference_id = ['Must be a valid UUID4.'];
    }
    if (Object.keys(problems).length > 0) return { status: 400, body: { ...paymobFixture<Record<string, unknown>>('disburse-validation-error'), status_description: problems } };

    const account = isBank ? String(body.bank_card_number) : String(body.msisdn);
    const outcome = this.programmed.get(account)?.shift() ?? (isBank ? { status: 'pending', code: '8000' } : { status: 'successful', code: '200' });
    const now = new Date().toISOString();
    const transaction: FakeTransaction = {
      transaction_id: randomUUID(),
      issuer,
      amount: body.amount as number,
      amountText: amountText!,
      msisdn: isBank ? null : String(body.msisdn),
      bank_card_number: isBank ? String(body.bank_card_number) : null,
      bank_code: isBank ? String(body.bank_code) : null,
      bank_transaction_type: isBank ? String(body.bank_transaction_type) : null,
      full_name: typeof body.full_name === 'string' ? body.full_name : '',
      client_reference_id: typeof reference === 'string' ? reference : null,
      disbursement_status: outcome.status,
      status_code: outcome.code,
      status_description: DESCRIPTIONS[outcome.code] ?? 'Transaction failed',
      created_at: now,
      updated_at: now,
    };
    this.transactions.set(transaction.transaction_id, transaction);
    // Paymob answers a disbursement it recorded with 200, failed ones included (the failure is in the body).
    return { status: 200, body: this.present(transaction) };
  }

  /** Bulk transaction inquiry: JSON body with the ids (transaction ids or client reference ids) and the bank flag. */
  private inquire(rawBody: string): { status: number; body: unknown } {
    let body: { transactions_ids_list?: unknown; bank_transactions?: unknown };
    try {
      body = JSON.parse(rawBody) as typeof body;
    } catch {
      return { status: 400, body: { status_code: '400', status_description: 'JSON parse error' } };
    }
    if (!Array.isArray(body.transactions_ids_list)) {
      return { status: 400, body: { status_code: '400', status_description: { transactions_ids_list: ['This field is required.'] } } };
    }
    const ids = new Set(body.transactions_ids_list.map(String));
    const bank = body.bank_transactions === true;
    const results = [...this.transactions.values()]
      .filter((t) => (t.issuer === 'bank_card' || t.issuer === 'instant_bank') === bank)
      .filter((t) => ids.has(t.transaction_id) || (t.client_reference_id !== null && ids.has(t.client_reference_id)))
      .map((t) => this.present(t));
    return { status: 200, body: { ...paymobFixture<Record<string, unknown>>('inquiry-answer'), count: results.length, results } };
  }

  private present(t: FakeTransaction): Record<string, unknown> {
    const template = paymobFixture(t.bank_code === null ? 'disburse-wallet-successful' : 'disburse-bank-pending');
    const { amountText: _text, ...wire } = t;
    const fields = t.bank_code === null ? { ...wire, bank_card_number: undefined, bank_code: undefined, bank_transaction_type: undefined } : { ...wire, msisdn: undefined };
    return { ...template, ...fields, paid: t.disbursement_status === 'successful' };
  }
}

const fullPathKnown = (apiPath: string): boolean => ['/o/token/', '/disburse/', '/transaction/inquire/'].includes(apiPath);

const notAllowed = (method: string): { status: number; body: unknown } => ({ status: 405, body: { detail: `Method "${method}" not allowed.` } });

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(text);
}
