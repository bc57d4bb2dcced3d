// A live merchant in Egypt, end to end through the merchant API: pay-ins through FawryPay (a
// PayAtFawry reference paid at an outlet, an MWALLET request-to-pay) and payouts through Paymob
// (wallets and bank accounts), each connector pointed at its fake over real HTTP. Fawry notifies with
// a signed V2 server notification; Paymob documents no notification, so payout states come from the
// payout job polling Paymob's transaction inquiry (first poll pollDelayMs(0, false) = 2 s after Processing: Paymob sends no payout callbacks).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTORS } from '../../src/connectors/catalog.js';
import type { ConnectorDefinition } from '../../src/connectors/connector.js';
import { toMerchantRefNum } from '../../src/connectors/fawry/transformers.js';
import { paymobDefinition } from '../../src/connectors/paymob/definition.js';
import { CHARGE_PATH, FakeFawry, REFUND_PATH } from '../fakes/fawry.js';
import { PaymobFake, type PaymobFakeOptions } from '../fakes/paymob.js';
import { fund, initiateBody } from '../payments/api-helpers.js';
import { payoutBody } from '../payouts/helpers.js';
import { connect, eventually, journalCount, operator, payoutRow, paymentRow, startLive, type LiveSetup } from './live.js';

/** A second Paymob account behind the first, as an operator might keep one for fallback. */
const backupDefinition: ConnectorDefinition = { ...paymobDefinition, name: 'paymob-backup', displayName: 'Paymob Payouts (backup account)' };

const PAYMOB: PaymobFakeOptions = { clientId: 'client-main', clientSecret: 'secret-main-7d41', username: 'payouts-main', password: 'main-pa55word' };
const PAYMOB_BACKUP: PaymobFakeOptions = { clientId: 'client-backup', clientSecret: 'secret-backup-9c02', username: 'payouts-backup', password: 'backup-pa55word' };

let live: LiveSetup;
let fawry: FakeFawry;
let paymob: PaymobFake;
let backup: PaymobFake;

const fawryCredentials = () => ({ merchantCode: fawry.merchantCode, secureKey: fawry.secureKey });
const paymobCredentials = (o: PaymobFakeOptions) => ({ clientId: o.clientId, clientSecret: o.clientSecret, username: o.username, password: o.password });

beforeAll(async () => {
  live = await startLive({ connectors: [...CONNECTORS, backupDefinition] });
  fawry = await FakeFawry.start();
  fawry.setCallbackUrl(`${live.server.baseUrl}/v1/callbacks/fawry`);
  paymob = await PaymobFake.start(PAYMOB);
  backup = await PaymobFake.start(PAYMOB_BACKUP);
}, 60_000);

afterAll(async () => {
  await fawry?.close();
  await paymob?.close();
  await backup?.close();
  await live?.close();
});

const statusOf = async (transactionRef: string) => (await live.merchant.client.paymentStatus({ transactionRef })).data;
const payoutOf = async (transactionRef: string) => (await live.merchant.client.payoutStatus({ transactionRef })).data;
const mref = (transactionRef: string): string => toMerchantRefNum(transactionRef)!;
const checkoutPage = async (checkoutUrl: string): Promise<string> => (await fetch(`${live.server.baseUrl}${new URL(checkoutUrl).pathname}`)).text();

/**
 * All the merchant's EGP (available + pending + held): earlier payments settle from pending to
 * available while a test runs, so only the sum shows that a payment added nothing.
 */
const merchantMoney = async (): Promise<number> => {
  const b = (await live.merchant.client.balance({ currency: 'EGP' })).data;
  return Math.round((b.available + b.pending + b.held) * 100);
};

/** Posts a notification body to our Fawry callback endpoint as Fawry would. */
const notifyFawry = (body: string) =>
  fetch(`${live.server.baseUrl}/v1/callbacks/fawry`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

/** A pay-in created through the merchant API whose collection (the Fawry charge) is ready. */
async function readyPayment(method: 'FAWRY' | 'WALLET', overrides: Parameters<typeof initiateBody>[2] = {}) {
  const created = await live.merchant.client.paymentInitiate(initiateBody('EGP', method, overrides));
  expect(created.status).toBe(200);
  const ref: string = created.data.transactionRef;
  const row = await eventually('the Fawry charge', () => paymentRow(live.server, ref), (r) => r.collection_state === 'ready');
  return { ref, row, checkoutUrl: created.data.checkoutUrl as string };
}

describe('before the operator routes anything', () => {
  it('refuses a live merchant every EGP method with METHOD_NOT_ENABLED, and payment/methods lists none', async () => {
    const answer = await live.merchant.client.paymentInitiate(initiateBody('EGP', 'FAWRY'));
    expect(answer.status).toBe(403);
    expect(answer.message).toBe('METHOD_NOT_ENABLED');
    const payout = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'WALLET'));
    expect(payout.message).toBe('METHOD_NOT_ENABLED');
    const methods = await live.merchant.client.paymentMethods({ currency: 'EGP' });
    expect(methods.data).toMatchObject({ payin: [], payout: [] });
  });

  it('refuses routes naming a connector that lacks the method or the direction, and stores nothing', async () => {
    const payoutsToFawry = await live.server.admin('PUT', '/routes', { currency: 'EGP', direction: 'payout', method: 'WALLET', connectors: ['fawry'] });
    expect(payoutsToFawry.status).toBe(400);
    expect(JSON.stringify(payoutsToFawry.body)).toContain('fawry does not offer EGP WALLET payouts');
    const bankToFawry = await live.server.admin('PUT', '/routes', { currency: 'EGP', direction: 'payout', method: 'BANK', connectors: ['fawry'] });
    expect(bankToFawry.status).toBe(400);
    const payinsToPaymob = await live.server.admin('PUT', '/routes', { currency: 'EGP', direction: 'payin', method: 'WALLET', connectors: ['paymob'] });
    expect(payinsToPaymob.status).toBe(400);
    const fallbackLacking = await live.server.admin('PUT', '/routes', { currency: 'EGP', direction: 'payout', method: 'BANK', connectors: ['paymob', 'fawry'] });
    expect(fallbackLacking.status).toBe(400);
    expect(await operator(live.server, 'GET', '/routes')).toEqual([]);
  });

  it('routes EGP FAWRY and WALLET pay-ins to fawry and EGP WALLET and BANK payouts to paymob, secrets shown by their last four only', async () => {
    await operator(live.server, 'PUT', '/routes', { currency: 'EGP', direction: 'payin', method: 'FAWRY', connectors: ['fawry'] });
    const refused = await live.merchant.client.paymentInitiate(initiateBody('EGP', 'FAWRY'));
    expect(refused.message).toBe('METHOD_NOT_ENABLED');
    expect(JSON.stringify(refused.data)).not.toContain('fawry');

    await connect(live.server, 'fawry', {
      baseUrl: fawry.url,
      credentials: fawryCredentials(),
      routes: ['FAWRY', 'WALLET'].map((method) => ({ currency: 'EGP' as const, direction: 'payin' as const, method })),
    });
    await connect(live.server, 'paymob', {
      baseUrl: paymob.baseUrl,
      credentials: paymobCredentials(PAYMOB),
      routes: ['WALLET', 'BANK'].map((method) => ({ currency: 'EGP' as const, direction: 'payout' as const, method })),
    });
    await connect(live.server, 'paymob-backup', { baseUrl: backup.baseUrl, credentials: paymobCredentials(PAYMOB_BACKUP), routes: [] });

    const listed = (await operator(live.server, 'GET', '/connectors')) as { name: string; ready: boolean; credentials: { name: string; hint: string }[] }[];
    const byName = (name: string) => listed.find((c) => c.name === name)!;
    expect(byName('fawry').ready).toBe(true);
    expect(byName('paymob').ready).toBe(true);
    expect(byName('fawry').credentials.find((c) => c.name === 'secureKey')!.hint).toBe(`…${fawry.secureKey.slice(-4)}`);
    expect(byName('paymob').credentials.find((c) => c.name === 'password')!.hint).toBe(`…${PAYMOB.password.slice(-4)}`);
    const shown = JSON.stringify(listed);
    for (const secret of [fawry.secureKey, PAYMOB.clientSecret, PAYMOB.password, PAYMOB_BACKUP.password]) expect(shown).not.toContain(secret);
    const stored = (await live.server.services.store.db.selectFrom('connector_credentials').select('sealed').execute()).map((row) => row.sealed).join();
    for (const secret of [fawry.secureKey, PAYMOB.clientSecret, PAYMOB.password]) expect(stored).not.toContain(secret);

    const routes = (await operator(live.server, 'GET', '/routes')) as { currency: string; direction: string; method: string; connectors: string[] }[];
    const egp = routes.filter((r) => r.currency === 'EGP').map((r) => `${r.direction} ${r.method} -> ${r.connectors.join(',')}`).sort();
    expect(egp).toEqual(['payin FAWRY -> fawry', 'payin WALLET -> fawry', 'payout BANK -> paymob', 'payout WALLET -> paymob']);

    const methods = await live.merchant.client.paymentMethods({ currency: 'EGP' });
    expect(methods.data.payin.map((m: { method: string }) => m.method).sort()).toEqual(['FAWRY', 'WALLET']);
    expect(methods.data.payout.map((m: { method: string }) => m.method).sort()).toEqual(['BANK', 'WALLET']);
  });
});

describe('pay-ins through FawryPay', () => {
  it('a FAWRY payment: the checkout page shows the PayAtFawry reference, Fawry notifies, Success, and the merchant is webhooked once', async () => {
    const { ref, row, checkoutUrl } = await readyPayment('FAWRY', { amount: 250, webhookUrl: live.receiver.url });
    expect(row.channel).toBe('fawry');
    const order = fawry.order(mref(ref))!;
    expect(order.paymentMethod).toBe('PayAtFawry');
    expect(order.orderAmountMinor).toBe(250_00n);
    expect(row.upstream_ref).toBe(order.fawryRefNumber);
    expect(fawry.chargesFor(mref(ref))).toBe(1);
    const instructions = JSON.parse(row.collection_json!);
    expect(instructions).toMatchObject({ kind: 'FAWRY', referenceCode: order.fawryRefNumber });
    const page = await checkoutPage(checkoutUrl);
    expect(page).toContain(order.fawryRefNumber);
    expect(page).toContain('Fawry reference number');

    await fawry.pay(mref(ref));
    expect(fawry.notifications.at(-1)!.status).toBe(200);
    expect((await statusOf(ref)).status).toBe('Success');
    const entries = await journalCount(live.server, ref);
    expect(entries).toBeGreaterThan(0);
    // Fawry repeats a notification it is unsure of: nothing is booked twice.
    await fawry.notify(mref(ref));
    expect(fawry.notifications.at(-1)!.status).toBe(200);
    expect(await journalCount(live.server, ref)).toBe(entries);
    const hooks = await eventually('the webhook', async () => live.receiver.hits.filter((h) => h.body.includes(ref)), (hits) => hits.length >= 1);
    expect(JSON.parse(hooks[0]!.body)).toMatchObject({ transactionRef: ref, status: 'Success' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(live.receiver.hits.filter((h) => h.body.includes(ref))).toHaveLength(1);
  });

  it('a WALLET payment: an MWALLET request-to-pay to the payer, the checkout page shows the phone it went to, then Success', async () => {
    const { ref, row, checkoutUrl } = await readyPayment('WALLET', { amount: 175.5, phone: '01123456789' });
    const order = fawry.order(mref(ref))!;
    expect(order).toMatchObject({ paymentMethod: 'MWALLET', debitMobileWalletNo: '01123456789', orderAmountMinor: 175_50n });
    expect(JSON.parse(row.collection_json!)).toMatchObject({ kind: 'MOBILE_WALLET', walletPhone: '01123456789', referenceCode: order.fawryRefNumber });
    const page = await checkoutPage(checkoutUrl);
    // The phone is shown masked (first three and last three digits), enough for the payer to recognise it.
    expect(page).toContain('011•••••789');
    expect(page).toContain('mobile wallet');
    expect(page).not.toContain('01123456789');

    await fawry.pay(mref(ref));
    expect((await statusOf(ref)).status).toBe('Success');
  });

  it('a charge whose answer is lost is looked up by our reference: one Fawry order, the reference it made', async () => {
    fawry.nextAnswer(CHARGE_PATH, 'lost');
    const created = await live.merchant.client.paymentInitiate(initiateBody('EGP', 'FAWRY', { amount: 310 }));
    const ref = created.data.transactionRef;
    // The answer never comes (CONNECTOR_TIMEOUT_MS = 1 s); the collection job asks again 1 s later and finds the order.
    const row = await eventually('the Fawry charge', () => paymentRow(live.server, ref), (r) => r.collection_state === 'ready', 20_000);
    expect(fawry.chargesFor(mref(ref))).toBe(1);
    expect(row.upstream_ref).toBe(fawry.order(mref(ref))!.fawryRefNumber);
    await fawry.pay(mref(ref));
    expect((await statusOf(ref)).status).toBe('Success');
  });

  it('a Fawry fee the payer bears on top is not an odd amount: Success for the sum asked', async () => {
    const { ref } = await readyPayment('FAWRY', { amount: 140 });
    await fawry.pay(mref(ref), { feesMinor: 5_00n, customerPaysFees: true });
    expect(JSON.parse(fawry.notifications.at(-1)!.body)).toMatchObject({ paymentAmount: 145, orderAmount: 140, fawryFees: 5 });
    const done = await statusOf(ref);
    expect(done.status).toBe('Success');
    expect(done.amount).toBe(140);
  });

  it('a wallet prompt the payer declines fails UPSTREAM_DECLINED; an order Fawry cancels fails UPSTREAM_CANCELLED', async () => {
    const declined = await readyPayment('WALLET', { amount: 45 });
    await fawry.setStatus(mref(declined.ref), 'FAILED');
    expect(await statusOf(declined.ref)).toMatchObject({ status: 'Failed', failureReason: 'UPSTREAM_DECLINED' });
    const cancelled = await readyPayment('FAWRY', { amount: 45 });
    await fawry.setStatus(mref(cancelled.ref), 'CANCELED');
    expect(await statusOf(cancelled.ref)).toMatchObject({ status: 'Failed', failureReason: 'UPSTREAM_CANCELLED' });
    // An EXPIRED notice before our own expiry changes nothing: the payer still has the time the page shows.
    const early = await readyPayment('FAWRY', { amount: 45 });
    await fawry.setStatus(mref(early.ref), 'EXPIRED');
    expect((await statusOf(early.ref)).status).toBe('Pending');
  });

  it('the payer\'s phone with the country code reaches the same wallet; a FAWRY payment needs an Egyptian mobile for the charge', async () => {
    const wallet = await readyPayment('WALLET', { amount: 33, phone: '201012345678' });
    expect(fawry.order(mref(wallet.ref))).toMatchObject({ debitMobileWalletNo: '01012345678', customerMobile: '01012345678' });
    // FAWRY needs an Egyptian mobile too (Fawry texts the reference): a foreign one is refused at once.
    const refused = await live.merchant.client.paymentInitiate(initiateBody('EGP', 'FAWRY', { amount: 33, phone: '447700900123' }));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.data)).toContain('must be an Egyptian mobile number');
  });

  it('out-of-order and repeated notifications: a stale UNPAID one after PAID, a later EXPIRED one, nothing moves back or is booked twice', async () => {
    const { ref } = await readyPayment('FAWRY', { amount: 99 });
    const stale = fawry.notificationBody(mref(ref));
    expect(JSON.parse(stale).orderStatus).toBe('UNPAID');
    expect((await notifyFawry(stale)).status).toBe(200);
    expect((await statusOf(ref)).status).toBe('Pending');

    const paid = await fawry.pay(mref(ref));
    expect((await statusOf(ref)).status).toBe('Success');
    const entries = await journalCount(live.server, ref);
    expect((await notifyFawry(stale)).status).toBe(200);
    expect((await notifyFawry(paid)).status).toBe(200);
    await fawry.setStatus(mref(ref), 'EXPIRED');
    expect(fawry.notifications.at(-1)!.status).toBe(200);
    expect((await statusOf(ref)).status).toBe('Success');
    expect(await journalCount(live.server, ref)).toBe(entries);
  });

  it('an underpaid FAWRY reference never becomes Success: AMOUNT_MISMATCH, and the cash (not refundable) is held for the operator', async () => {
    const { ref } = await readyPayment('FAWRY', { amount: 300 });
    const before = await merchantMoney();
    await fawry.pay(mref(ref), { amountMinor: 120_00n });
    expect(await statusOf(ref)).toMatchObject({ status: 'Failed', failureReason: 'AMOUNT_MISMATCH' });
    const held = await operator(live.server, 'GET', `/held-money/${ref}`);
    expect(held).toMatchObject({ transactionRef: ref, amountAsked: 300, amountHeld: 120, amountMismatch: true, status: 'open' });
    expect(await merchantMoney()).toBe(before);
    expect(fawry.requests.some((r) => r.path.endsWith('/refund'))).toBe(false);
    // The operator cannot send cash back through Fawry; crediting it to the merchant is what is left.
    const back = await live.server.admin('POST', `/held-money/${ref}/return`, { reason: 'payer asked for it back' });
    expect(back.status).toBe(422);
    expect(JSON.stringify(back.body)).toContain('PAYMENT_NOT_REFUNDABLE');
    const credited = await operator(live.server, 'POST', `/held-money/${ref}/credit`, { reason: 'payer confirmed the order at the lower price' });
    expect(credited.item).toMatchObject({ status: 'credited', amountHeld: 120 });
    expect(await merchantMoney()).toBe(before + Math.round(credited.item.credited * 100));
    expect(credited.item.credited).toBeGreaterThan(0);
  });

  it('an odd WALLET payment fails AMOUNT_MISMATCH and the money goes back to the payer through Fawry at once', async () => {
    const { ref } = await readyPayment('WALLET', { amount: 200 });
    const before = await merchantMoney();
    await fawry.pay(mref(ref), { amountMinor: 150_00n });
    expect(await statusOf(ref)).toMatchObject({ status: 'Failed', failureReason: 'AMOUNT_MISMATCH' });
    const late = await eventually(
      'the refund of the odd money',
      () => live.server.services.store.db.selectFrom('late_payments').selectAll().where('transaction_ref', '=', ref).executeTakeFirstOrThrow(),
      (row) => row.disposition !== 'refund_pending',
    );
    expect(late.disposition).toBe('refunded');
    expect(late.refund_upstream_ref).toBe(fawry.order(mref(ref))!.fawryRefNumber);
    expect(fawry.order(mref(ref))).toMatchObject({ refundedMinor: 150_00n, orderStatus: 'PARTIAL_REFUNDED' });
    expect((await live.server.admin('GET', `/held-money/${ref}`)).status).toBe(404);
    expect(await merchantMoney()).toBe(before);
    // Fawry telling us of its own refund (PARTIAL_REFUNDED) is no new money: nothing refunded or booked again.
    const refunds = fawry.requests.filter((r) => r.path === REFUND_PATH).length;
    const entries = await journalCount(live.server, ref);
    await fawry.notify(mref(ref));
    expect(fawry.notifications.at(-1)!.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fawry.requests.filter((r) => r.path === REFUND_PATH)).toHaveLength(refunds);
    expect(await journalCount(live.server, ref)).toBe(entries);
    expect(await statusOf(ref)).toMatchObject({ status: 'Failed', failureReason: 'AMOUNT_MISMATCH' });
    expect(await merchantMoney()).toBe(before);
  });

  it('an odd WALLET sum whose refund answer is lost is not refunded twice when the refund is asked again', async () => {
    const { ref } = await readyPayment('WALLET', { amount: 200 });
    fawry.nextAnswer(REFUND_PATH, 'lost');
    await fawry.pay(mref(ref), { amountMinor: 50_00n });
    expect(await statusOf(ref)).toMatchObject({ status: 'Failed', failureReason: 'AMOUNT_MISMATCH' });
    // Fawry refunded the 50 but its answer was lost (1 s); the late-money job asks again after its backoff (5 s).
    const late = await eventually(
      'the retried refund',
      () => live.server.services.store.db.selectFrom('late_payments').selectAll().where('transaction_ref', '=', ref).executeTakeFirstOrThrow(),
      (row) => row.disposition !== 'refund_pending',
      20_000,
    );
    expect(late.disposition).toBe('refunded');
    expect(fawry.order(mref(ref))!.refundedMinor).toBe(50_00n);
    expect(fawry.requests.filter((r) => r.path === REFUND_PATH && r.rawBody.includes(fawry.order(mref(ref))!.fawryRefNumber))).toHaveLength(1);
  }, 30_000);

  it('an overpaid WALLET payment Fawry will not refund in full is held for the operator instead', async () => {
    const { ref } = await readyPayment('WALLET', { amount: 200 });
    await fawry.pay(mref(ref), { amountMinor: 260_00n });
    expect(await statusOf(ref)).toMatchObject({ status: 'Failed', failureReason: 'AMOUNT_MISMATCH' });
    const held = await eventually(
      'the held item',
      async () => live.server.admin('GET', `/held-money/${ref}`),
      (answer) => answer.status === 200,
    );
    expect(held.body.data).toMatchObject({ transactionRef: ref, amountAsked: 200, amountHeld: 260, amountMismatch: true, status: 'open' });
    expect(fawry.order(mref(ref))!.refundedMinor).toBe(0n);
  });

  it('a WALLET payment is refunded through Fawry payment/refund; a FAWRY (cash) payment is refused a refund', async () => {
    const wallet = await readyPayment('WALLET', { amount: 80 });
    await fawry.pay(mref(wallet.ref));
    expect((await statusOf(wallet.ref)).status).toBe('Success');
    const refunded = await live.merchant.client.paymentRefund({ transactionRef: wallet.ref });
    expect(refunded.status).toBe(200);
    expect((await statusOf(wallet.ref)).status).toBe('Refund');
    const refundCalls = fawry.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/payments/refund'));
    const call = refundCalls.find((r) => r.rawBody.includes(wallet.row.upstream_ref!))!;
    expect(call.rawBody).toContain('"refundAmount":80.00');
    expect(fawry.order(mref(wallet.ref))).toMatchObject({ orderStatus: 'REFUNDED', refundedMinor: 80_00n });
    // A REFUNDED notification afterwards moves nothing back and books nothing.
    const refundEntries = await journalCount(live.server, wallet.ref);
    await fawry.notify(mref(wallet.ref));
    expect(fawry.notifications.at(-1)!.status).toBe(200);
    expect((await statusOf(wallet.ref)).status).toBe('Refund');
    expect(await journalCount(live.server, wallet.ref)).toBe(refundEntries);

    const cash = await readyPayment('FAWRY', { amount: 80 });
    await fawry.pay(mref(cash.ref));
    const entries = await journalCount(live.server, cash.ref);
    const before = fawry.requests.length;
    const refused = await live.merchant.client.paymentRefund({ transactionRef: cash.ref });
    expect(refused.status).toBe(422);
    expect(refused.message).toBe('PAYMENT_NOT_REFUNDABLE');
    expect((await statusOf(cash.ref)).status).toBe('Success');
    expect(await journalCount(live.server, cash.ref)).toBe(entries);
    expect(fawry.requests.slice(before).some((r) => r.path.endsWith('/payments/refund'))).toBe(false);
  });

  it('refuses a notification with a bad messageSignature with 401 and changes nothing', async () => {
    const { ref, row } = await readyPayment('FAWRY', { amount: 120 });
    const order = fawry.order(mref(ref))!;
    // What a forger would send: the order marked PAID, signed with a key that is not ours.
    order.orderStatus = 'PAID';
    const genuine = JSON.parse(fawry.notificationBody(mref(ref))) as Record<string, unknown>;
    order.orderStatus = 'UNPAID';
    const wrongKey = { ...genuine, messageSignature: 'a'.repeat(64) };
    const tampered = fawry.notificationBody(mref(ref)).replace('"UNPAID"', '"PAID"');
    const noSignature = { ...genuine, messageSignature: undefined };
    const shortSignature = { ...genuine, messageSignature: 'abc123' };
    for (const body of [JSON.stringify(wrongKey), tampered, JSON.stringify(noSignature), JSON.stringify(shortSignature), 'not json']) {
      expect((await notifyFawry(body)).status).toBe(401);
    }
    expect((await statusOf(ref)).status).toBe('Pending');
    expect((await paymentRow(live.server, ref)).upstream_ref).toBe(row.upstream_ref);
    expect(await journalCount(live.server, ref)).toBe(0);
    const metrics = await (await fetch(`${live.server.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/paygate_connector_notifications_total\{connector="fawry",outcome="refused"\} [1-9]/);
    expect(metrics).toMatch(/paygate_connector_calls_total\{connector="fawry",operation="create_collection",method="FAWRY",outcome="ok"\} [1-9]/);
  });

  it('a secure key Fawry does not recognise fails payments cleanly with UPSTREAM_REJECTED', async () => {
    await operator(live.server, 'PUT', '/connectors/fawry/credentials', { merchantCode: fawry.merchantCode, secureKey: 'not-the-secure-key-0000' });
    try {
      const created = await live.merchant.client.paymentInitiate(initiateBody('EGP', 'WALLET', { amount: 60 }));
      const failed = await eventually('Failed', () => statusOf(created.data.transactionRef), (p) => p.status === 'Failed');
      expect(failed.failureReason).toBe('UPSTREAM_REJECTED');
      expect(fawry.chargesFor(mref(created.data.transactionRef))).toBe(0);
    } finally {
      await operator(live.server, 'PUT', '/connectors/fawry/credentials', fawryCredentials());
    }
  });
});

describe('payouts through Paymob', () => {
  beforeAll(async () => {
    await fund(live.server, live.merchant.id, 'EGP', 10_000_000_00n);
  });

  it.each([
    ['Vodafone', '01012345678', 'vodafone'],
    ['Orange', '01223456789', 'orange'],
    ['Etisalat', '01134567890', 'etisalat'],
  ])('a %s Cash wallet payout succeeds with Paymob’s transaction id on the record', async (_name, account, issuer) => {
    const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account, amount: 150.75, webhookUrl: live.receiver.url }));
    expect(created.status).toBe(200);
    const ref = created.data.transactionRef;
    const done = await eventually('Success', () => payoutOf(ref), (p) => p.status === 'Success');
    const sent = paymob.payoutFor(ref)!;
    expect(sent).toMatchObject({ issuer, msisdn: account, amountText: '150.75', disbursement_status: 'successful' });
    expect((done as { upstreamRef?: string }).upstreamRef).toBe(sent.transaction_id);
    const row = await payoutRow(live.server, ref);
    expect(row.channel).toBe('paymob');
    expect(row.upstream_ref).toBe(sent.transaction_id);
    const hooks = await eventually('the payout webhook', async () => live.receiver.hits.filter((h) => h.body.includes(ref)), (hits) => hits.length >= 1);
    expect(JSON.parse(hooks[0]!.body)).toMatchObject({ transactionRef: ref, status: 'Success' });
  });

  it('a bank payout is pending at Paymob, then Success when the payout job’s poll of the inquiry finds it settled', async () => {
    const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'BANK', { amount: 2500 }));
    const ref = created.data.transactionRef;
    await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
    const sent = paymob.payoutFor(ref)!;
    expect(sent).toMatchObject({ issuer: 'bank_card', bank_code: 'ADCB', bank_card_number: '100012345678', bank_transaction_type: 'cash_transfer', full_name: 'Asha Rao' });
    expect((await payoutRow(live.server, ref)).upstream_ref).toBe(sent.transaction_id);
    paymob.completePayout(ref);
    const settledAt = Date.now();
    const done = await eventually('Success', () => payoutOf(ref), (p) => p.status === 'Success');
    // The first poll comes pollDelayMs(0, false) = 2 s after Processing, the next after 4 s, 8 s... up to 5 min.
    expect(Date.now() - settledAt).toBeLessThan(5_000);
    expect((done as { upstreamRef?: string }).upstreamRef).toBe(sent.transaction_id);
    const inquiries = paymob.requestsTo('/transaction/inquire/').filter((r) => r.rawBody.includes(sent.client_reference_id!));
    expect(inquiries.length).toBeGreaterThanOrEqual(1);
    expect(paymob.requestsTo('/disburse/').filter((r) => r.rawBody.includes(sent.client_reference_id!))).toHaveLength(1);
  });

  it('a pending wallet payout is polled to Success too', async () => {
    paymob.programme('01055555555', { status: 'pending', code: '200' });
    const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account: '01055555555' }));
    const ref = created.data.transactionRef;
    await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
    paymob.completePayout(ref);
    await eventually('Success', () => payoutOf(ref), (p) => p.status === 'Success');
  });

  it('an unanswered submission is looked up by our reference in the inquiry, never disbursed twice', async () => {
    paymob.nextAnswer('/disburse/', 'drop');
    const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account: '01066666666' }));
    const ref = created.data.transactionRef;
    // The answer is lost (CONNECTOR_TIMEOUT_MS = 1 s); 1 s later the job asks Paymob's inquiry and finds it paid.
    const done = await eventually('Success after the lookup', () => payoutOf(ref), (p) => p.status === 'Success', 30_000);
    const sent = paymob.payoutFor(ref)!;
    expect((done as { upstreamRef?: string }).upstreamRef).toBe(sent.transaction_id);
    expect(paymob.requestsTo('/disburse/').filter((r) => r.rawBody.includes(sent.client_reference_id!))).toHaveLength(1);
    expect([...paymob.transactions.values()].filter((t) => t.client_reference_id === sent.client_reference_id)).toHaveLength(1);
    expect(paymob.requestsTo('/transaction/inquire/').some((r) => r.rawBody.includes(sent.client_reference_id!))).toBe(true);
  });

  it('a bank payout whose answer is lost is found by the bank inquiry, pending, then polled to Success: one disbursement', async () => {
    paymob.nextAnswer('/disburse/', 'drop');
    const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'BANK', { bankCode: '1001', account: '200033334444' }));
    const ref = created.data.transactionRef;
    await eventually('Processing after the lookup', () => payoutOf(ref), (p) => p.status === 'Processing', 30_000);
    const sent = paymob.payoutFor(ref)!;
    expect(sent.bank_code).toBe('NBE');
    // Paymob keeps bank transactions apart: the wallet inquiry does not know it, the bank one does.
    const asked = paymob.requestsTo('/transaction/inquire/').filter((r) => r.rawBody.includes(sent.client_reference_id!)).map((r) => JSON.parse(r.rawBody).bank_transactions);
    expect(asked.slice(0, 2)).toEqual([false, true]);
    paymob.completePayout(ref);
    await eventually('Success', () => payoutOf(ref), (p) => p.status === 'Success');
    expect(paymob.requestsTo('/disburse/').filter((r) => r.rawBody.includes(sent.client_reference_id!))).toHaveLength(1);
  });

  it('a revoked access token is renewed without the payout noticing', async () => {
    paymob.revokeAccessTokens();
    const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account: '01212121212' }));
    await eventually('Success', () => payoutOf(created.data.transactionRef), (p) => p.status === 'Success');
    expect(paymob.payoutFor(created.data.transactionRef)!.issuer).toBe('orange');
  });

  it('a WE (015) wallet, which Paymob lists no issuer for, is refused before anything is sent', async () => {
    const before = paymob.transactions.size;
    const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account: '01512345678' }));
    expect(created.status).toBe(200);
    const failed = await eventually('Failed', () => payoutOf(created.data.transactionRef), (p) => p.status === 'Failed');
    expect(failed.failureReason).toBe('UPSTREAM_REJECTED');
    expect(paymob.transactions.size).toBe(before);
  });

  it('every failure code Paymob answers is Failed through our API with the mapped reason, and the funds come back', async () => {
    const before = await merchantMoney();
    const cases: [code: string, reason: string][] = [
      ['618', 'INVALID_ACCOUNT'], // not registered as a wallet holder
      ['4055', 'INVALID_ACCOUNT'], // the wallet does not exist
      ['6005', 'INSUFFICIENT_FUNDS_UPSTREAM'], // our Paymob balance is short
      ['583', 'AMOUNT_LIMIT_EXCEEDED'],
      ['604', 'AMOUNT_LIMIT_EXCEEDED'],
      ['6061', 'AMOUNT_LIMIT_EXCEEDED'],
      ['6065', 'AMOUNT_LIMIT_EXCEEDED'],
      ['403', 'UPSTREAM_REJECTED'],
      ['1056', 'UPSTREAM_REJECTED'],
      ['4056', 'UPSTREAM_REJECTED'],
      ['9999', 'UPSTREAM_REJECTED'], // a code nobody documented
    ];
    const refs = await Promise.all(
      cases.map(async ([code], i) => {
        const account = `0101000${String(1000 + i)}`;
        paymob.programme(account, { status: 'failed', code });
        const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account }));
        expect(created.status).toBe(200);
        return created.data.transactionRef as string;
      }),
    );
    for (const [i, ref] of refs.entries()) {
      const failed = await eventually(`Failed ${cases[i]![0]}`, () => payoutOf(ref), (p) => p.status === 'Failed');
      expect({ code: cases[i]![0], reason: failed.failureReason }).toEqual({ code: cases[i]![0], reason: cases[i]![1] });
    }
    expect(await merchantMoney()).toBe(before);
  });

  it('bank refusals after pending are mapped too: an invalid account fails INVALID_ACCOUNT on the next poll', async () => {
    const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'BANK', { bankCode: '1101' }));
    const ref = created.data.transactionRef;
    await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
    expect(paymob.payoutFor(ref)!.bank_code).toBe('CIB');
    paymob.failPayout(ref, '000105');
    const failed = await eventually('Failed', () => payoutOf(ref), (p) => p.status === 'Failed');
    expect(failed.failureReason).toBe('INVALID_ACCOUNT');
  });

  it('a definitive refusal at submission moves the payout to the next connector of its route', async () => {
    await operator(live.server, 'PUT', '/routes', { currency: 'EGP', direction: 'payout', method: 'WALLET', connectors: ['paymob', 'paymob-backup'] });
    paymob.nextAnswer('/disburse/', { status: 400, body: { status_code: '6005', status_description: 'Insufficient balance' } });
    const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account: '01277777777' }));
    const ref = created.data.transactionRef;
    const done = await eventually('Success at the backup', () => payoutOf(ref), (p) => p.status === 'Success');
    expect(paymob.payoutFor(ref)).toBeUndefined();
    const sent = backup.payoutFor(ref)!;
    expect(sent).toMatchObject({ issuer: 'orange', msisdn: '01277777777' });
    expect((done as { upstreamRef?: string }).upstreamRef).toBe(sent.transaction_id);
    expect((await payoutRow(live.server, ref)).channel).toBe('paymob-backup');
  });

  it('a disbursement Paymob records as failed in its answer (its balance short) also moves to the next connector', async () => {
    await operator(live.server, 'PUT', '/routes', { currency: 'EGP', direction: 'payout', method: 'WALLET', connectors: ['paymob', 'paymob-backup'] });
    paymob.programme('01277777666', { status: 'failed', code: '6005' });
    const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account: '01277777666' }));
    const ref = created.data.transactionRef;
    await eventually('Success at the backup', () => payoutOf(ref), (p) => p.status === 'Success');
    expect(backup.payoutFor(ref)).toMatchObject({ msisdn: '01277777666' });
    expect((await payoutRow(live.server, ref)).channel).toBe('paymob-backup');
  });

  it('without a connector left, a refusal fails the payout with the mapped reason and nothing is held', async () => {
    await operator(live.server, 'PUT', '/routes', { currency: 'EGP', direction: 'payout', method: 'WALLET', connectors: ['paymob'] });
    paymob.nextAnswer('/disburse/', { status: 400, body: { status_code: '6005', status_description: 'Insufficient balance' } });
    const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account: '01088888888' }));
    const failed = await eventually('Failed', () => payoutOf(created.data.transactionRef), (p) => p.status === 'Failed');
    expect(failed.failureReason).toBe('INSUFFICIENT_FUNDS_UPSTREAM');
    expect((await live.merchant.client.balance({ currency: 'EGP' })).data.held).toBe(0);
  });

  it('Paymob’s notifications are refused: it documents no signature, so nothing unsigned can move a payout', async () => {
    const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'BANK', { amount: 700 }));
    const ref = created.data.transactionRef;
    await eventually('Processing', () => payoutOf(ref), (p) => p.status === 'Processing');
    const sent = paymob.payoutFor(ref)!;
    const forged = { ...sent, disbursement_status: 'successful', status_code: '200' };
    const answer = await fetch(`${live.server.baseUrl}/v1/callbacks/paymob`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(forged) });
    expect(answer.status).toBe(401);
    expect((await payoutOf(ref)).status).toBe('Processing');
    paymob.completePayout(ref);
    await eventually('Success', () => payoutOf(ref), (p) => p.status === 'Success');
  });

  it('a password Paymob refuses fails payouts cleanly with UPSTREAM_REJECTED, and nothing is disbursed', async () => {
    await operator(live.server, 'PUT', '/connectors/paymob/credentials', { ...paymobCredentials(PAYMOB), password: 'wrong-password' });
    try {
      const before = paymob.transactions.size;
      const created = await live.merchant.client.payoutInitiate(payoutBody('EGP', 'WALLET', { account: '01099999999' }));
      const failed = await eventually('Failed', () => payoutOf(created.data.transactionRef), (p) => p.status === 'Failed');
      expect(failed.failureReason).toBe('UPSTREAM_REJECTED');
      expect(paymob.transactions.size).toBe(before);
      expect((await live.merchant.client.balance({ currency: 'EGP' })).data.held).toBe(0);
    } finally {
      await operator(live.server, 'PUT', '/connectors/paymob/credentials', paymobCredentials(PAYMOB));
    }
  });
});
