// The razorpay connector against a protocol-faithful fake of Razorpay over real HTTP: UPI QR pay-ins,
// their lookups and refunds, RazorpayX payouts, faults, and signed webhooks.
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { AppError } from '../../src/core/errors.js';
import { UpstreamRefusedError, UpstreamUnavailableError, type Channel, type CreateCollectionRequest, type PayoutSubmission } from '../../src/connectors/channel.js';
import { connectorByName } from '../../src/connectors/catalog.js';
import { missingCredentials } from '../../src/connectors/connector.js';
import { razorpayDefinition } from '../../src/connectors/razorpay/definition.js';
import { PAYOUT_FAILURE_REASON, PAYOUT_STATUS, payoutFailureReason, toCollectionState, upstreamReference, type Payment, type QrCode } from '../../src/connectors/razorpay/transformers.js';
import paymentCaptured from '../fixtures/connectors/razorpay/webhook-payment-captured.json' with { type: 'json' };
import payoutProcessed from '../fixtures/connectors/razorpay/webhook-payout-processed.json' with { type: 'json' };
import payoutReversed from '../fixtures/connectors/razorpay/webhook-payout-reversed.json' with { type: 'json' };
import qrCredited from '../fixtures/connectors/razorpay/webhook-qr-code-credited.json' with { type: 'json' };
import refundProcessed from '../fixtures/connectors/razorpay/webhook-refund-processed.json' with { type: 'json' };
import { startFakeRazorpay, type FakeRazorpay } from '../fakes/razorpay.js';

let fake: FakeRazorpay;
let channel: Channel;

const build = (overrides: { timeoutMs?: number; keySecret?: string } = {}): Channel =>
  razorpayDefinition.create({
    baseUrl: fake.url,
    credentials: { keyId: fake.keyId, keySecret: overrides.keySecret ?? fake.keySecret, webhookSecret: fake.webhookSecret, accountNumber: fake.accountNumber },
    timeoutMs: overrides.timeoutMs ?? 5_000,
    clock: systemClock,
    callbackUrl: 'https://paygate.example/v1/callbacks/razorpay',
  });

beforeAll(async () => {
  fake = await startFakeRazorpay();
  channel = build();
});

afterAll(async () => {
  await channel.close?.();
  await fake.close();
});

const ref = (prefix = 'TX'): string => `${prefix}-${randomUUID().slice(0, 18)}`;

const collectionRequest = (transactionRef: string, amountMinor = 25_000n): CreateCollectionRequest => ({
  transactionRef,
  merchantId: 'm_test',
  currency: 'INR',
  method: 'NATIVE',
  amountMinor,
  payerName: 'Ravi Kumar',
  payerEmail: 'ravi@example.com',
  payerPhone: '9000090000',
  expiresAtMs: Date.now() + 30 * 60_000,
  redirectUrl: 'https://merchant.example/done',
});

const bankPayout = (transactionRef: string, overrides: Partial<PayoutSubmission> = {}): PayoutSubmission => ({
  transactionRef,
  currency: 'INR',
  method: 'BANK',
  amountMinor: 150_000n,
  bankCode: 'HDFC0001234',
  account: '1121431121541121',
  name: 'Asha Verma',
  phone: '9876543210',
  email: 'asha@example.com',
  ...overrides,
});

const sign = (body: Buffer, secret = fake.webhookSecret): string => createHmac('sha256', secret).update(body).digest('hex');

const parse = (sample: unknown) => {
  const body = Buffer.from(JSON.stringify(sample));
  return channel.parseCallback({ 'x-razorpay-signature': sign(body) }, body);
};

async function refusal(promise: Promise<unknown>): Promise<UpstreamRefusedError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamRefusedError);
  return error as UpstreamRefusedError;
}

describe('definition', () => {
  it('is in the catalog with its capabilities and credentials', () => {
    expect(connectorByName('razorpay')).toBe(razorpayDefinition);
    expect(razorpayDefinition.capabilities).toEqual([
      { currency: 'INR', direction: 'payin', method: 'NATIVE', refunds: true },
      { currency: 'INR', direction: 'payout', method: 'BANK' },
      { currency: 'INR', direction: 'payout', method: 'UPI' },
    ]);
    expect(missingCredentials(razorpayDefinition, {})).toEqual(['keyId', 'keySecret', 'webhookSecret', 'accountNumber']);
    expect(razorpayDefinition.credentials.filter((c) => c.secret).map((c) => c.name)).toEqual(['keySecret', 'webhookSecret']);
  });
});

describe('UPI pay-ins (QR codes)', () => {
  it('creates a single-use fixed-amount UPI QR code whose upi:// string the checkout shows', async () => {
    const transactionRef = ref();
    const collection = await channel.createCollection(collectionRequest(transactionRef));
    const qr = fake.qrCodeFor(transactionRef)!;
    expect(collection.upstreamRef).toBe(qr.id);
    expect(collection.instructions.kind).toBe('UPI');
    expect(collection.instructions.qrPayload).toMatch(/^upi:\/\/pay\?/);
    expect(collection.instructions.intentUrl).toBe(collection.instructions.qrPayload);
    const sent = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/payments/qr_codes')!;
    expect(sent.headers.authorization).toBe('Basic ' + Buffer.from(`${fake.keyId}:${fake.keySecret}`).toString('base64'));
    expect(sent.body).toMatchObject({ type: 'upi_qr', usage: 'single_use', fixed_amount: true, payment_amount: 25_000, notes: { paygate_ref: transactionRef } });
  });

  it('gives the QR image URL when the account has no image content', async () => {
    fake.setImageContent(false);
    try {
      const collection = await channel.createCollection(collectionRequest(ref()));
      expect(collection.instructions.qrPayload).toMatch(/^https:\/\/rzp\.io\/i\//);
      expect(collection.instructions.intentUrl).toBeUndefined();
    } finally {
      fake.setImageContent(true);
    }
  });

  it('creating twice for one ref makes one QR code', async () => {
    const transactionRef = ref();
    const first = await channel.createCollection(collectionRequest(transactionRef));
    const before = fake.countRequests('POST', '/v1/payments/qr_codes');
    const second = await channel.createCollection(collectionRequest(transactionRef));
    expect(second.upstreamRef).toBe(first.upstreamRef);
    expect(fake.countRequests('POST', '/v1/payments/qr_codes')).toBe(before);
  });

  it('after a lost answer the retry finds the QR code made the first time', async () => {
    const transactionRef = ref();
    const quick = build({ timeoutMs: 300 });
    try {
      fake.nextAnswer('/v1/payments/qr_codes', 'lost', 'POST');
      await expect(quick.createCollection(collectionRequest(transactionRef))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    } finally {
      await quick.close?.();
    }
    const made = fake.qrCodeFor(transactionRef)!;
    const posts = fake.countRequests('POST', '/v1/payments/qr_codes');
    expect((await channel.createCollection(collectionRequest(transactionRef))).upstreamRef).toBe(made.id);
    expect(fake.countRequests('POST', '/v1/payments/qr_codes')).toBe(posts);
  });

  it('no answer, a 5xx or an unreadable body while creating is UpstreamUnavailableError', async () => {
    const quick = build({ timeoutMs: 300 });
    try {
      fake.nextAnswer('/v1/payments/qr_codes', 'hang', 'GET');
      const hung = quick.createCollection(collectionRequest(ref()));
      await expect(hung).rejects.toBeInstanceOf(UpstreamUnavailableError);
      // The exchange's one deadline (core/deadline.ts) names itself, whatever undici called the abort.
      await expect(hung).rejects.toThrow(/: no answer \(timed out; deadline 300 ms\)$/);
    } finally {
      await quick.close?.();
    }
    fake.nextAnswer('/v1/payments/qr_codes', { status: 502, body: { error: { code: 'SERVER_ERROR', description: 'bad gateway' } } }, 'POST');
    await expect(channel.createCollection(collectionRequest(ref()))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    fake.nextAnswer('/v1/payments/qr_codes', 'garbage', 'POST');
    await expect(channel.createCollection(collectionRequest(ref()))).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('the payer pays: the signed qr_code.credited webhook parses to PAID with the paid amount', async () => {
    const transactionRef = ref();
    const { upstreamRef } = await channel.createCollection(collectionRequest(transactionRef));
    const sent = await fake.pay(transactionRef);
    expect(channel.parseCallback(sent.headers, sent.body)).toEqual({
      kind: 'collection',
      transactionRef,
      state: { upstreamRef, status: 'PAID', paidAmountMinor: 25_000n },
    });
    expect(await channel.queryCollection(transactionRef, upstreamRef)).toEqual({ upstreamRef, status: 'PAID', paidAmountMinor: 25_000n });
  });

  it.each([
    ['underpaid', 24_900n],
    ['overpaid', 25_100n],
  ])('reports what was actually paid when %s', async (_, paid) => {
    const transactionRef = ref();
    const { upstreamRef } = await channel.createCollection(collectionRequest(transactionRef));
    const sent = await fake.pay(transactionRef, { amountMinor: paid });
    const callback = channel.parseCallback(sent.headers, sent.body);
    expect(callback).toMatchObject({ kind: 'collection', state: { status: 'PAID', paidAmountMinor: paid } });
    expect((await channel.queryCollection(transactionRef, upstreamRef)).paidAmountMinor).toBe(paid);
  });

  it('queries PENDING while open, EXPIRED once closed unpaid, and finds the code without its upstreamRef', async () => {
    const transactionRef = ref();
    const { upstreamRef } = await channel.createCollection(collectionRequest(transactionRef));
    expect(await channel.queryCollection(transactionRef, upstreamRef)).toEqual({ upstreamRef, status: 'PENDING' });
    fake.closeQrCode(transactionRef);
    expect(await channel.queryCollection(transactionRef)).toEqual({ upstreamRef, status: 'EXPIRED' });
    await expect(channel.queryCollection(ref('NONE'))).rejects.toMatchObject({ reason: 'NOT_FOUND' });
  });

  it('refuses other currencies and methods without calling Razorpay', async () => {
    const error = await refusal(channel.createCollection({ ...collectionRequest(ref()), method: 'QRIS' }));
    expect(error.failureReason).toBe('UPSTREAM_REJECTED');
  });
});

describe('refunds', () => {
  it('refunds the captured payment once, even when asked again', async () => {
    const transactionRef = ref();
    const { upstreamRef } = await channel.createCollection(collectionRequest(transactionRef));
    await fake.pay(transactionRef);
    const first = await channel.refund({ transactionRef, upstreamRef, amountMinor: 25_000n });
    const again = await channel.refund({ transactionRef, upstreamRef, amountMinor: 25_000n });
    expect(first.refundRef).toMatch(/^rfnd_/);
    expect(again.refundRef).toBe(first.refundRef);
    const sent = fake.requests.filter((r) => r.method === 'POST' && /\/refund$/.test(r.path));
    expect(sent.at(-1)!.headers['x-refund-idempotency']).toBe(upstreamReference(transactionRef));
    expect(sent.at(-1)!.body).toMatchObject({ amount: 25_000 });
  });

  it('refuses an unpaid QR code as not successful', async () => {
    const transactionRef = ref();
    const { upstreamRef } = await channel.createCollection(collectionRequest(transactionRef));
    expect((await refusal(channel.refund({ transactionRef, upstreamRef, amountMinor: 25_000n }))).failureReason).toBe('PAYMENT_NOT_SUCCESSFUL');
  });

  it('a refund Razorpay refuses is not refundable', async () => {
    const transactionRef = ref();
    const { upstreamRef } = await channel.createCollection(collectionRequest(transactionRef));
    await fake.pay(transactionRef);
    const error = await refusal(channel.refund({ transactionRef, upstreamRef, amountMinor: 99_999n }));
    expect(error.failureReason).toBe('PAYMENT_NOT_REFUNDABLE');
    expect(error.upstreamStatus).toBe(400);
  });
});

describe('payouts (RazorpayX)', () => {
  it('submits an IMPS payout with an inline bank fund account, our ref as idempotency key and reference_id', async () => {
    const transactionRef = ref('PO');
    const state = await channel.submitPayout(bankPayout(transactionRef));
    const payout = fake.payoutFor(transactionRef)!;
    expect(state).toEqual({ status: 'PROCESSING', upstreamRef: payout.id });
    const sent = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payouts').at(-1)!;
    expect(sent.headers['x-payout-idempotency']).toBe(transactionRef);
    expect(sent.body).toMatchObject({
      account_number: fake.accountNumber,
      amount: 150_000,
      currency: 'INR',
      mode: 'IMPS',
      reference_id: transactionRef,
      fund_account: { account_type: 'bank_account', bank_account: { ifsc: 'HDFC0001234', account_number: '1121431121541121', name: 'Asha Verma' } },
    });
  });

  it('submits a UPI payout to a VPA', async () => {
    const transactionRef = ref('PO');
    await channel.submitPayout(bankPayout(transactionRef, { method: 'UPI', bankCode: null, account: 'asha.verma@okaxis' }));
    const sent = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payouts').at(-1)!;
    expect(sent.body).toMatchObject({ mode: 'UPI', fund_account: { account_type: 'vpa', vpa: { address: 'asha.verma@okaxis' } } });
  });

  it('derives a valid reference when ours does not fit, the same every time', async () => {
    const transactionRef = `PO:${'x'.repeat(40)}`;
    const reference = upstreamReference(transactionRef);
    expect(reference).toMatch(/^[A-Za-z0-9_-]{10,36}$/);
    expect(upstreamReference(transactionRef)).toBe(reference);
    await channel.submitPayout(bankPayout(transactionRef));
    expect(await channel.queryPayout(transactionRef)).toMatchObject({ status: 'PROCESSING' });
  });

  it('queries by our reference: UNKNOWN when never received, then every webhook status', async () => {
    const transactionRef = ref('PO');
    expect(await channel.queryPayout(transactionRef)).toEqual({ status: 'UNKNOWN' });
    await channel.submitPayout(bankPayout(transactionRef));
    const processed = await fake.completePayout(transactionRef, 'HDFCN00000000001');
    const upstreamRef = fake.payoutFor(transactionRef)!.id as string;
    expect(channel.parseCallback(processed.headers, processed.body)).toEqual({
      kind: 'payout',
      transactionRef,
      state: { status: 'SUCCESS', upstreamRef, utr: 'HDFCN00000000001' },
    });
    expect(await channel.queryPayout(transactionRef)).toEqual({ status: 'SUCCESS', upstreamRef, utr: 'HDFCN00000000001' });
    // A processed payout can still come back.
    const reversed = await fake.failPayout(transactionRef, 'bank_account_closed', 'reversed');
    expect(channel.parseCallback(reversed.headers, reversed.body)).toMatchObject({ kind: 'payout', state: { status: 'FAILED', failureReason: 'INVALID_ACCOUNT' } });
  });

  it.each([
    ['failed', 'insufficient_funds', 'INSUFFICIENT_FUNDS_UPSTREAM'],
    ['failed', 'beneficiary_vpa_invalid', 'INVALID_ACCOUNT'],
    ['failed', 'gateway_timeout', 'UPSTREAM_ERROR'],
    ['rejected', 'pending_approval', 'UPSTREAM_REJECTED'],
    ['cancelled', 'low_balance', 'UPSTREAM_REJECTED'],
  ])('a %s payout (%s) is FAILED with %s', async (status, reason, ours) => {
    const transactionRef = ref('PO');
    await channel.submitPayout(bankPayout(transactionRef));
    const sent = await fake.setPayoutStatus(transactionRef, status, { reason });
    expect(channel.parseCallback(sent.headers, sent.body)).toMatchObject({ kind: 'payout', transactionRef, state: { status: 'FAILED', failureReason: ours } });
    expect(await channel.queryPayout(transactionRef)).toMatchObject({ status: 'FAILED', failureReason: ours });
  });

  it('a queued or pending payout is still PROCESSING', async () => {
    const transactionRef = ref('PO');
    await channel.submitPayout(bankPayout(transactionRef));
    await fake.setPayoutStatus(transactionRef, 'queued', { reason: 'low_balance', source: 'business' });
    expect(await channel.queryPayout(transactionRef)).toMatchObject({ status: 'PROCESSING' });
  });

  it('a 4xx refusal is an UpstreamRefusedError with the mapped reason', async () => {
    fake.nextAnswer('/v1/payouts', { status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'Invalid IFSC Code in Bank Account', source: 'business', step: 'NA', reason: 'input_validation_failed', metadata: {}, field: 'fund_account.bank_account.ifsc' } } }, 'POST');
    const error = await refusal(channel.submitPayout(bankPayout(ref('PO'))));
    expect(error).toMatchObject({ failureReason: 'INVALID_ACCOUNT', upstreamStatus: 400, upstreamCode: 'input_validation_failed' });
    // The fake's own validation refuses a malformed account number the same way.
    const own = await refusal(channel.submitPayout(bankPayout(ref('PO'), { account: '12' })));
    expect(own.failureReason).toBe('INVALID_ACCOUNT');
    // An IFSC of the wrong shape is refused before anything is sent.
    const before = fake.countRequests('POST', '/v1/payouts');
    expect((await refusal(channel.submitPayout(bankPayout(ref('PO'), { bankCode: 'HDFC' })))).failureReason).toBe('INVALID_ACCOUNT');
    expect(fake.countRequests('POST', '/v1/payouts')).toBe(before);
  });

  it('a 5xx is UpstreamUnavailableError', async () => {
    fake.nextAnswer('/v1/payouts', { status: 503, body: { error: { code: 'SERVER_ERROR', description: 'We are facing some trouble completing your request at the moment. Please try again shortly.' } } }, 'POST');
    await expect(channel.submitPayout(bankPayout(ref('PO')))).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('an unreadable answer is UpstreamUnavailableError', async () => {
    fake.nextAnswer('/v1/payouts', 'garbage', 'POST');
    await expect(channel.submitPayout(bankPayout(ref('PO')))).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('a lost answer is UpstreamUnavailableError; the query finds the payout and a resubmission pays once', async () => {
    const transactionRef = ref('PO');
    const quick = build({ timeoutMs: 300 });
    try {
      fake.nextAnswer('/v1/payouts', 'lost', 'POST');
      await expect(quick.submitPayout(bankPayout(transactionRef))).rejects.toBeInstanceOf(UpstreamUnavailableError);
      fake.nextAnswer('/v1/payouts', 'hang', 'GET');
      await expect(quick.queryPayout(transactionRef)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    } finally {
      await quick.close?.();
    }
    const count = fake.payoutCount;
    const upstreamRef = fake.payoutFor(transactionRef)!.id;
    expect(await channel.queryPayout(transactionRef)).toEqual({ status: 'PROCESSING', upstreamRef });
    expect(await channel.submitPayout(bankPayout(transactionRef))).toEqual({ status: 'PROCESSING', upstreamRef });
    expect(fake.payoutCount).toBe(count);
  });

  it('wrong credentials are refused as UPSTREAM_REJECTED', async () => {
    const wrong = build({ keySecret: 'not-the-secret' });
    try {
      const error = await refusal(wrong.submitPayout(bankPayout(ref('PO'))));
      expect(error).toMatchObject({ failureReason: 'UPSTREAM_REJECTED', upstreamStatus: 401 });
      expect(error.message).toMatch(/credentials refused/);
      expect((await refusal(wrong.createCollection(collectionRequest(ref())))).upstreamStatus).toBe(401);
    } finally {
      await wrong.close?.();
    }
  });
});

describe('account validation (resolveAccount)', () => {
  it('gives the registered holder of a bank account or VPA once the validation completes', async () => {
    fake.setAccountHolder('HDFC0001234', '50100012345678', 'ASHA VERMA');
    fake.setAccountHolder(null, 'asha@okaxis', 'Asha Verma');
    expect(await channel.resolveAccount!({ currency: 'INR', method: 'BANK', bankCode: 'HDFC0001234', account: '50100012345678' })).toEqual({
      accountName: 'ASHA VERMA',
      bankCode: 'HDFC0001234',
      account: '50100012345678',
    });
    expect(await channel.resolveAccount!({ currency: 'INR', method: 'UPI', bankCode: null, account: 'asha@okaxis' })).toMatchObject({ accountName: 'Asha Verma', bankCode: null });
    const sent = fake.requests.filter((r) => r.path === '/v1/fund_accounts/validations').at(-1)!;
    expect(sent.body).toMatchObject({ source_account_number: fake.accountNumber, fund_account: { account_type: 'vpa', vpa: { address: 'asha@okaxis' } } });
  });

  it('an account without a holder is INVALID_ACCOUNT', async () => {
    const error = await refusal(channel.resolveAccount!({ currency: 'INR', method: 'BANK', bankCode: 'SBIN0000001', account: '99999999999' }));
    expect(error.failureReason).toBe('INVALID_ACCOUNT');
  });

  it('a validation still pending at the deadline is UpstreamUnavailableError', async () => {
    fake.validationPendingFetches = 1_000;
    const quick = build({ timeoutMs: 600 });
    try {
      await expect(quick.resolveAccount!({ currency: 'INR', method: 'UPI', bankCode: null, account: 'slow@okaxis' })).rejects.toBeInstanceOf(UpstreamUnavailableError);
    } finally {
      fake.validationPendingFetches = 1;
      await quick.close?.();
    }
  });
});

describe('webhooks', () => {
  it('a valid signature verifies, also when delivered over HTTP to a callback URL', async () => {
    const received: { headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    fake.setCallbackUrl(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/callbacks/razorpay`);
    try {
      const transactionRef = ref();
      await channel.createCollection(collectionRequest(transactionRef));
      await fake.pay(transactionRef);
      expect(received).toHaveLength(1);
      const headers = received[0]!.headers as Record<string, string>;
      expect(channel.parseCallback(headers, received[0]!.body)).toMatchObject({ kind: 'collection', transactionRef, state: { status: 'PAID' } });
    } finally {
      fake.setCallbackUrl(null);
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it.each([
    ['a tampered body', (body: Buffer) => ({ headers: { 'x-razorpay-signature': sign(body) }, body: Buffer.from(body.toString().replace('25000', '99000')) })],
    ['a wrong secret', (body: Buffer) => ({ headers: { 'x-razorpay-signature': sign(body, 'other-secret') }, body })],
    ['a missing header', (body: Buffer) => ({ headers: {}, body })],
    ['an uppercase signature', (body: Buffer) => ({ headers: { 'x-razorpay-signature': sign(body).toUpperCase() }, body })],
    ['a short signature', (body: Buffer) => ({ headers: { 'x-razorpay-signature': sign(body).slice(0, 40) }, body })],
    ['a repeated header', (body: Buffer) => ({ headers: { 'x-razorpay-signature': [sign(body), sign(body)] }, body })],
  ])('%s is INVALID_SIGNATURE', (_, tamper) => {
    const { headers, body } = tamper(Buffer.from(JSON.stringify(qrCredited)));
    let error: unknown;
    try {
      channel.parseCallback(headers, body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).reason).toBe('INVALID_SIGNATURE');
  });

  it('the documented sample payloads parse to the right callbacks', () => {
    expect(parse(qrCredited)).toEqual({ kind: 'collection', transactionRef: 'TX-EXAMPLE', state: { upstreamRef: 'qr_Pg00000000001', status: 'PAID', paidAmountMinor: 25_000n } });
    expect(parse(payoutProcessed)).toEqual({ kind: 'payout', transactionRef: 'PO-EXAMPLE', state: { status: 'SUCCESS', upstreamRef: 'pout_Pg00000000001', utr: '523223155921' } });
    expect(parse(payoutReversed)).toEqual({ kind: 'payout', transactionRef: 'PO-REVERSED', state: { status: 'FAILED', upstreamRef: 'pout_Pg00000000002', failureReason: 'INVALID_ACCOUNT' } });
    expect(parse(refundProcessed)).toMatchObject({ kind: 'ignored' });
    expect(parse(paymentCaptured)).toMatchObject({ kind: 'ignored' });
    expect(parse({ ...payoutProcessed, event: 'account.updated' })).toMatchObject({ kind: 'ignored' });
  });

  it('an authentic body that is not an event is VALIDATION_FAILED', () => {
    const body = Buffer.from('[1,2]');
    expect(() => channel.parseCallback({ 'x-razorpay-signature': sign(body) }, body)).toThrow(expect.objectContaining({ reason: 'VALIDATION_FAILED' }));
  });
});

describe('status mapping tables', () => {
  it('maps every documented payout status', () => {
    expect(PAYOUT_STATUS).toEqual({
      queued: 'PROCESSING',
      pending: 'PROCESSING',
      scheduled: 'PROCESSING',
      processing: 'PROCESSING',
      processed: 'SUCCESS',
      reversed: 'FAILED',
      cancelled: 'FAILED',
      rejected: 'FAILED',
      failed: 'FAILED',
    });
  });

  it('maps every documented failed/reversed status_details reason', () => {
    const documented = [
      'bank_account_closed', 'bank_account_frozen', 'bank_account_invalid', 'beneficiary_account_dormant', 'beneficiary_bank_failure',
      'beneficiary_bank_offline', 'beneficiary_bank_rejected', 'beneficiary_bank_technical_error', 'beneficiary_psp_offline', 'imps_not_allowed',
      'invalid_ifsc_code', 'npci_beneficiary_timeout', 'transaction_limit_exceeded', 'amount_limit_exhausted_neft', 'beneficiary_account_invalid',
      'beneficiary_vpa_invalid', 'insufficient_funds', 'invalid_beneficiary', 'gateway_down', 'gateway_technical_error', 'gateway_timeout',
      'server_error', 'server_error_temporary',
    ];
    expect(Object.keys(PAYOUT_FAILURE_REASON).sort()).toEqual([...documented].sort());
    for (const reason of documented) expect(payoutFailureReason({ status: 'failed', status_details: { reason, description: null, source: null } })).toMatch(/^[A-Z_]+$/);
    expect(payoutFailureReason({ status: 'failed', status_details: null })).toBe('UPSTREAM_REJECTED');
  });

  it('maps QR code states: paid payments win, closed unpaid is EXPIRED, active is PENDING', () => {
    const qr = (status: 'active' | 'closed') => ({ id: 'qr_1', status }) as QrCode;
    const payment = (status: Payment['status'], amount: number) => ({ status, amount }) as Payment;
    expect(toCollectionState(qr('active'), [])).toEqual({ upstreamRef: 'qr_1', status: 'PENDING' });
    expect(toCollectionState(qr('active'), [payment('failed', 100)])).toEqual({ upstreamRef: 'qr_1', status: 'PENDING' });
    expect(toCollectionState(qr('closed'), [])).toEqual({ upstreamRef: 'qr_1', status: 'EXPIRED' });
    expect(toCollectionState(qr('closed'), [payment('captured', 100)])).toEqual({ upstreamRef: 'qr_1', status: 'PAID', paidAmountMinor: 100n });
    expect(toCollectionState(qr('closed'), [payment('refunded', 100)])).toEqual({ upstreamRef: 'qr_1', status: 'PAID', paidAmountMinor: 100n });
  });
});
