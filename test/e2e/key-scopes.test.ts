// API key scopes end to end: every /v1/api route declares the scope it needs (and whether it moves
// money) and publishes both in the OpenAPI document; every key scope is tried against every route,
// refused calls are 403 KEY_SCOPE and do nothing, allowed ones do their work; the operator sets a
// key's scope when adding it (admin API and CLI) and sees it in the key list; keys made before
// scopes existed are `all` after the migration.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireDeclaredAccess } from '../../src/http/auth.js';
import { CLI_COMMANDS } from '../../src/cli/all-commands.js';
import { parseArgs } from '../../src/cli/args.js';
import { MIGRATIONS } from '../../src/migrations.js';
import { migrate } from '../../src/store/migrator.js';
import type { KeyScope } from '../../src/merchants/access.js';
import { PaymentClient } from '../../sdk/src/index.js';
import { settlementBlind } from '../helpers/balance.js';
import { openStoreBefore } from '../helpers/store.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { fund, initiateBody, paidPayment } from '../payments/api-helpers.js';
import { payoutBody } from '../payouts/helpers.js';

type RouteClass = 'read' | 'payments' | 'payouts' | 'payments-or-payouts';

/** Every merchant route with the class it must declare: a new route must be added here, deliberately. */
const ROUTES: Record<string, { keyScope: RouteClass; movesMoney: boolean }> = {
  '/payment/initiate': { keyScope: 'payments', movesMoney: false },
  '/payment/status': { keyScope: 'read', movesMoney: false },
  '/payment/fetch': { keyScope: 'read', movesMoney: false },
  '/payment/refund': { keyScope: 'payments', movesMoney: true },
  '/payment/methods': { keyScope: 'read', movesMoney: false },
  '/payout/initiate': { keyScope: 'payouts', movesMoney: true },
  '/payout/approve': { keyScope: 'payouts', movesMoney: true },
  '/payout/reject': { keyScope: 'payouts', movesMoney: true },
  '/payout/status': { keyScope: 'read', movesMoney: false },
  '/payout/fetch': { keyScope: 'read', movesMoney: false },
  '/payout/bankCode': { keyScope: 'read', movesMoney: false },
  '/payout/accountInquiry': { keyScope: 'payouts', movesMoney: false },
  '/payout/batch': { keyScope: 'payouts', movesMoney: true },
  '/payout/batchStatus': { keyScope: 'read', movesMoney: false },
  '/account/balance': { keyScope: 'read', movesMoney: false },
  '/account/usdt/rate': { keyScope: 'read', movesMoney: false },
  '/webhook/events': { keyScope: 'read', movesMoney: false },
  '/webhook/event': { keyScope: 'read', movesMoney: false },
  '/webhook/resend': { keyScope: 'payments-or-payouts', movesMoney: false },
  '/sandbox/payment/complete': { keyScope: 'payments', movesMoney: false },
  '/payment/list': { keyScope: 'read', movesMoney: false },
  '/payout/list': { keyScope: 'read', movesMoney: false },
  '/account/statement': { keyScope: 'read', movesMoney: false },
  '/account/settlements': { keyScope: 'read', movesMoney: false },
  '/report/create': { keyScope: 'read', movesMoney: false },
  '/report/status': { keyScope: 'read', movesMoney: false },
};

const ALLOWED: Record<KeyScope, readonly RouteClass[]> = {
  read: ['read'],
  payments: ['read', 'payments', 'payments-or-payouts'],
  payouts: ['read', 'payouts', 'payments-or-payouts'],
  all: ['read', 'payments', 'payouts', 'payments-or-payouts'],
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  expect((await server.admin('PUT', '/rates/INR', { reference: '88.25', depositSpreadBps: 50, withdrawSpreadBps: 50 })).status).toBe(200);
});
afterAll(async () => server.close());

/** A second key of `scope` for `merchant`, added through the admin API, with an SDK client signing with it. */
async function scopedClient(merchant: TestMerchant, scope: KeyScope): Promise<PaymentClient> {
  const added = await server.admin('POST', `/merchants/${merchant.id}/keys`, { type: 'HMAC-SHA256', scope });
  expect(added.status).toBe(200);
  expect(added.body.data.scope).toBe(scope);
  return new PaymentClient({ baseUrl: server.baseUrl, merchantId: merchant.id, key: { type: 'HMAC-SHA256', secret: added.body.data.secret }, clock: () => server.clock.nowMs() / 1000 });
}

async function rowsOf(table: 'payments' | 'payouts', merchantId: string): Promise<number> {
  return (await server.services.store.db.selectFrom(table).select('transaction_ref').where('merchant_id', '=', merchantId).execute()).length;
}

describe('route declarations', () => {
  it('publish every /v1/api route with the scope it needs and whether it moves money, as the table above says', async () => {
    const doc = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
    const declared: Record<string, unknown> = {};
    for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
      if (!path.startsWith('/v1/api/')) continue;
      for (const operation of Object.values(operations)) {
        declared[path.slice('/v1/api'.length)] = { keyScope: operation['x-key-scope'], movesMoney: operation['x-moves-money'] };
      }
    }
    expect(declared).toEqual(ROUTES);
  });

  it('are required: a merchant route without a key scope or money flag fails at start-up', async () => {
    const app = Fastify();
    app.addHook('onRoute', requireDeclaredAccess);
    app.post('/declared', { config: { keyScope: 'read', movesMoney: false } }, async () => ({}));
    expect(() => app.post('/no-scope', { config: { movesMoney: false } }, async () => ({}))).toThrow(/keyScope/);
    expect(() => app.post('/bad-scope', { config: { keyScope: 'everything' as never, movesMoney: false } }, async () => ({}))).toThrow(/keyScope/);
    expect(() => app.post('/no-money', { config: { keyScope: 'payouts' } }, async () => ({}))).toThrow(/movesMoney/);
    await app.close();
  });
});

describe('every key scope against every route', () => {
  for (const scope of ['read', 'payments', 'payouts', 'all'] as const) {
    it(`lets a ${scope} key call exactly its routes; the others are 403 KEY_SCOPE`, async () => {
      const shop = await server.createMerchant({ keyScope: scope });
      for (const [path, route] of Object.entries(ROUTES)) {
        // An empty body: an allowed route gets as far as validation (400) or answers, a refused one never gets there.
        const answer = await shop.client.request(path.slice(1), {});
        if (ALLOWED[scope].includes(route.keyScope)) {
          expect({ path, message: answer.message }).not.toEqual({ path, message: 'KEY_SCOPE' });
          expect(answer.status, path).not.toBe(403);
        } else {
          expect({ path, status: answer.status, message: answer.message }).toEqual({ path, status: 403, message: 'KEY_SCOPE' });
        }
      }
    });
  }
});

describe('scoped keys doing real work', () => {
  it('a payments key takes and refunds payments but cannot pay out, and nothing is reserved by the refused payout', async () => {
    const shop = await server.createMerchant();
    await fund(server, shop.id, 'INR', 50_000_00n);
    const payments = await scopedClient(shop, 'payments');
    const created = await payments.paymentInitiate(initiateBody('INR', 'NATIVE'));
    expect(created.status).toBe(200);
    const paid = await paidPayment(shop, 'INR', 'NATIVE', { amount: 1000 });
    const before = (await payments.balance({ currency: 'INR' })).data;
    const payout = await payments.payoutInitiate(payoutBody('INR', 'BANK'));
    expect([payout.status, payout.message]).toEqual([403, 'KEY_SCOPE']);
    expect(await rowsOf('payouts', shop.id)).toBe(0);
    expect(settlementBlind((await payments.balance({ currency: 'INR' })).data)).toEqual(settlementBlind(before));
    expect((await payments.paymentRefund({ transactionRef: paid })).status).toBe(200);
  });

  it('a payouts key pays out but cannot take or refund payments', async () => {
    const shop = await server.createMerchant();
    await fund(server, shop.id, 'INR', 50_000_00n);
    const paid = await paidPayment(shop, 'INR', 'NATIVE', { amount: 1000 });
    const payouts = await scopedClient(shop, 'payouts');
    const paymentsBefore = await rowsOf('payments', shop.id);
    const refused = await payouts.paymentInitiate(initiateBody('INR', 'NATIVE'));
    expect([refused.status, refused.message]).toEqual([403, 'KEY_SCOPE']);
    expect(await rowsOf('payments', shop.id)).toBe(paymentsBefore);
    expect((await payouts.paymentRefund({ transactionRef: paid })).message).toBe('KEY_SCOPE');
    expect((await payouts.paymentStatus({ transactionRef: paid })).data.status).toBe('Success');
    const payout = await payouts.payoutInitiate(payoutBody('INR', 'BANK'));
    expect(payout.status).toBe(200);
    expect((await payouts.payoutStatus({ transactionRef: payout.data.transactionRef })).status).toBe(200);
  });

  it('a read key reads everything and changes nothing', async () => {
    const shop = await server.createMerchant();
    const paid = await paidPayment(shop, 'INR', 'NATIVE', { amount: 1000 });
    const read = await scopedClient(shop, 'read');
    expect((await read.paymentStatus({ transactionRef: paid })).status).toBe(200);
    expect((await read.paymentMethods({ currency: 'INR' })).status).toBe(200);
    expect((await read.balance({ currency: 'INR' })).status).toBe(200);
    expect((await read.usdtRate({ currency: 'INR' })).status).toBe(200);
    expect((await read.bankCodes({ currency: 'INR' })).status).toBe(200);
    const events = await read.webhookEvents();
    expect(events.status).toBe(200);
    for (const answer of [await read.paymentRefund({ transactionRef: paid }), await read.webhookResend('evt_0000000000000000000000000'), await read.sandboxCompletePayment({ transactionRef: paid } as never)]) {
      expect([answer.status, answer.message]).toEqual([403, 'KEY_SCOPE']);
    }
  });
});

describe('operator view of key scopes', () => {
  it('sets the scope when a key is added, shows it in the key list, and refuses an unknown scope', async () => {
    const shop = await server.createMerchant();
    await scopedClient(shop, 'payouts');
    const keys = (await server.admin('GET', `/merchants/${shop.id}/keys`)).body.data as { scope: string }[];
    expect(keys.map((k) => k.scope)).toEqual(['all', 'payouts']);
    const bad = await server.admin('POST', `/merchants/${shop.id}/keys`, { type: 'HMAC-SHA256', scope: 'admin' });
    expect([bad.status, bad.body.message]).toEqual([400, 'VALIDATION_FAILED']);
    const created = await server.admin('POST', '/merchants', { name: 'Reader', keyType: 'HMAC-SHA256', keyScope: 'read' });
    expect(created.body.data.key.scope).toBe('read');
  });

  it('adds a scoped key from the CLI and lists the scope', async () => {
    const shop = await server.createMerchant();
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    const run = (name: string, words: string[]) => CLI_COMMANDS.find((c) => c.name === name)!.run(parseArgs(words), server.services, io);
    expect(await run('key add', ['--merchant', shop.id, '--key-type', 'hmac', '--scope', 'read', '--json'])).toBe(0);
    const issued = JSON.parse(lines.pop()!);
    expect(issued.scope).toBe('read');
    await expect(run('key add', ['--merchant', shop.id, '--scope', 'root'])).rejects.toThrow(/--scope/);
    expect(await run('key list', ['--merchant', shop.id])).toBe(0);
    expect(lines.find((line) => line.startsWith(issued.keyId))).toMatch(/\bread\b/);
    const reader = new PaymentClient({ baseUrl: server.baseUrl, merchantId: shop.id, key: { type: 'HMAC-SHA256', secret: issued.secret }, clock: () => server.clock.nowMs() / 1000 });
    expect((await reader.paymentInitiate(initiateBody('INR', 'NATIVE'))).message).toBe('KEY_SCOPE');
  });
});

describe('migration 0011_ip_allow_lists_key_scopes', () => {
  it('gives the keys that existed before it the scope all, and their merchants no allow-list', async () => {
    const { store, location } = await openStoreBefore('0011_ip_allow_lists_key_scopes');
    try {
      const db = store.db as any;
      await db
        .insertInto('merchants')
        .values({ id: 'mch_old', name: 'Old', status: 'active', mode: 'sandbox', rate_limit_per_second: 10n, payment_webhook_url: null, payout_webhook_url: null, webhook_secret_enc: 'x', created_at_ms: 1n, updated_at_ms: 1n })
        .execute();
      await db
        .insertInto('api_keys')
        .values({ id: 'key_old', merchant_id: 'mch_old', type: 'HMAC-SHA256', public_key_pem: null, secret_enc: 'x', label: null, status: 'active', created_at_ms: 1n, revoked_at_ms: null })
        .execute();
      await migrate(store.db, MIGRATIONS, location.databaseSchema);
      expect(await db.selectFrom('api_keys').select('scope').where('id', '=', 'key_old').executeTakeFirst()).toEqual({ scope: 'all' });
      expect(await db.selectFrom('merchants').select(['ip_allow_list', 'ip_allow_scope']).where('id', '=', 'mch_old').executeTakeFirst()).toEqual({
        ip_allow_list: null,
        ip_allow_scope: 'money',
      });
    } finally {
      await store.close();
      await location.drop();
    }
  });
});
