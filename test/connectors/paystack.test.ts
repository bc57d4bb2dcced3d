// The Paystack connector's Channel, built through its definition, against the protocol fake over
// real HTTP: pay-in by transfer to a one-time account, verification, payouts by transfer, faults,
// credentials, webhook signatures, the documented sample events, and every status mapping.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { AppError } from '../../src/core/errors.js';
import { UpstreamRefusedError, UpstreamUnavailableError, type Channel, type CreateCollectionRequest, type PayoutSubmission } from '../../src/connectors/channel.js';
import { connectorByName } from '../../src/connectors/catalog.js';
import { paystackDefinition } from '../../src/connectors/paystack/definition.js';
import { paystackSignature } from '../../src/connectors/paystack/notifications.js';
import {
  fromPaystackReference,
  toPaystackReference,
  TRANSACTION_STATUS,
  TRANSFER_STATUS,
  toCollectionState,
  toPayoutState,
  type TransactionData,
  type TransferData,
} from '../../src/connectors/paystack/transformers.js';
import { paystackFixture, startPaystackFake, UNRESOLVABLE_ACCOUNT, type PaystackFake } from '../fakes/paystack.js';

let fake: PaystackFake;
let channel: Channel;

const build = (overrides: { secretKey?: string; timeoutMs?: number } = {}): Channel =>
  paystackDefinition.create({
    baseUrl: fake.url,
    credentials: { secretKey: overrides.secretKey ?? fake.secretKey },
    timeoutMs: overrides.timeoutMs ?? 5_000,
    clock: systemClock,
    callbackUrl: 'https://paygate.example/v1/callbacks/paystack',
  });

let counter = 0;
/** A transactionRef as the service makes them: a lowercase UUID v7. */
const newRef = (): string => {
  counter += 1;
  return `0193a6b2-7c1d-7e4f-8a2b-${(Date.now() * 1000 + counter).toString(16).padStart(12, '0').slice(-12)}`;
};

const collection = (transactionRef: string, amountMinor = 250_000n): CreateCollectionRequest => ({
  transactionRef,
  merchantId: 'm_1',
  currency: 'NGN',
  method: 'TRANSFER',
  amountMinor,
  payerName: 'Ada Obi',
  payerEmail: 'ada@example.com',
  payerPhone: '+2348012345678',
  expiresAtMs: Date.now() + 30 * 60_000,
  redirectUrl: 'https://merchant.example/return',
});

const payout = (transactionRef: string, overrides: Partial<PayoutSubmission> = {}): PayoutSubmission => ({
  transactionRef,
  currency: 'NGN',
  method: 'BANK',
  amountMinor: 500_000n,
  bankCode: '058',
  account: '0123456789',
  name: 'Tolu Robert',
  phone: '+2348012345678',
  email: 'tolu@example.com',
  ...overrides,
});

const refusal = async (promise: Promise<unknown>): Promise<UpstreamRefusedError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamRefusedError);
  return error as UpstreamRefusedError;
};

beforeAll(async () => {
  fake = await startPaystackFake();
  channel = build();
});

afterAll(async () => {
  await channel.close?.();
  await fake.close();
});

beforeEach(() => {
  fake.setBalance(1_000_000_000);
  fake.setInitialTransferStatus('pending');
});

describe('definition', () => {
  it('is in the catalog with the issue capabilities and one secret credential', () => {
    expect(connectorByName('paystack')).toBe(paystackDefinition);
    expect(paystackDefinition.defaultBaseUrl).toBe('https://api.paystack.co');
    expect(paystackDefinition.capabilities).toEqual([
      { currency: 'NGN', direction: 'payin', method: 'TRANSFER', refunds: false },
      { currency: 'NGN', direction: 'payout', method: 'BANK' },
    ]);
    expect(paystackDefinition.credentials.map((c) => [c.name, c.secret])).toEqual([['secretKey', true]]);
  });
});

describe('pay-in by transfer', () => {
  it('creates a charge with a one-time account the checkout can show', async () => {
    const ref = newRef();
    const created = await channel.createCollection(collection(ref));
    expect(created.upstreamRef).toBe(ref);
    expect(created.instructions.kind).toBe('VIRTUAL_ACCOUNT');
    expect(created.instructions.accountNumber).toMatch(/^\d{10}$/);
    expect(created.instructions.bankName).toBe('Test Bank');
    expect(created.instructions.accountName).toBe('TEST-MANAGED-ACCOUNT');
    const sent = fake.requests.filter((r) => r.path === '/charge').at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.headers.authorization).toBe(`Bearer ${fake.secretKey}`);
    expect(sent.body).toMatchObject({ email: 'ada@example.com', amount: 250000, reference: ref, currency: 'NGN' });
    expect((sent.body!.bank_transfer as { account_expires_at: string }).account_expires_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('asked twice for one ref, shows the same account and makes one charge', async () => {
    const ref = newRef();
    const first = await channel.createCollection(collection(ref));
    const second = await channel.createCollection(collection(ref));
    expect(second).toEqual(first);
    expect([...fake.charges.keys()].filter((k) => k === ref)).toHaveLength(1);
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/charge/${ref}`)).toBe(true);
  });

  it('after a lost answer, the re-ask finds the one charge', async () => {
    const ref = newRef();
    const short = build({ timeoutMs: 300 });
    fake.nextAnswer('POST /charge', 'lose');
    await expect(short.createCollection(collection(ref))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    const again = await short.createCollection(collection(ref));
    expect(again.instructions.accountNumber).toBe(fake.charges.get(ref)!.accountNumber);
    expect(fake.charges.size).toBeGreaterThan(0);
    await short.close?.();
  });

  it('the payer pays: a signed charge.success parses to PAID with the paid amount, and verify agrees', async () => {
    const ref = newRef();
    await channel.createCollection(collection(ref));
    expect(await channel.queryCollection(ref, ref)).toEqual({ upstreamRef: ref, status: 'PENDING' });
    const event = await fake.pay(ref);
    expect(channel.parseCallback(event.headers, event.rawBody)).toEqual({
      kind: 'collection',
      transactionRef: ref,
      state: { upstreamRef: ref, status: 'PAID', paidAmountMinor: 250_000n },
    });
    expect(await channel.queryCollection(ref, ref)).toEqual({ upstreamRef: ref, status: 'PAID', paidAmountMinor: 250_000n });
  });

  it.each([
    ['underpaid', 200_000],
    ['overpaid', 300_000],
  ])('an %s amount is reported as what was paid', async (_label, kobo) => {
    const ref = newRef();
    await channel.createCollection(collection(ref));
    const event = await fake.pay(ref, { amountKobo: kobo });
    const parsed = channel.parseCallback(event.headers, event.rawBody);
    expect(parsed).toMatchObject({ kind: 'collection', state: { status: 'PAID', paidAmountMinor: BigInt(kobo) } });
    expect((await channel.queryCollection(ref)).paidAmountMinor).toBe(BigInt(kobo));
  });

  it('an expired account verifies as EXPIRED; an unknown reference is NOT_FOUND', async () => {
    const ref = newRef();
    await channel.createCollection(collection(ref));
    fake.expire(ref);
    expect((await channel.queryCollection(ref)).status).toBe('EXPIRED');
    await expect(channel.queryCollection(newRef())).rejects.toMatchObject({ reason: 'NOT_FOUND' });
  });

  it('a wrong-amount transfer Paystack sent back is authentic but ignored', async () => {
    const ref = newRef();
    await channel.createCollection(collection(ref));
    const event = await fake.rejectTransfer(ref, 30_000);
    expect(channel.parseCallback(event.headers, event.rawBody)).toEqual({ kind: 'ignored', reason: 'Paystack event bank.transfer.rejected is not used' });
  });

  it('a charge Paystack answers without an account to pay is refused; a 5xx or hang is unavailable', async () => {
    fake.nextAnswer('POST /charge', { status: 200, body: { status: true, message: 'Charge attempted', data: { status: 'failed', reference: 'x' } } });
    expect((await refusal(channel.createCollection(collection(newRef())))).failureReason).toBe('UPSTREAM_REJECTED');
    fake.nextAnswer('POST /charge', { status: 503, body: { status: false, message: 'Service unavailable' } });
    await expect(channel.createCollection(collection(newRef()))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    const short = build({ timeoutMs: 200 });
    fake.nextAnswer('POST /charge', 'hang');
    await expect(short.createCollection(collection(newRef()))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await short.close?.();
  });

  it('refuses another currency or method without asking Paystack', async () => {
    const before = fake.requests.length;
    const error = await refusal(channel.createCollection({ ...collection(newRef()), currency: 'IDR', method: 'QRIS' }));
    expect(error.failureReason).toBe('UPSTREAM_REJECTED');
    expect(fake.requests.length).toBe(before);
  });

  it('no refunds for NGN TRANSFER', async () => {
    const error = await refusal(channel.refund({ transactionRef: newRef(), upstreamRef: 'x', amountMinor: 100n }));
    expect(error.failureReason).toBe('PAYMENT_NOT_REFUNDABLE');
  });
});

describe('payouts', () => {
  it('creates a nuban recipient and a balance transfer whose reference is our transactionRef', async () => {
    const ref = newRef();
    const state = await channel.submitPayout(payout(ref));
    expect(state.status).toBe('PROCESSING');
    expect(state.upstreamRef).toMatch(/^TRF_/);
    const recipient = fake.requests.filter((r) => r.path === '/transferrecipient').at(-1)!;
    expect(recipient.body).toEqual({ type: 'nuban', name: 'Tolu Robert', account_number: '0123456789', bank_code: '058', currency: 'NGN' });
    const transfer = fake.requests.filter((r) => r.method === 'POST' && r.path === '/transfer').at(-1)!;
    expect(transfer.body).toMatchObject({ source: 'balance', amount: 500000, reference: ref, currency: 'NGN' });
    expect(await channel.queryPayout(ref)).toEqual(state);
  });

  it('takes the NGN payout method under its interface name TRANSFER too', async () => {
    expect((await channel.submitPayout(payout(newRef(), { method: 'TRANSFER' }))).status).toBe('PROCESSING');
  });

  it('a transfer.success event and the verify both say SUCCESS', async () => {
    const ref = newRef();
    await channel.submitPayout(payout(ref));
    const event = await fake.completeTransfer(ref);
    const parsed = channel.parseCallback(event.headers, event.rawBody);
    expect(parsed).toEqual({ kind: 'payout', transactionRef: ref, state: { status: 'SUCCESS', upstreamRef: fake.transfers.get(ref)!.transferCode } });
    expect((await channel.queryPayout(ref)).status).toBe('SUCCESS');
  });

  it('transfer.failed and transfer.reversed are FAILED with a reason', async () => {
    const failedRef = newRef();
    await channel.submitPayout(payout(failedRef));
    const failed = channel.parseCallback(...args(await fake.failTransfer(failedRef, 'Account details are invalid')));
    expect(failed).toMatchObject({ kind: 'payout', transactionRef: failedRef, state: { status: 'FAILED', failureReason: 'INVALID_ACCOUNT' } });
    const reversedRef = newRef();
    await channel.submitPayout(payout(reversedRef));
    const reversed = channel.parseCallback(...args(await fake.reverseTransfer(reversedRef)));
    expect(reversed).toMatchObject({ kind: 'payout', transactionRef: reversedRef, state: { status: 'FAILED', failureReason: 'UPSTREAM_REJECTED' } });
  });

  it.each(Object.entries(TRANSFER_STATUS))('transfer status %s verifies as %s', async (status, ours) => {
    const ref = newRef();
    await channel.submitPayout(payout(ref));
    fake.setTransferStatus(ref, status);
    expect((await channel.queryPayout(ref)).status).toBe(ours);
  });

  it('a payout Paystack never received is UNKNOWN', async () => {
    expect(await channel.queryPayout(newRef())).toEqual({ status: 'UNKNOWN' });
  });

  it('an unresolvable account is refused as INVALID_ACCOUNT, before any transfer', async () => {
    const ref = newRef();
    const error = await refusal(channel.submitPayout(payout(ref, { account: UNRESOLVABLE_ACCOUNT })));
    expect(error.failureReason).toBe('INVALID_ACCOUNT');
    expect(error.upstreamStatus).toBe(422);
    expect(fake.transfers.has(ref)).toBe(false);
  });

  it('a malformed NUBAN or a missing bank code is refused without asking Paystack', async () => {
    const before = fake.requests.length;
    expect((await refusal(channel.submitPayout(payout(newRef(), { account: '12345' })))).failureReason).toBe('INVALID_ACCOUNT');
    expect((await refusal(channel.submitPayout(payout(newRef(), { bankCode: null })))).failureReason).toBe('INVALID_ACCOUNT');
    expect(fake.requests.length).toBe(before);
  });

  it('an empty Paystack balance is INSUFFICIENT_FUNDS_UPSTREAM', async () => {
    fake.setBalance(100);
    const error = await refusal(channel.submitPayout(payout(newRef())));
    expect(error.failureReason).toBe('INSUFFICIENT_FUNDS_UPSTREAM');
    expect(error.upstreamStatus).toBe(400);
  });

  it('Paystack\'s documented invalid-recipient refusal is INVALID_ACCOUNT', async () => {
    fake.nextAnswer('POST /transfer', { status: 400, body: paystackFixture('error-invalid-recipient') });
    const error = await refusal(channel.submitPayout(payout(newRef())));
    expect(error.failureReason).toBe('INVALID_ACCOUNT');
    expect(error.upstreamCode).toBe('invalid_transfer_recipient');
  });

  it('a hang is UpstreamUnavailableError; the query after a lost answer finds the one transfer', async () => {
    const short = build({ timeoutMs: 300 });
    const hungRef = newRef();
    fake.nextAnswer('POST /transfer', 'hang');
    await expect(short.submitPayout(payout(hungRef))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(await short.queryPayout(hungRef)).toEqual({ status: 'UNKNOWN' });

    const lostRef = newRef();
    fake.nextAnswer('POST /transfer', 'lose');
    await expect(short.submitPayout(payout(lostRef))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    const found = await short.queryPayout(lostRef);
    expect(found.status).toBe('PROCESSING');
    // Even a resubmission would not pay twice: Paystack refuses the reference, the state is answered.
    expect(await short.submitPayout(payout(lostRef))).toEqual(found);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/transfer' && r.body?.reference === lostRef)).toHaveLength(2);
    expect([...fake.transfers.keys()].filter((k) => k === lostRef)).toHaveLength(1);
    await short.close?.();
  });

  it('a 5xx, a 429 and an unreadable body are UpstreamUnavailableError', async () => {
    fake.nextAnswer('POST /transfer', { status: 502, body: { status: false, message: 'Bad gateway' } });
    await expect(channel.submitPayout(payout(newRef()))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    fake.nextAnswer('GET /transfer/verify/*', { status: 429, body: { status: false, message: 'Too many requests' } });
    await expect(channel.queryPayout(newRef())).rejects.toBeInstanceOf(UpstreamUnavailableError);
    fake.nextAnswer('GET /transaction/verify/*', { status: 200, body: 'not an envelope' });
    await expect(channel.queryCollection(newRef())).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});

describe('credentials', () => {
  it('a wrong secret key is refused as UPSTREAM_REJECTED with Paystack\'s 401', async () => {
    const wrong = build({ secretKey: 'sk_test_wrong' });
    const error = await refusal(wrong.createCollection(collection(newRef())));
    expect(error.failureReason).toBe('UPSTREAM_REJECTED');
    expect(error.upstreamStatus).toBe(401);
    expect(error.message).toMatch(/credentials refused/);
    expect((await refusal(wrong.queryPayout(newRef()))).upstreamStatus).toBe(401);
    await wrong.close?.();
  });
});

describe('banks and name enquiry', () => {
  it('lists the active banks across cursor pages', async () => {
    const banks = await channel.listBanks!('NGN');
    const sample = (paystackFixture('bank-list').data as { code: string; name: string; active: boolean }[]).filter((b) => b.active);
    expect(banks).toEqual(sample.map((b) => ({ code: b.code, name: b.name })));
    const asked = fake.requests.filter((r) => r.path === '/bank').at(-1)!;
    expect(asked.query.get('country')).toBe('nigeria');
    expect(asked.query.get('currency')).toBe('NGN');
    expect(await channel.listBanks!('IDR')).toEqual([]);
  });

  it('resolves an account name, and an unknown account is INVALID_ACCOUNT', async () => {
    expect(await channel.resolveAccount!({ currency: 'NGN', method: 'BANK', bankCode: '058', account: '0022728151' })).toEqual({
      accountName: 'WES GIBBONS',
      bankCode: '058',
      account: '0022728151',
    });
    const error = await refusal(channel.resolveAccount!({ currency: 'NGN', method: 'BANK', bankCode: '058', account: UNRESOLVABLE_ACCOUNT }));
    expect(error.failureReason).toBe('INVALID_ACCOUNT');
  });
});

describe('webhooks', () => {
  const secret = (): string => fake.secretKey;
  const signed = (body: unknown): [Record<string, string>, Buffer] => {
    const raw = Buffer.from(JSON.stringify(body));
    return [{ 'x-paystack-signature': paystackSignature(secret(), raw) }, raw];
  };

  it('an event delivered over HTTP to the callback URL verifies', async () => {
    let received: { headers: http.IncomingHttpHeaders; body: Buffer } | null = null;
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received = { headers: req.headers, body: Buffer.concat(chunks) };
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    fake.setCallbackUrl(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/callbacks/paystack`);
    try {
      const ref = newRef();
      await channel.createCollection(collection(ref));
      const sent = await fake.pay(ref);
      expect(sent.deliveredStatus).toBe(200);
      const got = received as unknown as { headers: http.IncomingHttpHeaders; body: Buffer };
      expect(channel.parseCallback(got.headers, got.body)).toMatchObject({ kind: 'collection', transactionRef: ref, state: { status: 'PAID' } });
    } finally {
      fake.setCallbackUrl(null);
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('a tampered body, a wrong signature, a wrong-length signature or a missing header is INVALID_SIGNATURE', () => {
    const [headers, raw] = signed(paystackFixture('event-transfer-successful'));
    const tampered = Buffer.from(raw.toString('utf8').replace('100000', '900000'));
    const cases: [Record<string, string | string[] | undefined>, Buffer][] = [
      [headers, tampered],
      [{ 'x-paystack-signature': paystackSignature('sk_test_other', raw) }, raw],
      [{ 'x-paystack-signature': headers['x-paystack-signature']!.slice(0, 64) }, raw],
      [{ 'x-paystack-signature': headers['x-paystack-signature']!.replace(/^./, 'z') }, raw],
      [{}, raw],
      [{ 'x-paystack-signature': [headers['x-paystack-signature']!] }, raw],
    ];
    for (const [h, body] of cases) {
      expect(() => channel.parseCallback(h, body)).toThrow(AppError);
      try {
        channel.parseCallback(h, body);
      } catch (error) {
        expect((error as AppError).reason).toBe('INVALID_SIGNATURE');
      }
    }
    expect(channel.parseCallback(headers, raw).kind).toBe('payout');
  });

  it('the documented sample events parse to the right callbacks', () => {
    expect(channel.parseCallback(...signed(paystackFixture('event-pwt-charge-successful')))).toEqual({
      kind: 'collection',
      transactionRef: 'zuz8ggd1ro',
      state: { upstreamRef: 'zuz8ggd1ro', status: 'PAID', paidAmountMinor: 25_000n },
    });
    expect(channel.parseCallback(...signed(paystackFixture('event-transaction-successful')))).toMatchObject({
      kind: 'collection',
      transactionRef: 'qTPrJoy9Bx',
      state: { status: 'PAID', paidAmountMinor: 10_000n },
    });
    expect(channel.parseCallback(...signed(paystackFixture('event-transfer-successful')))).toEqual({
      kind: 'payout',
      transactionRef: 'acv_9ee55786-2323-4760-98e2-6380c9cb3f68',
      state: { status: 'SUCCESS', upstreamRef: 'TRF_v5tip3zx8nna9o78' },
    });
    expect(channel.parseCallback(...signed(paystackFixture('event-transfer-failed')))).toEqual({
      kind: 'payout',
      transactionRef: '1976435206',
      state: { status: 'FAILED', upstreamRef: 'TRF_chs98y5rykjb47w', failureReason: 'UPSTREAM_REJECTED' },
    });
    expect(channel.parseCallback(...signed(paystackFixture('event-transfer-reversed')))).toMatchObject({
      kind: 'payout',
      transactionRef: 'jvrjckwenm',
      state: { status: 'FAILED' },
    });
    expect(channel.parseCallback(...signed(paystackFixture('event-refund-processed')))).toEqual({ kind: 'ignored', reason: 'Paystack event refund.processed is not used' });
    expect(channel.parseCallback(...signed(paystackFixture('event-pwt-bank-transfer-rejected'))).kind).toBe('ignored');
  });

  it('an authentic but malformed event is VALIDATION_FAILED', () => {
    expect(() => channel.parseCallback(...signed({ event: 'transfer.success', data: { status: 'success' } }))).toThrow(/malformed/);
    expect(() => channel.parseCallback(...signed({ event: 'transfer.success', data: { reference: 'abcdefabcdefabcdef', status: 'weird', transfer_code: 'TRF_1' } }))).toThrow(/unknown/);
  });
});

describe('mappings', () => {
  it('every transaction and charge status maps', () => {
    const table = Object.fromEntries(
      Object.keys(TRANSACTION_STATUS).map((status) => [status, toCollectionState({ id: 1, status, reference: 'r', amount: 100, currency: 'NGN', channel: 'bank_transfer' } as TransactionData)?.status]),
    );
    expect(table).toEqual({
      success: 'PAID',
      failed: 'FAILED',
      reversed: 'FAILED',
      abandoned: 'EXPIRED',
      pending: 'PENDING',
      ongoing: 'PENDING',
      processing: 'PENDING',
      queued: 'PENDING',
      pending_bank_transfer: 'PENDING',
      send_pin: 'PENDING',
      send_otp: 'PENDING',
      send_phone: 'PENDING',
      send_birthday: 'PENDING',
      send_address: 'PENDING',
      open_url: 'PENDING',
      pay_offline: 'PENDING',
    });
  });

  it('every transfer status maps, failures with a reason', () => {
    const table = Object.fromEntries(
      Object.keys(TRANSFER_STATUS).map((status) => [status, toPayoutState({ status, reference: 'r', transfer_code: 'TRF_1', amount: 1, currency: 'NGN' } as TransferData)]),
    );
    expect(table).toEqual({
      success: { status: 'SUCCESS', upstreamRef: 'TRF_1' },
      pending: { status: 'PROCESSING', upstreamRef: 'TRF_1' },
      processing: { status: 'PROCESSING', upstreamRef: 'TRF_1' },
      queued: { status: 'PROCESSING', upstreamRef: 'TRF_1' },
      received: { status: 'PROCESSING', upstreamRef: 'TRF_1' },
      otp: { status: 'PROCESSING', upstreamRef: 'TRF_1' },
      failed: { status: 'FAILED', upstreamRef: 'TRF_1', failureReason: 'UPSTREAM_REJECTED' },
      reversed: { status: 'FAILED', upstreamRef: 'TRF_1', failureReason: 'UPSTREAM_REJECTED' },
      abandoned: { status: 'FAILED', upstreamRef: 'TRF_1', failureReason: 'UPSTREAM_REJECTED' },
      blocked: { status: 'FAILED', upstreamRef: 'TRF_1', failureReason: 'UPSTREAM_REJECTED' },
      rejected: { status: 'FAILED', upstreamRef: 'TRF_1', failureReason: 'UPSTREAM_REJECTED' },
    });
  });

  it('references: our UUIDs go unchanged, anything else round-trips through a valid encoding', () => {
    const uuid = '0193a6b2-7c1d-7e4f-8a2b-0123456789ab';
    expect(toPaystackReference(uuid)).toBe(uuid);
    for (const ref of ['S', 'SHORT', 'Upper-Case_Ref', 'pgx-deadbeefdeadbeef', 'é']) {
      const encoded = toPaystackReference(ref)!;
      expect(encoded).toMatch(/^[a-z0-9-]{16,50}$/);
      expect(fromPaystackReference(encoded)).toBe(ref);
    }
    expect(toPaystackReference('x'.repeat(40))).toBe('x'.repeat(40));
    expect(toPaystackReference('X'.repeat(40))).toBeNull();
  });
});

function args(event: { headers: Record<string, string>; rawBody: Buffer }): [Record<string, string>, Buffer] {
  return [event.headers, event.rawBody];
}
