// The operator audit log through the operator API: every operator action leaves exactly one entry
// with its actor, action and target, readable with filters and a cursor, and never a secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { paidPayment, pause } from '../payments/api-helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

interface Entry {
  id: string;
  actor: string;
  action: string;
  target: string;
  merchantId: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

async function entries(query: string): Promise<Entry[]> {
  const answer = await server.admin('GET', `/audit?limit=200&${query}`);
  expect(answer.status).toBe(200);
  return answer.body.data.items;
}

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const answer = await server.admin(method, path, body);
  expect({ path, status: answer.status, body: answer.status === 200 ? null : answer.body }).toEqual({ path, status: 200, body: null });
  return answer.body.data;
}

describe('audit log of operator API actions', () => {
  it('records each action once with actor "admin", its target, and no secret anywhere', async () => {
    const created = await ok('POST', '/merchants', { name: 'Audited Shop', keyType: 'HMAC-SHA256' });
    const id: string = created.merchant.id;
    const secrets: string[] = [created.key.secret, created.webhookSecret];
    const performed: [action: string, target: string][] = [['merchant.create', id]];

    await ok('POST', `/merchants/${id}/disable`);
    performed.push(['merchant.disable', id]);
    await ok('POST', `/merchants/${id}/enable`);
    performed.push(['merchant.enable', id]);
    const key = await ok('POST', `/merchants/${id}/keys`, { type: 'HMAC-SHA256', label: 'rotation' });
    secrets.push(key.secret);
    performed.push(['key.add', key.keyId]);
    await ok('DELETE', `/merchants/${id}/keys/${created.key.keyId}`);
    performed.push(['key.revoke', created.key.keyId]);
    await ok('PUT', `/merchants/${id}/webhooks`, { paymentWebhookUrl: 'http://127.0.0.1:9/hooks?token=receiver-secret' });
    performed.push(['merchant.webhooks', id]);
    secrets.push((await ok('POST', `/merchants/${id}/webhook-secret`)).webhookSecret);
    performed.push(['merchant.webhook_secret', id]);
    await ok('PUT', `/merchants/${id}/rate-limit`, { perSecond: 70 });
    performed.push(['merchant.rate_limit', id]);
    await ok('PUT', `/merchants/${id}/fees`, { currency: 'INR', method: 'NATIVE', direction: 'payin', bps: 180, fixed: 0 });
    performed.push(['fee.set', id]);
    await ok('PUT', `/merchants/${id}/limits`, { currency: 'IDR', method: 'TRANSFER', direction: 'payout', min: 50_000, max: 20_000_000 });
    performed.push(['limit.set', id]);
    await ok('POST', `/merchants/${id}/credit`, { currency: 'INR', amount: 500, reason: 'risk approved', action: 'grant' });
    performed.push(['ledger.credit_grant', id]);

    // A payment's event, resent by the operator.
    const shop = await server.createMerchant();
    const ref = await paidPayment(shop, 'INR', 'NATIVE');
    let eventId: string | undefined;
    for (let i = 0; i < 100 && !eventId; i += 1) {
      eventId = (await ok('GET', `/webhooks/events?merchantId=${shop.id}`)).events[0]?.id;
      if (!eventId) await pause(50);
    }
    await ok('PUT', `/merchants/${shop.id}/webhooks`, { paymentWebhookUrl: 'http://127.0.0.1:9/hooks' });
    await ok('POST', `/webhooks/events/${eventId}/resend`);

    const mine = await entries(`merchantId=${id}`);
    expect(mine.map((e) => [e.action, e.target]).sort()).toEqual([...performed].sort());
    expect(new Set(mine.map((e) => e.actor))).toEqual(new Set(['admin']));
    for (const [action, target] of performed) {
      expect((await entries(`merchantId=${id}&action=${action}`)).map((e) => e.target)).toEqual([target]);
    }
    expect((await entries(`action=webhook.resend&merchantId=${shop.id}`)).map((e) => [e.actor, e.target, e.details.resourceRef])).toEqual([['admin', eventId, ref]]);

    // Rates have no merchant: filtered by action.
    await ok('PUT', '/rates/NGN', { reference: '1550.5', depositSpreadBps: 10, withdrawSpreadBps: 20 });
    const rate = (await entries('action=rate.set'))[0]!;
    expect(rate).toMatchObject({ actor: 'admin', target: 'NGN', merchantId: null, details: { reference: '1550.5', depositSpreadBps: 10, withdrawSpreadBps: 20 } });

    const everything = JSON.stringify(await entries(''));
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/whsec_|hsk_|PRIVATE KEY|receiver-secret/);
    expect(mine.find((e) => e.action === 'merchant.webhooks')!.details).toEqual({ paymentWebhookUrl: 'http://127.0.0.1:9/hooks' });
  });

  it('pages with a cursor, filters by time, and refuses a bad filter', async () => {
    const shop = await server.createMerchant();
    for (const perSecond of [10, 11, 12]) await ok('PUT', `/merchants/${shop.id}/rate-limit`, { perSecond });
    const first = await server.admin('GET', `/audit?merchantId=${shop.id}&action=merchant.rate_limit&limit=2`);
    expect(first.body.data.items.map((e: Entry) => e.details.perSecond)).toEqual([12, 11]);
    const second = await server.admin('GET', `/audit?merchantId=${shop.id}&action=merchant.rate_limit&limit=2&cursor=${first.body.data.nextCursor}`);
    expect(second.body.data).toMatchObject({ items: [{ details: { perSecond: 10 } }], nextCursor: null });
    server.clock.advance(60_000);
    const later = new Date(server.clock.nowMs() - 1).toISOString();
    expect(await entries(`merchantId=${shop.id}&since=${later}`)).toEqual([]);
    await ok('POST', `/merchants/${shop.id}/disable`);
    expect((await entries(`merchantId=${shop.id}&since=${later}`)).map((e) => e.action)).toEqual(['merchant.disable']);
    const bad = await server.admin('GET', '/audit?since=yesterday');
    expect({ status: bad.status, message: bad.body.message }).toEqual({ status: 400, message: 'VALIDATION_FAILED' });
    expect((await server.admin('GET', '/audit?limit=0')).status).toBe(400);
  });
});
