// A live merchant in India, end to end through the merchant API, served by the Razorpay connector
// against the fake Razorpay: the operator's routes and credentials decide what the merchant may use;
// a UPI QR payment is shown on the checkout page, paid, notified by a signed qr_code.credited webhook
// and webhooked to the merchant; a wrong sum is refunded at Razorpay by the late-payment job; a paid
// payment is refunded; IMPS and UPI payouts succeed, survive a lost answer without paying twice, fail
// with the mapped reason, and move to a second Razorpay account when the first refuses them.
//
// The fakes do not post their webhooks themselves: each test delivers them with `deliver`, so it
// decides when, how often and in which order Razorpay's notifications arrive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTORS } from '../../src/connectors/catalog.js';
import { razorpayDefinition } from '../../src/connectors/razorpay/definition.js';
import type { ConnectorDefinition } from '../../src/connectors/connector.js';
import { escapeHtml } from '../../src/checkout/html.js';
import { qrSvg } from '../../src/checkout/qr.js';
import { startFakeRazorpay, type FakeRazorpay, type SentWebhook } from '../fakes/razorpay.js';
import { fund, initiateBody, pause } from '../payments/api-helpers.js';
import { payoutBody } from '../payouts/helpers.js';
import { settlementBlind } from '../helpers/balance.js';
import { connect, eventually, journalCount, operator, payoutRow, paymentRow, startLive, type LiveSetup } from './live.js';

/** A second Razorpay account behind the first, as an operator might keep one for fallback. */
const backupDefinition: ConnectorDefinition = { ...razorpayDefinition, name: 'razorpay-backup', displayName: 'Razorpay (backup account)' };

let live: LiveSetup;
let fake: FakeRazorpay;
let backup: FakeRazorpay;

const credentialsOf = (f: FakeRazorpay) => ({ keyId: f.keyId, keySecret: f.keySecret, webhookSecret: f.webhookSecret, accountNumber: f.accountNumber });

beforeAll(async () => {
  live = await startLive({ connectors: [...CONNECTORS, backupDefinition] });
  fake = await startFakeRazorpay();
  backup = await startFakeRazorpay({ keyId: 'rzp_test_BackupKey01', accountNumber: '2323230041626905' });
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await backup?.close();
  await live?.close();
});

const statusOf = async (transactionRef: string) => (await live.merchant.client.paymentStatus({ transactionRef })).data;
const payoutOf = async (transactionRef: string) => (await live.merchant.client.payoutStatus({ transactionRef })).data;
const balance = async () => (await live.merchant.client.balance({ currency: 'INR' })).data;

/** Posts a webhook as Razorpay would (its signature and event-id headers) to our callback; answers the HTTP status. */
async function deliver(sent: SentWebhook, connector = 'razorpay', headers: Record<string, string> = sent.headers): Promise<number> {
  const answer = await fetch(`${live.server.baseUrl}/v1/callbacks/${connector}`, { method: 'POST', headers, body: new Uint8Array(sent.body) });
  await answer.body?.cancel();
  return answer.status;
}

const eventOf = (sent: SentWebhook): any => JSON.parse(sent.body.toString('utf8'));

/** The refunds the fake was asked for against one Razorpay payment. */
const refundCalls = (f: FakeRazorpay, paymentId: string) => f.requests.filter((r) => r.method === 'POST' && r.path === `/v1/payments/${paymentId}/refund`);

/** Payout submissions the fake received for one of our refs. */
const payoutPosts = (f: FakeRazorpay, transactionRef: string) =>
  f.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payouts' && (r.body?.notes as Record<string, string> | undefined)?.paygate_ref === transactionRef);

const hooksFor = (ref: string) => live.receiver.hits.filter((h) => h.body.includes(ref));

async function checkoutPage(checkoutUrl: string): Promise<string> {
  return (await fetch(`${live.server.baseUrl}${new URL(checkoutUrl).pathname}`)).text();
}

async function readyPayment(overrides: Parameters<typeof initiateBody>[2] = {}) {
  const created = await live.merchant.client.paymentInitiate(initiateBody('INR', 'NATIVE', overrides));
  expect(created.status).toBe(200);
  const ref = created.data.transactionRef as string;
  const row = await eventually('the QR code', () => paymentRow(live.server, ref), (r) => r.collection_state === 'ready');
  return { ref, row, checkoutUrl: created.data.checkoutUrl as string };
}

describe('before the operator routes anything', () => {
  it('refuses a live merchant INR NATIVE with METHOD_NOT_ENABLED, and payment/methods lists none', async () => {
    const answer = await live.merchant.client.paymentInitiate(initiateBody('INR', 'NATIVE'));
    expect(answer.status).toBe(403);
    expect(answer.message).toBe('METHOD_NOT_ENABLED');
    const methods = await live.merchant.client.paymentMethods({ currency: 'INR' });
    expect(methods.data).toMatchObject({ payin: [], payout: [] });
  });

  it('refuses a route naming a connector that lacks the method, and stores nothing', async () => {
    const payin = await live.server.admin('PUT', '/routes', { currency: 'INR', direction: 'payin', method: 'NATIVE', connectors: ['xendit'] });
    expect(payin.status).toBe(400);
    expect(JSON.stringify(payin.body)).toContain('xendit does not offer INR NATIVE pay-ins');
    const payout = await live.server.admin('PUT', '/routes', { currency: 'INR', direction: 'payout', method: 'BANK', connectors: ['paystack'] });
    expect(payout.status).toBe(400);
    // Razorpay itself offers no IDR at all, and no INR UPI pay-in under another method name.
    const foreign = await live.server.admin('PUT', '/routes', { currency: 'IDR', direction: 'payout', method: 'TRANSFER', connectors: ['razorpay'] });
    expect(foreign.status).toBe(400);
    expect(await operator(live.server, 'GET', '/routes')).toEqual([]);
  });

  it('keeps METHOD_NOT_ENABLED while Razorpay has no credentials, then lists NATIVE, BANK and UPI once ready', async () => {
    await operator(live.server, 'PUT', '/routes', { currency: 'INR', direction: 'payin', method: 'NATIVE', connectors: ['razorpay'] });
    const refused = await live.merchant.client.paymentInitiate(initiateBody('INR', 'NATIVE'));
    expect(refused.message).toBe('METHOD_NOT_ENABLED');
    expect(JSON.stringify(refused.data)).not.toContain('razorpay');

    await connect(live.server, 'razorpay', {
      baseUrl: fake.url,
      credentials: credentialsOf(fake),
      routes: [
        { currency: 'INR', direction: 'payin', method: 'NATIVE' },
        { currency: 'INR', direction: 'payout', method: 'BANK' },
        { currency: 'INR', direction: 'payout', method: 'UPI' },
      ],
    });
    await connect(live.server, 'razorpay-backup', { baseUrl: backup.url, credentials: credentialsOf(backup), routes: [] });

    const listed = (await operator(live.server, 'GET', '/connectors')) as { name: string; ready: boolean; credentials: { name: string; hint: string }[] }[];
    const razorpay = listed.find((c) => c.name === 'razorpay')!;
    expect(razorpay.ready).toBe(true);
    expect(razorpay.credentials.find((c) => c.name === 'keySecret')!.hint).toBe(`…${fake.keySecret.slice(-4)}`);
    expect(JSON.stringify(listed)).not.toContain(fake.keySecret);
    expect(JSON.stringify(listed)).not.toContain(fake.webhookSecret);
    const stored = await live.server.services.store.db.selectFrom('connector_credentials').select('sealed').execute();
    expect(stored.map((row) => row.sealed).join()).not.toContain(fake.webhookSecret);

    const methods = await live.merchant.client.paymentMethods({ currency: 'INR' });
    expect(methods.data.payin.map((m: { method: string }) => m.method)).toEqual(['NATIVE']);
    expect(methods.data.payout.map((m: { method: string }) => m.method).sort()).toEqual(['BANK', 'UPI']);
  });
});

describe('UPI QR pay-ins through Razorpay', () => {
  it('the checkout page shows the UPI QR and intent, qr_code.credited makes it Success, and the merchant is webhooked once', async () => {
    const { ref, row, checkoutUrl } = await readyPayment({ amount: 1500.5, webhookUrl: live.receiver.url });
    expect(row.channel).toBe('razorpay');
    const qr = fake.qrCodeFor(ref)!;
    expect(row.upstream_ref).toBe(qr.id);
    expect(qr).toMatchObject({ type: 'upi_qr', usage: 'single_use', fixed_amount: true, payment_amount: 150_050 });
    expect(fake.countRequests('POST', '/v1/payments/qr_codes')).toBe(1);

    const instructions = JSON.parse(row.collection_json!);
    expect(instructions).toMatchObject({ kind: 'UPI', qrPayload: qr.image_content, intentUrl: qr.image_content });
    expect(instructions.qrPayload).toMatch(/^upi:\/\/pay\?/);
    const page = await checkoutPage(checkoutUrl);
    expect(page).toContain('Pay with UPI');
    // The tap target on a phone is the upi:// string itself, and the QR drawn encodes exactly it.
    expect(page).toContain(`class="button primary upi-intent" href="${escapeHtml(instructions.intentUrl)}"`);
    expect(page).toContain((await qrSvg(instructions.qrPayload)).value);

    // The payer pays: Razorpay sends qr_code.credited (the payment's own payment.captured is not used).
    const credited = await fake.pay(ref);
    expect(await deliver(credited)).toBe(200);
    expect(await statusOf(ref)).toMatchObject({ status: 'Success' });
    const entries = await journalCount(live.server, ref);
    expect(entries).toBeGreaterThan(0);

    // Razorpay delivers at least once: the same event again, and a payment.captured for the same payment.
    expect(await deliver(credited)).toBe(200);
    const captured = await fake.sendRaw(
      Buffer.from(JSON.stringify({ entity: 'event', account_id: 'acc_FakeAccount001', event: 'payment.captured', contains: ['payment'], payload: { payment: eventOf(credited).payload.payment }, created_at: 0 })),
    );
    expect(await deliver(captured)).toBe(200);
    expect(await journalCount(live.server, ref)).toBe(entries);

    const hooks = await eventually('the webhook', async () => hooksFor(ref), (hits) => hits.length >= 1);
    expect(JSON.parse(hooks[0]!.body)).toMatchObject({ transactionRef: ref, status: 'Success' });
    await pause(500);
    expect(hooksFor(ref)).toHaveLength(1);
  });

  it('without image content the page links to the QR picture Razorpay hosts, never a QR of its web address', async () => {
    fake.setImageContent(false);
    try {
      const { ref, row, checkoutUrl } = await readyPayment({ amount: 499 });
      const qr = fake.qrCodeFor(ref)!;
      const instructions = JSON.parse(row.collection_json!);
      expect(instructions).toEqual({ kind: 'UPI', qrPayload: qr.image_url });
      expect(instructions.qrPayload).toMatch(/^https:\/\/rzp\.io\/i\//);
      const page = await checkoutPage(checkoutUrl);
      expect(page).toContain('Pay with UPI');
      expect(page).not.toContain('upi-intent');
      expect(page).toContain(`<a class="button upi-hosted-qr" href="${qr.image_url as string}"`);
      expect(page).not.toContain((await qrSvg(qr.image_url as string)).value);
    } finally {
      fake.setImageContent(true);
    }
  });

  it.each([
    ['underpaid', 600.25, 40_000],
    ['overpaid', 600.25, 90_000],
  ])('an %s QR never becomes Success: AMOUNT_MISMATCH, and the late-payment job refunds what arrived at Razorpay', async (_what, amount, paidPaise) => {
    const { ref } = await readyPayment({ amount, webhookUrl: live.receiver.url });
    const before = await balance();
    const credited = await fake.pay(ref, { amountMinor: BigInt(paidPaise) });
    const paymentId = eventOf(credited).payload.payment.entity.id as string;
    expect(await deliver(credited)).toBe(200);
    expect(await statusOf(ref)).toMatchObject({ status: 'Failed', failureReason: 'AMOUNT_MISMATCH' });

    // NATIVE is refundable, so the odd money goes back to the payer at Razorpay (not held for the operator).
    const late = await eventually(
      'the refund of the odd money',
      () => live.server.services.store.db.selectFrom('late_payments').selectAll().where('transaction_ref', '=', ref).executeTakeFirstOrThrow(),
      (row) => row.disposition === 'refunded',
    );
    expect(String(late.paid_amount_minor)).toBe(String(paidPaise));
    expect(late.refund_upstream_ref).toMatch(/^rfnd_/);
    const calls = refundCalls(fake, paymentId);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({ amount: paidPaise, notes: { paygate_ref: ref } });
    expect(calls[0]!.headers['x-refund-idempotency']).toBeTruthy();
    expect((await live.server.admin('GET', `/held-money/${ref}`)).status).toBe(404);
    // Refunded late money never enters the ledger.
    expect(await journalCount(live.server, ref)).toBe(0);
    expect(settlementBlind(await balance())).toEqual(settlementBlind(before));

    // The same notification again changes nothing and refunds nothing twice.
    expect(await deliver(credited)).toBe(200);
    await pause(300);
    expect(refundCalls(fake, paymentId)).toHaveLength(1);
    expect(await statusOf(ref)).toMatchObject({ status: 'Failed', failureReason: 'AMOUNT_MISMATCH' });
    const hooks = await eventually('the webhook', async () => hooksFor(ref), (hits) => hits.length >= 1);
    expect(JSON.parse(hooks[0]!.body)).toMatchObject({ transactionRef: ref, status: 'Failed', failureReason: 'AMOUNT_MISMATCH' });
  });

  it('a paid payment is refunded at Razorpay within the window, once; a late repeat of qr_code.credited changes nothing', async () => {
    const { ref } = await readyPayment({ amount: 750 });
    const refusedEarly = await live.merchant.client.paymentRefund({ transactionRef: ref });
    expect(refusedEarly.message).toBe('PAYMENT_NOT_SUCCESSFUL');
    const credited = await fake.pay(ref);
    const paymentId = eventOf(credited).payload.payment.entity.id as string;
    expect(await deliver(credited)).toBe(200);
    expect((await statusOf(ref)).status).toBe('Success');

    const refunded = await live.merchant.client.paymentRefund({ transactionRef: ref });
    expect(refunded.status).toBe(200);
    expect((await statusOf(ref)).status).toBe('Refund');
    const calls = refundCalls(fake, paymentId);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({ amount: 75_000 });
    expect((await paymentRow(live.server, ref)).refund_upstream_ref).toMatch(/^rfnd_/);

    const again = await live.merchant.client.paymentRefund({ transactionRef: ref });
    expect(again.status).toBe(200);
    const entries = await journalCount(live.server, ref);
    expect(await deliver(credited)).toBe(200);
    expect((await statusOf(ref)).status).toBe('Refund');
    expect(await journalCount(live.server, ref)).toBe(entries);
    expect(refundCalls(fake, paymentId)).toHaveLength(1);
  });

  it('a refund Razorpay refuses answers PAYMENT_NOT_REFUNDABLE and leaves the payment Success with its money', async () => {
    const { ref } = await readyPayment({ amount: 320 });
    expect(await deliver(await fake.pay(ref))).toBe(200);
    const before = await balance();
    fake.nextAnswer('/v1/payments/pay_', { status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'The payment has been fully refunded already', source: 'business', step: 'NA', reason: 'input_validation_failed', metadata: {} } } }, 'POST');
    const refused = await live.merchant.client.paymentRefund({ transactionRef: ref });
    expect(refused.message).toBe('PAYMENT_NOT_REFUNDABLE');
    expect((await statusOf(ref)).status).toBe('Success');
    expect(settlementBlind(await balance())).toEqual(settlementBlind(before));
  });

  it('refuses unauthentic webhooks with 401 and changes nothing', async () => {
    const { ref } = await readyPayment({ amount: 210 });
    const genuine = await fake.pay(ref);
    const signature = genuine.headers['x-razorpay-signature']!;
    const forged = { ...genuine, headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature } };
    // Signed with another secret (the backup account's), a body altered after signing, no signature, upper-case hex.
    const otherSecret = { ...genuine, headers: { 'content-type': 'application/json', 'x-razorpay-signature': (await backup.sendRaw(genuine.body)).headers['x-razorpay-signature']! } };
    const altered = { ...forged, body: Buffer.from(genuine.body.toString('utf8').replace('"amount":21000', '"amount":21001')) };
    expect(altered.body.equals(genuine.body)).toBe(false);
    expect(await deliver(otherSecret)).toBe(401);
    expect(await deliver(altered)).toBe(401);
    expect(await deliver(genuine, 'razorpay', { 'content-type': 'application/json' })).toBe(401);
    expect(await deliver(genuine, 'razorpay', { 'content-type': 'application/json', 'x-razorpay-signature': signature.toUpperCase() })).toBe(401);
    // The main account's webhook is not authentic at the backup account's endpoint either.
    expect(await deliver(genuine, 'razorpay-backup')).toBe(401);
    expect((await statusOf(ref)).status).toBe('Pending');
    expect(await journalCount(live.server, ref)).toBe(0);
    const metrics = await (await fetch(`${live.server.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/paygate_connector_notifications_total\{connector="razorpay",outcome="refused"\} [1-9]/);
    // The genuine one still works afterwards.
    expect(await deliver(genuine)).toBe(200);
    expect((await statusOf(ref)).status).toBe('Success');
  });
});

describe('RazorpayX payouts', () => {
  beforeAll(async () => {
    await fund(live.server, live.merchant.id, 'INR', 100_000_000n);
  });

  it('an IMPS payout to a bank account (IFSC from bankCode) succeeds; the record and the webhook carry the payout id and the UTR', async () => {
    const created = await live.merchant.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 1000, webhookUrl: live.receiver.url }));
    expect(created.status).toBe(200);
    const ref = created.data.transactionRef as string;
    await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
    const sent = payoutPosts(fake, ref);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({
      account_number: fake.accountNumber,
      amount: 100_000,
      currency: 'INR',
      mode: 'IMPS',
      fund_account: { account_type: 'bank_account', bank_account: { ifsc: 'HDFC0001234', account_number: '50100012345678' } },
    });
    expect(sent[0]!.headers['x-payout-idempotency']).toBe(sent[0]!.body!.reference_id);
    const payoutId = fake.payoutFor(ref)!.id as string;

    expect(await deliver(await fake.completePayout(ref, '515212345678'))).toBe(200);
    const done = await eventually('Success', () => payoutOf(ref), (p) => p.status === 'Success');
    expect((await payoutRow(live.server, ref)).channel).toBe('razorpay');
    // upstreamRef is RazorpayX's payout id (pout_...), which its webhooks are matched on; the bank's UTR
    // travels beside it.
    expect(done).toMatchObject({ upstreamRef: payoutId, utr: '515212345678' });
    const hooks = await eventually('the webhook', async () => hooksFor(ref), (hits) => hits.length >= 1);
    expect(JSON.parse(hooks[0]!.body)).toMatchObject({ transactionRef: ref, status: 'Success', upstreamRef: payoutId, utr: '515212345678' });
  });

  it('a UPI payout to a VPA succeeds; late and repeated webhooks never move it back', async () => {
    const created = await live.merchant.client.payoutInitiate(payoutBody('INR', 'UPI', { amount: 250 }));
    const ref = created.data.transactionRef as string;
    await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
    expect(payoutPosts(fake, ref)[0]!.body).toMatchObject({ mode: 'UPI', amount: 25_000, fund_account: { account_type: 'vpa', vpa: { address: 'asha.rao@okhdfc' } } });
    const initiated = await fake.setPayoutStatus(ref, 'processing');
    const processed = await fake.completePayout(ref, '612345678901');
    expect(await deliver(processed)).toBe(200);
    await eventually('Success', () => payoutOf(ref), (p) => p.status === 'Success');
    const entries = await journalCount(live.server, ref);
    const before = await balance();

    // Out of order and repeated: the older payout.initiated, the processed one again, and a reversal
    // reported after processed. Success is final, so none of them changes the payout or the books.
    expect(await deliver(initiated)).toBe(200);
    expect(await deliver(processed)).toBe(200);
    expect(await deliver(await fake.failPayout(ref, 'beneficiary_bank_rejected', 'reversed'))).toBe(200);
    expect((await payoutOf(ref)).status).toBe('Success');
    expect(await journalCount(live.server, ref)).toBe(entries);
    expect(settlementBlind(await balance())).toEqual(settlementBlind(before));
  });

  it('an unanswered submission is looked up by reference_id and never sent twice', async () => {
    fake.nextAnswer('/v1/payouts', 'lost', 'POST');
    const created = await live.merchant.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 400 }));
    const ref = created.data.transactionRef as string;
    // RazorpayX made the payout but its answer was lost (CONNECTOR_TIMEOUT_MS); the job then asks
    // GET /v1/payouts?reference_id= and finds it, instead of sending it again.
    await eventually('Processing after the lookup', () => payoutOf(ref), (p) => p.status === 'Processing', 30_000);
    expect(payoutPosts(fake, ref)).toHaveLength(1);
    expect(fake.requests.some((r) => r.method === 'GET' && r.path.startsWith('/v1/payouts?') && r.path.includes('reference_id='))).toBe(true);
    expect(await deliver(await fake.completePayout(ref))).toBe(200);
    await eventually('Success', () => payoutOf(ref), (p) => p.status === 'Success');
    expect(payoutPosts(fake, ref)).toHaveLength(1);
  });

  it('a submission that never reached RazorpayX is sent again with the same idempotency key: one payout', async () => {
    const countBefore = fake.payoutCount;
    fake.nextAnswer('/v1/payouts', 'hang', 'POST');
    const created = await live.merchant.client.payoutInitiate(payoutBody('INR', 'UPI', { amount: 150 }));
    const ref = created.data.transactionRef as string;
    await eventually('Processing after the resubmission', () => payoutOf(ref), (p) => p.status === 'Processing', 30_000);
    const posts = payoutPosts(fake, ref);
    expect(posts).toHaveLength(2);
    expect(posts[1]!.headers['x-payout-idempotency']).toBe(posts[0]!.headers['x-payout-idempotency']);
    expect(fake.payoutCount).toBe(countBefore + 1);
  });

  it.each([
    ['BANK', 'failed', 'invalid_ifsc_code', 'INVALID_ACCOUNT'],
    ['UPI', 'failed', 'beneficiary_vpa_invalid', 'INVALID_ACCOUNT'],
    ['BANK', 'reversed', 'bank_account_closed', 'INVALID_ACCOUNT'],
    ['BANK', 'reversed', 'beneficiary_bank_offline', 'BENEFICIARY_BANK_UNAVAILABLE'],
    ['UPI', 'failed', 'npci_beneficiary_timeout', 'BENEFICIARY_BANK_UNAVAILABLE'],
    ['BANK', 'failed', 'insufficient_funds', 'INSUFFICIENT_FUNDS_UPSTREAM'],
    ['BANK', 'failed', 'transaction_limit_exceeded', 'AMOUNT_LIMIT_EXCEEDED'],
    ['UPI', 'failed', 'gateway_technical_error', 'UPSTREAM_ERROR'],
    ['BANK', 'rejected', 'payout_rejected', 'UPSTREAM_REJECTED'],
    ['BANK', 'cancelled', 'payout_cancelled', 'UPSTREAM_REJECTED'],
  ] as const)('a %s payout RazorpayX marks %s (%s) is Failed %s, and the funds come back', async (method, status, reason, expected) => {
    const before = await balance();
    const created = await live.merchant.client.payoutInitiate(payoutBody('INR', method, { amount: 120 }));
    const ref = created.data.transactionRef as string;
    await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
    const news = await fake.setPayoutStatus(ref, status, { reason });
    expect(eventOf(news).event).toBe(status === 'cancelled' ? 'payout.updated' : `payout.${status}`);
    expect(await deliver(news)).toBe(200);
    const failed = await eventually('Failed', () => payoutOf(ref), (p) => p.status === 'Failed');
    expect(failed.failureReason).toBe(expected);
    expect(settlementBlind(await balance())).toEqual(settlementBlind(before));
    // A processed webhook arriving after the failure does not revive it.
    expect(await deliver(await fake.completePayout(ref))).toBe(200);
    expect((await payoutOf(ref)).status).toBe('Failed');
  });

  it('a definitive refusal at submission moves the payout to the backup Razorpay account', async () => {
    await operator(live.server, 'PUT', '/routes', { currency: 'INR', direction: 'payout', method: 'BANK', connectors: ['razorpay', 'razorpay-backup'] });
    try {
      fake.nextAnswer('/v1/payouts', { status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'The account number is invalid', source: 'business', step: 'NA', reason: 'input_validation_failed', field: 'account_number', metadata: {} } } }, 'POST');
      const created = await live.merchant.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 300 }));
      const ref = created.data.transactionRef as string;
      await eventually('at the backup', async () => payoutPosts(backup, ref).length, (n) => n === 1);
      expect(fake.payoutFor(ref)).toBeUndefined();
      expect(payoutPosts(backup, ref)[0]!.body).toMatchObject({ account_number: backup.accountNumber, mode: 'IMPS' });
      await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
      expect((await payoutRow(live.server, ref)).channel).toBe('razorpay-backup');
      const processed = await backup.completePayout(ref);
      // The backup account's webhook is authentic only at its own endpoint.
      expect(await deliver(processed)).toBe(401);
      expect(await deliver(processed, 'razorpay-backup')).toBe(200);
      // Accepted, but today the Success comes from the job's poll of the backup account: the router
      // hands callbacks over under the channel's own name ('razorpay'), which does not match the
      // payout's channel 'razorpay-backup', so the news is ignored as foreign (reported).
      const done = await eventually('Success', () => payoutOf(ref), (p) => p.status === 'Success');
      expect(done.upstreamRef).toBe(backup.payoutFor(ref)!.id);
    } finally {
      await operator(live.server, 'PUT', '/routes', { currency: 'INR', direction: 'payout', method: 'BANK', connectors: ['razorpay'] });
    }
  });

  it('without a connector left, a refusal fails the payout with the mapped reason and nothing is held', async () => {
    const before = await balance();
    fake.nextAnswer('/v1/payouts', { status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'Invalid IFSC Code in Bank Account', source: 'business', step: 'NA', reason: 'input_validation_failed', field: 'fund_account.bank_account.ifsc', metadata: {} } } }, 'POST');
    const created = await live.merchant.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 200 }));
    const ref = created.data.transactionRef as string;
    const failed = await eventually('Failed', () => payoutOf(ref), (p) => p.status === 'Failed');
    expect(failed.failureReason).toBe('INVALID_ACCOUNT');
    expect(backup.payoutFor(ref)).toBeUndefined();
    expect(settlementBlind(await balance())).toEqual(settlementBlind(before));
  });

  it('a key secret Razorpay refuses fails pay-ins and payouts cleanly with UPSTREAM_REJECTED', async () => {
    await operator(live.server, 'PUT', '/connectors/razorpay/credentials', { keySecret: 'not-the-key-secret' });
    try {
      const payment = await live.merchant.client.paymentInitiate(initiateBody('INR', 'NATIVE', { amount: 180 }));
      expect(payment.status).toBe(200);
      const failed = await eventually('Failed', () => statusOf(payment.data.transactionRef), (p) => p.status === 'Failed');
      expect(failed.failureReason).toBe('UPSTREAM_REJECTED');
      const payout = await live.merchant.client.payoutInitiate(payoutBody('INR', 'UPI', { amount: 100 }));
      const refused = await eventually('Failed', () => payoutOf(payout.data.transactionRef), (p) => p.status === 'Failed');
      expect(refused.failureReason).toBe('UPSTREAM_REJECTED');
      expect(fake.payoutFor(payout.data.transactionRef)).toBeUndefined();
    } finally {
      await operator(live.server, 'PUT', '/connectors/razorpay/credentials', { keySecret: fake.keySecret });
    }
  });
});
