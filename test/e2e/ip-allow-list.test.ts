// A merchant's IP allow-list end to end: the operator sets it (admin API and CLI, audited, malformed
// ranges refused by name), payouts and refunds from other addresses get 403 IP_NOT_ALLOWED before
// anything is reserved, scope `all` guards every call, the check follows the signature, and the client
// address is the socket's peer (IPv4, IPv6 over ::1, IPv4-mapped on a dual-stack listener) unless
// TRUSTED_PROXIES makes the right-most untrusted X-Forwarded-For address the client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { CLI_COMMANDS } from '../../src/cli/all-commands.js';
import { parseArgs } from '../../src/cli/args.js';
import { cidrMatcher, parseCidr, parseCidrList } from '../../src/core/cidr.js';
import { PaymentClient } from '../../sdk/src/index.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { fund, paidPayment } from '../payments/api-helpers.js';
import { payoutBody } from '../payouts/helpers.js';

const SOMEWHERE_ELSE = ['203.0.113.0/24', '2001:db8::/32'];

async function setList(server: TestServer, merchantId: string, cidrs: string[], scope?: 'money' | 'all') {
  return server.admin('PUT', `/merchants/${merchantId}/ip-allow-list`, scope === undefined ? { cidrs } : { cidrs, scope });
}

async function payoutRows(server: TestServer, merchantId: string): Promise<number> {
  const rows = await server.services.store.db.selectFrom('payouts').select('transaction_ref').where('merchant_id', '=', merchantId).execute();
  return rows.length;
}

/**
 * The merchant's INR available + pending, in paise: what a reservation would have lowered. Not available
 * alone: the settlement job may move the paid payment's money from pending to available meanwhile.
 */
async function unreserved(merchant: TestMerchant): Promise<number> {
  const answer = await merchant.client.balance({ currency: 'INR' });
  expect(answer.status).toBe(200);
  return Math.round(answer.data.available * 100) + Math.round(answer.data.pending * 100);
}

/** Sends a signed request with extra headers (X-Forwarded-For), as a client behind a proxy would arrive. */
async function signedWith(server: TestServer, merchant: TestMerchant, path: string, body: object, headers: Record<string, string>) {
  const request = merchant.client.buildSignedRequest(body);
  const response = await fetch(`${server.baseUrl}/v1/api/${path}`, { method: 'POST', headers: { ...request.headers, ...headers }, body: request.body });
  return { status: response.status, message: (await response.json()).message as string };
}

describe('CIDR parsing', () => {
  it('accepts addresses and ranges of both families and normalises them', () => {
    expect(parseCidr('203.0.113.7')).toEqual({ family: 'ipv4', address: '203.0.113.7', prefix: 32 });
    expect(parseCidr(' 10.0.0.0/8 ')).toEqual({ family: 'ipv4', address: '10.0.0.0', prefix: 8 });
    expect(parseCidr('2001:DB8::/32')).toEqual({ family: 'ipv6', address: '2001:db8::', prefix: 32 });
    expect(parseCidr('::1')).toEqual({ family: 'ipv6', address: '::1', prefix: 128 });
    expect(parseCidr('::ffff:192.0.2.0/120')).toEqual({ family: 'ipv4', address: '192.0.2.0', prefix: 24 });
    expect(parseCidr('::ffff:192.0.2.9')).toEqual({ family: 'ipv4', address: '192.0.2.9', prefix: 32 });
  });

  it('refuses what is not exactly an address range', () => {
    for (const bad of ['', '10.0.0.0/33', '2001:db8::/129', '10.0.0/8', '010.0.0.1', '10.0.0.0/8/1', '10.0.0.0/-1', '10.0.0.0/ 8', 'fe80::1%eth0', 'localhost', '1.2.3.4/08x', '::/1000']) {
      expect(parseCidr(bad), bad).toBeNull();
    }
    expect(parseCidrList(['10.0.0.1', 'nope', '10.0.0.1', '::1/999']).problems).toEqual([
      { index: 1, value: 'nope' },
      { index: 3, value: '::1/999' },
    ]);
  });

  it('matches IPv4, IPv6 and IPv4-mapped IPv6 addresses', () => {
    const allows = cidrMatcher(parseCidrList(['198.51.100.0/24', '2001:db8:1::/48']).cidrs);
    expect(allows('198.51.100.200')).toBe(true);
    expect(allows('::ffff:198.51.100.200')).toBe(true);
    expect(allows('198.51.101.1')).toBe(false);
    expect(allows('2001:db8:1:ffff::1')).toBe(true);
    expect(allows('2001:db8:2::1')).toBe(false);
    expect(allows('not an address')).toBe(false);
  });
});

describe('TRUSTED_PROXIES', () => {
  it('is normalised, and a malformed entry stops the start', () => {
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, ::1' }).http.trustedProxies).toEqual(['10.0.0.0/8', '::1/128']);
    expect(loadConfig({}).http.trustedProxies).toEqual([]);
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8,10.0.0.300' })).toThrow(/TRUSTED_PROXIES.*10\.0\.0\.300/);
  });
});

describe('IP allow-list over IPv4', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    expect((await server.admin('PUT', '/rates/INR', { reference: '88.25', depositSpreadBps: 50, withdrawSpreadBps: 50 })).status).toBe(200);
  });
  afterAll(async () => server.close());

  it('is set, read, normalised, audited and cleared through the admin API', async () => {
    const shop = await server.createMerchant();
    expect((await server.admin('GET', `/merchants/${shop.id}/ip-allow-list`)).body.data).toEqual({ cidrs: [], scope: 'money' });
    const set = await setList(server, shop.id, ['203.0.113.7', '2001:DB8::/32', '203.0.113.7', '::ffff:198.51.100.0/120'], 'all');
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ cidrs: ['203.0.113.7/32', '2001:db8::/32', '198.51.100.0/24'], scope: 'all' });
    expect((await server.admin('GET', `/merchants/${shop.id}/ip-allow-list`)).body.data).toEqual(set.body.data);

    const cleared = await setList(server, shop.id, []);
    expect(cleared.body.data).toEqual({ cidrs: [], scope: 'money' });
    const audit = await server.services.store.db
      .selectFrom('audit_log')
      .select(['action', 'detail_json'])
      .where('merchant_id', '=', shop.id)
      .where('action', 'like', 'merchant.ip_allow_list%')
      .orderBy('created_at_ms')
      .execute();
    expect(audit.map((row) => [row.action, JSON.parse(row.detail_json)])).toEqual([
      ['merchant.ip_allow_list', { cidrs: ['203.0.113.7/32', '2001:db8::/32', '198.51.100.0/24'], scope: 'all' }],
      ['merchant.ip_allow_list_clear', { cidrs: [], scope: 'money' }],
    ]);
  });

  it('refuses malformed ranges with 400 naming each, and changes nothing', async () => {
    const shop = await server.createMerchant();
    await setList(server, shop.id, ['203.0.113.0/24']);
    const refused = await setList(server, shop.id, ['10.0.0.1', '10.0.0.0/33', 'fe80::1%eth0']);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('VALIDATION_FAILED');
    expect(refused.body.data.errors.map((e: { field: string }) => e.field)).toEqual(['cidrs[1]', 'cidrs[2]']);
    expect((await server.admin('PUT', `/merchants/${shop.id}/ip-allow-list`, { cidrs: ['10.0.0.1'], scope: 'some' })).status).toBe(400);
    expect((await server.admin('PUT', `/merchants/${shop.id}/ip-allow-list`, { scope: 'all' })).status).toBe(400);
    expect((await server.admin('PUT', `/merchants/${shop.id}/ip-allow-list`, { cidrs: Array.from({ length: 101 }, (_, i) => `10.0.0.${i}`) })).status).toBe(400);
    expect((await server.admin('GET', `/merchants/${shop.id}/ip-allow-list`)).body.data).toEqual({ cidrs: ['203.0.113.0/24'], scope: 'money' });
    expect((await setList(server, 'mch_nobody', ['10.0.0.1'])).status).toBe(404);
    expect((await server.admin('GET', '/merchants/mch_nobody/ip-allow-list')).status).toBe(404);
  });

  it('with scope money refuses payouts and refunds from elsewhere before reserving anything, and lets the rest through', async () => {
    const shop = await server.createMerchant();
    const paid = await paidPayment(shop, 'INR', 'NATIVE', { amount: 1000 });
    await fund(server, shop.id, 'INR', 50_000_00n);
    const before = await unreserved(shop);
    await setList(server, shop.id, SOMEWHERE_ELSE);

    const payout = await shop.client.payoutInitiate(payoutBody('INR', 'BANK'));
    expect([payout.status, payout.message]).toEqual([403, 'IP_NOT_ALLOWED']);
    const refund = await shop.client.paymentRefund({ transactionRef: paid });
    expect([refund.status, refund.message]).toEqual([403, 'IP_NOT_ALLOWED']);
    expect(await payoutRows(server, shop.id)).toBe(0);
    expect(await unreserved(shop)).toBe(before);
    expect((await shop.client.paymentStatus({ transactionRef: paid })).data.status).toBe('Success');

    // Calls that move no money are not guarded by a `money` list.
    expect((await shop.client.paymentInitiate({ merchantRef: `o-${Date.now()}`, method: 'NATIVE', currency: 'INR', amount: 100, name: 'Asha Rao', email: 'a@example.com', phone: '919812345678', redirectUrl: 'https://shop.example/back' })).status).toBe(200);

    // From an allowed address (the test client is 127.0.0.1) the same calls go through.
    await setList(server, shop.id, [...SOMEWHERE_ELSE, '127.0.0.0/8']);
    expect((await shop.client.payoutInitiate(payoutBody('INR', 'BANK'))).status).toBe(200);
    expect((await shop.client.paymentRefund({ transactionRef: paid })).status).toBe(200);
  });

  it('with scope all refuses every call from elsewhere', async () => {
    const shop = await server.createMerchant();
    await setList(server, shop.id, SOMEWHERE_ELSE, 'all');
    for (const answer of [await shop.client.balance({ currency: 'INR' }), await shop.client.bankCodes({ currency: 'INR' }), await shop.client.webhookEvents()]) {
      expect([answer.status, answer.message]).toEqual([403, 'IP_NOT_ALLOWED']);
    }
    await setList(server, shop.id, []);
    expect((await shop.client.balance({ currency: 'INR' })).status).toBe(200);
  });

  it('is checked only after the signature, so an unsigned caller learns nothing of it', async () => {
    const shop = await server.createMerchant();
    await setList(server, shop.id, SOMEWHERE_ELSE, 'all');
    const forged = new PaymentClient({ baseUrl: server.baseUrl, merchantId: shop.id, key: { type: 'HMAC-SHA256', secret: 'hsk_not_the_secret' }, clock: () => server.clock.nowMs() / 1000 });
    const answer = await forged.payoutInitiate(payoutBody('INR', 'BANK'));
    expect([answer.status, answer.message]).toEqual([401, 'INVALID_SIGNATURE']);
  });

  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    const shop = await server.createMerchant();
    await setList(server, shop.id, ['198.51.100.0/24'], 'all');
    const answer = await signedWith(server, shop, 'account/balance', { currency: 'INR' }, { 'x-forwarded-for': '198.51.100.7' });
    expect([answer.status, answer.message]).toEqual([403, 'IP_NOT_ALLOWED']);
  });

  it('is set and cleared by the CLI, which refuses malformed ranges', async () => {
    const shop = await server.createMerchant();
    const command = CLI_COMMANDS.find((c) => c.name === 'merchant ip-allow-list')!;
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    const run = (words: string[]) => command.run(parseArgs(words), server.services, io);
    expect(await run(['--merchant', shop.id, '--cidrs', '203.0.113.0/24,::1', '--scope', 'all'])).toBe(0);
    expect(JSON.parse(lines.join('\n'))).toEqual({ cidrs: ['203.0.113.0/24', '::1/128'], scope: 'all' });
    expect((await shop.client.balance({ currency: 'INR' })).message).toBe('IP_NOT_ALLOWED');
    await expect(run(['--merchant', shop.id, '--cidrs', '203.0.113.0/24,300.1.1.1'])).rejects.toThrow(/300\.1\.1\.1/);
    await expect(run(['--merchant', shop.id, '--cidrs', '203.0.113.0/24', '--scope', 'some'])).rejects.toThrow(/--scope/);
    expect(await run(['--merchant', shop.id, '--cidrs', 'none'])).toBe(0);
    expect((await shop.client.balance({ currency: 'INR' })).status).toBe(200);
  });
});

describe('IP allow-list behind trusted proxies', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TRUSTED_PROXIES: '127.0.0.1,10.0.0.0/8' });
  });
  afterAll(async () => server.close());

  it('takes the right-most untrusted X-Forwarded-For address as the client', async () => {
    const shop = await server.createMerchant();
    await setList(server, shop.id, ['198.51.100.0/24'], 'all');
    const balance = (xff: string) => signedWith(server, shop, 'account/balance', { currency: 'INR' }, { 'x-forwarded-for': xff });
    expect((await balance('198.51.100.7')).status).toBe(200);
    // Proxies of our own (10/8) between the client and us are skipped.
    expect((await balance('198.51.100.7, 10.1.2.3, 10.0.0.9')).status).toBe(200);
    // A client cannot claim an allowed address by sending the header itself: the proxy appends the real one.
    expect(await balance('198.51.100.7, 203.0.113.9')).toEqual({ status: 403, message: 'IP_NOT_ALLOWED' });
    expect(await balance('203.0.113.9')).toEqual({ status: 403, message: 'IP_NOT_ALLOWED' });
    // Without the header the peer itself (a trusted proxy, 127.0.0.1) is the client.
    expect((await shop.client.balance({ currency: 'INR' })).message).toBe('IP_NOT_ALLOWED');
  });
});

describe('IP allow-list over IPv6', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { host: '::1' });
  });
  afterAll(async () => server.close());

  it('matches an IPv6 client against IPv6 ranges only', async () => {
    const shop = await server.createMerchant();
    expect(server.baseUrl).toMatch(/^http:\/\/\[::1\]:/);
    await setList(server, shop.id, ['127.0.0.1', '2001:db8::/32'], 'all');
    expect((await shop.client.balance({ currency: 'INR' })).message).toBe('IP_NOT_ALLOWED');
    await setList(server, shop.id, ['::1'], 'all');
    expect((await shop.client.balance({ currency: 'INR' })).status).toBe(200);
    await setList(server, shop.id, ['::/0'], 'all');
    expect((await shop.client.balance({ currency: 'INR' })).status).toBe(200);
  });
});

describe('IP allow-list on a dual-stack listener', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { host: '::' });
  });
  afterAll(async () => server.close());

  it('matches an IPv4 client, seen as an IPv4-mapped IPv6 address, against IPv4 ranges', async () => {
    const shop = await server.createMerchant();
    const port = new URL(server.baseUrl).port;
    const client = new PaymentClient({ baseUrl: `http://127.0.0.1:${port}`, merchantId: shop.id, key: { type: 'HMAC-SHA256', secret: shop.secret! }, clock: () => server.clock.nowMs() / 1000 });
    await setList(server, shop.id, ['127.0.0.1'], 'all');
    expect((await client.balance({ currency: 'INR' })).status).toBe(200);
    await setList(server, shop.id, ['::ffff:127.0.0.0/104'], 'all');
    expect((await client.balance({ currency: 'INR' })).status).toBe(200);
    await setList(server, shop.id, ['10.0.0.0/8'], 'all');
    const refused = await client.balance({ currency: 'INR' });
    expect([refused.status, refused.message]).toEqual([403, 'IP_NOT_ALLOWED']);
  });
});
