// A protocol-faithful fake of the Razorpay API paths the razorpay connector uses, as a real HTTP
// server on 127.0.0.1: UPI QR codes and their payments, refunds (X-Refund-Idempotency), RazorpayX
// composite payouts (X-Payout-Idempotency, reference_id lookup), HTTP Basic authentication with
// Razorpay's 401 body, and webhooks signed as Razorpay signs them (hex HMAC-SHA256 of the body).
// Start it once per test file; tests drive it with plain methods (pay, completePayout, ...).
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import badCredentials from '../fixtures/connectors/razorpay/error-bad-credentials.json' with { type: 'json' };
import idempotencyMissing from '../fixtures/connectors/razorpay/error-idempotency-missing.json' with { type: 'json' };
import paymentSample from '../fixtures/connectors/razorpay/payment.json' with { type: 'json' };
import payoutSample from '../fixtures/connectors/razorpay/payout.json' with { type: 'json' };
import qrSample from '../fixtures/connectors/razorpay/qr-code.json' with { type: 'json' };
import refundSample from '../fixtures/connectors/razorpay/refund.json' with { type: 'json' };

type Json = Record<string, unknown>;

export interface FakeRazorpayOptions {
  readonly keyId?: string;
  readonly keySecret?: string;
  readonly webhookSecret?: string;
  readonly accountNumber?: string;
  /** false: the account lacks the image-content feature, so QR codes carry only image_url. */
  readonly imageContent?: boolean;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Json | null;
}

export interface SentWebhook {
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** 'hang': never answers (nothing done); 'lost': does the work, then never answers; 'garbage': a cut-off body. */
export type FaultAnswer = { readonly status: number; readonly body: unknown } | 'hang' | 'lost' | 'garbage';

interface StoredPayout {
  payout: Json;
  readonly idempotencyKey: string;
  readonly requestBody: string;
}

const errorBody = (description: string, extra: Json = {}): Json => ({
  error: { code: 'BAD_REQUEST_ERROR', description, source: 'business', step: 'NA', reason: 'input_validation_failed', metadata: {}, ...extra },
});

const clone = <T>(value: T): T => structuredClone(value);

let sequence = 0;
const newId = (prefix: string): string => `${prefix}_Fk${(++sequence).toString(36).padStart(12, '0')}`;

export class FakeRazorpay {
  readonly keyId: string;
  readonly keySecret: string;
  readonly webhookSecret: string;
  readonly accountNumber: string;
  readonly requests: RecordedRequest[] = [];
  readonly webhooks: SentWebhook[] = [];
  private readonly server: http.Server;
  private readonly qrCodes: Json[] = [];
  private readonly paymentsByQr = new Map<string, Json[]>();
  private readonly refundsByKey = new Map<string, Json>();
  private readonly refunds: Json[] = [];
  private readonly payouts: StoredPayout[] = [];
  private readonly faults: { prefix: string; answer: FaultAnswer; method?: string }[] = [];
  private readonly hung = new Set<http.ServerResponse>();
  private readonly holders = new Map<string, string>();
  private readonly validations = new Map<string, { entity: Json; pendingFetches: number; holder: string | null }>();
  /** How many fetches an account validation stays `created` for before it completes. */
  validationPendingFetches = 1;
  private callbackUrl: string | null = null;
  private imageContent: boolean;
  url = '';

  constructor(options: FakeRazorpayOptions = {}) {
    this.keyId = options.keyId ?? 'rzp_test_FakeKey0001';
    this.keySecret = options.keySecret ?? randomBytes(12).toString('hex');
    this.webhookSecret = options.webhookSecret ?? randomBytes(16).toString('hex');
    this.accountNumber = options.accountNumber ?? '7878780080316316';
    this.imageContent = options.imageContent ?? true;
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const res of this.hung) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Where webhooks are POSTed; null keeps them only in `webhooks`. */
  setCallbackUrl(url: string | null): void {
    this.callbackUrl = url;
  }

  setImageContent(on: boolean): void {
    this.imageContent = on;
  }

  /** The next request whose path starts with `prefix` (and method, when given) gets this answer instead. */
  nextAnswer(prefix: string, answer: FaultAnswer, method?: string): void {
    this.faults.push({ prefix, answer, ...(method === undefined ? {} : { method }) });
  }

  countRequests(method: string, pathPrefix: string): number {
    return this.requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix)).length;
  }

  qrCodeFor(transactionRef: string): Json | undefined {
    return this.qrCodes.find((qr) => (qr.notes as Json | undefined)?.paygate_ref === transactionRef);
  }

  payoutFor(transactionRef: string): Json | undefined {
    return this.payouts.find((p) => (p.payout.notes as Json).paygate_ref === transactionRef)?.payout;
  }

  get payoutCount(): number {
    return this.payouts.length;
  }

  /** Registers the holder of a bank account (with its IFSC) or a VPA (bankCode null) for account validation. */
  setAccountHolder(bankCode: string | null, account: string, name: string): void {
    this.holders.set(`${bankCode ?? 'vpa'}|${account}`, name);
  }

  /** The payer pays the QR code of `transactionRef` (another sum than asked if given): captured, closed, webhook sent. */
  async pay(transactionRef: string, options: { readonly amountMinor?: bigint } = {}): Promise<SentWebhook> {
    const qr = this.qrCodeFor(transactionRef);
    if (!qr) throw new Error(`fake razorpay: no QR code for ${transactionRef}`);
    const amount = options.amountMinor === undefined ? (qr.payment_amount as number) : Number(options.amountMinor);
    const payment = { ...clone(paymentSample), id: newId('pay'), amount, notes: clone(qr.notes), created_at: now() };
    this.paymentsByQr.get(qr.id as string)!.push(payment);
    Object.assign(qr, {
      payments_amount_received: (qr.payments_amount_received as number) + amount,
      payments_count_received: (qr.payments_count_received as number) + 1,
      status: 'closed',
      closed_at: now(),
      close_reason: 'paid',
    });
    return this.sendEvent('qr_code.credited', { payment: { entity: payment }, qr_code: { entity: clone(qr) } }, ['payment', 'qr_code']);
  }

  /** The QR code closes unpaid (on demand, or its close_by passed). */
  closeQrCode(transactionRef: string): void {
    const qr = this.qrCodeFor(transactionRef);
    if (!qr) throw new Error(`fake razorpay: no QR code for ${transactionRef}`);
    Object.assign(qr, { status: 'closed', closed_at: now(), close_reason: 'on_demand' });
  }

  /** Moves the payout of `transactionRef` to `status` with these status_details, and sends its webhook. */
  async setPayoutStatus(transactionRef: string, status: string, details: { reason: string; description?: string; source?: string } | null = null, utr: string | null = null): Promise<SentWebhook> {
    const payout = this.payoutFor(transactionRef);
    if (!payout) throw new Error(`fake razorpay: no payout for ${transactionRef}`);
    Object.assign(payout, {
      status,
      utr: utr ?? payout.utr,
      status_details: details === null ? null : { reason: details.reason, description: details.description ?? details.reason, source: details.source ?? 'beneficiary_bank' },
    });
    // Razorpay has an event per state except these: a cancellation arrives as payout.updated.
    const event = status === 'processing' ? 'payout.initiated' : status === 'cancelled' || status === 'scheduled' ? 'payout.updated' : `payout.${status}`;
    return this.sendEvent(event, { payout: { entity: clone(payout) } }, ['payout']);
  }

  completePayout(transactionRef: string, utr = '523223155921'): Promise<SentWebhook> {
    return this.setPayoutStatus(transactionRef, 'processed', { reason: 'payout_processed' }, utr);
  }

  failPayout(transactionRef: string, reason: string, status: 'failed' | 'reversed' = 'failed'): Promise<SentWebhook> {
    return this.setPayoutStatus(transactionRef, status, { reason });
  }

  /** Signs `body` as Razorpay does and POSTs it to the callback URL (when set); returns what was sent. */
  async sendRaw(body: Buffer): Promise<SentWebhook> {
    const headers = {
      'content-type': 'application/json',
      'x-razorpay-signature': createHmac('sha256', this.webhookSecret).update(body).digest('hex'),
      'x-razorpay-event-id': randomBytes(8).toString('hex'),
    };
    const sent = { headers, body };
    this.webhooks.push(sent);
    if (this.callbackUrl !== null) {
      const answer = await fetch(this.callbackUrl, { method: 'POST', headers, body: new Uint8Array(body), signal: AbortSignal.timeout(5_000) });
      await answer.body?.cancel();
    }
    return sent;
  }

  private sendEvent(event: string, payload: Json, contains: string[]): Promise<SentWebhook> {
    const body = { entity: 'event', account_id: 'acc_FakeAccount001', event, contains, payload, created_at: now() };
    return this.sendRaw(Buffer.from(JSON.stringify(body)));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: Json | null = null;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw) as Json;
      } catch {
        return send(res, 400, errorBody('The request body is not valid JSON'));
      }
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    this.requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body });

    let answerTo = res;
    const faultIndex = this.faults.findIndex((f) => url.pathname.startsWith(f.prefix) && (f.method === undefined || f.method === req.method));
    if (faultIndex >= 0) {
      const [fault] = this.faults.splice(faultIndex, 1);
      if (fault!.answer === 'hang') {
        this.hung.add(res);
        return;
      }
      if (fault!.answer === 'lost') {
        this.hung.add(res);
        answerTo = { writeHead: () => undefined, end: () => undefined } as unknown as http.ServerResponse;
      } else if (fault!.answer === 'garbage') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id": "qr_');
        return;
      } else {
        return send(res, fault!.answer.status, fault!.answer.body);
      }
    }

    if (!this.authorized(req.headers.authorization)) return send(answerTo, 401, badCredentials);
    try {
      return this.route(req.method ?? '', url, body, raw, req.headers, answerTo);
    } catch (error) {
      return send(answerTo, 500, { error: { code: 'SERVER_ERROR', description: String(error), source: 'internal', step: 'NA', reason: 'server_error', metadata: {} } });
    }
  }

  private authorized(header: string | undefined): boolean {
    if (!header?.startsWith('Basic ')) return false;
    return Buffer.from(header.slice(6), 'base64').toString('utf8') === `${this.keyId}:${this.keySecret}`;
  }

  private route(method: string, url: URL, body: Json | null, raw: string, headers: http.IncomingHttpHeaders, res: http.ServerResponse): void {
    const path = url.pathname;
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/payments/qr_codes') return this.createQr(body ?? {}, res);
    if (method === 'GET' && path === '/v1/payments/qr_codes') {
      const from = Number(url.searchParams.get('from') ?? 0);
      const count = Math.min(Number(url.searchParams.get('count') ?? 10), 100);
      const skip = Number(url.searchParams.get('skip') ?? 0);
      const items = this.qrCodes.filter((qr) => (qr.created_at as number) >= from).reverse().slice(skip, skip + count);
      return send(res, 200, { entity: 'collection', count: items.length, items });
    }
    if (method === 'GET' && (match = /^\/v1\/payments\/qr_codes\/([^/]+)\/payments$/.exec(path))) {
      const payments = this.paymentsByQr.get(decodeURIComponent(match[1]!));
      if (!payments) return send(res, 400, errorBody('The id provided does not exist'));
      return send(res, 200, { entity: 'collection', count: payments.length, items: payments });
    }
    if (method === 'GET' && (match = /^\/v1\/payments\/qr_codes\/([^/]+)$/.exec(path))) {
      const qr = this.qrCodes.find((q) => q.id === decodeURIComponent(match![1]!));
      return qr ? send(res, 200, qr) : send(res, 400, errorBody('The id provided does not exist'));
    }
    if (method === 'POST' && (match = /^\/v1\/payments\/([^/]+)\/refund$/.exec(path))) {
      return this.refund(decodeURIComponent(match[1]!), body ?? {}, headers, res);
    }
    if (method === 'GET' && path === '/v1/settlements/recon/combined') return this.recon(url.searchParams, res);
    if (method === 'POST' && path === '/v1/fund_accounts/validations') return this.createValidation(body ?? {}, res);
    if (method === 'GET' && (match = /^\/v1\/fund_accounts\/validations\/([^/]+)$/.exec(path))) {
      const stored = this.validations.get(decodeURIComponent(match[1]!));
      if (!stored) return send(res, 400, errorBody('The id provided does not exist'));
      if (stored.pendingFetches > 0) stored.pendingFetches--;
      if (stored.pendingFetches === 0 && stored.entity.status === 'created') {
        Object.assign(stored.entity, {
          status: 'completed',
          validation_results: {
            account_status: stored.holder === null ? 'invalid' : 'active',
            registered_name: stored.holder,
            details: stored.holder === null ? 'The beneficiary account is invalid.' : 'The beneficiary account is valid.',
            name_match_score: null,
          },
          status_details: { description: 'Validation request is completed', source: 'beneficiary_bank', reason: 'validation_completed' },
        });
      }
      return send(res, 200, stored.entity);
    }
    if (method === 'POST' && path === '/v1/payouts') return this.createPayout(body ?? {}, raw, headers, res);
    if (method === 'GET' && path === '/v1/payouts') {
      if (url.searchParams.get('account_number') !== this.accountNumber) return send(res, 400, errorBody('The account number field is required', { field: 'account_number' }));
      const reference = url.searchParams.get('reference_id');
      const items = this.payouts
        .map((p) => p.payout)
        .filter((p) => reference === null || p.reference_id === reference)
        .reverse();
      return send(res, 200, { entity: 'collection', count: items.length, items });
    }
    send(res, 400, { error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found on the server.', source: 'NA', step: 'NA', reason: 'NA', metadata: {} } });
  }

  private createQr(body: Json, res: http.ServerResponse): void {
    if (body.type !== 'upi_qr' || (body.usage !== 'single_use' && body.usage !== 'multiple_use')) return send(res, 400, errorBody('type or usage is invalid'));
    if (body.fixed_amount === true && (!Number.isSafeInteger(body.payment_amount) || (body.payment_amount as number) < 100)) {
      return send(res, 400, errorBody('The payment amount must be at least 100', { field: 'payment_amount' }));
    }
    if (typeof body.close_by === 'number' && body.close_by < now() + 15 * 60) {
      return send(res, 400, errorBody('close_by should be at least 15 minutes after current time', { field: 'close_by' }));
    }
    const qr: Json = {
      ...clone(qrSample),
      id: newId('qr'),
      created_at: now(),
      name: body.name ?? null,
      usage: body.usage,
      payment_amount: body.payment_amount ?? null,
      description: body.description ?? null,
      fixed_amount: body.fixed_amount === true,
      notes: body.notes ?? [],
      close_by: body.close_by ?? null,
    };
    qr.image_url = `https://rzp.io/i/${(qr.id as string).slice(3)}`;
    if (this.imageContent) {
      qr.image_content = `upi://pay?pa=paygate.rzp@icici&pn=Paygate&tr=RZP${(qr.id as string).slice(3)}qrv2&am=${Number(body.payment_amount) / 100}&cu=INR&mc=5411`;
    } else {
      delete qr.image_content;
    }
    this.qrCodes.push(qr);
    this.paymentsByQr.set(qr.id as string, []);
    send(res, 200, qr);
  }

  private refund(paymentId: string, body: Json, headers: http.IncomingHttpHeaders, res: http.ServerResponse): void {
    const key = headers['x-refund-idempotency'];
    if (typeof key === 'string') {
      if (!/^[A-Za-z0-9_-]{10,}$/.test(key)) return send(res, 400, errorBody('Invalid idempotency key'));
      const earlier = this.refundsByKey.get(key);
      if (earlier) {
        return earlier.payment_id === paymentId && earlier.amount === body.amount
          ? send(res, 200, earlier)
          : send(res, 400, errorBody('Different request with the same idempotency key has already been processed.'));
      }
    }
    const payment = [...this.paymentsByQr.values()].flat().find((p) => p.id === paymentId);
    if (!payment) return send(res, 400, errorBody('The id provided does not exist'));
    const amount = (body.amount as number | undefined) ?? (payment.amount as number);
    if ((payment.amount_refunded as number) + amount > (payment.amount as number)) {
      return send(res, 400, errorBody('The refund amount provided is greater than amount captured'));
    }
    const refund = { ...clone(refundSample), id: newId('rfnd'), amount, payment_id: paymentId, notes: body.notes ?? {}, created_at: now() };
    payment.amount_refunded = (payment.amount_refunded as number) + amount;
    if (payment.amount_refunded === payment.amount) Object.assign(payment, { status: 'refunded', refund_status: 'full' });
    if (typeof key === 'string') this.refundsByKey.set(key, refund);
    this.refunds.push(refund);
    send(res, 200, refund);
  }

  /**
   * Settlement Recon: the fake settles every captured payment and every refund the moment it happens,
   * so the report of a day lists those created that (UTC) day, as recon items, paged with count/skip.
   */
  private recon(query: URLSearchParams, res: http.ServerResponse): void {
    const year = Number(query.get('year'));
    const month = Number(query.get('month'));
    if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12) return send(res, 400, errorBody('The year and month fields are required.'));
    const day = query.get('day') === null ? null : Number(query.get('day'));
    const fromS = Date.UTC(year, month - 1, day ?? 1) / 1000;
    const toS = (day === null ? Date.UTC(year, month, 1) : Date.UTC(year, month - 1, day + 1)) / 1000;
    const settlement = { settlement_id: 'setl_FkDaily0000001', settlement_utr: 'UTIBR12345678901' };
    const payments = [...this.paymentsByQr.values()].flat().map((p) => ({
      entity_id: p.id, type: 'payment', debit: 0, credit: (p.amount as number) - 236, amount: p.amount, currency: 'INR', fee: 236, tax: 36, on_hold: false,
      settled: true, created_at: p.created_at, settled_at: p.created_at, ...settlement, posted_at: null, credit_type: 'default', description: null,
      notes: p.notes, payment_id: null, order_id: null, order_receipt: null, method: 'upi', upi_transaction_id: null, card_network: null, card_issuer: null, card_type: null, dispute_id: null,
    }));
    const refunds = this.refunds.map((r) => ({
      entity_id: r.id, type: 'refund', debit: r.amount, credit: 0, amount: r.amount, currency: 'INR', fee: 0, tax: 0, on_hold: false,
      settled: true, created_at: r.created_at, settled_at: r.created_at, ...settlement, posted_at: null, credit_type: 'default', description: null,
      notes: r.notes, payment_id: r.payment_id, order_id: null, order_receipt: null, method: 'upi', upi_transaction_id: null, card_network: null, card_issuer: null, card_type: null, dispute_id: null,
    }));
    const all = [...payments, ...refunds].filter((i) => (i.settled_at as number) >= fromS && (i.settled_at as number) < toS);
    const count = Math.min(Number(query.get('count') ?? 1000), 1000);
    const skip = Number(query.get('skip') ?? 0);
    const items = all.slice(skip, skip + count);
    send(res, 200, { entity: 'collection', count: items.length, items });
  }

  private createValidation(body: Json, res: http.ServerResponse): void {
    if (body.source_account_number !== this.accountNumber) return send(res, 400, errorBody('The source account number is invalid', { field: 'source_account_number' }));
    const fundAccount = body.fund_account as Json | undefined;
    const contact = fundAccount?.contact as Json | undefined;
    if (!fundAccount || typeof contact?.name !== 'string') return send(res, 400, errorBody('The contact name field is required', { field: 'fund_account.contact.name' }));
    let key: string;
    if (fundAccount.account_type === 'bank_account') {
      const bank = fundAccount.bank_account as Json;
      if (!/^[A-Z]{4}0[A-Z0-9]{6}$/.test(String(bank.ifsc))) return send(res, 400, errorBody('Invalid IFSC Code in Bank Account', { field: 'fund_account.bank_account.ifsc' }));
      key = `${String(bank.ifsc)}|${String(bank.account_number)}`;
    } else if (fundAccount.account_type === 'vpa') {
      key = `vpa|${String((fundAccount.vpa as Json).address)}`;
    } else {
      return send(res, 400, errorBody('The account type is invalid', { field: 'fund_account.account_type' }));
    }
    const entity: Json = {
      id: newId('fav'),
      entity: 'fund_account.validation',
      status: 'created',
      utr: null,
      validation_results: { account_status: null, registered_name: null, details: null, name_match_score: null },
      status_details: { description: 'Validation request is created', source: 'internal', reason: 'validation_request_created' },
      reference_id: body.reference_id ?? null,
      notes: body.notes ?? {},
      fund_account: { id: newId('fa'), entity: 'fund_account', ...fundAccount, active: true, created_at: now() },
    };
    this.validations.set(entity.id as string, { entity, pendingFetches: this.validationPendingFetches, holder: this.holders.get(key) ?? null });
    send(res, 200, entity);
  }

  private createPayout(body: Json, raw: string, headers: http.IncomingHttpHeaders, res: http.ServerResponse): void {
    const key = headers['x-payout-idempotency'];
    if (typeof key !== 'string') return send(res, 400, idempotencyMissing);
    if (!/^[A-Za-z0-9_ -]{4,36}$/.test(key)) return send(res, 400, errorBody('Invalid idempotency key', { field: 'X-Payout-Idempotency' }));
    const earlier = this.payouts.find((p) => p.idempotencyKey === key);
    if (earlier) {
      return earlier.requestBody === raw ? send(res, 200, earlier.payout) : send(res, 400, errorBody('Different request body sent for the same Idempotency Header.'));
    }
    if (body.account_number !== this.accountNumber) return send(res, 400, errorBody('The account number is invalid', { field: 'account_number' }));
    if (!Number.isSafeInteger(body.amount) || (body.amount as number) < 100) return send(res, 400, errorBody('The amount must be atleast INR 1.00', { field: 'amount' }));
    if (typeof body.reference_id === 'string' && body.reference_id.length > 40) return send(res, 400, errorBody('The reference id may not be greater than 40 characters.', { field: 'reference_id' }));
    const fundAccount = body.fund_account as Json | undefined;
    const contact = fundAccount?.contact as Json | undefined;
    if (!fundAccount || !contact || typeof contact.name !== 'string' || contact.name.length < 3) {
      return send(res, 400, errorBody('The fund account contact name is required', { field: 'fund_account.contact.name' }));
    }
    let account: Json;
    if (fundAccount.account_type === 'bank_account' && body.mode === 'IMPS') {
      const bank = fundAccount.bank_account as Json;
      if (!/^[A-Z]{4}0[A-Z0-9]{6}$/.test(String(bank.ifsc))) return send(res, 400, errorBody('Invalid IFSC Code in Bank Account', { field: 'fund_account.bank_account.ifsc' }));
      if (!/^[A-Za-z0-9]{5,35}$/.test(String(bank.account_number))) {
        return send(res, 400, errorBody('The account number format is invalid', { field: 'fund_account.bank_account.account_number' }));
      }
      account = { account_type: 'bank_account', bank_account: { ifsc: bank.ifsc, bank_name: 'Fake Bank', name: bank.name, notes: [], account_number: bank.account_number } };
    } else if (fundAccount.account_type === 'vpa' && body.mode === 'UPI') {
      const address = String((fundAccount.vpa as Json).address);
      if (!/^[\w.-]+@[\w]+$/.test(address)) return send(res, 400, errorBody('Invalid VPA', { field: 'fund_account.vpa.address' }));
      const [username, handle] = address.split('@');
      account = { account_type: 'vpa', vpa: { username, handle, address } };
    } else {
      return send(res, 400, errorBody('The mode does not match the fund account type', { field: 'mode' }));
    }
    const fundAccountId = newId('fa');
    const payout: Json = {
      ...clone(payoutSample),
      id: newId('pout'),
      fund_account_id: fundAccountId,
      fund_account: { ...clone(payoutSample.fund_account), id: fundAccountId, contact: { ...clone(payoutSample.fund_account.contact), ...contact }, ...account },
      amount: body.amount,
      notes: body.notes ?? [],
      status: 'processing',
      mode: body.mode,
      utr: null,
      reference_id: body.reference_id ?? null,
      status_details: null,
      created_at: now(),
    };
    if ('bank_account' in account === false) delete (payout.fund_account as Json).bank_account;
    this.payouts.push({ payout, idempotencyKey: key, requestBody: raw });
    send(res, 200, payout);
  }
}

const now = (): number => Math.floor(Date.now() / 1000);

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export const startFakeRazorpay = (options?: FakeRazorpayOptions): Promise<FakeRazorpay> => new FakeRazorpay(options).start();
