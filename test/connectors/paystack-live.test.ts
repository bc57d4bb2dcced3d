// A live merchant in Nigeria, end to end through the merchant API, served by the Paystack connector
// against the fake Paystack: the operator's routes and credentials decide what the merchant may use;
// a Pay with Transfer payment shows its one-time account on the checkout page, is paid, notified by a
// signed charge.success event and webhooked; a wrong sum fails AMOUNT_MISMATCH and the money is held
// (NGN transfers are not refundable); payouts go out as a transfer recipient plus a transfer, survive a
// lost answer without paying twice, fail with the mapped reason, and move to a backup account when
// Paystack refuses them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { CONNECTORS } from '../../src/connectors/catalog.js';
import { publicBanksFor } from '../../src/domain/banks/index.js';
import type { ConnectorDefinition } from '../../src/connectors/connector.js';
import { paystackDefinition } from '../../src/connectors/paystack/definition.js';
import { paystackSignature, SIGNATURE_HEADER } from '../../src/connectors/paystack/notifications.js';
import { startPaystackFake, UNRESOLVABLE_ACCOUNT, type PaystackFake, type SentEvent } from '../fakes/paystack.js';
import { fund, initiateBody } from '../payments/api-helpers.js';
import { payoutBody } from '../payouts/helpers.js';
import { pollDelayMs } from '../../src/domain/payouts/payout-limits.js';
import { connect, eventually, journalCount, operator, paymentRow, payoutRow, startLive, type LiveSetup } from './live.js';
import { settlementBlind } from '../helpers/balance.js';

/** A second Paystack account behind the first, as an operator might keep one for fallback. */
const backupDefinition: ConnectorDefinition = { ...paystackDefinition, name: 'paystack-backup', displayName: 'Paystack (backup account)' };

let live: LiveSetup;
let fake: PaystackFake;
let backup: PaystackFake;

beforeAll(async () => {
  live = await startLive({ connectors: [...CONNECTORS, backupDefinition] });
  fake = await startPaystackFake({ callbackUrl: `${live.server.baseUrl}/v1/callbacks/paystack` });
  backup = await startPaystackFake({ secretKey: 'sk_test_backup_fedcba9876543210', callbackUrl: `${live.server.baseUrl}/v1/callbacks/paystack-backup` });
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await backup?.close();
  await live?.close();
});

const statusOf = async (transactionRef: string) => (await live.merchant.client.paymentStatus({ transactionRef })).data;
const payoutOf = async (transactionRef: string) => (await live.merchant.client.payoutStatus({ transactionRef })).data;

/** Transfers the fake was asked to make for one of our references (it never makes two, so count requests). */
const transferRequests = (f: PaystackFake, ref: string): number => f.requests.filter((r) => r.method === 'POST' && r.path === '/transfer' && r.body?.reference === ref).length;

/** Posts a body to our Paystack callback endpoint with whatever signature header is given. */
async function postEvent(body: Buffer, signature: string | null): Promise<number> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== null) headers[SIGNATURE_HEADER] = signature;
  const response = await fetch(`${live.server.baseUrl}/v1/callbacks/paystack`, { method: 'POST', headers, body: new Uint8Array(body) });
  await response.body?.cancel();
  return response.status;
}

/** Delivers an event Paystack already sent once more, byte for byte (Paystack retries unacknowledged events). */
const redeliver = (event: SentEvent): Promise<number> => postEvent(event.rawBody, event.headers[SIGNATURE_HEADER]!);

/** A payment created through the API whose one-time account Paystack has issued. */
async function readyPayment(amount: number, overrides: Record<string, unknown> = {}) {
  const created = await live.merchant.client.paymentInitiate(initiateBody('NGN', 'TRANSFER', { amount, ...overrides }));
  expect(created.status).toBe(200);
  const ref: string = created.data.transactionRef;
  const row = await eventually('the one-time account', () => paymentRow(live.server, ref), (r) => r.collection_state === 'ready');
  return { ref, row, checkoutUrl: created.data.checkoutUrl as string };
}

describe('before the operator routes anything', () => {
  it('refuses a live merchant NGN TRANSFER with METHOD_NOT_ENABLED, and payment/methods lists none', async () => {
    const answer = await live.merchant.client.paymentInitiate(initiateBody('NGN', 'TRANSFER'));
    expect(answer.status).toBe(403);
    expect(answer.message).toBe('METHOD_NOT_ENABLED');
    const methods = await live.merchant.client.paymentMethods({ currency: 'NGN' });
    expect(methods.data).toMatchObject({ payin: [], payout: [] });
  });

  it('refuses a route naming Paystack for what it does not offer, and stores nothing', async () => {
    const wrongCurrency = await live.server.admin('PUT', '/routes', { currency: 'IDR', direction: 'payin', method: 'BNI', connectors: ['paystack'] });
    expect(wrongCurrency.status).toBe(400);
    expect(JSON.stringify(wrongCurrency.body)).toContain('paystack does not offer IDR BNI pay-ins');
    const wrongMethod = await live.server.admin('PUT', '/routes', { currency: 'NGN', direction: 'payout', method: 'WALLET', connectors: ['paystack'] });
    expect(wrongMethod.status).toBe(400);
    // Another connector cannot take Paystack's place in an NGN route either.
    const wrongConnector = await live.server.admin('PUT', '/routes', { currency: 'NGN', direction: 'payin', method: 'TRANSFER', connectors: ['xendit'] });
    expect(wrongConnector.status).toBe(400);
    expect(JSON.stringify(wrongConnector.body)).toContain('xendit does not offer NGN TRANSFER pay-ins');
    expect(await operator(live.server, 'GET', '/routes')).toEqual([]);
  });

  it('keeps METHOD_NOT_ENABLED while Paystack has no secret key, then lists the routed methods; the key shows its last four only', async () => {
    await operator(live.server, 'PUT', '/routes', { currency: 'NGN', direction: 'payin', method: 'TRANSFER', connectors: ['paystack'] });
    const refused = await live.merchant.client.paymentInitiate(initiateBody('NGN', 'TRANSFER'));
    expect(refused.message).toBe('METHOD_NOT_ENABLED');
    expect(JSON.stringify(refused.data)).not.toContain('paystack');

    await connect(live.server, 'paystack', {
      baseUrl: fake.url,
      credentials: { secretKey: fake.secretKey },
      routes: [
        { currency: 'NGN', direction: 'payin', method: 'TRANSFER' },
        { currency: 'NGN', direction: 'payout', method: 'BANK' },
      ],
    });
    await connect(live.server, 'paystack-backup', { baseUrl: backup.url, credentials: { secretKey: backup.secretKey }, routes: [] });

    const listed = (await operator(live.server, 'GET', '/connectors')) as { name: string; ready: boolean; credentials: { name: string; hint: string }[] }[];
    const paystack = listed.find((c) => c.name === 'paystack')!;
    expect(paystack.ready).toBe(true);
    expect(paystack.credentials.find((c) => c.name === 'secretKey')!.hint).toBe(`…${fake.secretKey.slice(-4)}`);
    expect(JSON.stringify(listed)).not.toContain(fake.secretKey);
    const stored = await live.server.services.store.db.selectFrom('connector_credentials').select('sealed').execute();
    expect(stored.map((row) => row.sealed).join()).not.toContain(fake.secretKey);

    const methods = await live.merchant.client.paymentMethods({ currency: 'NGN' });
    expect(methods.data.payin.map((m: { method: string }) => m.method)).toEqual(['TRANSFER']);
    expect(methods.data.payin[0]).toMatchObject({ refundable: false });
    expect(methods.data.payout.map((m: { method: string }) => m.method)).toHaveLength(1);
  });
});

describe('pay-ins through Paystack (Pay with Transfer)', () => {
  it('the checkout page shows the one-time account and bank; charge.success makes it Success and the merchant is webhooked once', async () => {
    const { ref, row, checkoutUrl } = await readyPayment(25_000, { webhookUrl: live.receiver.url });
    expect(row.channel).toBe('paystack');
    expect(row.upstream_ref).toBe(ref);
    const charge = fake.charges.get(ref)!;
    expect(charge.amount).toBe(25_000_00);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/charge' && r.body?.reference === ref)).toHaveLength(1);

    const instructions = JSON.parse(row.collection_json!);
    expect(instructions).toMatchObject({ kind: 'VIRTUAL_ACCOUNT', accountNumber: charge.accountNumber, bankName: 'Test Bank', accountName: 'TEST-MANAGED-ACCOUNT' });
    const page = await (await fetch(`${live.server.baseUrl}${new URL(checkoutUrl).pathname}`)).text();
    expect(page).toContain(charge.accountNumber);
    expect(page).toContain('Test Bank');
    expect(page).toContain('TEST-MANAGED-ACCOUNT');

    const delivery = await fake.pay(ref);
    expect(delivery.deliveredStatus).toBe(200);
    expect(await statusOf(ref)).toMatchObject({ status: 'Success', paidAmount: 25_000 });
    const entries = await journalCount(live.server, ref);
    expect(entries).toBeGreaterThan(0);

    // Paystack repeats an event it is unsure of: nothing is booked twice.
    expect(await redeliver(delivery)).toBe(200);
    expect(await journalCount(live.server, ref)).toBe(entries);
    const hooks = await eventually('the webhook', async () => live.receiver.hits.filter((h) => h.body.includes(ref)), (hits) => hits.length >= 1);
    expect(JSON.parse(hooks[0]!.body)).toMatchObject({ transactionRef: ref, status: 'Success', event: { type: 'payment.succeeded' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(live.receiver.hits.filter((h) => h.body.includes(ref))).toHaveLength(1);
  });

  it('a stale event arriving after Success changes nothing: the state only moves forward', async () => {
    const { ref } = await readyPayment(14_000);
    const paid = await fake.pay(ref);
    expect((await statusOf(ref)).status).toBe('Success');
    const entries = await journalCount(live.server, ref);
    // A late event telling of a different (reversed) state of the same transaction, signed by Paystack.
    const stale = JSON.parse(paid.rawBody.toString('utf8'));
    stale.data.status = 'reversed';
    expect((await fake.sendEvent(stale)).deliveredStatus).toBe(200);
    // An event this connector does not act on (the rejected-transfer notice) is acknowledged and ignored.
    expect((await fake.rejectTransfer(ref, 1_000_00)).deliveredStatus).toBe(200);
    expect((await statusOf(ref)).status).toBe('Success');
    expect(await journalCount(live.server, ref)).toBe(entries);
  });

  it('an underpaid transfer never becomes Success: it fails AMOUNT_MISMATCH and the money is held, not refunded', async () => {
    const { ref } = await readyPayment(30_000);
    const before = (await live.merchant.client.balance({ currency: 'NGN' })).data;
    await fake.pay(ref, { amountKobo: 10_000_00 });
    expect(await statusOf(ref)).toMatchObject({ status: 'Failed', failureReason: 'AMOUNT_MISMATCH' });
    const held = await operator(live.server, 'GET', `/held-money/${ref}`);
    expect(held).toMatchObject({ transactionRef: ref, amountHeld: 10_000, status: 'open' });
    expect(settlementBlind((await live.merchant.client.balance({ currency: 'NGN' })).data)).toEqual(settlementBlind(before));
  });

  it('an overpaid transfer fails AMOUNT_MISMATCH too, and the whole sum is held', async () => {
    const { ref } = await readyPayment(5_000);
    await fake.pay(ref, { amountKobo: 5_000_50 });
    expect(await statusOf(ref)).toMatchObject({ status: 'Failed', failureReason: 'AMOUNT_MISMATCH' });
    const held = await operator(live.server, 'GET', `/held-money/${ref}`);
    expect(held).toMatchObject({ transactionRef: ref, amountHeld: 5_000.5, status: 'open' });
    // The operator cannot send it back through Paystack either.
    const back = await live.server.admin('POST', `/held-money/${ref}/return`, { reason: 'payer asked for the money back' });
    expect(back.status).toBe(422);
    expect(JSON.stringify(back.body)).toContain('PAYMENT_NOT_REFUNDABLE');
    expect(await operator(live.server, 'GET', `/held-money/${ref}`)).toMatchObject({ status: 'open' });
  });

  it('an NGN TRANSFER payment is not refundable: payment/refund answers PAYMENT_NOT_REFUNDABLE and nothing moves', async () => {
    const { ref } = await readyPayment(8_000);
    await fake.pay(ref);
    const paid = await statusOf(ref);
    expect(paid).toMatchObject({ status: 'Success', refundable: false });
    const entries = await journalCount(live.server, ref);
    const refused = await live.merchant.client.paymentRefund({ transactionRef: ref });
    expect(refused.status).toBe(422);
    expect(refused.message).toBe('PAYMENT_NOT_REFUNDABLE');
    expect((await statusOf(ref)).status).toBe('Success');
    expect(await journalCount(live.server, ref)).toBe(entries);
    expect(fake.requests.some((r) => r.path.startsWith('/refund'))).toBe(false);
  });

  it('refuses unauthentic events with 401 and changes nothing', async () => {
    const { ref } = await readyPayment(12_000);
    const charge = fake.charges.get(ref)!;
    const forged = Buffer.from(JSON.stringify({ event: 'charge.success', data: { id: charge.id, reference: ref, status: 'success', amount: charge.amount, currency: 'NGN', channel: 'bank_transfer' } }));
    // Signed with another key, no signature, a signature of other bytes, a truncated one.
    expect(await postEvent(forged, paystackSignature('sk_test_not_ours', forged))).toBe(401);
    expect(await postEvent(forged, null)).toBe(401);
    expect(await postEvent(forged, paystackSignature(fake.secretKey, Buffer.from('{}')))).toBe(401);
    expect(await postEvent(forged, paystackSignature(fake.secretKey, forged).slice(0, 64))).toBe(401);
    // The backup account's key does not sign for the main account.
    expect(await postEvent(forged, paystackSignature(backup.secretKey, forged))).toBe(401);
    expect((await statusOf(ref)).status).toBe('Pending');
    expect(await journalCount(live.server, ref)).toBe(0);
    const metrics = await (await fetch(`${live.server.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/paygate_connector_notifications_total\{connector="paystack",outcome="refused"\} [1-9]/);
    expect(metrics).toMatch(/paygate_connector_calls_total\{connector="paystack",operation="create_collection",method="TRANSFER",outcome="ok"\} [1-9]/);
    // The same body signed with the right key is accepted.
    expect(await postEvent(forged, paystackSignature(fake.secretKey, forged))).toBe(200);
    expect((await statusOf(ref)).status).toBe('Success');
  });
});

describe('payouts through Paystack (transfer recipient + transfer)', () => {
  beforeAll(async () => {
    await fund(live.server, live.merchant.id, 'NGN', 100_000_000_00n);
  });

  it('succeeds when Paystack pays, with the transfer code on the record and the merchant webhooked', async () => {
    const created = await live.merchant.client.payoutInitiate(payoutBody('NGN', 'TRANSFER', { amount: 15_000, webhookUrl: live.receiver.url }));
    expect(created.status).toBe(200);
    const ref: string = created.data.transactionRef;
    await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
    expect(transferRequests(fake, ref)).toBe(1);
    const transfer = fake.transfers.get(ref)!;
    expect(transfer.amount).toBe(15_000_00);
    const recipientRequest = fake.requests.find((r) => r.path === '/transferrecipient' && r.body?.account_number === '0123456789')!;
    expect(recipientRequest.body).toMatchObject({ type: 'nuban', bank_code: '044', currency: 'NGN', name: 'Asha Rao' });

    const delivered = await fake.completeTransfer(ref);
    expect(delivered.deliveredStatus).toBe(200);
    const done = await eventually('Success', () => payoutOf(ref), (p) => p.status === 'Success');
    expect((done as { upstreamRef?: string }).upstreamRef).toBe(transfer.transferCode);
    const row = await payoutRow(live.server, ref);
    expect(row.channel).toBe('paystack');

    // A repeated transfer.success, then a stale transfer.failed: nothing is booked again, it stays Success.
    const entries = await journalCount(live.server, ref);
    expect(await redeliver(delivered)).toBe(200);
    const staleFailed = JSON.parse(delivered.rawBody.toString('utf8'));
    staleFailed.event = 'transfer.failed';
    staleFailed.data.status = 'failed';
    expect((await fake.sendEvent(staleFailed)).deliveredStatus).toBe(200);
    expect((await payoutOf(ref)).status).toBe('Success');
    expect(await journalCount(live.server, ref)).toBe(entries);
    const hooks = await eventually('the payout webhook', async () => live.receiver.hits.filter((h) => h.body.includes(ref)), (hits) => hits.length >= 1);
    expect(JSON.parse(hooks[0]!.body)).toMatchObject({ transactionRef: ref, status: 'Success', event: { type: 'payout.succeeded' } });
  });

  it('an unanswered transfer is verified by our reference, never sent twice', async () => {
    fake.nextAnswer('POST /transfer', 'lose');
    const created = await live.merchant.client.payoutInitiate(payoutBody('NGN', 'TRANSFER'));
    const ref: string = created.data.transactionRef;
    // The answer is lost (CONNECTOR_TIMEOUT_MS); the job then verifies the transfer by reference and finds it.
    await eventually('Processing after the verify', () => payoutOf(ref), (p) => p.status === 'Processing', 30_000);
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/transfer/verify/${ref}`)).toBe(true);
    expect(transferRequests(fake, ref)).toBe(1);
    await fake.completeTransfer(ref);
    await eventually('Success', () => payoutOf(ref), (p) => p.status === 'Success');
    expect(transferRequests(fake, ref)).toBe(1);
  });

  it('transfer.failed naming an unresolvable account is Failed INVALID_ACCOUNT, and the funds come back', async () => {
    const before = (await live.merchant.client.balance({ currency: 'NGN' })).data;
    const created = await live.merchant.client.payoutInitiate(payoutBody('NGN', 'TRANSFER'));
    const ref: string = created.data.transactionRef;
    await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
    await fake.failTransfer(ref, 'Could not resolve account name. Check parameters or try again.');
    const failed = await eventually('Failed', () => payoutOf(ref), (p) => p.status === 'Failed');
    expect(failed.failureReason).toBe('INVALID_ACCOUNT');
    expect(settlementBlind((await live.merchant.client.balance({ currency: 'NGN' })).data)).toEqual(settlementBlind(before));
  });

  it('transfer.failed without a reason Paystack names is Failed UPSTREAM_REJECTED', async () => {
    const created = await live.merchant.client.payoutInitiate(payoutBody('NGN', 'TRANSFER'));
    const ref: string = created.data.transactionRef;
    await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
    await fake.failTransfer(ref);
    const failed = await eventually('Failed', () => payoutOf(ref), (p) => p.status === 'Failed');
    expect(failed.failureReason).toBe('UPSTREAM_REJECTED');
  });

  it('transfer.reversed is Failed UPSTREAM_REJECTED, and the funds come back', async () => {
    const before = (await live.merchant.client.balance({ currency: 'NGN' })).data;
    const created = await live.merchant.client.payoutInitiate(payoutBody('NGN', 'BANK', { amount: 20_000 }));
    expect(created.status).toBe(200);
    const ref: string = created.data.transactionRef;
    await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
    expect((await live.merchant.client.balance({ currency: 'NGN' })).data.held).toBeGreaterThan(before.held);
    await fake.reverseTransfer(ref);
    const failed = await eventually('Failed', () => payoutOf(ref), (p) => p.status === 'Failed');
    expect(failed.failureReason).toBe('UPSTREAM_REJECTED');
    const after = (await live.merchant.client.balance({ currency: 'NGN' })).data;
    expect(settlementBlind(after)).toEqual(settlementBlind(before));
  });

  it('a transfer Paystack blocks without an event is found Failed by the poll', async () => {
    const created = await live.merchant.client.payoutInitiate(payoutBody('NGN', 'TRANSFER'));
    const ref: string = created.data.transactionRef;
    await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
    fake.setTransferStatus(ref, 'blocked');
    // Paystack calls back, so the poll is only a backstop for a missing event: 30 s after Processing.
    expect(live.server.services.channels.byName('paystack').payoutCallbacks).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await payoutOf(ref)).status).toBe('Processing');
    live.server.clock.advance(pollDelayMs(0, true));
    const failed = await eventually('Failed by the poll', () => payoutOf(ref), (p) => p.status === 'Failed', 20_000);
    expect(failed.failureReason).toBe('UPSTREAM_REJECTED');
    expect(transferRequests(fake, ref)).toBe(1);
  }, 30_000);

  it('a definitive refusal at submission moves the payout to the backup Paystack account', async () => {
    await operator(live.server, 'PUT', '/routes', { currency: 'NGN', direction: 'payout', method: 'BANK', connectors: ['paystack', 'paystack-backup'] });
    fake.nextAnswer('POST /transfer', { status: 400, body: { status: false, message: 'Your balance is not enough to fulfil this request', type: 'api_error', code: 'insufficient_balance' } });
    const created = await live.merchant.client.payoutInitiate(payoutBody('NGN', 'TRANSFER'));
    const ref: string = created.data.transactionRef;
    await eventually('at the backup', async () => transferRequests(backup, ref), (n) => n === 1);
    expect(fake.transfers.has(ref)).toBe(false);
    await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
    expect((await payoutRow(live.server, ref)).channel).toBe('paystack-backup');
    // The backup account signs its events with its own key, at its own callback path.
    const delivered = await backup.completeTransfer(ref);
    expect(delivered.deliveredStatus).toBe(200);
    const done = await eventually('Success', () => payoutOf(ref), (p) => p.status === 'Success');
    expect((done as { upstreamRef?: string }).upstreamRef).toBe(backup.transfers.get(ref)!.transferCode);
  });

  it('without a connector left, a refusal fails the payout with the mapped reason and nothing is held', async () => {
    await operator(live.server, 'PUT', '/routes', { currency: 'NGN', direction: 'payout', method: 'BANK', connectors: ['paystack'] });
    const before = (await live.merchant.client.balance({ currency: 'NGN' })).data;
    // Paystack cannot resolve the account when the recipient is created: no transfer is attempted.
    const created = await live.merchant.client.payoutInitiate(payoutBody('NGN', 'TRANSFER', { account: UNRESOLVABLE_ACCOUNT }));
    const ref: string = created.data.transactionRef;
    const failed = await eventually('Failed', () => payoutOf(ref), (p) => p.status === 'Failed');
    expect(failed.failureReason).toBe('INVALID_ACCOUNT');
    expect(transferRequests(fake, ref)).toBe(0);
    const after = (await live.merchant.client.balance({ currency: 'NGN' })).data;
    expect(after.held).toBe(before.held);
    expect(settlementBlind(after)).toEqual(settlementBlind(before));

    fake.nextAnswer('POST /transfer', { status: 400, body: { status: false, message: 'Your balance is not enough to fulfil this request', type: 'api_error', code: 'insufficient_balance' } });
    const short = await live.merchant.client.payoutInitiate(payoutBody('NGN', 'TRANSFER'));
    const shortFailed = await eventually('Failed', () => payoutOf(short.data.transactionRef), (p) => p.status === 'Failed');
    expect(shortFailed.failureReason).toBe('INSUFFICIENT_FUNDS_UPSTREAM');
  });

  it('a secret key Paystack refuses fails payments and payouts cleanly with UPSTREAM_REJECTED', async () => {
    await operator(live.server, 'PUT', '/connectors/paystack/credentials', { secretKey: 'sk_test_WRONG_0000000000000000' });
    try {
      const payment = await live.merchant.client.paymentInitiate(initiateBody('NGN', 'TRANSFER', { amount: 9_000 }));
      const failedPayment = await eventually('Failed', () => statusOf(payment.data.transactionRef), (p) => p.status === 'Failed');
      expect(failedPayment.failureReason).toBe('UPSTREAM_REJECTED');
      expect(fake.charges.has(payment.data.transactionRef)).toBe(false);

      const payout = await live.merchant.client.payoutInitiate(payoutBody('NGN', 'TRANSFER'));
      const failedPayout = await eventually('Failed', () => payoutOf(payout.data.transactionRef), (p) => p.status === 'Failed');
      expect(failedPayout.failureReason).toBe('UPSTREAM_REJECTED');
      expect(fake.transfers.has(payout.data.transactionRef)).toBe(false);
      expect(fake.requests.some((r) => r.headers.authorization === 'Bearer sk_test_WRONG_0000000000000000')).toBe(true);
    } finally {
      await operator(live.server, 'PUT', '/connectors/paystack/credentials', { secretKey: fake.secretKey });
    }
  });
});

// Paystack's bank list feeds payout/bankCode for a live NGN merchant (test/connectors/live-banks.test.ts
// checks the list itself); a code Paystack lists that the service's own list lacks is accepted too.
describe('bank codes Paystack lists', () => {
  it('accepts a payout to a bank under the code Paystack lists (Abbey Mortgage Bank: 801), and Paystack gets that code', async () => {
    const listed = await live.merchant.client.bankCodes({ currency: 'NGN' });
    expect(listed.data).toContainEqual({ bankCode: '801', bankName: 'Abbey Mortgage Bank' });
    const created = await live.merchant.client.payoutInitiate(payoutBody('NGN', 'TRANSFER', { bankCode: '801' }));
    expect(created.status).toBe(200);
    await eventually('the recipient', async () => fake.requests.some((r) => r.path === '/transferrecipient' && r.body?.bank_code === '801'), (sent) => sent);
  });
});
