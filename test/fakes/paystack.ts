// A protocol-faithful fake of the parts of Paystack's API the connector uses, as a real HTTP server
// on 127.0.0.1: same paths, bearer-key check with Paystack's 401 body, envelopes, field names,
// statuses, error bodies and reference rules, answers shaped as the documented samples
// (test/fixtures/connectors/paystack), and webhook events signed as Paystack signs them. Tests drive
// it through plain methods (pay, completeTransfer, failTransfer, nextAnswer...), not over HTTP.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { paystackSignature } from '../../src/connectors/paystack/notifications.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'connectors', 'paystack');

type Json = Record<string, unknown>;

/** A documented sample payload, freshly parsed (callers may change it). */
export const paystackFixture = (name: string): Json => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Json;

/** A canned answer for the next request to a route, or 'hang' (never answers), or 'lose' (acts, then never answers). */
export type FakeAnswer = { readonly status: number; readonly body: unknown } | 'hang' | 'lose';

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Json | null;
}

export interface FakeCharge {
  readonly id: number;
  readonly reference: string;
  readonly amount: number;
  readonly email: string;
  readonly accountNumber: string;
  readonly accountExpiresAt: string;
  status: string;
  paidAmount: number | null;
  paidAt: string | null;
  /** When the charge was made (ISO); the day's statement lists it by this. */
  createdAt: string;
}

export interface FakeTransfer {
  readonly id: number;
  readonly reference: string;
  readonly transferCode: string;
  readonly amount: number;
  readonly recipientCode: string;
  status: string;
  gatewayResponse: string | null;
  createdAt: string;
}

interface FakeRecipient {
  readonly code: string;
  readonly id: number;
  readonly name: string;
  readonly accountNumber: string;
  readonly bankCode: string;
}

export interface SentEvent {
  readonly headers: Record<string, string>;
  readonly rawBody: Buffer;
  /** The callback URL's HTTP status, or null when no URL is set or it did not answer. */
  readonly deliveredStatus: number | null;
}

/** An account number the fake cannot resolve (recipient creation and name enquiry refuse it). */
export const UNRESOLVABLE_ACCOUNT = '0000000000';
const CHARGE_REFERENCE = /^[A-Za-z0-9.=-]+$/;
const TRANSFER_REFERENCE = /^[a-z0-9_-]{16,50}$/;

export interface PaystackFake {
  readonly url: string;
  readonly secretKey: string;
  readonly requests: LoggedRequest[];
  readonly charges: Map<string, FakeCharge>;
  readonly transfers: Map<string, FakeTransfer>;
  readonly events: SentEvent[];
  setCallbackUrl(url: string | null): void;
  /** Paystack balance in kobo that transfers draw on. */
  setBalance(kobo: number): void;
  /** The status a new transfer starts in (default `pending`). */
  setInitialTransferStatus(status: string): void;
  nextAnswer(route: string, answer: FakeAnswer): void;
  /** The payer transfers `amountKobo` (default: the charged amount); Paystack sends charge.success. */
  pay(reference: string, options?: { readonly amountKobo?: number }): Promise<SentEvent>;
  /** A payer's transfer of the wrong amount: Paystack sends it back and tells with bank.transfer.rejected. */
  rejectTransfer(reference: string, amountKobo: number): Promise<SentEvent>;
  /** The account expired unpaid: the transaction is abandoned (no event). */
  expire(reference: string): void;
  completeTransfer(reference: string): Promise<SentEvent>;
  failTransfer(reference: string, gatewayResponse?: string): Promise<SentEvent>;
  reverseTransfer(reference: string): Promise<SentEvent>;
  /** Sets a transfer's status without an event (for statuses that have none: otp, blocked, ...). */
  setTransferStatus(reference: string, status: string): void;
  /** Signs and sends any event body as Paystack would. */
  sendEvent(event: Json): Promise<SentEvent>;
  close(): Promise<void>;
}

export async function startPaystackFake(options: { readonly secretKey?: string; readonly callbackUrl?: string } = {}): Promise<PaystackFake> {
  const secretKey = options.secretKey ?? 'sk_test_fake_0123456789abcdef';
  let callbackUrl: string | null = options.callbackUrl ?? null;
  let balance = 1_000_000_000;
  let initialTransferStatus = 'pending';
  let nextId = 4_000_000_000;
  const requests: LoggedRequest[] = [];
  const charges = new Map<string, FakeCharge>();
  const transfers = new Map<string, FakeTransfer>();
  const recipients = new Map<string, FakeRecipient>();
  const events: SentEvent[] = [];
  const canned = new Map<string, FakeAnswer[]>();
  const sockets = new Set<Socket>();
  const banks = (paystackFixture('bank-list').data as Json[]).filter((bank) => bank.active === true);

  const send = (res: http.ServerResponse, status: number, body: unknown): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const refuse = (res: http.ServerResponse, status: number, message: string, extra: Json = {}): void => send(res, status, { status: false, message, ...extra });

  const chargeData = (charge: FakeCharge): Json => {
    const sample = paystackFixture('charge-pay-with-transfer').data as Json;
    return {
      ...sample,
      reference: charge.reference,
      status: charge.status === 'pending' ? 'pending_bank_transfer' : charge.status,
      amount: charge.amount,
      account_number: charge.accountNumber,
      account_expires_at: charge.accountExpiresAt,
    };
  };

  const transactionData = (charge: FakeCharge): Json => {
    const sample = paystackFixture('transaction-verify').data as Json;
    return {
      ...sample,
      id: charge.id,
      status: charge.status,
      reference: charge.reference,
      amount: charge.paidAmount ?? charge.amount,
      requested_amount: charge.amount,
      channel: 'bank_transfer',
      currency: 'NGN',
      paid_at: charge.paidAt,
      paidAt: charge.paidAt,
      gateway_response: charge.status === 'success' ? 'Approved' : charge.status === 'abandoned' ? 'The transaction was not completed' : 'Awaiting transfer',
      created_at: charge.createdAt,
      createdAt: charge.createdAt,
    };
  };

  const transferData = (transfer: FakeTransfer): Json => {
    const sample = paystackFixture('transfer-verify').data as Json;
    const recipient = [...recipients.values()].find((r) => r.code === transfer.recipientCode)!;
    const sampleRecipient = sample.recipient as Json;
    return {
      ...sample,
      id: transfer.id,
      amount: transfer.amount,
      reference: transfer.reference,
      status: transfer.status,
      transfer_code: transfer.transferCode,
      gateway_response: transfer.gatewayResponse,
      createdAt: transfer.createdAt,
      recipient: {
        ...sampleRecipient,
        id: recipient.id,
        name: recipient.name,
        recipient_code: recipient.code,
        details: { ...(sampleRecipient.details as Json), account_number: recipient.accountNumber, bank_code: recipient.bankCode, account_name: recipient.name },
      },
    };
  };

  const sendEvent = async (event: Json): Promise<SentEvent> => {
    const rawBody = Buffer.from(JSON.stringify(event));
    const headers = { 'content-type': 'application/json', 'x-paystack-signature': paystackSignature(secretKey, rawBody) };
    let deliveredStatus: number | null = null;
    if (callbackUrl !== null) {
      try {
        const response = await fetch(callbackUrl, { method: 'POST', headers, body: rawBody, signal: AbortSignal.timeout(5_000) });
        await response.body?.cancel();
        deliveredStatus = response.status;
      } catch {
        deliveredStatus = null;
      }
    }
    const sent = { headers, rawBody, deliveredStatus };
    events.push(sent);
    return sent;
  };

  const transferEvent = (name: string, transfer: FakeTransfer): Promise<SentEvent> => sendEvent({ event: name, data: transferData(transfer) });

  // ---- routes -------------------------------------------------------------------------------

  const createCharge = (body: Json, res: http.ServerResponse): void => {
    if (typeof body.email !== 'string' || body.email === '') return refuse(res, 400, 'Email Address is required', { type: 'validation_error', code: 'missing_params' });
    if (!Number.isSafeInteger(body.amount) || (body.amount as number) <= 0) return refuse(res, 400, 'Invalid Amount Sent', { type: 'validation_error', code: 'invalid_params' });
    if (typeof body.reference !== 'string' || !CHARGE_REFERENCE.test(body.reference)) return refuse(res, 400, 'Invalid transaction reference', { type: 'validation_error', code: 'invalid_params' });
    const bankTransfer = body.bank_transfer as Json | undefined;
    if (bankTransfer === undefined || typeof bankTransfer.account_expires_at !== 'string') return refuse(res, 400, 'Please specify a payment channel', { type: 'validation_error', code: 'missing_params' });
    if (charges.has(body.reference)) return send(res, 400, paystackFixture('error-duplicate-reference'));
    nextId += 1;
    const charge: FakeCharge = {
      id: nextId,
      reference: body.reference,
      amount: body.amount as number,
      email: body.email,
      accountNumber: String(1_200_000_000 + (nextId % 100_000_000)),
      accountExpiresAt: bankTransfer.account_expires_at,
      status: 'pending',
      paidAmount: null,
      paidAt: null,
      createdAt: new Date().toISOString(),
    };
    charges.set(charge.reference, charge);
    send(res, 200, { status: true, message: 'Charge attempted', data: chargeData(charge) });
  };

  const createRecipient = (body: Json, res: http.ServerResponse): void => {
    if (body.type !== 'nuban') return refuse(res, 400, 'Invalid recipient type', { type: 'validation_error', code: 'invalid_params' });
    if (typeof body.bank_code !== 'string' || !/^\d{3,6}$/.test(body.bank_code)) return refuse(res, 400, 'Unknown bank code: ' + String(body.bank_code), { type: 'validation_error', code: 'invalid_bank_code' });
    if (typeof body.account_number !== 'string' || body.account_number === UNRESOLVABLE_ACCOUNT) return refuse(res, 422, 'Cannot resolve account', { type: 'validation_error', code: 'invalid_params' });
    const key = `${body.bank_code}/${body.account_number}`;
    let recipient = recipients.get(key);
    if (recipient === undefined) {
      nextId += 1;
      recipient = { code: `RCP_${nextId.toString(36)}`, id: nextId, name: String(body.name ?? ''), accountNumber: body.account_number, bankCode: body.bank_code };
      recipients.set(key, recipient);
    }
    const sample = paystackFixture('transfer-recipient-create').data as Json;
    send(res, 201, {
      status: true,
      message: 'Transfer recipient created successfully',
      data: {
        ...sample,
        id: recipient.id,
        name: recipient.name,
        recipient_code: recipient.code,
        details: { ...(sample.details as Json), account_number: recipient.accountNumber, account_name: recipient.name, bank_code: recipient.bankCode },
      },
    });
  };

  const createTransfer = (body: Json, res: http.ServerResponse): void => {
    if (body.source !== 'balance') return refuse(res, 400, 'Invalid source', { type: 'validation_error', code: 'invalid_params' });
    if (typeof body.reference !== 'string' || !TRANSFER_REFERENCE.test(body.reference)) return refuse(res, 400, 'Invalid transfer reference', { type: 'validation_error', code: 'invalid_params' });
    if (!Number.isSafeInteger(body.amount) || (body.amount as number) <= 0) return refuse(res, 400, 'Invalid amount', { type: 'validation_error', code: 'invalid_params' });
    const recipient = [...recipients.values()].find((r) => r.code === body.recipient);
    if (recipient === undefined) return send(res, 400, paystackFixture('error-invalid-recipient'));
    if (transfers.has(body.reference)) return refuse(res, 400, 'Duplicate Transfer Reference', { type: 'validation_error', code: 'duplicate_reference' });
    if ((body.amount as number) > balance) return refuse(res, 400, 'Your balance is not enough to fulfil this request', { type: 'api_error', code: 'insufficient_balance' });
    balance -= body.amount as number;
    nextId += 1;
    const transfer: FakeTransfer = {
      id: nextId,
      reference: body.reference,
      transferCode: `TRF_${nextId.toString(36)}`,
      amount: body.amount as number,
      recipientCode: recipient.code,
      status: initialTransferStatus,
      gatewayResponse: null,
      createdAt: new Date().toISOString(),
    };
    transfers.set(transfer.reference, transfer);
    const sample = paystackFixture('transfer-initiate').data as Json;
    send(res, 200, {
      status: true,
      message: 'Transfer has been queued',
      data: { ...sample, amount: transfer.amount, reference: transfer.reference, status: transfer.status, transfer_code: transfer.transferCode, id: transfer.id, recipient: recipient.id, reason: body.reason ?? null },
    });
  };

  const listBanks = (query: URLSearchParams, res: http.ServerResponse): void => {
    const perPage = Number(query.get('perPage') ?? '50');
    const start = query.get('next') === null ? 0 : Number(Buffer.from(query.get('next')!, 'base64').toString('utf8'));
    const page = banks.slice(start, start + perPage);
    const end = start + page.length;
    const next = query.get('use_cursor') === 'true' && end < banks.length ? Buffer.from(String(end)).toString('base64') : null;
    send(res, 200, { status: true, message: 'Banks retrieved', data: page, meta: { next, previous: null, perPage } });
  };

  const resolve = (query: URLSearchParams, res: http.ServerResponse): void => {
    const account = query.get('account_number') ?? '';
    if (!/^\d{10}$/.test(account) || account === UNRESOLVABLE_ACCOUNT || !/^\d{3,6}$/.test(query.get('bank_code') ?? '')) {
      return refuse(res, 422, 'Could not resolve account name. Check parameters or try again.', { type: 'validation_error', code: 'invalid_bank_code' });
    }
    send(res, 200, { status: true, message: 'Account number resolved', data: { account_number: account, account_name: 'WES GIBBONS', bank_id: 9 } });
  };

  /** List Transactions / List Transfers: items created within from..to (inclusive), newest first, paged with perPage/page. */
  const listPage = <T extends { createdAt: string }>(items: readonly T[], view: (item: T) => Json, query: URLSearchParams, res: http.ServerResponse, message: string): void => {
    const fromMs = query.get('from') === null ? -Infinity : Date.parse(query.get('from')!);
    const toMs = query.get('to') === null ? Infinity : Date.parse(query.get('to')!);
    const perPage = Number(query.get('perPage') ?? '50');
    const page = Number(query.get('page') ?? '1');
    const chosen = items.filter((item) => Date.parse(item.createdAt) >= fromMs && Date.parse(item.createdAt) <= toMs).reverse();
    const data = chosen.slice((page - 1) * perPage, page * perPage).map(view);
    send(res, 200, { status: true, message, data, meta: { total: chosen.length, skipped: (page - 1) * perPage, perPage, page, pageCount: Math.max(1, Math.ceil(chosen.length / perPage)) } });
  };

  const route = (method: string, pathname: string, query: URLSearchParams, body: Json, res: http.ServerResponse): void => {
    let match: RegExpExecArray | null;
    if (method === 'GET' && pathname === '/transaction') return listPage([...charges.values()], transactionData, query, res, 'Transactions retrieved');
    if (method === 'GET' && pathname === '/transfer') return listPage([...transfers.values()], transferData, query, res, 'Transfers retrieved');
    if (method === 'POST' && pathname === '/charge') return createCharge(body, res);
    if (method === 'GET' && (match = /^\/charge\/([^/]+)$/.exec(pathname))) {
      const charge = charges.get(decodeURIComponent(match[1]!));
      return charge === undefined ? refuse(res, 404, 'Transaction not found') : send(res, 200, { status: true, message: 'Charge attempted', data: chargeData(charge) });
    }
    if (method === 'GET' && (match = /^\/transaction\/verify\/([^/]+)$/.exec(pathname))) {
      const charge = charges.get(decodeURIComponent(match[1]!));
      // Paystack answers an unknown reference with 400 and this message.
      return charge === undefined ? refuse(res, 400, 'Transaction reference not found') : send(res, 200, { status: true, message: 'Verification successful', data: transactionData(charge) });
    }
    if (method === 'POST' && pathname === '/transferrecipient') return createRecipient(body, res);
    if (method === 'POST' && pathname === '/transfer') return createTransfer(body, res);
    if (method === 'GET' && (match = /^\/transfer\/verify\/([^/]+)$/.exec(pathname))) {
      const transfer = transfers.get(decodeURIComponent(match[1]!));
      return transfer === undefined ? send(res, 404, paystackFixture('error-transfer-not-found')) : send(res, 200, { status: true, message: 'Transfer retrieved', data: transferData(transfer) });
    }
    if (method === 'GET' && pathname === '/bank') return listBanks(query, res);
    if (method === 'GET' && pathname === '/bank/resolve') return resolve(query, res);
    refuse(res, 404, 'Not found');
  };

  const takeCanned = (method: string, pathname: string): FakeAnswer | undefined => {
    for (const key of [`${method} ${pathname}`, ...[...canned.keys()].filter((k) => k.endsWith('*') && `${method} ${pathname}`.startsWith(k.slice(0, -1)))]) {
      const queue = canned.get(key);
      if (queue !== undefined && queue.length > 0) {
        const answer = queue.shift()!;
        if (queue.length === 0) canned.delete(key);
        return answer;
      }
    }
    return undefined;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Json | null = null;
      if (text !== '') {
        try {
          body = JSON.parse(text) as Json;
        } catch {
          return refuse(res, 400, 'Invalid JSON body');
        }
      }
      requests.push({ method, path: url.pathname, query: url.searchParams, headers: req.headers, body });
      if (req.headers.authorization !== `Bearer ${secretKey}`) return send(res, 401, paystackFixture('error-invalid-key'));
      const answer = takeCanned(method, url.pathname);
      if (answer === 'hang') return;
      if (answer === 'lose') {
        // Acts as asked, then the answer is lost on the way back.
        const lost = new http.ServerResponse(req);
        route(method, url.pathname, url.searchParams, body ?? {}, lost);
        return;
      }
      if (answer !== undefined) return send(res, answer.status, answer.body);
      route(method, url.pathname, url.searchParams, body ?? {}, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const charge = (reference: string): FakeCharge => {
    const found = charges.get(reference);
    if (found === undefined) throw new Error(`fake Paystack has no charge ${reference}`);
    return found;
  };
  const transfer = (reference: string): FakeTransfer => {
    const found = transfers.get(reference);
    if (found === undefined) throw new Error(`fake Paystack has no transfer ${reference}`);
    return found;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    requests,
    charges,
    transfers,
    events,
    setCallbackUrl: (url) => {
      callbackUrl = url;
    },
    setBalance: (kobo) => {
      balance = kobo;
    },
    setInitialTransferStatus: (status) => {
      initialTransferStatus = status;
    },
    nextAnswer: (routeKey, answer) => {
      canned.set(routeKey, [...(canned.get(routeKey) ?? []), answer]);
    },
    pay: (reference, payOptions = {}) => {
      const paid = charge(reference);
      paid.status = 'success';
      paid.paidAmount = payOptions.amountKobo ?? paid.amount;
      paid.paidAt = new Date().toISOString();
      const sample = paystackFixture('event-pwt-charge-successful');
      return sendEvent({ ...sample, data: { ...(sample.data as Json), ...transactionData(paid), paid_at: paid.paidAt } });
    },
    rejectTransfer: (reference, amountKobo) => {
      const rejected = charge(reference);
      const sample = paystackFixture('event-pwt-bank-transfer-rejected');
      const data = sample.data as Json;
      return sendEvent({
        ...sample,
        data: { ...data, bank_transfer: { ...(data.bank_transfer as Json), amount: String(amountKobo), transaction_id: String(rejected.id) }, customer: { ...(data.customer as Json), email: rejected.email } },
      });
    },
    expire: (reference) => {
      charge(reference).status = 'abandoned';
    },
    completeTransfer: (reference) => {
      const done = transfer(reference);
      done.status = 'success';
      return transferEvent('transfer.success', done);
    },
    failTransfer: (reference, gatewayResponse) => {
      const failed = transfer(reference);
      failed.status = 'failed';
      failed.gatewayResponse = gatewayResponse ?? null;
      balance += failed.amount;
      return transferEvent('transfer.failed', failed);
    },
    reverseTransfer: (reference) => {
      const reversed = transfer(reference);
      reversed.status = 'reversed';
      balance += reversed.amount;
      return transferEvent('transfer.reversed', reversed);
    },
    setTransferStatus: (reference, status) => {
      transfer(reference).status = status;
    },
    sendEvent,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
