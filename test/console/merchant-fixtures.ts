// Real data for the merchant pages, made through the same APIs as production: a shop with paid, failed
// and refundable payments (one whose payer name and email are markup), a payout, money on its
// balances, webhook events with a failed attempt; a second merchant with a payment of its own; and the
// shop's owner (with TOTP), developer and viewer, and the other merchant's owner.
import { expect } from 'vitest';
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import type { TestMerchant, TestServer } from '../helpers/server.js';
import { initiateBody, paidPayment } from '../payments/api-helpers.js';
import { fund, payoutBody } from '../payouts/helpers.js';
import { ConsoleClient, csrfOf, PASSWORD, secretOf } from './console-client.js';
import { totpCode } from '../../src/people/totp.js';

export const XSS_NAME = '<script>alert(1)</script><img src=x onerror=alert(2)>';
export const XSS_EMAIL = '<img/src=x/onerror=alert(3)>@example.com';
export const HOOK_URL = 'http://127.0.0.1:9/paygate-hooks';

export interface MerchantData {
  readonly shop: TestMerchant;
  readonly other: TestMerchant;
  readonly paidRef: string;
  readonly xssRef: string;
  readonly failedRef: string;
  readonly payoutRef: string;
  readonly otherPaymentRef: string;
  readonly otherPayoutRef: string;
  readonly eventId: string;
}

export async function seedMerchantData(server: TestServer): Promise<MerchantData> {
  const { services } = server;
  const shop = await server.createMerchant({ keyType: 'HMAC-SHA256' });
  const other = await server.createMerchant({ keyType: 'HMAC-SHA256' });
  await services.merchants.setWebhookUrls(shop.id, { payment: HOOK_URL, payout: HOOK_URL }, 'test');
  const paidRef = await paidPayment(shop, 'INR', 'NATIVE', { amount: 1500.5 });
  await paidPayment(shop, 'IDR', 'QRIS', { amount: 150000 });
  const xssRef = await paidPayment(shop, 'INR', 'NATIVE', { amount: 777, name: XSS_NAME, email: XSS_EMAIL });
  const failed = await shop.client.paymentInitiate(initiateBody('INR', 'NATIVE', { amount: 300 }));
  await shop.client.sandboxCompletePayment({ transactionRef: failed.data.transactionRef, outcome: 'Failed' });
  await paidPayment(shop, 'EGP', 'WALLET', { amount: 250 });

  await fund(server, shop.id, 'INR', 50_000_00n);
  const payout = await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 1200 }));
  expect(payout.ok, JSON.stringify(payout.data)).toBe(true);
  await services.payouts.processDue();

  const otherPaymentRef = await paidPayment(other, 'INR', 'NATIVE');
  await fund(server, other.id, 'INR', 10_000_00n);
  const otherPayout = await other.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 500 }));

  // One delivery attempt of every due event: nothing listens on port 9, so each fails and stays pending.
  const dispatcher = new WebhookDispatcher({ store: services.store, box: services.box, serviceKey: services.webhooks.serviceKey, clock: server.clock, config: services.config.webhooks });
  await dispatcher.dispatchDue();
  await dispatcher.close();
  const events = await services.webhooks.listEvents(shop.id, { resourceRef: paidRef });
  expect(events.events.length).toBeGreaterThan(0);
  return {
    shop,
    other,
    paidRef,
    xssRef,
    failedRef: failed.data.transactionRef,
    payoutRef: payout.data.transactionRef,
    otherPaymentRef,
    otherPayoutRef: otherPayout.data.transactionRef,
    eventId: events.events[0]!.id,
  };
}

/** A merchant user signed in on `client`; with `totp`, enrolled first and then signed in with password and code. */
export async function merchantUser(server: TestServer, client: ConsoleClient, email: string, merchantId: string, role: string, totp = false): Promise<string> {
  await server.services.people.createUser({ email, kind: 'merchant', role, merchantId, password: PASSWORD }, 'test');
  const first = await client.login(email, PASSWORD);
  expect(first.location).toBe('/console');
  if (!totp) return '';
  const enrol = await client.get('/console/enrol');
  const secret = secretOf(enrol.text);
  const done = await client.request('POST', '/console/enrol', { _csrf: csrfOf(enrol.text), code: totpCode(secret, server.clock.nowMs()) });
  expect(done.status).toBe(200);
  server.clock.advance(30_000);
  return secret;
}
