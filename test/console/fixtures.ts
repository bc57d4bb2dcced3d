// Real data for the console's pages, made through the same services and APIs as production: merchants
// (one named with markup), balances, fees, a credit line, a deposit, a route, held late money, a payout
// stuck at the upstream and a failing webhook endpoint. The test server runs without its worker so
// nothing moves on its own; each step runs the job it needs.
import { expect } from 'vitest';
import { PaymentClient } from '../../sdk/src/index.js';
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import type { TestServer } from '../helpers/server.js';
import { collectionReady, drain, initiateBody, jobsOf, pause } from '../payments/api-helpers.js';
import { magicAccount, payoutBody } from '../payouts/helpers.js';

export const XSS_NAME = '<script>alert(1)</script><img src=x onerror=alert(2)>';
const MINUTE_MS = 60_000;

export interface ConsoleData {
  readonly shopId: string;
  readonly xssId: string;
  readonly liveId: string;
  readonly heldRef: string;
  readonly stuckRef: string;
  readonly failingUrl: string;
}

async function merchant(server: TestServer, name: string, mode: 'sandbox' | 'live' = 'sandbox') {
  const created = await server.services.merchants.create({ name, mode, key: { type: 'HMAC-SHA256' } }, 'test');
  const client = new PaymentClient({
    baseUrl: server.baseUrl,
    merchantId: created.merchant.id,
    key: { type: 'HMAC-SHA256', secret: created.key.secret! },
    clock: () => server.clock.nowMs() / 1000,
  });
  return { id: created.merchant.id, client };
}

export async function seedConsoleData(server: TestServer): Promise<ConsoleData> {
  const { services } = server;
  const shop = await merchant(server, 'Asha Textiles');
  const xss = await merchant(server, XSS_NAME);
  const live = await merchant(server, 'Lagos Goods Ltd', 'live');
  await services.rates.set('INR', 88_500_000n, 50, 50, 'test');

  // Balances: paid payments (pending), operator money moves (available, credit, deposit).
  for (const amount of [1500.5, 125000]) {
    const created = await shop.client.paymentInitiate(initiateBody('INR', 'NATIVE', { amount }));
    expect(created.ok, JSON.stringify(created.data)).toBe(true);
    const done = await shop.client.sandboxCompletePayment({ transactionRef: created.data.transactionRef, outcome: 'Success' });
    expect(done.ok).toBe(true);
  }
  await services.ledger.adjust({ merchantId: shop.id, currency: 'INR', account: 'available', amountMinor: 2_50_000_00n, reason: 'opening balance', actor: 'test' });
  await services.ledger.grantCredit({ merchantId: shop.id, currency: 'INR', amountMinor: 50_000_00n, reason: 'trusted seller', actor: 'test' });
  await services.ledger.moveToSecurity({ merchantId: shop.id, currency: 'INR', amountMinor: 10_000_00n, reason: 'deposit', actor: 'test' });
  await services.fees.setFee({ merchantId: shop.id, currency: 'INR', method: 'NATIVE', direction: 'payin', bps: 180n, fixedMinor: 2_00n }, 'test');
  await services.connectorSettings.setRoute({ merchantId: live.id, currency: 'INR', direction: 'payin', method: 'NATIVE' }, ['razorpay'], 'test');

  // A failing webhook endpoint: nothing listens on port 9 of loopback.
  const failingUrl = 'http://127.0.0.1:9/paygate-hooks';
  const hooked = await shop.client.paymentInitiate(initiateBody('INR', 'NATIVE', { amount: 999, webhookUrl: failingUrl }));
  await shop.client.sandboxCompletePayment({ transactionRef: hooked.data.transactionRef, outcome: 'Success' });
  const dispatcher = new WebhookDispatcher({ store: services.store, box: services.box, serviceKey: services.webhooks.serviceKey, clock: server.clock, config: services.config.webhooks });
  await dispatcher.dispatchDue();
  await dispatcher.close();

  // Late money: the payment expires unpaid, then the payer pays at the bank (another amount). NGN
  // transfers cannot be sent back automatically, so the money waits for the operator.
  const late = await shop.client.paymentInitiate(initiateBody('NGN', 'TRANSFER', { amount: 12000 }));
  const heldRef = late.data.transactionRef;
  await collectionReady(server, heldRef);
  server.clock.advance(31 * MINUTE_MS);
  await drain(jobsOf(server).expiry);
  await services.channels.simulator.channel.completeCollection(heldRef, 'Success', { paidAmountMinor: 12_500_00n });
  for (let waited = 0; ; waited += 50) {
    await drain(jobsOf(server).latePayments);
    const item = await services.payments.held.get(heldRef).catch(() => null);
    if (item?.status === 'open') break;
    if (waited > 15_000) throw new Error('the late payment was not held');
    await pause(50);
  }

  // A payout the bank keeps in Processing (magic ending 0002), then left alone past the threshold: its
  // callbacks are dropped and nothing polls, so the service sees it in Processing until it asks.
  services.channels.simulator.server!.faults.dropCallbacks = true;
  const payout = await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 7500, account: magicAccount('INR', 'BANK', '0002') }));
  expect(payout.ok, JSON.stringify(payout.data)).toBe(true);
  const stuckRef = payout.data.transactionRef;
  for (let round = 0; round < 20; round++) {
    await services.payouts.processDue();
    const row = await services.payouts.operatorGet(stuckRef);
    if (row.status === 'Processing') break;
    await pause(50);
  }
  server.clock.advance(16 * MINUTE_MS);
  return { shopId: shop.id, xssId: xss.id, liveId: live.id, heldRef, stuckRef, failingUrl };
}
