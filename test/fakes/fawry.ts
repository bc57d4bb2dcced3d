// A protocol-faithful fake of FawryPay's server APIs as a real HTTP server on 127.0.0.1: the charge
// (PayAtFawry / MWALLET), Get Payment Status V2 and refund endpoints with their body signatures
// checked, answers in the documented shapes (test/fixtures/connectors/fawry/), and V2 server
// notifications signed with messageSignature sent to a settable callback URL. Like Fawry's charge,
// a second charge for one merchantRefNum makes a second order: idempotency is the connector's job.
// Start once per test file; test controls are plain methods.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CHARGE_PATH = '/ECommerceWeb/Fawry/payments/charge';
export const STATUS_PATH = '/ECommerceWeb/Fawry/payments/status/v2';
export const REFUND_PATH = '/ECommerceWeb/Fawry/payments/refund';

export interface FakeOrder {
  fawryRefNumber: string;
  merchantRefNumber: string;
  paymentMethod: 'PayAtFawry' | 'MWALLET';
  orderAmountMinor: bigint;
  paymentAmountMinor: bigint;
  fawryFeesMinor: bigint;
  orderStatus: string;
  paymentExpiry: number | null;
  customerName: string;
  customerMobile: string;
  customerMail: string;
  debitMobileWalletNo: string | null;
  paymentRefrenceNumber: string | null;
  paymentTime: number | null;
  refundedMinor: bigint;
}

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly rawBody: string;
}

/** 'hang': never answer; 'lost': do the work, then never answer (the answer is lost on the way). */
export type CannedAnswer = { readonly status: number; readonly body: string } | 'hang' | 'lost';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Minor units as Fawry writes amounts: "152.00". */
export const dec = (minor: bigint): string => `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;

/** The raw decimal text of a numeric JSON field, read from the request text itself (no float). */
function rawAmount(text: string, field: string): string | null {
  const match = new RegExp(`"${field}"\\s*:\\s*"?(\\d+(?:\\.\\d+)?)"?`).exec(text);
  return match ? match[1]! : null;
}

const toMinor = (text: string): bigint => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, '0'));
};

/** A JSON text with the listed fields written as bare decimals with two places, as Fawry writes them. */
function jsonWithAmounts(body: Record<string, unknown>, amounts: Readonly<Record<string, bigint>>): string {
  const marker = (name: string): string => `@@amount:${name}@@`;
  const text = JSON.stringify({ ...body, ...Object.fromEntries(Object.keys(amounts).map((k) => [k, marker(k)])) });
  return Object.entries(amounts).reduce((acc, [k, v]) => acc.replace(`"${marker(k)}"`, dec(v)), text);
}

export class FakeFawry {
  readonly requests: LoggedRequest[] = [];
  /** Orders in creation order; a repeated merchantRefNum adds another (Fawry's charge is not idempotent). */
  readonly orders: FakeOrder[] = [];
  /** Notifications sent, with the callback's HTTP status. */
  readonly notifications: { body: string; status: number | null }[] = [];
  private readonly canned = new Map<string, CannedAnswer[]>();
  private readonly hanging = new Set<ServerResponse>();
  private nextRef = 900_100_200;
  private callbackUrl: string | null = null;

  private constructor(
    private readonly server: Server,
    readonly merchantCode: string,
    readonly secureKey: string,
  ) {}

  static async start(options: { merchantCode?: string; secureKey?: string } = {}): Promise<FakeFawry> {
    const server = createServer();
    const fake = new FakeFawry(server, options.merchantCode ?? 'is0N+YQzlE4=', options.secureKey ?? 'fake-secure-key-259af31fc2f74453');
    server.on('request', (req, res) => void fake.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  setCallbackUrl(url: string | null): void {
    this.callbackUrl = url;
  }

  /** The next request to `path` (no query) gets this answer instead of the real one. */
  nextAnswer(path: string, answer: CannedAnswer): void {
    this.canned.set(path, [...(this.canned.get(path) ?? []), answer]);
  }

  /** The latest order for merchantRefNum (the compact form of our transactionRef). */
  order(merchantRefNumber: string): FakeOrder | undefined {
    return [...this.orders].reverse().find((o) => o.merchantRefNumber === merchantRefNumber);
  }

  chargesFor(merchantRefNumber: string): number {
    return this.orders.filter((o) => o.merchantRefNumber === merchantRefNumber).length;
  }

  /** The payer pays (at an outlet, or confirms the wallet prompt); then Fawry notifies. */
  async pay(merchantRefNumber: string, options: { amountMinor?: bigint; feesMinor?: bigint; customerPaysFees?: boolean } = {}): Promise<string> {
    const order = this.must(merchantRefNumber);
    const fees = options.feesMinor ?? 0n;
    order.fawryFeesMinor = fees;
    order.paymentAmountMinor = (options.amountMinor ?? order.orderAmountMinor) + (options.customerPaysFees ? fees : 0n);
    order.orderStatus = 'PAID';
    order.paymentTime = Date.now();
    order.paymentRefrenceNumber = order.paymentMethod === 'PayAtFawry' ? String(20_000 + this.orders.indexOf(order)) : null;
    return this.notify(merchantRefNumber);
  }

  /** Moves the order to any orderStatus (EXPIRED, CANCELED, FAILED, DELIVERED...) and notifies. */
  async setStatus(merchantRefNumber: string, orderStatus: string): Promise<string> {
    this.must(merchantRefNumber).orderStatus = orderStatus;
    return this.notify(merchantRefNumber);
  }

  /** The V2 notification body for the order's current state, signed as Fawry signs it. */
  notificationBody(merchantRefNumber: string): string {
    return this.orderJson(this.must(merchantRefNumber), false);
  }

  /** Posts the V2 notification to the callback URL (when set); returns the body sent. */
  async notify(merchantRefNumber: string): Promise<string> {
    const body = this.notificationBody(merchantRefNumber);
    if (this.callbackUrl === null) {
      this.notifications.push({ body, status: null });
      return body;
    }
    let status: number | null = null;
    try {
      const response = await fetch(this.callbackUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(5_000) });
      status = response.status;
      await response.arrayBuffer();
    } catch {
      status = null;
    }
    this.notifications.push({ body, status });
    return body;
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private must(merchantRefNumber: string): FakeOrder {
    const order = this.order(merchantRefNumber);
    if (!order) throw new Error(`fake Fawry has no order ${merchantRefNumber}`);
    return order;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    this.requests.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), rawBody });

    const canned = this.canned.get(url.pathname)?.shift();
    if (canned === 'hang') {
      this.hanging.add(res);
      return;
    }
    if (canned && canned !== 'lost') return this.send(res, canned.status, canned.body);

    const answer = this.answer(req.method ?? '', url, rawBody);
    if (canned === 'lost') {
      this.hanging.add(res);
      return;
    }
    this.send(res, answer.status, answer.body);
  }

  private answer(method: string, url: URL, rawBody: string): { status: number; body: string } {
    if (method === 'POST' && url.pathname === CHARGE_PATH) return { status: 200, body: this.charge(rawBody) };
    if (method === 'GET' && url.pathname === STATUS_PATH) return { status: 200, body: this.status(url.searchParams) };
    if (method === 'POST' && url.pathname === REFUND_PATH) return { status: 200, body: this.refund(rawBody) };
    return { status: 404, body: JSON.stringify({ status: 404, error: 'Not Found', path: url.pathname }) };
  }

  private send(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  }

  private error(type: string, statusCode: number, statusDescription: string): string {
    return JSON.stringify({ type, statusCode, statusDescription });
  }

  private charge(rawBody: string): string {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody) as Record<string, unknown>;
    } catch {
      return this.error('ChargeResponse', 9901, 'Invalid request');
    }
    if (body.merchantCode !== this.merchantCode) return this.error('ChargeResponse', 9901, 'merchant code is blank or invalid');
    const amount = rawAmount(rawBody, 'amount');
    if (amount === null || !/^\d+\.\d{2}$/.test(amount)) return this.error('ChargeResponse', 9901, 'amount must have two decimals');
    const method = String(body.paymentMethod);
    const wallet = method === 'MWALLET' ? String(body.debitMobileWalletNo ?? '') : '';
    const expected = sha256(`${this.merchantCode}${String(body.merchantRefNum)}${String(body.customerProfileId ?? '')}${method}${amount}${wallet}${this.secureKey}`);
    if (body.signature !== expected) return this.error('ChargeResponse', 9946, 'Wrong Signature');
    if (method !== 'PayAtFawry' && method !== 'MWALLET') return this.error('ChargeResponse', 9901, `unsupported paymentMethod ${method}`);
    if (method === 'MWALLET' && !/^01[0125]\d{8}$/.test(wallet)) return this.error('ChargeResponse', 9901, 'invalid debitMobileWalletNo');
    const order: FakeOrder = {
      fawryRefNumber: String(this.nextRef++),
      merchantRefNumber: String(body.merchantRefNum),
      paymentMethod: method,
      orderAmountMinor: toMinor(amount),
      paymentAmountMinor: toMinor(amount),
      fawryFeesMinor: 0n,
      orderStatus: 'UNPAID',
      paymentExpiry: typeof body.paymentExpiry === 'number' ? body.paymentExpiry : null,
      customerName: String(body.customerName ?? ''),
      customerMobile: String(body.customerMobile ?? ''),
      customerMail: String(body.customerEmail ?? ''),
      debitMobileWalletNo: method === 'MWALLET' ? wallet : null,
      paymentRefrenceNumber: null,
      paymentTime: null,
      refundedMinor: 0n,
    };
    this.orders.push(order);
    return jsonWithAmounts(
      {
        type: 'ChargeResponse',
        referenceNumber: order.fawryRefNumber,
        merchantRefNumber: order.merchantRefNumber,
        paymentMethod: order.paymentMethod === 'PayAtFawry' ? 'PAYATFAWRY' : 'MWALLET',
        orderStatus: order.orderStatus,
        ...(order.paymentExpiry === null ? {} : { expirationTime: order.paymentExpiry }),
        customerMobile: order.customerMobile,
        customerMail: order.customerMail,
        statusCode: 200,
        statusDescription: 'Operation done successfully',
      },
      { orderAmount: order.orderAmountMinor, paymentAmount: order.orderAmountMinor, fawryFees: 0n },
    );
  }

  private status(query: URLSearchParams): string {
    const merchantRefNumber = query.get('merchantRefNumber') ?? '';
    if (query.get('merchantCode') !== this.merchantCode) return this.error('PaymentStatusResponse', 9901, 'merchant code is blank or invalid');
    if (merchantRefNumber === '') return this.error('PaymentStatusResponse', 9944, 'reference number is blank');
    if (query.get('signature') !== sha256(this.merchantCode + merchantRefNumber + this.secureKey)) return this.error('PaymentStatusResponse', 9946, 'Wrong Signature');
    const order = this.order(merchantRefNumber);
    if (!order) return this.error('PaymentStatusResponse', 9938, 'payment not found');
    return this.orderJson(order, true);
  }

  private refund(rawBody: string): string {
    const body = JSON.parse(rawBody) as Record<string, unknown>;
    if (body.merchantCode !== this.merchantCode) return this.error('ResponseDataModel', 9901, 'merchant code is blank or invalid');
    const amount = rawAmount(rawBody, 'refundAmount');
    const reason = typeof body.reason === 'string' ? body.reason : '';
    if (amount === null || !/^\d+\.\d{2}$/.test(amount)) return this.error('ResponseDataModel', 9901, 'refundAmount must have two decimals');
    if (body.signature !== sha256(`${this.merchantCode}${String(body.referenceNumber)}${amount}${reason}${this.secureKey}`)) {
      return this.error('ResponseDataModel', 9946, 'Wrong Signature');
    }
    const order = this.orders.find((o) => o.fawryRefNumber === body.referenceNumber);
    if (!order) return this.error('ResponseDataModel', 9938, 'payment not found');
    if (order.paymentMethod === 'PayAtFawry') return this.error('ResponseDataModel', 9901, 'order is not refundable');
    const refund = toMinor(amount);
    if (!['PAID', 'PARTIAL_REFUNDED'].includes(order.orderStatus) || order.refundedMinor + refund > order.orderAmountMinor) {
      return this.error('ResponseDataModel', 9901, 'refund amount exceeds the paid amount');
    }
    order.refundedMinor += refund;
    order.orderStatus = order.refundedMinor === order.orderAmountMinor ? 'REFUNDED' : 'PARTIAL_REFUNDED';
    return JSON.stringify({ type: 'ResponseDataModel', statusCode: 200, statusDescription: 'Operation done successfully' });
  }

  /** The order in the status V2 / notification V2 shape, with its messageSignature. */
  private orderJson(order: FakeOrder, withStatusCode: boolean): string {
    const paymentMethod = order.paymentMethod === 'PayAtFawry' ? 'PayAtFawry' : 'MWALLET';
    const messageSignature = sha256(
      order.fawryRefNumber +
        order.merchantRefNumber +
        dec(order.paymentAmountMinor) +
        dec(order.orderAmountMinor) +
        order.orderStatus +
        paymentMethod +
        (order.paymentRefrenceNumber ?? '') +
        this.secureKey,
    );
    return jsonWithAmounts(
      {
        requestId: sha256(order.fawryRefNumber + order.orderStatus).slice(0, 32),
        fawryRefNumber: order.fawryRefNumber,
        merchantRefNumber: order.merchantRefNumber,
        customerName: order.customerName,
        customerMobile: order.customerMobile,
        customerMail: order.customerMail,
        orderStatus: order.orderStatus,
        paymentMethod,
        ...(order.paymentTime === null ? {} : { paymentTime: order.paymentTime }),
        ...(order.paymentRefrenceNumber === null ? {} : { paymentRefrenceNumber: order.paymentRefrenceNumber }),
        ...(order.paymentExpiry === null ? {} : { orderExpiryDate: order.paymentExpiry }),
        orderItems: [{ itemCode: order.merchantRefNumber, price: dec(order.orderAmountMinor), quantity: 1 }],
        messageSignature,
        ...(withStatusCode ? { statusCode: 200, statusDescription: 'Operation done successfully' } : {}),
      },
      { paymentAmount: order.paymentAmountMinor, orderAmount: order.orderAmountMinor, fawryFees: order.fawryFeesMinor },
    );
  }
}
