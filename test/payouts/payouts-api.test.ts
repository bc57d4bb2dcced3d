// Payouts through HTTP with the SDK against the real server, its payout job and the in-process bank
// simulator: the success and failure flows with their ledger effects and events, the sandbox magic
// accounts (0001 invalid, 0002 slow, 0003 timeout), upstream outages without double payment,
// validation per currency and method, idempotency, balance races, replays, and the operator tools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { entriesOf, eventsOf, pause } from '../payments/api-helpers.js';
import { FINAL, faults, fund, magicAccount, payoutBody, stats, until } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  expect(await server.services.ledger.verify()).toEqual([]);
  await server.close();
});

const balances = (merchantId: string, currency: 'INR' | 'EGP' | 'NGN' | 'IDR') => server.services.ledger.balances(merchantId, currency);

async function fundedMerchant(currency: 'INR' | 'EGP' | 'NGN' | 'IDR' = 'INR', amountMinor = 10_000_00n): Promise<TestMerchant> {
  const merchant = await server.createMerchant();
  await fund(server, merchant.id, currency, amountMinor);
  return merchant;
}

async function eventually(check: () => Promise<void>, limitMs = 5_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await pause(50);
    }
  }
}

describe('payout flows', () => {
  it('succeeds: Initiated, then Success; amount + fee leave available, nothing stays held, payout.succeeded is recorded', async () => {
    const shop = await fundedMerchant();
    const created = await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 1000 }));
    expect(created.status).toBe(200);
    expect(created.data).toMatchObject({ method: 'BANK', currency: 'INR', amount: 1000, fee: 5, status: 'Initiated' });
    expect(created.data.transactionRef).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    const done = await until(shop, created.data.transactionRef, FINAL);
    expect(done).toMatchObject({ status: 'Success', amount: 1000, fee: 5, bankCode: 'HDFC0001234', account: '50100012345678', name: 'Asha Rao' });
    expect(done.completedAt).toBeDefined();
    expect((done as { upstreamRef?: string }).upstreamRef).toMatch(/\S/);
    const b = await balances(shop.id, 'INR');
    expect({ available: b.available, held: b.held }).toEqual({ available: 10_000_00n - 1005_00n, held: 0n });
    expect(await entriesOf(server, shop.id, 'payout_reserve')).toBe(1);
    expect(await entriesOf(server, shop.id, 'payout_complete')).toBe(1);
    expect(stats(server).transfersFor(created.data.transactionRef)).toBe(1);
    await eventually(async () => {
      const events = await eventsOf(server, created.data.transactionRef);
      expect(events.map((e) => e.type)).toEqual(['payout.succeeded']);
      expect(events[0]!.payload).toMatchObject({ transactionRef: created.data.transactionRef, status: 'Success', event: { type: 'payout.succeeded' } });
    });
    const fetched = await shop.client.payoutFetch({ merchantRef: created.data.merchantRef });
    expect(fetched.data).toEqual(done);
  });

  it('account ending 0001 fails with INVALID_ACCOUNT and the funds return to available', async () => {
    const shop = await fundedMerchant();
    const created = await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { account: magicAccount('INR', 'BANK', '0001') }));
    expect(created.status).toBe(200);
    const done = await until(shop, created.data.transactionRef, FINAL);
    expect(done).toMatchObject({ status: 'Failed', failureReason: 'INVALID_ACCOUNT' });
    const b = await balances(shop.id, 'INR');
    expect({ available: b.available, held: b.held }).toEqual({ available: 10_000_00n, held: 0n });
    await eventually(async () => {
      const events = await eventsOf(server, created.data.transactionRef);
      expect(events.map((e) => e.type)).toEqual(['payout.failed']);
      expect(events[0]!.payload).toMatchObject({ status: 'Failed', failureReason: 'INVALID_ACCOUNT' });
    });
  });

  it('account ending 0002 stays Processing with the funds held until two minutes pass, then succeeds', async () => {
    const shop = await fundedMerchant('EGP', 10_000_00n);
    const created = await shop.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account: '01012340002', amount: 500 }));
    expect(created.data).toMatchObject({ fee: 5, status: 'Initiated' });
    await until(shop, created.data.transactionRef, ['Processing']);
    await pause(400);
    expect((await shop.client.payoutStatus({ transactionRef: created.data.transactionRef })).data.status).toBe('Processing');
    expect((await balances(shop.id, 'EGP')).held).toBe(505_00n);
    server.clock.advance(2 * 60_000 + 1_000);
    const done = await until(shop, created.data.transactionRef, FINAL);
    expect(done.status).toBe('Success');
    expect((await balances(shop.id, 'EGP')).held).toBe(0n);
    expect(stats(server).transfersFor(created.data.transactionRef)).toBe(1);
  });

  it('account ending 0003: the first submission times out, the transfer exists, and it is paid exactly once', async () => {
    const shop = await fundedMerchant('NGN', 100_000_00n);
    const created = await shop.client.payoutInitiate(payoutBody('NGN', 'BANK', { account: magicAccount('NGN', 'BANK', '0003') }));
    expect(created.data.method).toBe('TRANSFER');
    const done = await until(shop, created.data.transactionRef, FINAL, 20_000);
    expect(done.status).toBe('Success');
    expect(stats(server).transfersFor(created.data.transactionRef)).toBe(1);
    // After the timeout it asked, found the transfer, and never sent the payout again.
    expect(stats(server).submissionsFor(created.data.transactionRef)).toBe(1);
    const row = await server.services.store.db.selectFrom('payouts').selectAll().where('transaction_ref', '=', created.data.transactionRef).executeTakeFirstOrThrow();
    expect(row.submit_attempts).toBe(1n);
    const b = await balances(shop.id, 'NGN');
    expect({ available: b.available, held: b.held }).toEqual({ available: 100_000_00n - 10_025_00n, held: 0n });
  });

  it('upstream 500s, then recovery: it asks before resending and pays exactly once', async () => {
    const shop = await fundedMerchant('IDR', 1_000_000_00n);
    Object.assign(faults(server), { failNextRequests: 3 });
    try {
      const created = await shop.client.payoutInitiate(payoutBody('IDR', 'TRANSFER'));
      expect(created.status).toBe(200);
      const done = await until(shop, created.data.transactionRef, FINAL, 25_000);
      expect(done.status).toBe('Success');
      expect(stats(server).transfersFor(created.data.transactionRef)).toBe(1);
    } finally {
      server.services.channels.simulator.server!.resetFaults();
    }
  }, 30_000);

  it('a payout callback repeated after the payout is final changes nothing', async () => {
    const shop = await fundedMerchant();
    const created = await shop.client.payoutInitiate(payoutBody('INR', 'UPI'));
    const done = await until(shop, created.data.transactionRef, FINAL);
    await server.services.payouts.applyPayoutState(created.data.transactionRef, { status: 'FAILED', failureReason: 'INVALID_ACCOUNT' }, 'simulator');
    expect((await shop.client.payoutStatus({ transactionRef: created.data.transactionRef })).data).toEqual(done);
    expect(await entriesOf(server, shop.id, 'payout_release')).toBe(0);
  });
});

describe('payout validation', () => {
  const expectError = (answer: { status: number; message: string; data: unknown }, status: number, message: string, field?: string) => {
    expect({ status: answer.status, message: answer.message }).toEqual({ status, message });
    if (field) expect((answer.data as { errors?: { field: string }[] }).errors?.map((e) => e.field)).toContain(field);
  };
  let shop: TestMerchant;
  beforeAll(async () => {
    shop = await fundedMerchant();
  });

  it('refuses an amount over the method bound and one with 3 decimals', async () => {
    expectError(await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 500_000.01 })), 400, 'VALIDATION_FAILED', 'amount');
    expectError(await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 99.99 })), 400, 'VALIDATION_FAILED', 'amount');
    expectError(await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 100.001 })), 400, 'VALIDATION_FAILED', 'amount');
  });

  it('refuses bank codes not in the list with INVALID_BANK_CODE', async () => {
    expectError(await shop.client.payoutInitiate(payoutBody('NGN', 'BANK', { bankCode: '999999' })), 400, 'INVALID_BANK_CODE', 'bankCode');
    expectError(await shop.client.payoutInitiate(payoutBody('IDR', 'TRANSFER', { bankCode: '99999' })), 400, 'INVALID_BANK_CODE', 'bankCode');
    expectError(await shop.client.payoutInitiate(payoutBody('EGP', 'BANK', { bankCode: '0000' })), 400, 'INVALID_BANK_CODE', 'bankCode');
  });

  it('INR BANK needs a well-formed IFSC of a listed bank', async () => {
    expectError(await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { bankCode: 'HDFC1001234' })), 400, 'INVALID_BANK_CODE', 'bankCode');
    expectError(await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { bankCode: 'hdfc0001234' })), 400, 'INVALID_BANK_CODE', 'bankCode');
    expectError(await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { bankCode: 'ZZZZ0001234' })), 400, 'INVALID_BANK_CODE', 'bankCode');
    expectError(await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { bankCode: undefined })), 400, 'VALIDATION_FAILED', 'bankCode');
    expectError(await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { account: '12AB5678901' })), 400, 'VALIDATION_FAILED', 'account');
  });

  it('INR UPI needs a VPA and no bankCode', async () => {
    expectError(await shop.client.payoutInitiate(payoutBody('INR', 'UPI', { account: 'not-a-vpa' })), 400, 'VALIDATION_FAILED', 'account');
    expectError(await shop.client.payoutInitiate(payoutBody('INR', 'UPI', { account: 'a@b' })), 400, 'VALIDATION_FAILED', 'account');
    expectError(await shop.client.payoutInitiate(payoutBody('INR', 'UPI', { bankCode: 'HDFC0001234' })), 400, 'VALIDATION_FAILED', 'bankCode');
    expect((await shop.client.payoutInitiate(payoutBody('INR', 'UPI', { account: 'asha.rao-1@ybl' }))).status).toBe(200);
  });

  it('EGP WALLET needs an 11-digit Egyptian mobile number', async () => {
    await fund(server, shop.id, 'EGP', 10_000_00n);
    expectError(await shop.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account: '01312345678' })), 400, 'VALIDATION_FAILED', 'account');
    expectError(await shop.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account: '0101234567' })), 400, 'VALIDATION_FAILED', 'account');
    expectError(await shop.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account: '201012345678' })), 400, 'VALIDATION_FAILED', 'account');
    expect((await shop.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account: '01512345678' }))).status).toBe(200);
  });

  it('NGN needs a 10-digit account; unknown method and currency are refused', async () => {
    expectError(await shop.client.payoutInitiate(payoutBody('NGN', 'BANK', { account: '12345' })), 400, 'VALIDATION_FAILED', 'account');
    expectError(await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { method: 'WALLET' })), 400, 'UNSUPPORTED_METHOD');
    expectError(await shop.client.payoutInitiate({ ...payoutBody('INR', 'BANK'), currency: 'USD' as 'INR' }), 400, 'UNSUPPORTED_CURRENCY');
    expectError(await shop.client.payoutInitiate({ ...payoutBody('INR', 'BANK'), iban: 'x' } as never), 400, 'VALIDATION_FAILED');
  });

  it('refuses a payout beyond available + credit with 422 and stores nothing', async () => {
    const poor = await fundedMerchant('INR', 500_00n);
    const body = payoutBody('INR', 'BANK', { amount: 496 });
    expectError(await poor.client.payoutInitiate(body), 422, 'INSUFFICIENT_BALANCE');
    expectError(await poor.client.payoutStatus({ merchantRef: body.merchantRef }), 404, 'NOT_FOUND');
    expect((await balances(poor.id, 'INR')).available).toBe(500_00n);
    // Exactly the balance works: 495 + 5 fee.
    expect((await poor.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 495 }))).status).toBe(200);
  });
});

describe('payout idempotency, races and access', () => {
  it('the same request again answers the same payout and reserves once; another body is 409', async () => {
    const shop = await fundedMerchant();
    const body = payoutBody('INR', 'BANK', { account: magicAccount('INR', 'BANK', '0002') });
    const first = await shop.client.payoutInitiate(body);
    const again = await shop.client.payoutInitiate({ ...body });
    const racing = await Promise.all([1, 2, 3].map(() => shop.client.payoutInitiate({ ...body })));
    for (const answer of [again, ...racing]) {
      expect(answer.status).toBe(200);
      expect(answer.data.transactionRef).toBe(first.data.transactionRef);
    }
    expect(await entriesOf(server, shop.id, 'payout_reserve')).toBe(1);
    expect((await balances(shop.id, 'INR')).held).toBe(1005_00n);
    const other = await shop.client.payoutInitiate({ ...body, amount: 1001 });
    expect({ status: other.status, message: other.message }).toEqual({ status: 409, message: 'DUPLICATE_MERCHANT_REF' });
  });

  it('a repeat answers the original payout even once the balance no longer covers it; another body is still 409', async () => {
    const shop = await fundedMerchant('INR', 2000_00n);
    // The first payout opens the merchant's held account; the second is accepted in one statement on PostgreSQL.
    expect((await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 1000 }))).status).toBe(200);
    const body = payoutBody('INR', 'BANK', { amount: 800, account: magicAccount('INR', 'BANK', '0002') });
    const first = await shop.client.payoutInitiate(body);
    expect(first.status).toBe(200);
    expect((await balances(shop.id, 'INR')).available).toBe(190_00n);
    const answers = await Promise.all([
      ...[1, 2, 3].map(() => shop.client.payoutInitiate({ ...body })),
      shop.client.payoutInitiate({ ...body, amount: 801 }),
      shop.client.payoutInitiate(payoutBody('INR', 'UPI', { amount: 200 })),
      shop.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 150 })),
    ]);
    expect(answers.map((a) => [a.status, a.status === 200 ? a.data.transactionRef === first.data.transactionRef : a.message])).toEqual([
      [200, true],
      [200, true],
      [200, true],
      [409, 'DUPLICATE_MERCHANT_REF'],
      [422, 'INSUFFICIENT_BALANCE'],
      [200, false],
    ]);
    expect(await entriesOf(server, shop.id, 'payout_reserve')).toBe(3);
    expect((await balances(shop.id, 'INR')).available).toBe(190_00n - 155_00n);
  });

  it('identical requests racing on a fresh merchantRef make one payout', async () => {
    const shop = await fundedMerchant();
    const body = payoutBody('INR', 'UPI');
    const answers = await Promise.all(Array.from({ length: 6 }, () => shop.client.payoutInitiate({ ...body })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.data.transactionRef)).size).toBe(1);
    expect(await entriesOf(server, shop.id, 'payout_reserve')).toBe(1);
  });

  it('two payouts that together exceed the balance: one 200, one 422, never negative', async () => {
    const shop = await fundedMerchant('INR', 1500_00n);
    const answers = await Promise.all([1, 2].map(() => shop.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 1000 }))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    expect(answers.find((a) => a.status === 422)!.message).toBe('INSUFFICIENT_BALANCE');
    const b = await balances(shop.id, 'INR');
    expect(b.available).toBeGreaterThanOrEqual(0n);
    expect(b.available + b.held).toBeLessThanOrEqual(1500_00n);
    const many = await Promise.all(Array.from({ length: 12 }, () => shop.client.payoutInitiate(payoutBody('INR', 'UPI', { amount: 100 }))));
    // 495 left after the first payout: four payouts of 103 fit.
    expect(many.filter((a) => a.status === 200)).toHaveLength(4);
    expect(many.filter((a) => a.status === 422)).toHaveLength(8);
    expect((await balances(shop.id, 'INR')).available).toBe(495_00n - 4n * 103_00n);
  });

  it('a repeated signed payout request answers the same payout and reserves once; elsewhere it is 401 SIGNATURE_REUSED', async () => {
    const shop = await fundedMerchant();
    const request = shop.client.buildSignedRequest(payoutBody('INR', 'BANK'));
    const send = (path: string) => fetch(`${server.baseUrl}/v1/api/${path}`, { method: 'POST', headers: request.headers, body: request.body });
    const first = await send('payout/initiate');
    expect(first.status).toBe(200);
    const repeat = await send('payout/initiate');
    expect(repeat.status).toBe(200);
    expect((await repeat.json()).data.transactionRef).toBe((await first.json()).data.transactionRef);
    const elsewhere = await send('payment/initiate');
    expect(elsewhere.status).toBe(401);
    expect((await elsewhere.json()).message).toBe('SIGNATURE_REUSED');
    expect(await entriesOf(server, shop.id, 'payout_reserve')).toBe(1);
  });

  it("another merchant's payout is 404 NOT_FOUND by either reference", async () => {
    const owner = await fundedMerchant();
    const stranger = await server.createMerchant();
    const created = await owner.client.payoutInitiate(payoutBody('INR', 'UPI'));
    for (const query of [{ transactionRef: created.data.transactionRef }, { merchantRef: created.data.merchantRef }]) {
      const answer = await stranger.client.payoutStatus(query);
      expect({ status: answer.status, message: answer.message }).toEqual({ status: 404, message: 'NOT_FOUND' });
    }
    const both = await owner.client.payoutStatus({ transactionRef: created.data.transactionRef, merchantRef: created.data.merchantRef });
    expect(both.status).toBe(400);
  });
});

describe('payout operator tools', () => {
  it('lists payouts stuck in Processing and queries one at the upstream on demand', async () => {
    const shop = await fundedMerchant();
    const created = await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { account: magicAccount('INR', 'BANK', '0002') }));
    const ref = created.data.transactionRef;
    await until(shop, ref, ['Processing']);
    const fresh = await server.admin('GET', '/payouts/stuck?olderThanSeconds=600');
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.payouts.map((p: { transactionRef: string }) => p.transactionRef)).not.toContain(ref);
    const listed = await server.admin('GET', '/payouts/stuck?olderThanSeconds=0');
    expect(listed.body.data.payouts.find((p: { transactionRef: string }) => p.transactionRef === ref)).toMatchObject({ status: 'Processing', merchantId: shop.id });
    const cli = await server.services.payouts.stuck(0);
    expect(cli.map((p) => p.transactionRef)).toContain(ref);

    const queried = await server.admin('POST', `/payouts/${ref}/query`);
    expect(queried.status).toBe(200);
    expect(queried.body.data).toMatchObject({ payout: { transactionRef: ref }, upstream: { status: expect.stringMatching(/PROCESSING|SUCCESS/) } });

    faults(server).dropCallbacks = true;
    try {
      server.clock.advance(2 * 60_000 + 1_000);
      const forced = await server.admin('POST', `/payouts/${ref}/query`);
      expect(forced.body.data).toMatchObject({ payout: { status: 'Success' }, upstream: { status: 'SUCCESS' } });
    } finally {
      server.services.channels.simulator.server!.resetFaults();
    }
    expect((await shop.client.payoutStatus({ transactionRef: ref })).data.status).toBe('Success');
    expect((await server.admin('POST', '/payouts/0190aaaa-0000-7000-8000-000000000000/query')).status).toBe(404);
  });
});
