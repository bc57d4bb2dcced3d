// The FawryPay connector (built through its definition) against the fake FawryPay over real HTTP:
// PayAtFawry references and wallet request-to-pay, reuse of an order by our reference, signed V2
// notifications, status V2, wallet refunds and the cash refusal, faults, and every status mapping.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { AppError } from '../../src/core/errors.js';
import { UpstreamRefusedError, UpstreamUnavailableError, type Channel, type CreateCollectionRequest } from '../../src/connectors/channel.js';
import { connectorByName } from '../../src/connectors/catalog.js';
import { fawryDefinition } from '../../src/connectors/fawry/definition.js';
import {
  ORDER_STATUS,
  chargeSignature,
  fromDecimal,
  fromMerchantRefNumber,
  mapOrderStatus,
  paidAmount,
  toDecimal,
  toEgyptianMobile,
  toJson,
  toMerchantRefNum,
  RawDecimal,
} from '../../src/connectors/fawry/transformers.js';
import { CHARGE_PATH, FakeFawry, REFUND_PATH, STATUS_PATH } from '../fakes/fawry.js';

const FIXTURES = new URL('../fixtures/connectors/fawry/', import.meta.url);
const fixture = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');
const FIXTURE_KEY = 'fixture-secure-key-259af31fc2f74453';

let fake: FakeFawry;
let channel: Channel;
let callbacks: string[] = [];
let receiver: Server;
const opened: Channel[] = [];

const build = (overrides: { secureKey?: string; merchantCode?: string; timeoutMs?: number; baseUrl?: string } = {}): Channel => {
  const built = fawryDefinition.create({
    baseUrl: overrides.baseUrl ?? fake.url,
    credentials: { merchantCode: overrides.merchantCode ?? fake.merchantCode, secureKey: overrides.secureKey ?? fake.secureKey },
    timeoutMs: overrides.timeoutMs ?? 2_000,
    clock: systemClock,
    callbackUrl: 'https://paygate.example/v1/callbacks/fawry',
  });
  opened.push(built);
  return built;
};

let counter = 0;
const newRef = (): string => {
  counter += 1;
  return `0193a1b2-c3d4-7e8f-9a0b-${counter.toString(16).padStart(12, '0')}`;
};
const compact = (ref: string): string => ref.replaceAll('-', '');

const request = (overrides: Partial<CreateCollectionRequest> = {}): CreateCollectionRequest => ({
  transactionRef: newRef(),
  merchantId: 'm_1',
  currency: 'EGP',
  method: 'FAWRY',
  amountMinor: 10_050n,
  payerName: 'Mona Adel',
  payerEmail: 'payer@example.com',
  payerPhone: '+20 100 454 5545',
  expiresAtMs: Date.now() + 30 * 60_000,
  redirectUrl: 'https://merchant.example/return',
  ...overrides,
});

const refusal = async (promise: Promise<unknown>): Promise<UpstreamRefusedError> => {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(UpstreamRefusedError);
  return error as UpstreamRefusedError;
};

beforeAll(async () => {
  fake = await FakeFawry.start();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      callbacks.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  fake.setCallbackUrl(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/callbacks/fawry`);
  channel = build();
});

afterEach(() => {
  callbacks = [];
});

afterAll(async () => {
  await Promise.all(opened.map((c) => c.close?.()));
  await fake.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('definition', () => {
  it('declares EGP FAWRY (not refundable) and WALLET (refundable) pay-ins, no payouts, and is in the catalog', () => {
    expect(connectorByName('fawry')).toBe(fawryDefinition);
    expect(fawryDefinition.defaultBaseUrl).toBe('https://www.atfawry.com');
    expect(fawryDefinition.capabilities).toEqual([
      { currency: 'EGP', direction: 'payin', method: 'FAWRY', refunds: false },
      { currency: 'EGP', direction: 'payin', method: 'WALLET', refunds: true },
    ]);
    expect(fawryDefinition.credentials.map((c) => [c.name, c.secret])).toEqual([
      ['merchantCode', false],
      ['secureKey', true],
    ]);
  });
});

describe('pure mapping', () => {
  it('maps every documented orderStatus', () => {
    const table: Record<string, string> = {
      NEW: 'PENDING',
      UNPAID: 'PENDING',
      PAID: 'PAID',
      DELIVERED: 'PAID',
      REFUNDED: 'PAID',
      PARTIAL_REFUNDED: 'PAID',
      CANCELED: 'FAILED',
      CANCELLED: 'FAILED',
      FAILED: 'FAILED',
      EXPIRED: 'EXPIRED',
    };
    expect(ORDER_STATUS).toEqual(table);
    for (const [status, ours] of Object.entries(table)) expect(mapOrderStatus(status)).toBe(ours);
    expect(mapOrderStatus('SHIPPED')).toBeNull();
  });

  it('builds and reads EGP decimals exactly', () => {
    expect(toDecimal(10_000n)).toBe('100.00');
    expect(toDecimal(5n)).toBe('0.05');
    expect(toDecimal(1_234_567_890_123_456n)).toBe('12345678901234.56');
    expect(fromDecimal('840.0')).toBe(84_000n);
    expect(fromDecimal('152.00')).toBe(15_200n);
    expect(fromDecimal('20')).toBe(2_000n);
    expect(fromDecimal('0.105')).toBeNull();
    expect(fromDecimal('1.100')).toBe(110n);
    expect(toJson({ amount: new RawDecimal('100.00'), n: 'x' })).toBe('{"amount":100.00,"n":"x"}');
  });

  it('derives merchantRefNum from our UUID and back, and normalizes Egyptian mobiles', () => {
    const ref = '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b';
    expect(toMerchantRefNum(ref)).toBe('0193a1b2c3d47e8f9a0b1c2d3e4f5a6b');
    expect(fromMerchantRefNumber('0193a1b2c3d47e8f9a0b1c2d3e4f5a6b')).toBe(ref);
    expect(toMerchantRefNum('has-dash-but-no-uuid')).toBeNull();
    expect(toEgyptianMobile('+201004545545')).toBe('01004545545');
    expect(toEgyptianMobile('0020 100 454 5545')).toBe('01004545545');
    expect(toEgyptianMobile('01004545545')).toBe('01004545545');
    expect(toEgyptianMobile('+2348012345678')).toBeNull();
  });

  it('signs the charge over the documented concatenation', () => {
    const expected = createHash('sha256').update('MCref1PayAtFawry100.00KEY').digest('hex');
    expect(chargeSignature('MC', 'ref1', 'PayAtFawry', '100.00', '', 'KEY')).toBe(expected);
    const wallet = createHash('sha256').update('MCref1MWALLET100.0001004545545KEY').digest('hex');
    expect(chargeSignature('MC', 'ref1', 'MWALLET', '100.00', '01004545545', 'KEY')).toBe(wallet);
  });

  it('reports what was paid toward the order, without a fee the customer bore', () => {
    expect(paidAmount('152.00', '150.00', '2.00')).toBe(15_000n);
    expect(paidAmount('150.00', '150.00', '2.00')).toBe(15_000n);
    expect(paidAmount('140.00', '150.00', '0.00')).toBe(14_000n);
  });
});

describe('FAWRY reference number', () => {
  it('creates a PayAtFawry charge whose reference the checkout shows, expiring with the payment', async () => {
    const req = request();
    const collection = await channel.createCollection(req);
    const order = fake.order(compact(req.transactionRef))!;
    expect(collection).toEqual({ upstreamRef: order.fawryRefNumber, instructions: { kind: 'FAWRY', referenceCode: order.fawryRefNumber } });
    const charge = fake.requests.filter((r) => r.path === CHARGE_PATH).at(-1)!;
    const body = JSON.parse(charge.rawBody) as Record<string, unknown>;
    expect(charge.rawBody).toContain('"amount":100.50');
    expect(body).toMatchObject({ paymentMethod: 'PayAtFawry', paymentExpiry: req.expiresAtMs, currencyCode: 'EGP', customerMobile: '01004545545', merchantRefNum: compact(req.transactionRef) });
    expect(body.orderWebHookUrl).toBe('https://paygate.example/v1/callbacks/fawry');
    // the order was looked up by our reference before it was created
    const status = fake.requests.filter((r) => r.path === STATUS_PATH).at(-1)!;
    expect(status.query.merchantRefNumber).toBe(compact(req.transactionRef));
  });

  it('asks Fawry once for one transactionRef, even after a lost answer', async () => {
    const req = request();
    const first = await channel.createCollection(req);
    const again = await channel.createCollection(req);
    expect(again).toEqual(first);
    expect(fake.chargesFor(compact(req.transactionRef))).toBe(1);

    const lost = request();
    fake.nextAnswer(CHARGE_PATH, 'lost');
    const quick = build({ timeoutMs: 300 });
    await expect(quick.createCollection(lost)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    const retried = await channel.createCollection(lost);
    expect(retried.instructions.referenceCode).toBe(fake.order(compact(lost.transactionRef))!.fawryRefNumber);
    expect(fake.chargesFor(compact(lost.transactionRef))).toBe(1);
  });

  it('the payer pays at an outlet: the signed notification gives PAID with the amount paid', async () => {
    const req = request({ amountMinor: 15_000n });
    await channel.createCollection(req);
    await fake.pay(compact(req.transactionRef), { feesMinor: 200n, customerPaysFees: true });
    expect(callbacks).toHaveLength(1);
    const callback = channel.parseCallback({ 'content-type': 'application/json' }, Buffer.from(callbacks[0]!));
    expect(callback).toEqual({
      kind: 'collection',
      transactionRef: req.transactionRef,
      state: { upstreamRef: fake.order(compact(req.transactionRef))!.fawryRefNumber, status: 'PAID', paidAmountMinor: 15_000n },
    });
    const state = await channel.queryCollection(req.transactionRef, null);
    expect(state).toMatchObject({ status: 'PAID', paidAmountMinor: 15_000n });
  });

  it('an under- or overpaid order reports the amount actually paid', async () => {
    for (const paid of [9_000n, 12_345n]) {
      const req = request({ amountMinor: 10_000n, method: 'WALLET' });
      await channel.createCollection(req);
      const body = await fake.pay(compact(req.transactionRef), { amountMinor: paid });
      const callback = channel.parseCallback({}, Buffer.from(body));
      expect(callback).toMatchObject({ kind: 'collection', state: { status: 'PAID', paidAmountMinor: paid } });
    }
  });

  it('queryCollection follows the order: pending, expired, canceled, not found', async () => {
    const req = request();
    const { upstreamRef } = await channel.createCollection(req);
    expect(await channel.queryCollection(req.transactionRef, upstreamRef)).toEqual({ upstreamRef, status: 'PENDING' });
    await fake.setStatus(compact(req.transactionRef), 'EXPIRED');
    expect(await channel.queryCollection(req.transactionRef, upstreamRef)).toEqual({ upstreamRef, status: 'EXPIRED' });
    await fake.setStatus(compact(req.transactionRef), 'CANCELED');
    expect(await channel.queryCollection(req.transactionRef, upstreamRef)).toMatchObject({ status: 'FAILED', failureReason: 'UPSTREAM_CANCELLED' });
    const failed = await fake.setStatus(compact(req.transactionRef), 'FAILED');
    expect(channel.parseCallback({}, Buffer.from(failed))).toMatchObject({ state: { status: 'FAILED', failureReason: 'UPSTREAM_DECLINED' } });
    await expect(channel.queryCollection(newRef())).rejects.toMatchObject({ reason: 'NOT_FOUND' });
  });

  it('refuses to refund cash paid at Fawry without asking Fawry to', async () => {
    const req = request();
    const { upstreamRef } = await channel.createCollection(req);
    await fake.pay(compact(req.transactionRef));
    const before = fake.requests.filter((r) => r.path === REFUND_PATH).length;
    const error = await refusal(channel.refund({ transactionRef: req.transactionRef, upstreamRef, amountMinor: req.amountMinor }));
    expect(error.failureReason).toBe('PAYMENT_NOT_REFUNDABLE');
    expect(fake.requests.filter((r) => r.path === REFUND_PATH).length).toBe(before);
  });
});

describe('WALLET request-to-pay', () => {
  it('sends MWALLET to the payer\'s mobile and shows the phone', async () => {
    const req = request({ method: 'WALLET', payerPhone: '+201027050131' });
    const collection = await channel.createCollection(req);
    expect(collection.instructions).toMatchObject({ kind: 'MOBILE_WALLET', walletPhone: '01027050131' });
    const body = JSON.parse(fake.requests.filter((r) => r.path === CHARGE_PATH).at(-1)!.rawBody) as Record<string, unknown>;
    expect(body).toMatchObject({ paymentMethod: 'MWALLET', debitMobileWalletNo: '01027050131' });
    expect(body.paymentExpiry).toBeUndefined();
  });

  it('refuses a payer phone that is no Egyptian mobile before calling Fawry', async () => {
    const error = await refusal(channel.createCollection(request({ method: 'WALLET', payerPhone: '+2348012345678' })));
    expect(error.failureReason).toBe('INVALID_ACCOUNT');
  });

  it('refunds a paid wallet payment once, even when asked again', async () => {
    const req = request({ method: 'WALLET' });
    const { upstreamRef } = await channel.createCollection(req);
    await fake.pay(compact(req.transactionRef));
    const refund = await channel.refund({ transactionRef: req.transactionRef, upstreamRef, amountMinor: req.amountMinor });
    expect(refund.refundRef).toBe(upstreamRef);
    const sent = fake.requests.filter((r) => r.path === REFUND_PATH).at(-1)!;
    expect(sent.rawBody).toContain('"refundAmount":100.50');
    expect(fake.order(compact(req.transactionRef))!.orderStatus).toBe('REFUNDED');
    const count = fake.requests.filter((r) => r.path === REFUND_PATH).length;
    await channel.refund({ transactionRef: req.transactionRef, upstreamRef, amountMinor: req.amountMinor });
    expect(fake.requests.filter((r) => r.path === REFUND_PATH).length).toBe(count);
    // a refunded order was still paid
    expect(await channel.queryCollection(req.transactionRef, upstreamRef)).toMatchObject({ status: 'PAID' });
  });

  it('refunds a smaller odd sum once: a partly refunded order asked again (a lost answer) is not refunded twice', async () => {
    const req = request({ method: 'WALLET' });
    const { upstreamRef } = await channel.createCollection(req);
    await fake.pay(compact(req.transactionRef), { amountMinor: 40_00n });
    await channel.refund({ transactionRef: req.transactionRef, upstreamRef, amountMinor: 40_00n });
    expect(fake.order(compact(req.transactionRef))).toMatchObject({ orderStatus: 'PARTIAL_REFUNDED', refundedMinor: 40_00n });
    const count = fake.requests.filter((r) => r.path === REFUND_PATH).length;
    expect(await channel.refund({ transactionRef: req.transactionRef, upstreamRef, amountMinor: 40_00n })).toEqual({ refundRef: upstreamRef });
    expect(fake.requests.filter((r) => r.path === REFUND_PATH).length).toBe(count);
    expect(fake.order(compact(req.transactionRef))!.refundedMinor).toBe(40_00n);
  });

  it('refuses to refund an unpaid order', async () => {
    const req = request({ method: 'WALLET' });
    const { upstreamRef } = await channel.createCollection(req);
    const error = await refusal(channel.refund({ transactionRef: req.transactionRef, upstreamRef, amountMinor: req.amountMinor }));
    expect(error.failureReason).toBe('PAYMENT_NOT_SUCCESSFUL');
  });
});

describe('faults and refusals', () => {
  it('wrong secure key or merchant code: credentials refused', async () => {
    for (const wrong of [build({ secureKey: 'not-the-key' }), build({ merchantCode: 'nope' })]) {
      const error = await refusal(wrong.createCollection(request()));
      expect(error.failureReason).toBe('UPSTREAM_REJECTED');
      expect(error.message).toContain('credentials refused');
      expect(['9946', '9901']).toContain(error.upstreamCode);
    }
  });

  it('a hang, a 5xx and an unreadable answer leave the outcome unknown', async () => {
    const quick = build({ timeoutMs: 200 });
    fake.nextAnswer(STATUS_PATH, 'hang');
    await expect(quick.queryCollection(newRef())).rejects.toBeInstanceOf(UpstreamUnavailableError);
    fake.nextAnswer(STATUS_PATH, { status: 503, body: '<html>busy</html>' });
    await expect(channel.createCollection(request())).rejects.toBeInstanceOf(UpstreamUnavailableError);
    fake.nextAnswer(STATUS_PATH, { status: 200, body: 'not json' });
    await expect(channel.queryCollection(newRef())).rejects.toBeInstanceOf(UpstreamUnavailableError);
    const unreachable = build({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 500 });
    await expect(unreachable.createCollection(request())).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('a documented refusal of the charge is a definitive refusal with its code', async () => {
    fake.nextAnswer(CHARGE_PATH, { status: 200, body: JSON.stringify({ type: 'ChargeResponse', statusCode: 9944, statusDescription: 'reference number is blank' }) });
    const error = await refusal(channel.createCollection(request()));
    expect(error).toMatchObject({ failureReason: 'UPSTREAM_REJECTED', upstreamCode: '9944' });
    fake.nextAnswer(CHARGE_PATH, { status: 401, body: '' });
    expect((await refusal(channel.createCollection(request()))).message).toContain('credentials refused');
  });

  it('other currencies and methods are not Fawry\'s', async () => {
    await refusal(channel.createCollection(request({ currency: 'NGN', method: 'TRANSFER' })));
  });

  it('sends no payouts, and so finds none', async () => {
    await refusal(channel.submitPayout({ transactionRef: newRef(), currency: 'EGP', method: 'WALLET', amountMinor: 100n, bankCode: null, account: '01004545545', name: 'x', phone: 'x', email: 'x' }));
    expect(await channel.queryPayout(newRef())).toEqual({ status: 'UNKNOWN' });
  });
});

describe('notifications', () => {
  const fixtureChannel = (): Channel => build({ secureKey: FIXTURE_KEY });

  it('the documented sample payloads parse to the right callbacks', () => {
    const c = fixtureChannel();
    expect(c.parseCallback({}, Buffer.from(fixture('notification-v2-paid-payatfawry.json')))).toEqual({
      kind: 'collection',
      transactionRef: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b',
      state: { upstreamRef: '970177', status: 'PAID', paidAmountMinor: 15_000n },
    });
    expect(c.parseCallback({}, Buffer.from(fixture('notification-v2-paid-wallet.json')))).toEqual({
      kind: 'collection',
      transactionRef: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6c',
      state: { upstreamRef: '765158467', status: 'PAID', paidAmountMinor: 84_000n },
    });
    expect(c.parseCallback({}, Buffer.from(fixture('notification-v2-expired.json')))).toEqual({
      kind: 'collection',
      transactionRef: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6d',
      state: { upstreamRef: '970178', status: 'EXPIRED' },
    });
  });

  it('tampered body, wrong or missing signature, another key: INVALID_SIGNATURE', () => {
    const c = fixtureChannel();
    const good = fixture('notification-v2-paid-payatfawry.json');
    const bodies = [
      good.replace('"paymentAmount": 152.00', '"paymentAmount": 1520.00'),
      good.replace('"orderStatus": "PAID"', '"orderStatus": "DELIVERED"'),
      good.replace(/"messageSignature": "([0-9a-f])/, (_m, d: string) => `"messageSignature": "${d === '0' ? '1' : '0'}`),
      good.replace(/"messageSignature": "[0-9a-f]+"/, '"messageSignature": "abc"'),
      good.replace(/,\s*"messageSignature": "[0-9a-f]+"/, ''),
      'not json',
    ];
    for (const body of bodies) {
      expect(() => c.parseCallback({}, Buffer.from(body))).toThrow(AppError);
      try {
        c.parseCallback({}, Buffer.from(body));
      } catch (error) {
        expect((error as AppError).reason).toBe('INVALID_SIGNATURE');
      }
    }
    expect(() => channel.parseCallback({}, Buffer.from(good))).toThrow(/not authentic/);
  });

  it('an authentic notification of a status we do not use is ignored', async () => {
    const req = request();
    await channel.createCollection(req);
    const body = await fake.setStatus(compact(req.transactionRef), 'SHIPPED');
    expect(channel.parseCallback({}, Buffer.from(body))).toMatchObject({ kind: 'ignored' });
  });

  it('the fake answers in the documented shapes', async () => {
    const req = request({ amountMinor: 15_000n });
    await channel.createCollection(req);
    const shape = (text: string): string[] => Object.keys(JSON.parse(text) as object).sort();
    const refused = await fetch(`${fake.url}${STATUS_PATH}?merchantCode=${encodeURIComponent(fake.merchantCode)}&merchantRefNumber=y&signature=z`).then((r) => r.text());
    expect(shape(refused)).toEqual(shape(fixture('error-wrong-signature.json')));
    const missing = await fetch(`${fake.url}${STATUS_PATH}?merchantCode=${encodeURIComponent(fake.merchantCode)}&merchantRefNumber=y&signature=${createHash('sha256').update(`${fake.merchantCode}y${fake.secureKey}`).digest('hex')}`).then((r) => r.text());
    expect(JSON.parse(missing)).toEqual(JSON.parse(fixture('status-not-found.json')));
    const notification = fake.notificationBody(compact(req.transactionRef));
    for (const key of ['requestId', 'fawryRefNumber', 'merchantRefNumber', 'paymentAmount', 'orderAmount', 'fawryFees', 'orderStatus', 'paymentMethod', 'messageSignature']) {
      expect(shape(notification)).toContain(key);
      expect(shape(fixture('notification-v2-paid-payatfawry.json'))).toContain(key);
    }
    expect(shape(fixture('charge-response-payatfawry.json'))).toEqual(
      ['type', 'referenceNumber', 'merchantRefNumber', 'paymentMethod', 'orderStatus', 'expirationTime', 'customerMobile', 'customerMail', 'statusCode', 'statusDescription', 'orderAmount', 'paymentAmount', 'fawryFees'].sort(),
    );
  });
});
