// The daily job against live connectors' statement APIs: Paystack (List Transactions and List
// Transfers, bearer secret key), Razorpay (Settlement Recon, HTTP Basic key pair) and Xendit (List
// Transactions, HTTP Basic secret key), each served by
// its fake with the provider's authentication, after real payments, a payout and a refund went
// through them; and imports of those providers' documented formats, well and badly formed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, dayOf } from '../../src/core/days.js';
import { dailyReconciliationJob } from '../../src/reconciliation/daily-job.js';
import { startPaystackFake, type PaystackFake } from '../fakes/paystack.js';
import { FakeRazorpay } from '../fakes/razorpay.js';
import { XenditFake } from '../fakes/xendit.js';
import { fund, initiateBody } from '../payments/api-helpers.js';
import { payoutBody } from '../payouts/helpers.js';
import { connect, eventually, paymentRow, startLive, type LiveSetup } from '../connectors/live.js';
import { allLines, importStatement, lineOf } from './helpers.js';

let live: LiveSetup;
let paystack: PaystackFake;
let razorpay: FakeRazorpay;
let xendit: XenditFake;

beforeAll(async () => {
  live = await startLive({ env: { RECONCILIATION_DAILY: 'false' } });
  paystack = await startPaystackFake({ callbackUrl: `${live.server.baseUrl}/v1/callbacks/paystack` });
  razorpay = await new FakeRazorpay().start();
  razorpay.setCallbackUrl(`${live.server.baseUrl}/v1/callbacks/razorpay`);
  await connect(live.server, 'paystack', {
    baseUrl: paystack.url,
    credentials: { secretKey: paystack.secretKey },
    routes: [
      { currency: 'NGN', direction: 'payin', method: 'TRANSFER' },
      { currency: 'NGN', direction: 'payout', method: 'BANK' },
    ],
  });
  await connect(live.server, 'razorpay', {
    baseUrl: razorpay.url,
    credentials: { keyId: razorpay.keyId, keySecret: razorpay.keySecret, webhookSecret: razorpay.webhookSecret, accountNumber: razorpay.accountNumber },
    routes: [{ currency: 'INR', direction: 'payin', method: 'NATIVE' }],
  });
  xendit = await XenditFake.start({ callbackUrl: `${live.server.baseUrl}/v1/callbacks/xendit` });
  await connect(live.server, 'xendit', {
    baseUrl: xendit.url,
    credentials: { secretKey: xendit.secretKey, callbackToken: xendit.callbackToken },
    routes: [
      { currency: 'IDR', direction: 'payin', method: 'BNI' },
      { currency: 'IDR', direction: 'payout', method: 'TRANSFER' },
    ],
  });
}, 60_000);

afterAll(async () => {
  await paystack?.close();
  await razorpay?.close();
  await xendit?.close();
  await live?.close();
});

/** The payments are made this long before midnight, and the job runs this long after it. */
const LATE_IN_DAY_MS = 20 * 60_000;
const AFTER_MIDNIGHT_MS = 5 * 60_000;

const client = () => live.merchant.client;
const statusOf = async (ref: string) => (await client().paymentStatus({ transactionRef: ref })).data.status;

async function readyPayment(currency: 'NGN' | 'INR' | 'IDR', method: string, amount: number): Promise<string> {
  const created = await client().paymentInitiate(initiateBody(currency, method as never, { amount }));
  expect(created.status).toBe(200);
  const ref = created.data.transactionRef as string;
  await eventually('the collection', () => paymentRow(live.server, ref), (row) => row.collection_state === 'ready');
  return ref;
}

const runOf = async (connector: string, day: string) =>
  (await live.server.admin('GET', `/reconciliation/runs?connector=${connector}&limit=200`)).body.data.items.find((r: any) => r.day === day && r.source === 'fetch');

describe('reconciliation: live connectors', () => {
  it("the daily job fetches yesterday's Paystack, Razorpay and Xendit statements with their credentials and matches our records", async () => {
    // The payments are made late in the day and the job runs just after midnight, before the waiting
    // payment's 30 minutes are up: had the day turned later, the service's own reconciler could have
    // expired it first (a race the slow CI machine lost), and the line would compare Expired instead.
    // The fakes stamp their transactions with the real time, so the service's day must stay the real
    // one: already late in the day (the last 20 minutes before midnight UTC), the clock stays where it
    // is. Moving it on to the next day's evening made the fakes' items a day older than the statement
    // asked for, and this test failed every day from 23:40 UTC.
    const clock = live.server.clock;
    const lateToday = Math.floor(clock.nowMs() / DAY_MS) * DAY_MS + DAY_MS - LATE_IN_DAY_MS;
    clock.advance(Math.max(0, lateToday - clock.nowMs()));
    const day = dayOf(clock.nowMs());
    // Paystack: a paid pay-in, one still waiting, a transfer that succeeded.
    const paid = await readyPayment('NGN', 'TRANSFER', 12_000);
    await paystack.pay(paid);
    await eventually('Success', () => statusOf(paid), (s) => s === 'Success');
    const waiting = await readyPayment('NGN', 'TRANSFER', 9_000);
    await fund(live.server, live.merchant.id, 'NGN', 1_000_000_00n);
    const payout = (await client().payoutInitiate(payoutBody('NGN', 'BANK', { amount: 15_000 }))).data.transactionRef as string;
    await eventually('the transfer', async () => paystack.transfers.get(payout), (t) => t !== undefined);
    await paystack.completeTransfer(payout);
    await eventually('Success', async () => (await client().payoutStatus({ transactionRef: payout })).data.status, (s) => s === 'Success');
    // Razorpay: a UPI QR paid, then refunded.
    const refunded = await readyPayment('INR', 'NATIVE', 750);
    await razorpay.pay(refunded);
    await eventually('Success', () => statusOf(refunded), (s) => s === 'Success');
    await fund(live.server, live.merchant.id, 'INR', 100_000_00n);
    expect((await client().paymentRefund({ transactionRef: refunded })).status).toBe(200);
    expect(await statusOf(refunded)).toBe('Refund');

    // Xendit: a virtual account paid, a payout sent.
    const paidVa = await readyPayment('IDR', 'BNI', 150_000);
    await xendit.pay(paidVa);
    await eventually('Success', () => statusOf(paidVa), (s) => s === 'Success');
    await fund(live.server, live.merchant.id, 'IDR', 10_000_000_00n);
    const idrPayout = (await client().payoutInitiate(payoutBody('IDR', 'TRANSFER'))).data.transactionRef as string;
    await eventually('Processing', async () => (await client().payoutStatus({ transactionRef: idrPayout })).data.status, (s) => s === 'Processing');
    await xendit.completePayout(idrPayout);
    await eventually('Success', async () => (await client().payoutStatus({ transactionRef: idrPayout })).data.status, (s) => s === 'Success');

    // The next day, from the configured hour (here midnight): yesterday is fetched, once.
    clock.advance(Math.floor(clock.nowMs() / DAY_MS) * DAY_MS + DAY_MS + AFTER_MIDNIGHT_MS - clock.nowMs());
    expect(clock.nowMs()).toBeLessThan(Number((await paymentRow(live.server, waiting)).expires_at_ms));
    const job = dailyReconciliationJob(live.server.services.reconciliation, { clock, hourUtc: 0, log: { error: (details) => console.error(details) } });
    expect(await job.runOnce()).toBeGreaterThanOrEqual(3);
    expect(await job.runOnce()).toBe(0);

    const paystackRun = await runOf('paystack', day);
    expect(paystackRun).toMatchObject({ actor: 'scheduler', expects: ['payment', 'payout'], fileName: `paystack-${day}.json` });
    const paystackLines = await allLines(live.server, paystackRun.id);
    expect(lineOf(paystackLines, paid)).toMatchObject({ outcome: 'matched', theirs: { status: 'success', amountMinor: '1200000' }, ours: { status: 'Success' } });
    expect(lineOf(paystackLines, waiting)).toMatchObject({ outcome: 'matched', theirs: { mappedStatus: 'PENDING' }, ours: { status: 'Pending' } });
    expect(lineOf(paystackLines, payout, 'payout')).toMatchObject({ outcome: 'matched', theirs: { status: 'success', amountMinor: '1500000' } });
    const listings = paystack.requests.filter((r) => r.method === 'GET' && (r.path === '/transaction' || r.path === '/transfer'));
    expect(listings.map((r) => r.path).sort()).toEqual(['/transaction', '/transfer']);
    for (const request of listings) {
      expect(request.headers.authorization).toBe(`Bearer ${paystack.secretKey}`);
      expect(request.query.get('from')).toBe(`${day}T00:00:00.000Z`);
    }

    const razorpayRun = await runOf('razorpay', day);
    expect(razorpayRun).toMatchObject({ expects: [], counts: { missing_theirs: 0 } });
    const razorpayLines = await allLines(live.server, razorpayRun.id);
    expect(lineOf(razorpayLines, refunded)).toMatchObject({ outcome: 'matched', ours: { status: 'Refund', amountMinor: '75000' } });
    expect(lineOf(razorpayLines, refunded, 'refund')).toMatchObject({ outcome: 'matched', ours: { status: 'done' }, theirs: { amountMinor: '75000' } });
    const xenditRun = await runOf('xendit', day);
    expect(xenditRun).toMatchObject({ expects: ['payout', 'refund'], counts: { missing_theirs: 0, missing_ours: 0 } });
    const xenditLines = await allLines(live.server, xenditRun.id);
    expect(lineOf(xenditLines, paidVa)).toMatchObject({ outcome: 'matched', theirs: { status: 'SUCCESS', amountMinor: '15000000' } });
    expect(lineOf(xenditLines, idrPayout, 'payout')).toMatchObject({ outcome: 'matched', ours: { status: 'Success' } });
    const listing = xendit.requests.find((r) => r.path.startsWith('/transactions'))!;
    expect(listing.headers.authorization).toBe('Basic ' + Buffer.from(`${xendit.secretKey}:`).toString('base64'));

    const recon = razorpay.requests.find((r) => r.path.startsWith('/v1/settlements/recon/combined'))!;
    expect(recon.headers.authorization).toBe('Basic ' + Buffer.from(`${razorpay.keyId}:${razorpay.keySecret}`).toString('base64'));
  });

  it('a provider that fails is logged and asked again 15 minutes later, not every minute', async () => {
    const clock = live.server.clock;
    clock.advance(DAY_MS);
    const day = dayOf(clock.nowMs() - DAY_MS);
    const errors: object[] = [];
    const job = dailyReconciliationJob(live.server.services.reconciliation, { clock, hourUtc: 0, log: { error: (details) => errors.push(details) } });
    paystack.nextAnswer('GET /transaction', { status: 500, body: { status: false, message: 'Internal error' } });
    const listings = () => paystack.requests.filter((r) => r.path === '/transaction').length;

    await job.runOnce();
    expect(errors).toEqual([expect.objectContaining({ connector: 'paystack' })]);
    expect(await runOf('paystack', day)).toBeUndefined();
    expect(await runOf('razorpay', day)).toBeDefined();
    const asked = listings();
    clock.advance(60_000);
    await job.runOnce();
    expect(listings()).toBe(asked);
    clock.advance(15 * 60_000);
    await job.runOnce();
    expect(listings()).toBe(asked + 1);
    expect(await runOf('paystack', day)).toMatchObject({ lines: 0, actor: 'scheduler' });
  });

  it("imports a provider's file: differences are found, malformed items are refused by number", async () => {
    const day = '2026-01-15';
    const at = `${day}T10:00:00.000Z`;
    const transaction = { id: 1, reference: 'not-one-of-ours-0001', status: 'success', amount: 50_000, currency: 'NGN', channel: 'bank_transfer', created_at: at };
    const ok = await importStatement(live.server, JSON.stringify({ transactions: [transaction], transfers: [] }), day, 'paystack');
    expect(ok.status).toBe(200);
    expect(ok.body.data.run.counts).toMatchObject({ missing_ours: 1, matched: 0 });

    const badStatus = await importStatement(live.server, JSON.stringify({ transactions: [transaction, { ...transaction, reference: 'x-0000000000000002', status: 'teleported' }] }), day, 'paystack');
    expect({ status: badStatus.status, field: badStatus.body.data.errors[0].field }).toEqual({ status: 400, field: 'line 2' });
    const badAmount = await importStatement(live.server, JSON.stringify({ items: [{ entity_id: 'pay_1', type: 'payment', amount: 12.5, currency: 'INR', settled: true, settled_at: 1 }] }), day, 'razorpay');
    expect({ status: badAmount.status, field: badAmount.body.data.errors[0].field }).toEqual({ status: 400, field: 'line 1' });
    const notJson = await importStatement(live.server, 'reference,amount', day, 'razorpay');
    expect(notJson.status).toBe(400);
    const xenditBad = await importStatement(live.server, JSON.stringify({ data: [{ id: 'txn_1', type: 'PAYMENT', status: 'SUCCESS', currency: 'IDR', amount: 1000, created: '2001-01-01T00:00:00Z' }] }), day, 'xendit');
    expect({ status: xenditBad.status, field: xenditBad.body.data.errors[0].field }).toEqual({ status: 400, field: 'line 1' });
    // Connectors without a statement format (FawryPay, Paymob) are refused outright.
    expect((await importStatement(live.server, '{}', day, 'fawry')).status).toBe(404);
  });
});
