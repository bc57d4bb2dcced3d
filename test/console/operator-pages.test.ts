// The operator's pages over HTTP with real data: each renders what the services hold (escaped), the
// admin's forms validate field by field with the API's schemas and change the books through the same
// services, dangerous actions ask first, and support sees no buttons and gets 403 on every action.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/audit/audit-log.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ConsoleClient, createAndEnrol, csrfOf } from './console-client.js';
import { seedConsoleData, XSS_NAME, type ConsoleData } from './fixtures.js';

describe('operator pages', () => {
  let server: TestServer;
  let data: ConsoleData;
  const admin = () => adminClient;
  let adminClient: ConsoleClient;
  let supportClient: ConsoleClient;

  beforeAll(async () => {
    server = await startTestServer({}, { worker: false });
    data = await seedConsoleData(server);
    adminClient = new ConsoleClient(server);
    await createAndEnrol(server, adminClient, { email: 'admin@ops.example', kind: 'operator', role: 'admin' });
    supportClient = new ConsoleClient(server);
    await createAndEnrol(server, supportClient, { email: 'support@ops.example', kind: 'operator', role: 'support' });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('renders every operator page with the real data, and a merchant name with markup only as text', async () => {
    const pages: Array<[string, RegExp[]]> = [
      ['/console/overview', [/Stuck payouts<\/div><div class="value">1</, /Open held money<\/div><div class="value">1</, /Active merchants<\/div><div class="value">3</]],
      ['/console/merchants', [/Asha Textiles/, /Lagos Goods Ltd/]],
      [`/console/merchants/${data.shopId}`, [/₹2,32,495\.00/, /₹50,000\.00/, /₹10,000\.00/, /<svg[^>]+role="img"/, /1\.80% \+ <span class="num">₹2\.00/]],
      [`/console/merchants/${data.liveId}`, [/razorpay/]],
      ['/console/rates', [/88\.5/]],
      ['/console/ledger?run=1', [/The ledger holds every invariant/]],
      ['/console/payouts/stuck', [new RegExp(data.stuckRef), /₹7,500\.00/]],
      ['/console/held', [new RegExp(data.heldRef), /₦12,500\.00/, /different amount/]],
      [`/console/held/${data.heldRef}`, [/₦12,000\.00/]],
      ['/console/webhooks', [new RegExp(data.failingUrl.replace(/[/.]/g, '\\$&'))]],
      ['/console/audit', [/credit\.grant|ledger\.|merchant\.create/]],
      ['/console/users', [/admin@ops\.example/]],
      ['/console/account', [/Sign out everywhere/]],
    ];
    for (const [path, expected] of pages) {
      const page = await admin().get(path);
      expect(page.status, path).toBe(200);
      for (const pattern of expected) expect(page.text, `${path} shows ${pattern}`).toMatch(pattern);
      expect(page.text).not.toContain('<script>alert(1)');
      expect(page.text).not.toContain('<img src=x');
    }
    const list = await admin().get('/console/merchants');
    expect(list.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src&#61;x onerror&#61;alert(2)&gt;');
    const detail = await admin().get(`/console/merchants/${data.xssId}`);
    expect(detail.text).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(XSS_NAME).toContain('<script>');
  });

  it('validates a money form field by field with the API schema, then posts through the ledger with the console actor and address', async () => {
    const path = `/console/merchants/${data.shopId}`;
    const bad = await admin().submit(path, `${path}/credit`, { currency: 'INR', action: 'grant', amount: '12.345', reason: '' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="f-reason-error"/);
    const before = await server.services.ledger.balances(data.shopId, 'INR');
    const good = await admin().submit(path, `${path}/credit`, { currency: 'INR', action: 'grant', amount: '1000.50', reason: 'seasonal limit' });
    expect(good.status).toBe(303);
    const after = await server.services.ledger.balances(data.shopId, 'INR');
    expect(after.credit - before.credit).toBe(1000_50n);
    const audit = await listAudit(server.services.store.db, { merchantId: data.shopId, actor: 'console:admin@ops.example', limit: 10 });
    expect(audit.items[0]).toMatchObject({ actor: 'console:admin@ops.example' });
    expect(audit.items[0]!.address).toMatch(/127\.0\.0\.1/);
    // A refusal of the ledger (more than there is) comes back on the form, and nothing moves.
    const tooMuch = await admin().submit(path, `${path}/security`, { currency: 'INR', action: 'release', amount: '999999', reason: 'oops' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.text).toMatch(/role="alert"/);
    expect((await server.services.ledger.balances(data.shopId, 'INR')).security).toBe(after.security);
  });

  it('sets fees, limits, rates and a route through the same services', async () => {
    const path = `/console/merchants/${data.shopId}`;
    expect((await admin().submit(path, `${path}/fees`, { currency: 'INR', method: 'NATIVE', direction: 'payin', bps: '150', fixed: '1.50' })).status).toBe(303);
    expect(await server.services.fees.ruleFor(data.shopId, 'INR', 'NATIVE', 'payin')).toEqual({ bps: 150n, fixedMinor: 1_50n });
    const badLimits = await admin().submit(path, `${path}/limits`, { currency: 'INR', method: 'NATIVE', direction: 'payin', min: 'abc', max: '' });
    expect(badLimits.status).toBe(400);
    expect(badLimits.text).toMatch(/id="f-min-error"/);
    expect(badLimits.text).toMatch(/id="f-max-error"/);
    expect((await admin().submit(path, `${path}/limits`, { currency: 'INR', method: 'NATIVE', direction: 'payin', min: '10', max: '200000' })).status).toBe(303);
    expect((await admin().submit('/console/rates', '/console/rates', { currency: 'EGP', reference: '48.75', depositSpreadBps: '40', withdrawSpreadBps: '60' })).status).toBe(303);
    expect((await server.services.rates.get('EGP')).referenceMicros).toBe(48_750_000n);
    const badRate = await admin().submit('/console/rates', '/console/rates', { currency: 'EGP', reference: '-1', depositSpreadBps: '99999', withdrawSpreadBps: '1' });
    expect(badRate.status).toBe(400);
    expect(badRate.text).toMatch(/id="f-depositSpreadBps-error"/);
    const live = `/console/merchants/${data.liveId}`;
    const badRoute = await admin().submit(live, `${live}/routes`, { currency: 'INR', direction: 'payin', method: 'NATIVE', connectors: 'nosuchbank' });
    expect(badRoute.status).toBe(400);
    expect(badRoute.text).toMatch(/nosuchbank is not a connector/);
    expect((await admin().submit(live, `${live}/routes`, { currency: 'INR', direction: 'payin', method: 'NATIVE', connectors: '' })).status).toBe(303);
    expect(await server.services.connectorSettings.listRoutes(data.liveId)).toEqual([]);
  });

  it('creates a merchant and shows its secrets once', async () => {
    const bad = await admin().submit('/console/merchants/new', '/console/merchants/new', { name: '', mode: 'sandbox', keyType: 'HMAC-SHA256', paymentWebhookUrl: 'ftp://x' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="f-name-error"/);
    const made = await admin().submit('/console/merchants/new', '/console/merchants/new', { name: 'Surabaya Batik', mode: 'sandbox', keyType: 'HMAC-SHA256' });
    expect(made.status).toBe(200);
    expect(made.text).toMatch(/whsec_/);
    expect(made.text).toMatch(/HMAC secret/);
  });

  it('asks before disabling a merchant, then disables it', async () => {
    const path = `/console/merchants/${data.xssId}`;
    const ask = await admin().submit(path, `${path}/disable`, {});
    expect(ask.status).toBe(200);
    expect(ask.text).toMatch(/name="confirmed" value="yes"/);
    expect((await server.services.merchants.get(data.xssId)).status).toBe('active');
    const yes = await admin().request('POST', `${path}/disable`, { _csrf: csrfOf(ask.text), confirmed: 'yes' });
    expect(yes.status).toBe(303);
    expect((await server.services.merchants.get(data.xssId)).status).toBe('disabled');
    expect((await admin().get(yes.location!)).text).toMatch(/is disabled/);
    await admin().submit(path, `${path}/enable`, { confirmed: 'yes' });
    expect((await server.services.merchants.get(data.xssId)).status).toBe('active');
  });

  it('resolves held money after the confirm step', async () => {
    const path = `/console/held/${data.heldRef}`;
    const ask = await admin().submit(path, `${path}/resolve`, { reason: 'merchant shipped the order', resolution: 'credit' });
    expect(ask.text).toMatch(/Credit the merchant\?/);
    const done = await admin().request('POST', `${path}/resolve`, { _csrf: csrfOf(ask.text), reason: 'merchant shipped the order', resolution: 'credit', confirmed: 'yes' });
    expect(done.status).toBe(303);
    expect((await server.services.payments.held.get(data.heldRef)).status).toBe('credited');
    expect((await server.services.ledger.verify())).toEqual([]);
  });

  it('gives support every page read-only: no forms or buttons, and 403 on each action', async () => {
    const shop = `/console/merchants/${data.shopId}`;
    for (const path of ['/console/merchants', shop, '/console/rates', '/console/payouts/stuck', '/console/held', '/console/webhooks', '/console/users']) {
      const page = await supportClient.get(path);
      expect(page.status, path).toBe(200);
      if (path.includes(data.shopId)) console.log([...page.text.matchAll(/class="value">(.*?)<\/div>/g)].map((m) => m[1]));
      // Only the sign-out forms: no action of the page.
      const actions = [...page.text.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]);
      expect(actions.filter((a) => a !== '/console/logout'), path).toEqual([]);
    }
    expect((await supportClient.get('/console/merchants/new')).status).toBe(403);
    const token = csrfOf((await supportClient.get(shop)).text);
    for (const [path, form] of [
      [`${shop}/credit`, { currency: 'INR', action: 'grant', amount: '1', reason: 'x' }],
      [`${shop}/disable`, { confirmed: 'yes' }],
      [`${shop}/fees`, { currency: 'INR', method: 'NATIVE', direction: 'payin', bps: '1', fixed: '0' }],
      ['/console/rates', { currency: 'INR', reference: '1', depositSpreadBps: '1', withdrawSpreadBps: '1' }],
      ['/console/merchants/new', { name: 'nope' }],
      [`/console/payouts/${data.stuckRef}/query`, {}],
      ['/console/users/invite', { email: 'a@b.example', role: 'admin' }],
    ] as const) {
      expect((await supportClient.request('POST', path, { _csrf: token, ...form })).status, path).toBe(403);
    }
    expect((await server.services.merchants.get(data.shopId)).status).toBe('active');
  });

  it('asks the upstream about a stuck payout', async () => {
    const page = await admin().get('/console/payouts/stuck');
    const answer = await admin().request('POST', `/console/payouts/${data.stuckRef}/query`, { _csrf: csrfOf(page.text) });
    expect(answer.status).toBe(303);
    const after = await admin().get(answer.location!);
    expect(after.text).toMatch(new RegExp(`Payout ${data.stuckRef} is (Processing|Success)\\.`));
  });

  it('filters the audit log and refuses a malformed time field by field', async () => {
    const filtered = await admin().get(`/console/audit?actor=${encodeURIComponent('console:admin@ops.example')}`);
    expect(filtered.status).toBe(200);
    expect(filtered.text).toMatch(/console:admin@ops\.example/);
    expect(filtered.text).not.toMatch(/<td data-label="Who">test<\/td>/);
    // The operator API records the caller's address too.
    expect((await server.admin('POST', `/merchants/${data.liveId}/disable`)).status).toBe(200);
    const apiRow = (await server.admin('GET', `/audit?merchantId=${data.liveId}&action=merchant.disable`)).body.data.items[0];
    expect(apiRow).toMatchObject({ actor: 'admin', address: expect.stringMatching(/127\.0\.0\.1/) });
    const bad = await admin().get('/console/audit?since=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="f-since-error"/);
  });
});
