// The Xendit connector against the fake Xendit over real HTTP: every IDR pay-in method, one
// upstream object per reference, callbacks authenticated by the callback token, queries,
// refunds, payouts with their statuses and failure codes, and the fault paths (hang, 5xx,
// unreadable body, lost answer, wrong credentials).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { AppError } from '../../src/core/errors.js';
import { connectorByName } from '../../src/connectors/catalog.js';
import { UpstreamRefusedError, UpstreamUnavailableError, type Channel, type ChannelCallback, type CreateCollectionRequest } from '../../src/connectors/channel.js';
import { xenditDefinition } from '../../src/connectors/xendit/definition.js';
import {
  EWALLET_FAILURE,
  EWALLET_STATUS,
  IDR_PAYOUT_CHANNELS,
  PAYOUT_FAILURE,
  PAYOUT_STATUS,
  fromRupiah,
  payoutFailureReason,
  toE164Indonesia,
  toRupiah,
} from '../../src/connectors/xendit/transformers.js';
import { IDR_BANKS } from '../../src/domain/banks/idr.js';
import { XenditFake, xenditFixture } from '../fakes/xendit.js';

let fake: XenditFake;
let channel: Channel;
let receiver: Server;
const clock = new ManualClock(Date.now());
/** What the callback receiver made of each delivery, in order. */
const parsed: Array<ChannelCallback | AppError> = [];
let seq = 0;
const ref = (): string => `PGX${Date.now().toString(36)}${(seq++).toString().padStart(3, '0')}`;

const build = (options: { secretKey?: string; timeoutMs?: number } = {}): Channel =>
  xenditDefinition.create({
    baseUrl: fake.url,
    credentials: { secretKey: options.secretKey ?? fake.secretKey, callbackToken: fake.callbackToken },
    timeoutMs: options.timeoutMs ?? 2_000,
    clock,
    callbackUrl: 'https://paygate.example/v1/callbacks/xendit',
  });

const request = (method: string, overrides: Partial<CreateCollectionRequest> = {}): CreateCollectionRequest => ({
  transactionRef: ref(),
  merchantId: 'm_1',
  currency: 'IDR',
  method,
  amountMinor: 15_000_000n,
  payerName: 'Budi Santoso',
  payerEmail: 'budi@example.id',
  payerPhone: '081234567890',
  expiresAtMs: Date.now() + 30 * 60_000,
  redirectUrl: 'https://merchant.example/return',
  ...overrides,
});

const payout = (transactionRef = ref(), overrides: Record<string, unknown> = {}) => ({
  transactionRef,
  currency: 'IDR' as const,
  method: 'TRANSFER',
  amountMinor: 5_000_000n,
  bankCode: '00014',
  account: '1234567890',
  name: 'Siti Rahma',
  phone: '081234567890',
  email: 'siti@example.id',
  ...overrides,
});

const lastCallback = (): ChannelCallback => {
  const last = parsed[parsed.length - 1];
  if (last === undefined || last instanceof AppError) throw new Error(`no parsed callback: ${String(last)}`);
  return last;
};

beforeAll(async () => {
  fake = await XenditFake.start();
  channel = build();
  // Our side of the callbacks: hands the raw request to the connector, answers 200 or 401 as the service would.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        parsed.push(channel.parseCallback(req.headers, Buffer.concat(chunks)));
        res.writeHead(200).end('{}');
      } catch (error) {
        parsed.push(error as AppError);
        res.writeHead(error instanceof AppError ? error.status : 500).end('{}');
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  fake.callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/callbacks/xendit`;
});

afterAll(async () => {
  await channel.close?.();
  await fake.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

beforeEach(() => {
  clock.set(Date.now());
});

describe('definition', () => {
  it('is in the catalog with the capabilities and credentials of the issue', () => {
    expect(connectorByName('xendit')).toBe(xenditDefinition);
    expect(xenditDefinition.defaultBaseUrl).toBe('https://api.xendit.co');
    expect(xenditDefinition.credentials.map((c) => [c.name, c.secret])).toEqual([
      ['secretKey', true],
      ['callbackToken', true],
    ]);
    const payins = xenditDefinition.capabilities.filter((c) => c.direction === 'payin').map((c) => [c.method, c.refunds]);
    expect(payins).toEqual([
      ['BNI', false],
      ['BRI', false],
      ['MANDIRI', false],
      ['PERMATA', false],
      ['QRIS', true],
      ['OVO', true],
      ['DANA', true],
    ]);
    expect(xenditDefinition.capabilities.every((c) => c.currency === 'IDR')).toBe(true);
    expect(xenditDefinition.capabilities.filter((c) => c.direction === 'payout').map((c) => c.method)).toEqual(['TRANSFER']);
  });
});

describe('virtual accounts', () => {
  it.each(['BNI', 'BRI', 'MANDIRI', 'PERMATA'])('%s: a closed, single-use VA expiring with the checkout, shown with its number and bank', async (method) => {
    const req = request(method);
    const collection = await channel.createCollection(req);
    expect(collection.instructions.kind).toBe('VIRTUAL_ACCOUNT');
    expect(collection.instructions.accountNumber).toMatch(/^\d{10,}$/);
    expect(collection.instructions.bankName).toBeTruthy();
    expect(collection.instructions.accountName).toBe('Budi Santoso');
    const sent = fake.requests.filter((r) => r.path === '/callback_virtual_accounts').at(-1)!;
    expect(sent.headers.authorization).toBe('Basic ' + Buffer.from(`${fake.secretKey}:`).toString('base64'));
    expect(sent.headers['x-idempotency-key']).toBe(req.transactionRef);
    expect(sent.body).toMatchObject({
      external_id: req.transactionRef,
      bank_code: method,
      is_closed: true,
      is_single_use: true,
      expected_amount: 150_000,
      expiration_date: new Date(req.expiresAtMs).toISOString(),
    });
  });

  it('creating twice for one reference makes one VA and answers the same number', async () => {
    const req = request('BNI');
    const first = await channel.createCollection(req);
    const second = await channel.createCollection(req);
    expect(second).toEqual(first);
    expect(fake.count('va', req.transactionRef)).toBe(1);
  });

  it('the payer pays: the callback gives PAID with the amount paid; the query agrees', async () => {
    const req = request('MANDIRI');
    const collection = await channel.createCollection(req);
    const delivery = await fake.pay(req.transactionRef);
    expect(delivery.status).toBe(200);
    expect(lastCallback()).toEqual({
      kind: 'collection',
      transactionRef: req.transactionRef,
      state: { upstreamRef: collection.upstreamRef, status: 'PAID', paidAmountMinor: 15_000_000n },
    });
    expect(await channel.queryCollection(req.transactionRef, collection.upstreamRef)).toEqual({
      upstreamRef: collection.upstreamRef,
      status: 'PAID',
      paidAmountMinor: 15_000_000n,
    });
  });

  it('an under- or overpaid callback carries the amount actually paid', async () => {
    const req = request('BRI');
    await channel.createCollection(req);
    await fake.pay(req.transactionRef, { amountMinor: 14_000_000n });
    expect(lastCallback()).toMatchObject({ state: { status: 'PAID', paidAmountMinor: 14_000_000n } });
  });

  it('queries PENDING while open and EXPIRED after the expiry', async () => {
    const req = request('PERMATA');
    const collection = await channel.createCollection(req);
    expect((await channel.queryCollection(req.transactionRef, collection.upstreamRef)).status).toBe('PENDING');
    fake.expire(req.transactionRef);
    expect((await channel.queryCollection(req.transactionRef, collection.upstreamRef)).status).toBe('EXPIRED');
  });

  it('is not refundable', async () => {
    const req = request('BNI');
    const collection = await channel.createCollection(req);
    await fake.pay(req.transactionRef);
    await expect(channel.refund({ transactionRef: req.transactionRef, upstreamRef: collection.upstreamRef, amountMinor: req.amountMinor })).rejects.toMatchObject({
      failureReason: 'PAYMENT_NOT_REFUNDABLE',
    });
  });

  it('an amount with sen is refused before anything is sent', async () => {
    const before = fake.requests.length;
    await expect(channel.createCollection(request('BNI', { amountMinor: 10_050n }))).rejects.toMatchObject({ failureReason: 'UPSTREAM_REJECTED' });
    expect(fake.requests.length).toBe(before);
  });
});

describe('QRIS', () => {
  it('a dynamic QR with the EMV payload; paid -> PAID by callback and query; refunded through the QR payment', async () => {
    const req = request('QRIS', { amountMinor: 2_500_000n });
    const collection = await channel.createCollection(req);
    expect(collection.upstreamRef).toMatch(/^qr_/);
    expect(collection.instructions).toEqual({ kind: 'QRIS', qrPayload: expect.stringMatching(/^000201/) });
    const sent = fake.requests.filter((r) => r.path === '/qr_codes').at(-1)!;
    expect(sent.headers['api-version']).toBe('2022-07-31');
    expect(sent.body).toMatchObject({ reference_id: req.transactionRef, type: 'DYNAMIC', currency: 'IDR', amount: 25_000 });
    expect((await channel.queryCollection(req.transactionRef, collection.upstreamRef)).status).toBe('PENDING');

    await fake.pay(req.transactionRef, { amountMinor: 2_600_000n });
    expect(lastCallback()).toEqual({
      kind: 'collection',
      transactionRef: req.transactionRef,
      state: { upstreamRef: collection.upstreamRef, status: 'PAID', paidAmountMinor: 2_600_000n },
    });
    expect(await channel.queryCollection(req.transactionRef, collection.upstreamRef)).toMatchObject({ status: 'PAID', paidAmountMinor: 2_600_000n });

    const refund = await channel.refund({ transactionRef: req.transactionRef, upstreamRef: collection.upstreamRef, amountMinor: 2_600_000n });
    expect(refund.refundRef).toMatch(/^qrpyr_/);
    expect(fake.requests.at(-1)!.path).toMatch(/^\/qr_codes\/payments\/qrpy_[^/]+\/refunds$/);
  });

  it('creating twice makes one QR code; an unpaid QR refunds nothing', async () => {
    const req = request('QRIS');
    const first = await channel.createCollection(req);
    expect(await channel.createCollection(req)).toEqual(first);
    expect(fake.count('qr', req.transactionRef)).toBe(1);
    await expect(channel.refund({ transactionRef: req.transactionRef, upstreamRef: first.upstreamRef, amountMinor: req.amountMinor })).rejects.toMatchObject({
      failureReason: 'PAYMENT_NOT_SUCCESSFUL',
    });
    fake.expire(req.transactionRef);
    expect((await channel.queryCollection(req.transactionRef, first.upstreamRef)).status).toBe('EXPIRED');
  });
});

describe('e-wallets', () => {
  it('OVO: the charge goes to the payer\'s number in E.164; the wallet phone is shown', async () => {
    const req = request('OVO', { amountMinor: 5_000_000n });
    const collection = await channel.createCollection(req);
    expect(collection.upstreamRef).toMatch(/^ewc_/);
    expect(collection.instructions).toEqual({ kind: 'EWALLET', walletPhone: '081234567890' });
    expect(fake.requests.at(-1)!.body).toMatchObject({
      reference_id: req.transactionRef,
      currency: 'IDR',
      amount: 50_000,
      checkout_method: 'ONE_TIME_PAYMENT',
      channel_code: 'ID_OVO',
      channel_properties: { mobile_number: '+6281234567890' },
    });
  });

  it('DANA: the checkout URL goes in intentUrl, the phone in walletPhone', async () => {
    const req = request('DANA');
    const collection = await channel.createCollection(req);
    expect(collection.instructions).toEqual({ kind: 'EWALLET', walletPhone: '081234567890', intentUrl: expect.stringMatching(/^https:\/\//) });
    expect(fake.requests.at(-1)!.body).toMatchObject({ channel_code: 'ID_DANA', channel_properties: { success_redirect_url: req.redirectUrl } });
  });

  it('creating twice makes one charge', async () => {
    const req = request('DANA');
    const first = await channel.createCollection(req);
    expect(await channel.createCollection(req)).toEqual(first);
    expect(fake.count('charge', req.transactionRef)).toBe(1);
  });

  it('paid -> PAID (callback and query); DANA refunds, OVO voids', async () => {
    const dana = request('DANA');
    const danaCollection = await channel.createCollection(dana);
    await fake.pay(dana.transactionRef, { amountMinor: 14_900_000n });
    expect(lastCallback()).toEqual({
      kind: 'collection',
      transactionRef: dana.transactionRef,
      state: { upstreamRef: danaCollection.upstreamRef, status: 'PAID', paidAmountMinor: 14_900_000n },
    });
    expect(await channel.queryCollection(dana.transactionRef, danaCollection.upstreamRef)).toMatchObject({ status: 'PAID', paidAmountMinor: 14_900_000n });
    expect((await channel.refund({ transactionRef: dana.transactionRef, upstreamRef: danaCollection.upstreamRef, amountMinor: 14_900_000n })).refundRef).toMatch(/^ewr_/);

    const ovo = request('OVO');
    const ovoCollection = await channel.createCollection(ovo);
    await fake.pay(ovo.transactionRef);
    const voided = await channel.refund({ transactionRef: ovo.transactionRef, upstreamRef: ovoCollection.upstreamRef, amountMinor: ovo.amountMinor });
    expect(voided.refundRef).toBe(`void-${ovoCollection.upstreamRef}`);
    expect(fake.requests.at(-1)!.path).toBe(`/ewallets/charges/${ovoCollection.upstreamRef}/void`);
  });

  it('a failed charge -> FAILED with the mapped reason', async () => {
    const req = request('OVO');
    const collection = await channel.createCollection(req);
    await fake.failCharge(req.transactionRef, 'USER_DECLINED_PAYMENT');
    expect(lastCallback()).toEqual({
      kind: 'collection',
      transactionRef: req.transactionRef,
      state: { upstreamRef: collection.upstreamRef, status: 'FAILED', failureReason: 'PAYER_DECLINED' },
    });
    expect(await channel.queryCollection(req.transactionRef, collection.upstreamRef)).toMatchObject({ status: 'FAILED', failureReason: 'PAYER_DECLINED' });
  });

  it('a refund Xendit refuses -> UpstreamRefusedError', async () => {
    const req = request('DANA');
    const collection = await channel.createCollection(req);
    await expect(channel.refund({ transactionRef: req.transactionRef, upstreamRef: collection.upstreamRef, amountMinor: req.amountMinor })).rejects.toMatchObject({
      failureReason: 'PAYMENT_NOT_REFUNDABLE',
      upstreamCode: 'INELIGIBLE_TRANSACTION',
    });
  });

  it('OVO without a usable mobile number is refused before anything is sent', async () => {
    await expect(channel.createCollection(request('OVO', { payerPhone: '12' }))).rejects.toMatchObject({ failureReason: 'INVALID_ACCOUNT' });
  });
});

describe('payouts', () => {
  it('submits with Idempotency-key and reference_id = our reference, mapped channel, whole rupiah', async () => {
    const submission = payout();
    expect(await channel.submitPayout(submission)).toMatchObject({ status: 'PROCESSING', upstreamRef: expect.stringMatching(/^disb-/) });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/v2/payouts');
    expect(sent.headers['idempotency-key']).toBe(submission.transactionRef);
    expect(sent.body).toMatchObject({
      reference_id: submission.transactionRef,
      channel_code: 'ID_BCA',
      channel_properties: { account_number: '1234567890', account_holder_name: 'Siti Rahma' },
      amount: 50_000,
      currency: 'IDR',
    });
    expect(await channel.queryPayout(submission.transactionRef)).toMatchObject({ status: 'PROCESSING' });
  });

  it('e-wallet destinations map too (OVO 90002 -> ID_OVO)', async () => {
    await channel.submitPayout(payout(ref(), { bankCode: '90002', account: '081234567890' }));
    expect(fake.requests.at(-1)!.body).toMatchObject({ channel_code: 'ID_OVO' });
  });

  it('a resubmission makes no second payout', async () => {
    const submission = payout();
    const first = await channel.submitPayout(submission);
    expect(await channel.submitPayout(submission)).toEqual(first);
    expect(fake.count('payout', submission.transactionRef)).toBe(1);
  });

  it('an unmapped bank code is refused with INVALID_BANK_CODE, nothing sent', async () => {
    const before = fake.requests.length;
    await expect(channel.submitPayout(payout(ref(), { bankCode: '00116' }))).rejects.toMatchObject({ failureReason: 'INVALID_BANK_CODE' });
    await expect(channel.submitPayout(payout(ref(), { bankCode: null }))).rejects.toBeInstanceOf(UpstreamRefusedError);
    expect(fake.requests.length).toBe(before);
  });

  it('succeeded and failed callbacks map to SUCCESS and FAILED with the reason; queries agree', async () => {
    const ok = payout();
    await channel.submitPayout(ok);
    await fake.setPayoutStatus(ok.transactionRef, 'REQUESTED');
    expect(await channel.queryPayout(ok.transactionRef)).toMatchObject({ status: 'PROCESSING' });
    await fake.completePayout(ok.transactionRef);
    expect(lastCallback()).toMatchObject({ kind: 'payout', transactionRef: ok.transactionRef, state: { status: 'SUCCESS' } });
    expect(await channel.queryPayout(ok.transactionRef)).toMatchObject({ status: 'SUCCESS' });

    for (const [code, reason] of Object.entries(PAYOUT_FAILURE)) {
      const bad = payout();
      await channel.submitPayout(bad);
      await fake.failPayout(bad.transactionRef, code);
      expect(lastCallback()).toEqual({ kind: 'payout', transactionRef: bad.transactionRef, state: { status: 'FAILED', upstreamRef: expect.any(String), failureReason: reason } });
      expect(await channel.queryPayout(bad.transactionRef)).toMatchObject({ status: 'FAILED', failureReason: reason });
    }
  });

  it('cancelled and reversed payouts are FAILED with their own reasons', async () => {
    const cancelled = payout();
    await channel.submitPayout(cancelled);
    await fake.setPayoutStatus(cancelled.transactionRef, 'CANCELLED');
    expect(await channel.queryPayout(cancelled.transactionRef)).toMatchObject({ status: 'FAILED', failureReason: 'PAYOUT_CANCELLED' });
    const reversed = payout();
    await channel.submitPayout(reversed);
    await fake.setPayoutStatus(reversed.transactionRef, 'REVERSED');
    expect(lastCallback()).toMatchObject({ kind: 'payout', state: { status: 'FAILED', failureReason: 'PAYOUT_REVERSED' } });
  });

  it('a payout Xendit never received queries UNKNOWN', async () => {
    expect(await channel.queryPayout(ref())).toEqual({ status: 'UNKNOWN' });
  });

  it('a 4xx refusal -> UpstreamRefusedError with the mapped reason', async () => {
    await expect(channel.submitPayout(payout(ref(), { account: 'not-digits' }))).rejects.toMatchObject({
      failureReason: 'INVALID_ACCOUNT',
      upstreamStatus: 400,
      upstreamCode: 'RECIPIENT_ACCOUNT_NUMBER_ERROR',
    });
    fake.nextAnswer('/v2/payouts', { status: 400, body: { error_code: 'INSUFFICIENT_BALANCE', message: 'Not enough balance' } });
    await expect(channel.submitPayout(payout())).rejects.toMatchObject({ failureReason: 'INSUFFICIENT_FUNDS_UPSTREAM' });
  });

  it('a hang -> UpstreamUnavailableError; 5xx -> UpstreamUnavailableError; unreadable -> UpstreamUnavailableError', async () => {
    const quick = build({ timeoutMs: 200 });
    try {
      fake.nextAnswer('/v2/payouts', 'hang');
      await expect(quick.submitPayout(payout())).rejects.toBeInstanceOf(UpstreamUnavailableError);
      fake.nextAnswer('/v2/payouts', { status: 503, body: { error_code: 'SERVER_ERROR', message: 'try later' } });
      await expect(quick.submitPayout(payout())).rejects.toBeInstanceOf(UpstreamUnavailableError);
      fake.nextAnswer('/v2/payouts', { status: 200, body: '<html>gateway</html>' });
      await expect(quick.submitPayout(payout())).rejects.toBeInstanceOf(UpstreamUnavailableError);
      fake.nextAnswer('/callback_virtual_accounts', 'hang');
      await expect(quick.createCollection(request('BNI'))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    } finally {
      await quick.close?.();
    }
  });

  it('after a lost answer the query finds the payout, and a resubmission makes no second one', async () => {
    const quick = build({ timeoutMs: 200 });
    try {
      const submission = payout();
      fake.nextAnswer('/v2/payouts', 'drop');
      await expect(quick.submitPayout(submission)).rejects.toBeInstanceOf(UpstreamUnavailableError);
      expect(await quick.queryPayout(submission.transactionRef)).toMatchObject({ status: 'PROCESSING' });
      await quick.submitPayout(submission);
      expect(fake.count('payout', submission.transactionRef)).toBe(1);
    } finally {
      await quick.close?.();
    }
  });

  it('a duplicate-key refusal is answered with the existing payout, never a refusal', async () => {
    const submission = payout();
    await channel.submitPayout(submission);
    // Same key, different body: Xendit says DUPLICATE_ERROR; the payout exists, so it is looked up.
    expect(await channel.submitPayout({ ...submission, name: 'Someone Else' })).toMatchObject({ status: 'PROCESSING' });
    expect(fake.count('payout', submission.transactionRef)).toBe(1);
  });

  it('accepts the bare-array answer of the reference page for the query by reference_id', async () => {
    const submission = payout();
    await channel.submitPayout(submission);
    fake.nextAnswer('/v2/payouts', { status: 200, body: [{ ...xenditFixture('payout'), reference_id: submission.transactionRef, status: 'SUCCEEDED' }] });
    expect(await channel.queryPayout(submission.transactionRef)).toMatchObject({ status: 'SUCCESS' });
  });
});

describe('credentials', () => {
  it('a wrong secret key -> UpstreamRefusedError UPSTREAM_REJECTED (credentials refused)', async () => {
    const wrong = build({ secretKey: 'xnd_development_WRONG' });
    try {
      await expect(wrong.submitPayout(payout())).rejects.toMatchObject({ failureReason: 'UPSTREAM_REJECTED', upstreamStatus: 401, upstreamCode: 'INVALID_API_KEY' });
      await expect(wrong.createCollection(request('QRIS'))).rejects.toMatchObject({ failureReason: 'UPSTREAM_REJECTED', upstreamStatus: 401 });
      await expect(wrong.queryPayout(ref())).rejects.toBeInstanceOf(UpstreamRefusedError);
    } finally {
      await wrong.close?.();
    }
  });
});

describe('callbacks', () => {
  const headers = (token?: string) => (token === undefined ? {} : { 'x-callback-token': token });
  const raw = (name: string): Buffer => Buffer.from(JSON.stringify(xenditFixture(name)));

  it('the documented samples parse to the right callbacks', () => {
    const t = fake.callbackToken;
    expect(channel.parseCallback(headers(t), raw('va-paid-callback'))).toEqual({
      kind: 'collection',
      transactionRef: 'PG-SAMPLE-0001',
      state: { upstreamRef: '6571a3c5e1f2a9b0c4d3e2f1', status: 'PAID', paidAmountMinor: 15_000_000n },
    });
    expect(channel.parseCallback(headers(t), raw('va-updated-callback'))).toEqual({ kind: 'ignored', reason: 'virtual account ACTIVE' });
    expect(channel.parseCallback(headers(t), raw('qr-payment-callback'))).toEqual({
      kind: 'collection',
      transactionRef: 'PG-SAMPLE-0002',
      state: { upstreamRef: 'qr_8a1f7c9e-3b2d-4e6f-9a0b-1c2d3e4f5a6b', status: 'PAID', paidAmountMinor: 2_500_000n },
    });
    expect(channel.parseCallback(headers(t), raw('ewallet-capture-callback'))).toEqual({
      kind: 'collection',
      transactionRef: 'PG-SAMPLE-0004',
      state: { upstreamRef: 'ewc_7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d', status: 'PAID', paidAmountMinor: 7_500_000n },
    });
    expect(channel.parseCallback(headers(t), raw('ewallet-capture-failed-callback'))).toMatchObject({
      kind: 'collection',
      transactionRef: 'PG-SAMPLE-0003',
      state: { status: 'FAILED', failureReason: 'PAYER_DECLINED' },
    });
    expect(channel.parseCallback(headers(t), raw('payout-webhook-succeeded'))).toEqual({
      kind: 'payout',
      transactionRef: 'PG-SAMPLE-0005',
      state: { status: 'SUCCESS', upstreamRef: 'disb-571f3644d2b4edf0745e9703' },
    });
    expect(channel.parseCallback(headers(t), raw('payout-webhook-failed'))).toEqual({
      kind: 'payout',
      transactionRef: 'PG-SAMPLE-0005',
      state: { status: 'FAILED', upstreamRef: 'disb-571f3644d2b4edf0745e9703', failureReason: 'INVALID_ACCOUNT' },
    });
    expect(channel.parseCallback(headers(t), Buffer.from(JSON.stringify({ event: 'qr.refund', data: { id: 'qrpyr_1' } })))).toEqual({ kind: 'ignored', reason: 'event qr.refund' });
  });

  it('wrong token, missing header, a token of another length or an array header -> INVALID_SIGNATURE', () => {
    const body = raw('va-paid-callback');
    for (const h of [headers('wrong-token-of-same-len-' + 'x'.repeat(Math.max(0, fake.callbackToken.length - 24))), headers(), headers('short'), headers(''), { 'x-callback-token': [fake.callbackToken] }]) {
      expect(() => channel.parseCallback(h, body)).toThrowError(expect.objectContaining({ reason: 'INVALID_SIGNATURE' }));
    }
  });

  it('a callback the fake sends with a wrong token is refused at our endpoint (401)', async () => {
    const delivery = await fake.sendCallback(xenditFixture('va-paid-callback'), 'not-the-token');
    expect(delivery.status).toBe(401);
    const none = await fake.sendCallback(xenditFixture('va-paid-callback'), null);
    expect(none.status).toBe(401);
  });

  it('a tampered body still carries the token (Xendit signs nothing else) but must be well-formed', () => {
    // The token authenticates the sender, not the body; a body that is not a Xendit callback is refused as malformed.
    expect(() => channel.parseCallback(headers(fake.callbackToken), Buffer.from('{"external_id":"x"'))).toThrowError(expect.objectContaining({ reason: 'VALIDATION_FAILED' }));
    expect(() => channel.parseCallback(headers(fake.callbackToken), Buffer.from('{"hello":"world"}'))).toThrowError(expect.objectContaining({ reason: 'VALIDATION_FAILED' }));
  });
});

describe('mappings', () => {
  it('every e-wallet status and failure code', () => {
    expect(EWALLET_STATUS).toEqual({ PENDING: 'PENDING', SUCCEEDED: 'PAID', FAILED: 'FAILED', VOIDED: 'PAID', REFUNDED: 'PAID' });
    for (const reason of Object.values(EWALLET_FAILURE)) expect(reason).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
  });

  it('every payout status', () => {
    expect(PAYOUT_STATUS).toEqual({
      ACCEPTED: 'PROCESSING',
      PENDING_COMPLIANCE_ASSESSMENT: 'PROCESSING',
      REQUESTED: 'PROCESSING',
      READY: 'PROCESSING',
      LOCKED: 'PROCESSING',
      SUCCEEDED: 'SUCCESS',
      FAILED: 'FAILED',
      CANCELLED: 'FAILED',
      COMPLIANCE_REJECTED: 'FAILED',
      EXPIRED: 'FAILED',
      REVERSED: 'FAILED',
    });
    expect(payoutFailureReason('FAILED', 'INSUFFICIENT_BALANCE')).toBe('INSUFFICIENT_FUNDS_UPSTREAM');
    expect(payoutFailureReason('FAILED', 'DESTINATION_MAXIMUM_LIMIT')).toBe('DESTINATION_LIMIT_EXCEEDED');
    expect(payoutFailureReason('FAILED', 'SOMETHING_NEW')).toBe('UPSTREAM_REJECTED');
    expect(payoutFailureReason('COMPLIANCE_REJECTED', null)).toBe('COMPLIANCE_REJECTED');
  });

  it('bank codes are our 5-digit codes from the IDR bank list and map to ID_ channel codes', () => {
    const ours = new Set(IDR_BANKS.map((b) => b.bankCode));
    for (const [code, channelCode] of Object.entries(IDR_PAYOUT_CHANNELS)) {
      expect(ours.has(code), code).toBe(true);
      expect(code).toMatch(/^\d{5}$/);
      expect(channelCode).toMatch(/^ID_[A-Z_]+$/);
    }
  });

  it('amounts: whole rupiah out, exact minor units in', () => {
    expect(toRupiah(15_000_000n)).toBe(150_000);
    expect(toRupiah(15_000_050n)).toBeNull();
    expect(fromRupiah(150_000)).toBe(15_000_000n);
    expect(fromRupiah(1.5)).toBe(150n);
    expect(fromRupiah(-1)).toBeNull();
    expect(fromRupiah('100')).toBeNull();
    expect(toE164Indonesia('0812-3456-7890')).toBe('+6281234567890');
    expect(toE164Indonesia('6281234567890')).toBe('+6281234567890');
    expect(toE164Indonesia('abc')).toBeNull();
  });
});
