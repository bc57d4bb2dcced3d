// payment/initiate, payment/status, payment/fetch and payment/methods through HTTP with the SDK:
// every method of every currency, the validation rules, idempotency by merchantRef (also under a
// race), lookups by either reference, and another merchant's payment looking exactly like none.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayInMethod } from '../../sdk/src/index.js';
import { PAYIN_METHODS } from '../../src/domain/methods.js';
import { CURRENCIES } from '../../src/core/money.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { initiateBody, newMerchantRef } from './api-helpers.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: TestServer;
let merchant: TestMerchant;
beforeAll(async () => {
  server = await startTestServer();
  merchant = await server.createMerchant();
});
afterAll(async () => server.close());

const paymentsOf = async (merchantId: string): Promise<number> => {
  const row = await server.services.store.db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('merchant_id', '=', merchantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

describe('payment/initiate', () => {
  const everyMethod = CURRENCIES.flatMap((currency) => PAYIN_METHODS[currency].map((spec) => [currency, spec.method] as const));

  it.each(everyMethod)('creates a %s %s payment with a 30-minute checkout URL', async (currency, method) => {
    const body = initiateBody(currency, method as PayInMethod);
    const answer = await merchant.client.paymentInitiate(body);
    expect(answer.status).toBe(200);
    expect(answer.code).toBe('200');
    expect(answer.message).toBe('SUCCESS');
    const data = answer.data;
    expect(data.transactionRef).toMatch(UUID_V7);
    expect(data).toMatchObject({ merchantRef: body.merchantRef, method, amount: body.amount, status: 'Pending' });
    if (currency === 'INR') expect(data).not.toHaveProperty('currency');
    else expect(data.currency).toBe(currency);
    expect(data.checkoutUrl).toMatch(new RegExp(`^${server.services.config.publicBaseUrl}/checkout/[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(data.expiresAt!) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(Date.parse(data.expiresAt!) - server.clock.nowMs()).toBeLessThanOrEqual(30 * 60_000);
  });

  it('renders decimal amounts and fees exactly', async () => {
    const answer = await merchant.client.paymentInitiate(initiateBody('EGP', 'WALLET', { amount: 100.3 }));
    expect(answer.data.amount).toBe(100.3);
    const status = await merchant.client.paymentStatus({ transactionRef: answer.data.transactionRef });
    expect(status.data).toMatchObject({ amount: 100.3, fee: 1.5, paidAmount: 0 });
  });

  const refused: [string, object, number, string, string?][] = [
    ['an amount with 3 decimals', { amount: 1000.123 }, 400, 'VALIDATION_FAILED', 'amount'],
    ['an amount below the method minimum', { amount: 99.99 }, 400, 'VALIDATION_FAILED', 'amount'],
    ['an amount above the method maximum', { amount: 500_000.01 }, 400, 'VALIDATION_FAILED', 'amount'],
    ['a zero amount', { amount: 0 }, 400, 'VALIDATION_FAILED', 'amount'],
    ['a negative amount', { amount: -5 }, 400, 'VALIDATION_FAILED', 'amount'],
    ['an amount sent as a string', { amount: '100' }, 400, 'VALIDATION_FAILED', 'amount'],
    ['an unknown method', { method: 'CARD' }, 400, 'UNSUPPORTED_METHOD', 'method'],
    ['a method of another currency', { method: 'TRANSFER' }, 400, 'UNSUPPORTED_METHOD', 'method'],
    ['an unsupported currency', { currency: 'USD' }, 400, 'UNSUPPORTED_CURRENCY'],
    ['a merchantRef with a space', { merchantRef: 'order 1' }, 400, 'VALIDATION_FAILED', 'merchantRef'],
    ['a merchantRef of 65 characters', { merchantRef: 'a'.repeat(65) }, 400, 'VALIDATION_FAILED', 'merchantRef'],
    ['a malformed e-mail', { email: 'asha.example.com' }, 400, 'VALIDATION_FAILED', 'email'],
    ['a phone with a plus sign', { phone: '+919812345678' }, 400, 'VALIDATION_FAILED', 'phone'],
    ['a phone of 5 digits', { phone: '12345' }, 400, 'VALIDATION_FAILED', 'phone'],
    ['an empty name', { name: '' }, 400, 'VALIDATION_FAILED', 'name'],
    ['a blank name', { name: '   ' }, 400, 'VALIDATION_FAILED', 'name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 400, 'VALIDATION_FAILED', 'name'],
    ['a relative redirectUrl', { redirectUrl: '/return' }, 400, 'VALIDATION_FAILED', 'redirectUrl'],
    ['an http redirectUrl to a public host', { redirectUrl: 'http://shop.example.com/return' }, 400, 'VALIDATION_FAILED', 'redirectUrl'],
    ['a javascript: redirectUrl', { redirectUrl: 'javascript:alert(1)' }, 400, 'VALIDATION_FAILED', 'redirectUrl'],
    ['a redirectUrl with credentials', { redirectUrl: 'https://user:pw@shop.example.com/' }, 400, 'VALIDATION_FAILED', 'redirectUrl'],
    ['an ftp webhookUrl', { webhookUrl: 'ftp://shop.example.com/hook' }, 400, 'VALIDATION_FAILED', 'webhookUrl'],
    ['an unknown field', { tip: 5 }, 400, 'VALIDATION_FAILED', 'tip'],
    ['a missing field', { email: undefined }, 400, 'VALIDATION_FAILED', 'email'],
  ];

  it.each(refused)('refuses %s', async (_what, overrides, status, message, field) => {
    const before = await paymentsOf(merchant.id);
    const answer = await merchant.client.request<{ detail: string; errors?: { field: string }[] }>(
      'payment/initiate',
      { ...initiateBody('INR', 'NATIVE'), ...overrides },
    );
    expect({ status: answer.status, message: answer.message }).toEqual({ status, message });
    expect(answer.code).toBe(String(status));
    if (field) expect(answer.data.errors?.[0]?.field).toBe(field);
    expect(await paymentsOf(merchant.id)).toBe(before);
  });

  it('checks the payer phone where the wallet pushes a prompt to it', async () => {
    const egp = await merchant.client.request<any>('payment/initiate', initiateBody('EGP', 'WALLET', { phone: '2348031234567' }));
    expect({ status: egp.status, field: egp.data.errors?.[0]?.field }).toEqual({ status: 400, field: 'phone' });
    const ovo = await merchant.client.request<any>('payment/initiate', initiateBody('IDR', 'OVO', { phone: '01012345678' }));
    expect({ status: ovo.status, field: ovo.data.errors?.[0]?.field }).toEqual({ status: 400, field: 'phone' });
    expect((await merchant.client.paymentInitiate(initiateBody('IDR', 'OVO', { phone: '081234567890' }))).status).toBe(200);
  });

  it('uses each currency\'s bounds: IDR starts at 10,000, NGN goes up to 5,000,000', async () => {
    const idrLow = await merchant.client.request<any>('payment/initiate', initiateBody('IDR', 'QRIS', { amount: 9_999 }));
    expect(idrLow.status).toBe(400);
    expect(idrLow.data.errors[0]).toEqual({ field: 'amount', problem: 'must be between 10000.00 and 100000000.00' });
    expect((await merchant.client.paymentInitiate(initiateBody('NGN', 'TRANSFER', { amount: 5_000_000 }))).status).toBe(200);
  });

  it('accepts webhookUrl for every currency and shows it on the record', async () => {
    for (const currency of CURRENCIES) {
      const method = PAYIN_METHODS[currency][0]!.method as PayInMethod;
      const created = await merchant.client.paymentInitiate(initiateBody(currency, method, { webhookUrl: 'https://shop.example.com/hooks/pay' }));
      expect(created.status).toBe(200);
      const record = await merchant.client.request<{ webhookUrl?: string }>('payment/status', { transactionRef: created.data.transactionRef });
      expect(record.data.webhookUrl).toBe('https://shop.example.com/hooks/pay');
    }
  });

  it('lets a sandbox merchant send the payer back to http://localhost', async () => {
    const answer = await merchant.client.paymentInitiate(initiateBody('INR', 'NATIVE', { redirectUrl: 'http://localhost:3000/done' }));
    expect(answer.status).toBe(200);
  });
});

describe('idempotency by merchantRef', () => {
  it('answers the original payment when the same body is sent again, and 409 for another body', async () => {
    const body = initiateBody('NGN', 'TRANSFER');
    const first = await merchant.client.paymentInitiate(body);
    const again = await merchant.client.paymentInitiate({ ...body });
    expect(again.status).toBe(200);
    expect(again.data).toEqual(first.data);
    const reordered = await merchant.client.request<any>('payment/initiate', JSON.stringify(Object.fromEntries(Object.entries(body).reverse())));
    expect(reordered.data.transactionRef).toBe(first.data.transactionRef);

    const other = await merchant.client.paymentInitiate({ ...body, amount: body.amount + 1 });
    expect({ status: other.status, message: other.message }).toEqual({ status: 409, message: 'DUPLICATE_MERCHANT_REF' });
    const status = await merchant.client.paymentStatus({ merchantRef: body.merchantRef });
    expect(status.data.amount).toBe(body.amount);
  });

  it('creates one payment for ten identical requests racing', async () => {
    const racer = await server.createMerchant();
    const body = initiateBody('IDR', 'BRI');
    const answers = await Promise.all(Array.from({ length: 10 }, () => racer.client.paymentInitiate(body)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.data.transactionRef)).size).toBe(1);
    expect(new Set(answers.map((a) => a.data.checkoutUrl)).size).toBe(1);
    expect(await paymentsOf(racer.id)).toBe(1);
  });

  it('commits the new payments of a group arriving together while refusing the one whose merchantRef is taken', async () => {
    const grouped = await server.createMerchant();
    const taken = initiateBody('IDR', 'BNI');
    expect((await grouped.client.paymentInitiate(taken)).status).toBe(200);
    const fresh = [initiateBody('IDR', 'BNI'), initiateBody('NGN', 'TRANSFER'), initiateBody('EGP', 'FAWRY')];
    const answers = await Promise.all([
      grouped.client.paymentInitiate(fresh[0]!),
      grouped.client.paymentInitiate({ ...taken, amount: taken.amount + 1 }),
      grouped.client.paymentInitiate(fresh[1]!),
      grouped.client.paymentInitiate(fresh[2]!),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 409, 200, 200]);
    expect(answers[1]!.message).toBe('DUPLICATE_MERCHANT_REF');
    expect(await paymentsOf(grouped.id)).toBe(4);
    for (const body of fresh) {
      const status = await grouped.client.paymentStatus({ merchantRef: body.merchantRef });
      expect(status.data).toMatchObject({ merchantRef: body.merchantRef, amount: body.amount, status: 'Pending' });
    }
  });

  it('creates one of two different requests racing for one merchantRef and refuses the other', async () => {
    const racer = await server.createMerchant();
    const body = initiateBody('NGN', 'TRANSFER');
    const answers = await Promise.all([racer.client.paymentInitiate(body), racer.client.paymentInitiate({ ...body, amount: body.amount + 1 })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!;
    const stored = await racer.client.paymentStatus({ merchantRef: body.merchantRef });
    expect(stored.data).toMatchObject({ transactionRef: winner.data.transactionRef, amount: winner.data.amount });
    expect(await paymentsOf(racer.id)).toBe(1);
  });

  it('keeps merchantRefs of different merchants apart', async () => {
    const other = await server.createMerchant();
    const body = initiateBody('INR', 'NATIVE');
    const mine = await merchant.client.paymentInitiate(body);
    const theirs = await other.client.paymentInitiate({ ...body, amount: 200 });
    expect(theirs.status).toBe(200);
    expect(theirs.data.transactionRef).not.toBe(mine.data.transactionRef);
  });
});

describe('payment/status and payment/fetch', () => {
  it('answers the full record by transactionRef and by merchantRef, under both names', async () => {
    const body = initiateBody('IDR', 'MANDIRI', { webhookUrl: 'https://shop.example.com/hooks/pay' });
    const created = await merchant.client.paymentInitiate(body);
    const byRef = await merchant.client.paymentStatus({ transactionRef: created.data.transactionRef });
    expect(byRef.status).toBe(200);
    expect(byRef.data).toMatchObject({
      transactionRef: created.data.transactionRef,
      merchantRef: body.merchantRef,
      method: 'MANDIRI',
      currency: 'IDR',
      amount: 150_000,
      name: body.name,
      email: body.email,
      phone: body.phone,
      redirectUrl: body.redirectUrl,
      webhookUrl: body.webhookUrl,
      status: 'Pending',
      paidAmount: 0,
      fee: 4_000,
      refundable: false,
      expiresAt: created.data.expiresAt,
    });
    expect(byRef.data.createdAt).toBe(byRef.data.updatedAt);
    expect(byRef.data).not.toHaveProperty('completedAt');
    const byMerchantRef = await merchant.client.paymentStatus({ merchantRef: body.merchantRef });
    const fetched = await merchant.client.paymentFetch({ transactionRef: created.data.transactionRef });
    expect(byMerchantRef.data).toEqual(byRef.data);
    expect(fetched.data).toEqual(byRef.data);
  });

  it('needs exactly one of the two references', async () => {
    const both = await merchant.client.request<any>('payment/status', { transactionRef: 'x', merchantRef: 'y' });
    const neither = await merchant.client.request<any>('payment/fetch', {});
    expect([both.status, both.message, neither.status, neither.message]).toEqual([400, 'VALIDATION_FAILED', 400, 'VALIDATION_FAILED']);
  });

  it("answers another merchant's payment exactly like a missing one", async () => {
    const created = await merchant.client.paymentInitiate(initiateBody('EGP', 'FAWRY'));
    const stranger = await server.createMerchant();
    const foreign = await stranger.client.paymentStatus({ transactionRef: created.data.transactionRef });
    const missing = await stranger.client.paymentStatus({ transactionRef: '0190aaaa-0000-7000-8000-000000000000' });
    const foreignRef = await stranger.client.paymentFetch({ merchantRef: (await merchant.client.paymentStatus({ transactionRef: created.data.transactionRef })).data.merchantRef });
    for (const answer of [foreign, missing, foreignRef]) {
      expect({ status: answer.status, message: answer.message, data: answer.data }).toEqual({
        status: 404,
        message: 'NOT_FOUND',
        data: { detail: 'No such payment for this merchant.' },
      });
    }
  });
});

describe('payment/methods', () => {
  it('lists every pay-in and payout method of a currency with bounds, refundability and fees', async () => {
    const answer = await merchant.client.paymentMethods({ currency: 'IDR' });
    expect(answer.status).toBe(200);
    const data = answer.data as any;
    expect(data.currency).toBe('IDR');
    expect(data.payin.map((m: any) => m.method)).toEqual(['BNI', 'BRI', 'MANDIRI', 'PERMATA', 'QRIS', 'OVO', 'DANA']);
    expect(data.payin.find((m: any) => m.method === 'QRIS')).toEqual({
      method: 'QRIS',
      minAmount: 10_000,
      maxAmount: 100_000_000,
      refundable: true,
      fee: { bps: 70, percent: 0.7, fixed: 0 },
    });
    expect(data.payin.find((m: any) => m.method === 'BNI').refundable).toBe(false);
    expect(data.payout).toEqual([{ method: 'TRANSFER', minAmount: 10_000, maxAmount: 100_000_000, fee: { bps: 0, percent: 0, fixed: 4_500 } }]);
  });

  it('refuses an unknown currency', async () => {
    const answer = await merchant.client.request<any>('payment/methods', { currency: 'USD' });
    expect({ status: answer.status, message: answer.message }).toEqual({ status: 400, message: 'UNSUPPORTED_CURRENCY' });
  });
});

describe('initiate validation (property)', () => {
  const knownMethods = [...new Set(CURRENCIES.flatMap((c) => PAYIN_METHODS[c].map((m) => m.method)))];
  const field = <T>(valid: fc.Arbitrary<T>) => fc.option(fc.oneof(valid, fc.anything()), { nil: undefined, freq: 6 });
  const body = fc.record(
    {
      merchantRef: field(fc.oneof(fc.constant(newMerchantRef()), fc.stringMatching(/^[A-Za-z0-9_-]{1,70}$/))),
      method: field(fc.constantFrom(...knownMethods, 'CARD', '')),
      currency: field(fc.constantFrom<string>(...CURRENCIES, 'USD', 'inr')),
      amount: field(fc.oneof(fc.integer({ min: -10, max: 200_000_000 }), fc.double({ noNaN: false }), fc.constantFrom(100, 150_000, 10.5, 100.123, 1e21))),
      name: field(fc.string({ maxLength: 120 })),
      email: field(fc.constantFrom('a@b.co', 'bad', 'x@y', `${'a'.repeat(300)}@b.co`)),
      phone: field(fc.stringMatching(/^[0-9+ ]{0,18}$/)),
      redirectUrl: field(fc.constantFrom('https://shop.example.com/r', 'http://localhost/r', 'http://evil.example/r', 'not a url', 'https://')),
      webhookUrl: field(fc.constantFrom('https://shop.example.com/h', 'http://10.0.0.1/h', 'x')),
      extra: fc.option(fc.anything(), { nil: undefined, freq: 8 }),
    },
    { requiredKeys: [] },
  );

  it('never answers 5xx and writes nothing unless it answers 200', async () => {
    const subject = await server.createMerchant();
    await fc.assert(
      fc.asyncProperty(body, async (candidate) => {
        const payload = JSON.parse(JSON.stringify(candidate, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)) ?? '{}');
        if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return;
        const before = await paymentsOf(subject.id);
        const answer = await subject.client.request('payment/initiate', payload);
        expect(answer.status).toBeLessThan(500);
        const written = (await paymentsOf(subject.id)) - before;
        if (answer.status === 200) expect(written).toBeLessThanOrEqual(1);
        else expect(written).toBe(0);
      }),
      { numRuns: 150 },
    );
  });
});
