// A protocol-faithful fake of the parts of Xendit's public API the xendit connector uses, as a
// real HTTP server on 127.0.0.1: fixed virtual accounts, QR codes (2022-07-31), e-wallet charges
// (with refund and void), Payouts v2. It checks HTTP Basic (secret key, empty password), honours
// idempotency keys, answers in the shapes of the documented samples kept as fixtures, and sends
// callbacks with the x-callback-token header to a callback URL that may be set after start.
// Tests drive it with plain methods (pay, failCharge, completePayout, failPayout, nextAnswer...).
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const FIXTURES = path.resolve(__dirname, '../fixtures/connectors/xendit');
type Obj = Record<string, unknown>;

/** A documented sample payload (test/fixtures/connectors/xendit/<name>.json), fresh each time. */
export const xenditFixture = (name: string): Obj => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Obj;

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Obj | null;
}

/** A canned answer for the next request whose path starts with the key; 'hang' never answers; 'drop' acts, then never answers. */
export type FaultAnswer = { readonly status: number; readonly body: unknown } | 'hang' | 'drop';

export interface CallbackDelivery {
  readonly status: number;
  readonly body: Obj;
  readonly rawBody: string;
}

interface Idempotent {
  readonly bodyText: string;
  readonly answer: Obj;
}

const now = (): string => new Date().toISOString();
const hex = (bytes: number): string => randomBytes(bytes).toString('hex');

export class XenditFake {
  readonly requests: RecordedRequest[] = [];
  /** Where callbacks go; settable at any time (e.g. once the service under test has started). */
  callbackUrl: string | null = null;
  /** Answer callbacks' HTTP status here when they were sent (for assertions). */
  readonly deliveries: CallbackDelivery[] = [];

  private readonly virtualAccounts = new Map<string, Obj>();
  private readonly qrCodes = new Map<string, Obj>();
  private readonly qrPayments = new Map<string, Obj>();
  private readonly charges = new Map<string, Obj>();
  private readonly payouts = new Map<string, Obj>();
  private readonly refunds = new Map<string, Obj>();
  /** Money that arrived in virtual accounts (the VA itself stays as it was, INACTIVE once paid). */
  private readonly vaPayments: Obj[] = [];
  private readonly idempotency = new Map<string, Idempotent>();
  private readonly faults = new Map<string, FaultAnswer[]>();
  private readonly hanging = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly secretKey: string,
    readonly callbackToken: string,
  ) {}

  static async start(options: { secretKey?: string; callbackToken?: string; callbackUrl?: string } = {}): Promise<XenditFake> {
    let fake: XenditFake | null = null;
    const server = createServer((req, res) => void fake!.handle(req, res));
    fake = new XenditFake(server, options.secretKey ?? 'xnd_development_FAKE_secret_key', options.callbackToken ?? 'fake-callback-verification-token');
    fake.callbackUrl = options.callbackUrl ?? null;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ----- test controls ----------------------------------------------------------------------

  nextAnswer(pathPrefix: string, answer: FaultAnswer): void {
    const queue = this.faults.get(pathPrefix) ?? [];
    queue.push(answer);
    this.faults.set(pathPrefix, queue);
  }

  /** How many objects of a kind the fake holds for our reference. */
  count(kind: 'va' | 'qr' | 'charge' | 'payout', ourRef: string): number {
    const [map, field] = this.mapOf(kind);
    return [...map.values()].filter((o) => o[field] === ourRef).length;
  }

  /** The payer pays the collection made for our reference (VA, QR or e-wallet); Xendit calls back. */
  async pay(ourRef: string, options: { amountMinor?: bigint } = {}): Promise<CallbackDelivery> {
    const amountOf = (asked: number): number => (options.amountMinor === undefined ? asked : Number(options.amountMinor / 100n));
    const va = this.find('va', ourRef);
    if (va) {
      va.status = 'INACTIVE';
      const callback = {
        ...xenditFixture('va-paid-callback'),
        id: hex(12),
        payment_id: `${Date.now()}_${hex(4)}`,
        callback_virtual_account_id: va.id,
        owner_id: va.owner_id,
        external_id: ourRef,
        account_number: va.account_number,
        bank_code: va.bank_code,
        amount: amountOf(va.expected_amount as number),
        transaction_timestamp: now(),
        created: now(),
        updated: now(),
      };
      this.vaPayments.push(callback);
      return this.sendCallback(callback);
    }
    const qr = this.find('qr', ourRef);
    if (qr) {
      qr.status = 'INACTIVE';
      const payment = {
        ...(xenditFixture('qr-payment-callback').data as Obj),
        id: `qrpy_${randomUUID()}`,
        amount: amountOf(qr.amount as number),
        qr_id: qr.id,
        qr_string: qr.qr_string,
        reference_id: ourRef,
        created: now(),
        expires_at: qr.expires_at,
      };
      this.qrPayments.set(payment.id, payment);
      return this.sendCallback({ ...xenditFixture('qr-payment-callback'), created: now(), data: payment });
    }
    const charge = this.find('charge', ourRef);
    if (charge) {
      charge.status = 'SUCCEEDED';
      charge.capture_amount = amountOf(charge.charge_amount as number);
      charge.updated = now();
      return this.sendCallback({ event: 'ewallet.capture', business_id: charge.business_id, created: now(), data: { ...charge } });
    }
    throw new Error(`fake xendit: nothing to pay for ${ourRef}`);
  }

  /** The e-wallet charge fails with a documented failure code; Xendit calls back. */
  async failCharge(ourRef: string, failureCode: string): Promise<CallbackDelivery> {
    const charge = this.mustFind('charge', ourRef);
    charge.status = 'FAILED';
    charge.failure_code = failureCode;
    return this.sendCallback({ event: 'ewallet.capture', business_id: charge.business_id, created: now(), data: { ...charge } });
  }

  /** The VA or QR code passes its expiry unpaid. */
  expire(ourRef: string): void {
    const va = this.find('va', ourRef);
    const target = va ?? this.mustFind('qr', ourRef);
    target.status = 'INACTIVE';
    target[va ? 'expiration_date' : 'expires_at'] = new Date(Date.now() - 3_600_000).toISOString();
  }

  /** Moves the payout to a documented status (REQUESTED, SUCCEEDED, FAILED, CANCELLED, REVERSED...) and calls back when final. */
  async setPayoutStatus(ourRef: string, status: string, failureCode?: string): Promise<CallbackDelivery | null> {
    const payout = this.mustFind('payout', ourRef);
    payout.status = status;
    payout.updated = now();
    if (failureCode !== undefined) payout.failure_code = failureCode;
    const event = { SUCCEEDED: 'payout.succeeded', FAILED: 'payout.failed', REVERSED: 'payout.reversed' }[status];
    if (event === undefined) return null;
    return this.sendCallback({ event, business_id: payout.business_id, created: now(), data: { ...payout } });
  }

  completePayout(ourRef: string): Promise<CallbackDelivery | null> {
    return this.setPayoutStatus(ourRef, 'SUCCEEDED');
  }

  failPayout(ourRef: string, failureCode: string): Promise<CallbackDelivery | null> {
    return this.setPayoutStatus(ourRef, 'FAILED', failureCode);
  }

  /** Sends a callback body as Xendit does (JSON, x-callback-token); `token` overrides the header (null: none). */
  async sendCallback(body: Obj, token: string | null = this.callbackToken): Promise<CallbackDelivery> {
    if (this.callbackUrl === null) throw new Error('fake xendit: no callbackUrl set');
    const rawBody = JSON.stringify(body);
    const response = await fetch(this.callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token === null ? {} : { 'x-callback-token': token }) },
      body: rawBody,
    });
    await response.arrayBuffer();
    const delivery = { status: response.status, body, rawBody };
    this.deliveries.push(delivery);
    return delivery;
  }

  // ----- HTTP ---------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    let body: Obj | null = null;
    if (text.length > 0) {
      try {
        body = JSON.parse(text) as Obj;
      } catch {
        return this.send(res, 400, { error_code: 'INVALID_JSON_FORMAT', message: 'The request body is not valid JSON' });
      }
    }
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers, body });

    const fault = this.takeFault(url.pathname);
    if (fault === 'hang') {
      this.hanging.add(res);
      return;
    }
    if (fault !== undefined && fault !== 'drop') return this.send(res, fault.status, fault.body);

    const expected = 'Basic ' + Buffer.from(`${this.secretKey}:`).toString('base64');
    if (req.headers.authorization !== expected) return this.send(res, 401, xenditFixture('error-401'));

    const [status, answer] = this.route(req.method ?? 'GET', url, body, text, req.headers);
    if (fault === 'drop') {
      this.hanging.add(res);
      return;
    }
    this.send(res, status, answer);
  }

  private route(method: string, url: URL, body: Obj | null, text: string, headers: IncomingMessage['headers']): [number, unknown] {
    const p = url.pathname;
    const key = (headers['idempotency-key'] ?? headers['x-idempotency-key']) as string | undefined;
    const idempotent = (create: () => [number, Obj]): [number, unknown] => {
      if (key === undefined) return create();
      const scoped = `${method} ${p} ${key}`;
      const seen = this.idempotency.get(scoped);
      if (seen) {
        if (seen.bodyText !== text) return [409, { error_code: 'DUPLICATE_ERROR', message: 'Idempotency key has been used before with a different request' }];
        return [200, seen.answer];
      }
      const [status, answer] = create();
      if (status === 200) this.idempotency.set(scoped, { bodyText: text, answer });
      return [status, answer];
    };
    let m: RegExpExecArray | null;

    if (method === 'GET' && p === '/transactions') return this.listTransactions(url.searchParams);
    if (method === 'POST' && p === '/callback_virtual_accounts') return idempotent(() => this.createVa(body ?? {}));
    if (method === 'GET' && (m = /^\/callback_virtual_accounts\/([^/]+)$/.exec(p))) return this.get(this.virtualAccounts, m[1]!, 'CALLBACK_VIRTUAL_ACCOUNT_NOT_FOUND_ERROR');

    if (method === 'POST' && p === '/qr_codes') return this.needsApiVersion(headers) ?? idempotent(() => this.createQr(body ?? {}));
    if (method === 'GET' && (m = /^\/qr_codes\/(qr_[^/]+)\/payments$/.exec(p))) {
      const data = [...this.qrPayments.values()].filter((q) => q.qr_id === m![1]);
      return [200, { data, has_more: false }];
    }
    if (method === 'GET' && (m = /^\/qr_codes\/(qr_[^/]+)$/.exec(p))) return this.get(this.qrCodes, m[1]!, 'DATA_NOT_FOUND');
    if (method === 'POST' && (m = /^\/qr_codes\/payments\/([^/]+)\/refunds$/.exec(p))) return idempotent(() => this.refundQr(m![1]!, body ?? {}));

    if (method === 'POST' && p === '/ewallets/charges') return idempotent(() => this.createCharge(body ?? {}));
    if (method === 'GET' && (m = /^\/ewallets\/charges\/([^/]+)$/.exec(p))) return this.get(this.charges, m[1]!, 'DATA_NOT_FOUND');
    if (method === 'POST' && (m = /^\/ewallets\/charges\/([^/]+)\/refunds$/.exec(p))) return idempotent(() => this.refundCharge(m![1]!, body ?? {}));
    if (method === 'POST' && (m = /^\/ewallets\/charges\/([^/]+)\/void$/.exec(p))) return idempotent(() => this.voidCharge(m![1]!));

    if (method === 'POST' && p === '/v2/payouts') {
      if (key === undefined) return [400, { error_code: 'API_VALIDATION_ERROR', message: 'Idempotency-key header is required' }];
      return idempotent(() => this.createPayout(body ?? {}));
    }
    if (method === 'GET' && p === '/v2/payouts') {
      const ref = url.searchParams.get('reference_id');
      if (!ref) return [400, { error_code: 'API_VALIDATION_ERROR', message: 'reference_id is required' }];
      return [200, { data: [...this.payouts.values()].filter((o) => o.reference_id === ref), has_more: false }];
    }
    if (method === 'GET' && (m = /^\/v2\/payouts\/([^/]+)$/.exec(p))) return this.get(this.payouts, m[1]!, 'DATA_NOT_FOUND');
    return [404, { error_code: 'NOT_FOUND', message: `No route ${method} ${p}` }];
  }

  private createVa(body: Obj): [number, Obj] {
    if (typeof body.external_id !== 'string' || typeof body.bank_code !== 'string' || typeof body.name !== 'string') {
      return [400, { error_code: 'API_VALIDATION_ERROR', message: 'external_id, bank_code and name are required' }];
    }
    if (!['BNI', 'BRI', 'MANDIRI', 'PERMATA', 'BCA', 'BSI', 'CIMB', 'SAHABAT_SAMPOERNA'].includes(body.bank_code)) {
      return [400, { error_code: 'BANK_NOT_SUPPORTED_ERROR', message: 'That bank code is not currently supported' }];
    }
    if (body.is_closed === true && (typeof body.expected_amount !== 'number' || !Number.isInteger(body.expected_amount))) {
      return [400, { error_code: 'API_VALIDATION_ERROR', message: 'expected_amount must be an integer for closed virtual accounts' }];
    }
    const va = {
      ...xenditFixture('va-created'),
      id: hex(12),
      external_id: body.external_id,
      bank_code: body.bank_code,
      name: body.name,
      account_number: '8808' + String(Math.floor(Math.random() * 1e12)).padStart(12, '0'),
      is_single_use: body.is_single_use ?? false,
      is_closed: body.is_closed ?? false,
      expected_amount: body.expected_amount,
      expiration_date: body.expiration_date,
      status: 'PENDING',
    };
    this.virtualAccounts.set(va.id, va);
    // The bank registers the number a moment later; ACTIVE from then on.
    setTimeout(() => {
      if (va.status === 'PENDING') va.status = 'ACTIVE';
    }, 5).unref();
    return [200, { ...va }];
  }

  private createQr(body: Obj): [number, Obj] {
    if (typeof body.reference_id !== 'string' || body.type !== 'DYNAMIC' || body.currency !== 'IDR' || typeof body.amount !== 'number') {
      return [400, { error_code: 'API_VALIDATION_ERROR', message: 'reference_id, type, currency and amount are required' }];
    }
    if (!Number.isInteger(body.amount) || body.amount < 1500) return [400, { error_code: 'API_VALIDATION_ERROR', message: 'amount must be an integer of at least 1500 IDR' }];
    const qr = {
      ...xenditFixture('qr-code'),
      id: `qr_${randomUUID()}`,
      reference_id: body.reference_id,
      amount: body.amount,
      expires_at: body.expires_at ?? new Date(Date.now() + 48 * 3600_000).toISOString(),
      qr_string: `00020101021226660014ID.XENDIT.FAKE${hex(8)}5204599953033605405${body.amount}5802ID6304ABCD`,
      created: now(),
      updated: now(),
    };
    this.qrCodes.set(qr.id, qr);
    return [200, { ...qr }];
  }

  private refundQr(paymentId: string, body: Obj): [number, Obj] {
    const payment = this.qrPayments.get(paymentId);
    if (!payment) return [404, { error_code: 'DATA_NOT_FOUND', message: 'QR payment not found' }];
    const amount = typeof body.amount === 'number' ? body.amount : (payment.amount as number);
    if (amount > (payment.amount as number)) return [400, { error_code: 'REFUND_AMOUNT_EXCEEDED', message: 'Refund amount exceeds the payment' }];
    const refund = { id: `qrpyr_${randomUUID()}`, payment_id: paymentId, reference_id: body.reference_id, currency: 'IDR', amount, status: 'PENDING', created: now(), updated: now() };
    this.refunds.set(refund.id, refund);
    return [200, refund];
  }

  private createCharge(body: Obj): [number, Obj] {
    const channel = body.channel_code;
    if (typeof body.reference_id !== 'string' || typeof body.amount !== 'number' || body.checkout_method !== 'ONE_TIME_PAYMENT') {
      return [400, { error_code: 'API_VALIDATION_ERROR', message: 'reference_id, amount and checkout_method are required' }];
    }
    if (channel !== 'ID_OVO' && channel !== 'ID_DANA') return [403, { error_code: 'CHANNEL_NOT_ACTIVATED', message: 'Payment channel not activated' }];
    const properties = (body.channel_properties ?? {}) as Obj;
    if (channel === 'ID_OVO' && !/^\+62\d{8,13}$/.test(String(properties.mobile_number ?? ''))) {
      return [400, { error_code: 'API_VALIDATION_ERROR', message: 'channel_properties.mobile_number must be in E.164 format' }];
    }
    if (channel === 'ID_DANA' && typeof properties.success_redirect_url !== 'string') {
      return [400, { error_code: 'API_VALIDATION_ERROR', message: 'channel_properties.success_redirect_url is required' }];
    }
    const template = xenditFixture(channel === 'ID_OVO' ? 'ewallet-charge-ovo' : 'ewallet-charge-dana');
    const charge = {
      ...template,
      id: `ewc_${randomUUID()}`,
      reference_id: body.reference_id,
      charge_amount: body.amount,
      capture_amount: body.amount,
      channel_properties: properties,
      created: now(),
      updated: now(),
    };
    this.charges.set(charge.id, charge);
    return [200, { ...charge }];
  }

  private refundCharge(chargeId: string, body: Obj): [number, Obj] {
    const charge = this.charges.get(chargeId);
    if (!charge) return [404, { error_code: 'DATA_NOT_FOUND', message: 'Charge not found' }];
    if (charge.channel_code === 'ID_OVO') return [400, { error_code: 'UNSUPPORTED_ACTION', message: 'Refund is not supported for this channel' }];
    if (charge.status !== 'SUCCEEDED') return [400, { error_code: 'INELIGIBLE_TRANSACTION', message: 'Only succeeded charges can be refunded' }];
    const amount = typeof body.amount === 'number' ? body.amount : (charge.capture_amount as number);
    const refund = { id: `ewr_${randomUUID()}`, charge_id: chargeId, status: 'PENDING', currency: 'IDR', channel_code: charge.channel_code, capture_amount: charge.capture_amount, refund_amount: amount, reason: body.reason ?? 'OTHERS', failure_code: null, created: now(), updated: now() };
    this.refunds.set(refund.id, refund);
    return [200, refund];
  }

  private voidCharge(chargeId: string): [number, Obj] {
    const charge = this.charges.get(chargeId);
    if (!charge) return [404, { error_code: 'DATA_NOT_FOUND', message: 'Charge not found' }];
    if (charge.status !== 'SUCCEEDED') return [400, { error_code: 'INELIGIBLE_TRANSACTION', message: 'Only succeeded charges can be voided' }];
    charge.void_status = 'PENDING';
    charge.updated = now();
    return [200, { ...charge }];
  }

  private createPayout(body: Obj): [number, Obj] {
    const properties = (body.channel_properties ?? {}) as Obj;
    if (typeof body.reference_id !== 'string' || typeof body.channel_code !== 'string' || typeof body.amount !== 'number' || body.currency !== 'IDR') {
      return [400, { error_code: 'API_VALIDATION_ERROR', message: 'reference_id, channel_code, amount and currency are required' }];
    }
    if (!Number.isInteger(body.amount)) return [400, { error_code: 'API_VALIDATION_ERROR', message: 'IDR amount must be an integer' }];
    if (typeof properties.account_number !== 'string' || !/^\d{4,20}$/.test(properties.account_number)) {
      return [400, { error_code: 'RECIPIENT_ACCOUNT_NUMBER_ERROR', message: 'Account number is invalid' }];
    }
    const payout = {
      ...xenditFixture('payout'),
      id: `disb-${hex(12)}`,
      amount: body.amount,
      channel_code: body.channel_code,
      currency: 'IDR',
      status: 'ACCEPTED',
      description: body.description,
      reference_id: body.reference_id,
      created: now(),
      updated: now(),
      channel_properties: properties,
    };
    this.payouts.set(payout.id, payout);
    return [200, { ...payout }];
  }

  /**
   * List Transactions: what moved money, as transaction objects (payments once paid, payouts from
   * their creation, refunds), created within created[gte]..created[lte], oldest first, paged with
   * limit and after_id.
   */
  private listTransactions(query: URLSearchParams): [number, unknown] {
    const payoutStatus: Record<string, string> = { ACCEPTED: 'PENDING', REQUESTED: 'PENDING', LOCKED: 'PENDING', SUCCEEDED: 'SUCCESS', FAILED: 'FAILED', CANCELLED: 'FAILED', REVERSED: 'REVERSED' };
    const refundStatus: Record<string, string> = { PENDING: 'PENDING', SUCCEEDED: 'SUCCESS', FAILED: 'FAILED' };
    const txn = (productId: string, type: string, status: string, referenceId: unknown, amount: unknown, created: unknown, channel: string, cashflow: string): Obj => ({
      id: `txn_${productId}`, product_id: productId, type, status, channel_category: channel, channel_code: null, reference_id: referenceId,
      account_identifier: null, currency: 'IDR', amount, net_amount: amount, cashflow, settlement_status: status === 'SUCCESS' ? 'SETTLED' : null,
      estimated_settlement_time: null, business_id: '5f27a14a9bf05c73dd040bc8', created, updated: created, fee: { xendit_fee: 0, value_added_tax: 0, xendit_withholding_tax: 0, third_party_withholding_tax: 0, status: 'COMPLETED' },
    });
    const all: Obj[] = [
      ...this.vaPayments.map((v) => txn(String(v.id), 'PAYMENT', 'SUCCESS', v.external_id, v.amount, v.created, 'VIRTUAL_ACCOUNT', 'MONEY_IN')),
      ...[...this.qrPayments.values()].map((q) => txn(String(q.id), 'PAYMENT', 'SUCCESS', q.reference_id, q.amount, q.created, 'QR_CODE', 'MONEY_IN')),
      ...[...this.charges.values()].filter((c) => c.status === 'SUCCEEDED').map((c) => txn(String(c.id), 'PAYMENT', 'SUCCESS', c.reference_id, c.capture_amount, c.created, 'EWALLET', 'MONEY_IN')),
      ...[...this.payouts.values()].map((o) => txn(String(o.id), 'DISBURSEMENT', payoutStatus[String(o.status)] ?? 'PENDING', o.reference_id, o.amount, o.created, 'BANK', 'MONEY_OUT')),
      ...[...this.refunds.values()].map((r) => {
        const charge = r.charge_id === undefined ? undefined : this.charges.get(String(r.charge_id));
        return txn(String(r.id), 'REFUND', refundStatus[String(r.status)] ?? 'PENDING', r.reference_id ?? charge?.reference_id, r.amount ?? r.refund_amount, r.created, charge ? 'EWALLET' : 'QR_CODE', 'MONEY_OUT');
      }),
    ];
    const from = Date.parse(query.get('created[gte]') ?? '1970-01-01T00:00:00Z');
    const to = Date.parse(query.get('created[lte]') ?? '9999-12-31T00:00:00Z');
    const chosen = all.filter((t) => Date.parse(String(t.created)) >= from && Date.parse(String(t.created)) <= to).sort((a, b) => String(a.created).localeCompare(String(b.created)));
    const limit = Math.min(Number(query.get('limit') ?? 10), 50);
    const after = query.get('after_id');
    const start = after === null ? 0 : chosen.findIndex((t) => t.id === after) + 1;
    const data = chosen.slice(start, start + limit);
    return [200, { has_more: start + limit < chosen.length, data, links: [] }];
  }

  private needsApiVersion(headers: IncomingMessage['headers']): [number, unknown] | null {
    return headers['api-version'] === '2022-07-31' ? null : [400, { error_code: 'API_VALIDATION_ERROR', message: 'api-version header 2022-07-31 is required' }];
  }

  private get(map: Map<string, Obj>, id: string, notFound: string): [number, unknown] {
    const found = map.get(id);
    return found ? [200, { ...found }] : [404, { error_code: notFound, message: 'Not found' }];
  }

  private takeFault(pathname: string): FaultAnswer | undefined {
    for (const [prefix, queue] of this.faults) {
      if (pathname.startsWith(prefix) && queue.length > 0) {
        const answer = queue.shift()!;
        if (queue.length === 0) this.faults.delete(prefix);
        return answer;
      }
    }
    return undefined;
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(text);
  }

  private mapOf(kind: 'va' | 'qr' | 'charge' | 'payout'): [Map<string, Obj>, string] {
    if (kind === 'va') return [this.virtualAccounts, 'external_id'];
    if (kind === 'qr') return [this.qrCodes, 'reference_id'];
    if (kind === 'charge') return [this.charges, 'reference_id'];
    return [this.payouts, 'reference_id'];
  }

  private find(kind: 'va' | 'qr' | 'charge' | 'payout', ourRef: string): Obj | undefined {
    const [map, field] = this.mapOf(kind);
    return [...map.values()].find((o) => o[field] === ourRef);
  }

  private mustFind(kind: 'va' | 'qr' | 'charge' | 'payout', ourRef: string): Obj {
    const found = this.find(kind, ourRef);
    if (!found) throw new Error(`fake xendit: no ${kind} for ${ourRef}`);
    return found;
  }
}
