// The merchant pages over plain HTTP (no browser), both stores: sign-in with password and TOTP, every
// page with real data, the refund and the key and secret rotations done from the console, field-by-
// field answers to bad input, markup in payer data shown as text, and the access rules: a viewer's
// and a developer's refused POSTs change nothing, another merchant's records are 404, a POST without
// the CSRF token is 403.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/audit/audit-log.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { codeNow, ConsoleClient, createAndEnrol, csrfOf, PASSWORD } from './console-client.js';
import { merchantUser, seedMerchantData, XSS_EMAIL, XSS_NAME, type MerchantData } from './merchant-fixtures.js';

const M = '/console/merchant';
/** An attribute or text value as the browser reads it back. */
const unescape = (text: string): string => text.replace(/&#61;/g, '=').replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&quot;/g, '"');

describe('merchant pages', () => {
  let server: TestServer;
  let data: MerchantData;
  const owner = () => new ConsoleClient(server);
  let ownerClient: ConsoleClient;
  let developer: ConsoleClient;
  let viewer: ConsoleClient;
  let stranger: ConsoleClient;

  const paymentStatus = async (ref: string) =>
    (await server.services.store.db.selectFrom('payments').select('status').where('transaction_ref', '=', ref).executeTakeFirstOrThrow()).status;

  beforeAll(async () => {
    server = await startTestServer({}, { worker: false });
    data = await seedMerchantData(server);
    const enrolling = owner();
    const secret = await merchantUser(server, enrolling, 'owner@shop.example', data.shop.id, 'owner', true);
    // A fresh sign-in with the password and the app's current code.
    ownerClient = owner();
    expect((await ownerClient.login('owner@shop.example', PASSWORD, '')).status).toBe(401);
    expect((await ownerClient.login('owner@shop.example', PASSWORD, codeNow(server, secret))).location).toBe('/console');
    developer = new ConsoleClient(server);
    await merchantUser(server, developer, 'dev@shop.example', data.shop.id, 'developer');
    viewer = new ConsoleClient(server);
    await merchantUser(server, viewer, 'viewer@shop.example', data.shop.id, 'viewer');
    stranger = new ConsoleClient(server);
    await merchantUser(server, stranger, 'owner@other.example', data.other.id, 'owner');
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('opens on the home page and renders every page with real data', async () => {
    const front = await ownerClient.get('/console');
    expect(front.location).toBe(`${M}/home`);
    const pages: Array<[string, string[]]> = [
      [`${M}/home`, ['₹', 'Volume per day, last 30 days', 'Success rate per method', 'NATIVE', 'EGP']],
      [`${M}/payments`, [data.paidRef, 'Asha Rao']],
      [`${M}/payments?status=Failed`, [data.failedRef]],
      [`${M}/payments?q=${data.paidRef}`, [data.paidRef]],
      [`${M}/payments/${data.paidRef}`, ['Timeline', 'Ledger postings', 'payment_credit', 'payment.succeeded', 'Refund this payment']],
      [`${M}/payouts`, [data.payoutRef]],
      [`${M}/payouts/${data.payoutRef}`, ['payout_reserve', 'Beneficiary']],
      [`${M}/statement`, ['Balance after', 'payment_credit']],
      [`${M}/webhooks`, ['payment.succeeded']],
      [`${M}/webhooks/${data.eventId}`, ['Attempts', 'Send again now']],
      [`${M}/developers`, ['API keys', 'Rotate webhook secret', 'BEGIN PUBLIC KEY']],
      [`${M}/team`, ['viewer@shop.example', 'Invite someone']],
      [`${M}/audit`, ['console.login']],
      ['/console/account', ['Sign out everywhere']],
    ];
    for (const [path, texts] of pages) {
      const page = await ownerClient.get(path);
      expect(page.status, path).toBe(200);
      for (const text of texts) expect(page.text, `${path} shows ${text}`).toContain(text);
    }
    // The other merchant's records never appear in the shop's lists.
    expect((await ownerClient.get(`${M}/payments`)).text).not.toContain(data.otherPaymentRef);
  });

  it('pages through the payments with a keyset cursor that keeps the filters', async () => {
    for (let i = 0; i < 26; i++) {
      const created = await data.shop.client.paymentInitiate({ merchantRef: `page-${i}`, method: 'BNI', currency: 'IDR', amount: 150000, name: 'Budi', email: 'budi@example.com', phone: '6281234567890', redirectUrl: 'https://shop.example.com/r' } as never);
      expect(created.ok).toBe(true);
    }
    const first = await ownerClient.get(`${M}/payments?currency=IDR`);
    const next = unescape(/href="([^"]+)" rel="next"/.exec(first.text)![1]!);
    expect(next).toContain('currency=IDR');
    const second = await ownerClient.get(next);
    expect(second.status).toBe(200);
    expect(second.text).toContain('page-0');
    expect(second.text).toContain('First page');
  });

  it('answers bad filters and forms field by field, with the API schemas', async () => {
    const bad = await ownerClient.get(`${M}/payments?from=yesterday&status=Nope&q=not%20a%20ref!`);
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="f-from-error"/);
    expect(bad.text).toMatch(/id="f-status-error"/);
    expect(bad.text).toMatch(/id="f-q-error"/);
    const range = await ownerClient.get(`${M}/statement?from=2026-02-01&to=2026-01-01`);
    expect(range.status).toBe(400);
    expect(range.text).toMatch(/id="f-to-error"/);
    const urls = await ownerClient.submit(`${M}/developers`, `${M}/developers/webhook-urls`, { paymentWebhookUrl: 'ftp://nowhere', payoutWebhookUrl: 'x' });
    expect(urls.status).toBe(400);
    expect(urls.text).toMatch(/id="f-paymentWebhookUrl-error"/);
    expect(urls.text).toMatch(/id="f-payoutWebhookUrl-error"/);
    const rsa = await ownerClient.submit(`${M}/developers`, `${M}/developers/keys/rsa`, { publicKeyPem: 'not a key', label: 'x', scope: 'everything' });
    expect(rsa.status).toBe(400);
    expect(rsa.text).toMatch(/id="f-scope-error"/);
    const rsa2 = await ownerClient.submit(`${M}/developers`, `${M}/developers/keys/rsa`, { publicKeyPem: 'not a key', scope: 'all' });
    expect(rsa2.text).toMatch(/id="f-publicKeyPem-error"/);
    const invite = await ownerClient.submit(`${M}/team`, `${M}/team/invite`, { email: 'nope', role: 'admin' });
    expect(invite.status).toBe(400);
    expect(invite.text).toMatch(/id="f-email-error"/);
    expect(invite.text).toMatch(/id="f-role-error"/);
  });

  it('shows markup in a payer name and email as text', async () => {
    for (const path of [`${M}/payments?q=${data.xssRef}`, `${M}/payments/${data.xssRef}`]) {
      const page = await ownerClient.get(path);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('<script>alert(1)');
      expect(page.text).not.toContain('<img src=x');
      expect(page.text).not.toContain('<img/src');
      expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
    expect(XSS_NAME).toContain('<script>');
    expect(XSS_EMAIL).toContain('onerror');
  });

  it('refunds a payment from the console after a confirm step, recorded in the audit log', async () => {
    const path = `${M}/payments/${data.paidRef}`;
    const ask = await ownerClient.submit(path, `${path}/refund`, {});
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Yes, refund');
    expect(await paymentStatus(data.paidRef)).toBe('Success');
    const done = await ownerClient.request('POST', `${path}/refund`, { _csrf: csrfOf(ask.text), confirmed: 'yes' });
    expect(done.status).toBe(303);
    expect(await paymentStatus(data.paidRef)).toBe('Refund');
    const after = await ownerClient.get(path);
    expect(after.text).toContain('Refund made.');
    expect(after.text).toContain('refund');
    expect(after.text).not.toContain('Refund this payment');
    const audit = await listAudit(server.services.store.db, { merchantId: data.shop.id, action: 'payment.refund' });
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]).toMatchObject({ actor: 'console:owner@shop.example', target: data.paidRef });
    // A payment the contract does not let refund: refused on its page, nothing changes.
    const failed = await ownerClient.request('POST', `${M}/payments/${data.failedRef}/refund`, { _csrf: csrfOf(after.text), confirmed: 'yes' });
    expect(failed.status).toBe(422);
    expect(failed.text).toMatch(/role="alert"/);
    expect(await paymentStatus(data.failedRef)).toBe('Failed');
  });

  it('creates an HMAC key shown once, revokes a key, and rotates the webhook secret from the console', async () => {
    const before = await server.services.merchants.listKeys(data.shop.id);
    const made = await developer.submit(`${M}/developers`, `${M}/developers/keys/hmac`, { label: 'console key', scope: 'read' });
    expect(made.status).toBe(200);
    const secret = unescape(/<code class="secret">(hsk_[^<]+)<\/code>/.exec(made.text)![1]!);
    expect((await developer.get(`${M}/developers`)).text).not.toContain(secret);
    const keys = await server.services.merchants.listKeys(data.shop.id);
    const added = keys.find((k) => !before.some((b) => b.id === k.id))!;
    expect(added).toMatchObject({ type: 'HMAC-SHA256', scope: 'read', label: 'console key', status: 'active' });

    // The merchant's own RSA key: only its public half is registered. Two keys are active now, the most allowed.
    const { publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const full = await developer.submit(`${M}/developers`, `${M}/developers/keys/rsa`, { publicKeyPem: pem, label: 'rsa', scope: 'payments' });
    expect(full.status).toBe(400);
    expect(full.text).toMatch(/role="alert"/);

    const revokePath = `${M}/developers/keys/${added.id}/revoke`;
    const ask = await ownerClient.submit(`${M}/developers`, revokePath, {});
    expect(ask.text).toContain('Yes, revoke');
    expect((await ownerClient.request('POST', revokePath, { _csrf: csrfOf(ask.text), confirmed: 'yes' })).status).toBe(303);
    expect((await server.services.merchants.listKeys(data.shop.id)).find((k) => k.id === added.id)!.status).toBe('revoked');
    const registered = await developer.submit(`${M}/developers`, `${M}/developers/keys/rsa`, { publicKeyPem: pem, label: 'rsa', scope: 'payments' });
    expect(registered.status).toBe(200);
    expect(registered.text).toContain('Public key registered');
    expect(registered.text).not.toContain('PRIVATE KEY');
    const rsaKey = (await server.services.merchants.listKeys(data.shop.id)).find((k) => k.type === 'RSA-SHA512' && k.status === 'active')!;
    expect(rsaKey).toMatchObject({ scope: 'payments', label: 'rsa' });
    expect(rsaKey.publicKeyPem!.replace(/\s+/g, '')).toBe(pem.replace(/\s+/g, ''));

    const oldSecret = await server.services.merchants.webhookSecret(data.shop.id);
    const confirm = await ownerClient.submit(`${M}/developers`, `${M}/developers/webhook-secret`, {});
    expect(confirm.text).toContain('Yes, rotate');
    const rotated = await ownerClient.request('POST', `${M}/developers/webhook-secret`, { _csrf: csrfOf(confirm.text), confirmed: 'yes' });
    expect(rotated.status).toBe(200);
    const shown = unescape(/<code class="secret">(whsec_[^<]+)<\/code>/.exec(rotated.text)![1]!);
    const now = await server.services.merchants.webhookSecret(data.shop.id);
    expect(now).toBe(shown);
    expect(now).not.toBe(oldSecret);

    const saved = await developer.submit(`${M}/developers`, `${M}/developers/webhook-urls`, { paymentWebhookUrl: 'http://127.0.0.1:9/new-hooks', payoutWebhookUrl: '' });
    expect(saved.status).toBe(303);
    expect(await server.services.merchants.get(data.shop.id)).toMatchObject({ paymentWebhookUrl: 'http://127.0.0.1:9/new-hooks', payoutWebhookUrl: null });

    const audit = await ownerClient.get(`${M}/audit`);
    for (const action of ['key.add', 'key.revoke', 'merchant.webhook_secret', 'merchant.webhooks']) expect(audit.text).toContain(action);
    expect(audit.text).toContain('console:dev@shop.example');
  });

  it('resends a webhook event for a developer', async () => {
    const path = `${M}/webhooks/${data.eventId}`;
    const sent = await developer.submit(path, `${path}/resend`, {});
    expect(sent.status).toBe(303);
    const audit = await listAudit(server.services.store.db, { merchantId: data.shop.id, action: 'webhook.resend' });
    expect(audit.items[0]).toMatchObject({ actor: 'console:dev@shop.example', target: data.eventId });
  });

  it('lets a viewer read but not refund, resend, manage keys or the team: no buttons, and the POSTs are 403 with nothing changed', async () => {
    const refundable = (await server.services.store.db.selectFrom('payments').select('transaction_ref').where('merchant_id', '=', data.shop.id).where('status', '=', 'Success').where('method', '=', 'QRIS').executeTakeFirstOrThrow()).transaction_ref;
    const page = await viewer.get(`${M}/payments/${refundable}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Refund this payment');
    const token = csrfOf(page.text);
    for (const who of [viewer, developer]) {
      expect((await who.request('POST', `${M}/payments/${refundable}/refund`, { _csrf: csrfOf((await who.get(`${M}/home`)).text), confirmed: 'yes' })).status).toBe(403);
    }
    expect(await paymentStatus(refundable)).toBe('Success');
    expect((await viewer.get(`${M}/webhooks/${data.eventId}`)).text).not.toContain('Send again now');
    const keysBefore = (await server.services.merchants.listKeys(data.shop.id)).length;
    const secretBefore = await server.services.merchants.webhookSecret(data.shop.id);
    const refused = [
      [`${M}/webhooks/${data.eventId}/resend`, {}],
      [`${M}/developers/keys/hmac`, { scope: 'all' }],
      [`${M}/developers/webhook-secret`, { confirmed: 'yes' }],
      [`${M}/team/invite`, { email: 'x@shop.example', role: 'owner' }],
    ] as const;
    for (const [path, fields] of refused) expect((await viewer.request('POST', path, { _csrf: token, ...fields })).status, path).toBe(403);
    expect((await server.services.merchants.listKeys(data.shop.id)).length).toBe(keysBefore);
    expect(await server.services.merchants.webhookSecret(data.shop.id)).toBe(secretBefore);
    for (const path of [`${M}/developers`, `${M}/team`, `${M}/audit`]) expect((await viewer.get(path)).status, path).toBe(403);
    expect((await developer.get(`${M}/team`)).status).toBe(403);
    const nav = (await viewer.get(`${M}/home`)).text;
    expect(nav).not.toContain(`${M}/developers`);
    expect(nav).not.toContain(`${M}/team`);
  });

  it("answers 404 for another merchant's payment, payout and webhook event", async () => {
    for (const path of [`${M}/payments/${data.paidRef}`, `${M}/payouts/${data.payoutRef}`, `${M}/webhooks/${data.eventId}`]) {
      const page = await stranger.get(path);
      expect(page.status, path).toBe(404);
      expect(page.text).not.toContain(data.shop.id);
    }
    const token = csrfOf((await stranger.get(`${M}/home`)).text);
    expect((await stranger.request('POST', `${M}/payments/${data.paidRef}/refund`, { _csrf: token, confirmed: 'yes' })).status).toBe(404);
    expect((await stranger.request('POST', `${M}/webhooks/${data.eventId}/resend`, { _csrf: token })).status).toBe(404);
    const shopKey = (await server.services.merchants.listKeys(data.shop.id)).find((k) => k.status === 'active')!;
    expect((await stranger.request('POST', `${M}/developers/keys/${shopKey.id}/revoke`, { _csrf: token, confirmed: 'yes' })).status).toBe(404);
    expect((await server.services.merchants.listKeys(data.shop.id)).find((k) => k.id === shopKey.id)!.status).toBe('active');
    const shopMember = await server.services.people.userByEmail('viewer@shop.example');
    expect((await stranger.request('POST', `${M}/team/${shopMember!.id}/remove`, { _csrf: token, confirmed: 'yes' })).status).toBe(404);
    expect((await stranger.request('POST', `${M}/team/${shopMember!.id}/role`, { _csrf: token, role: 'owner' })).status).toBe(404);
    expect((await server.services.people.user(shopMember!.id))!).toMatchObject({ status: 'active', role: 'viewer' });
    // An operator is not a merchant user: the merchant pages are not theirs.
    const operator = new ConsoleClient(server);
    await createAndEnrol(server, operator, { email: 'ops@paygate.example', kind: 'operator', role: 'admin' });
    expect((await operator.get(`${M}/payments/${data.paidRef}`)).status).toBe(403);
  });

  it('refuses a state-changing POST without the CSRF token, and changes nothing', async () => {
    const secretBefore = await server.services.merchants.webhookSecret(data.shop.id);
    expect((await ownerClient.request('POST', `${M}/developers/webhook-secret`, { confirmed: 'yes' })).status).toBe(403);
    expect((await ownerClient.request('POST', `${M}/developers/webhook-secret`, { confirmed: 'yes', _csrf: 'forged' })).status).toBe(403);
    expect(await server.services.merchants.webhookSecret(data.shop.id)).toBe(secretBefore);
    const ref = data.xssRef;
    expect((await ownerClient.request('POST', `${M}/payments/${ref}/refund`, { confirmed: 'yes' })).status).toBe(403);
    expect(await paymentStatus(ref)).toBe('Success');
  });

  it('lets the owner invite, change a role and remove a member, never the last owner', async () => {
    const made = await ownerClient.submit(`${M}/team`, `${M}/team/invite`, { email: 'new@shop.example', role: 'developer' });
    expect(made.status).toBe(200);
    expect(made.text).toMatch(/<code class="secret">http[^<]+\/console\/invitations\/[^<]+<\/code>/);
    const invitation = await server.services.store.db.selectFrom('console_invitations').selectAll().where('email', '=', 'new@shop.example').executeTakeFirstOrThrow();
    expect(invitation).toMatchObject({ merchant_id: data.shop.id, role: 'developer', kind: 'merchant' });

    const viewerUser = (await server.services.people.userByEmail('viewer@shop.example'))!;
    const changed = await ownerClient.submit(`${M}/team`, `${M}/team/${viewerUser.id}/role`, { role: 'developer' });
    expect(changed.status).toBe(303);
    expect((await server.services.people.user(viewerUser.id))!.role).toBe('developer');

    const me = (await server.services.people.userByEmail('owner@shop.example'))!;
    const last = await ownerClient.submit(`${M}/team`, `${M}/team/${me.id}/role`, { role: 'viewer' });
    expect(last.status).toBe(400);
    expect(last.text).toContain('last owner');
    expect((await server.services.people.user(me.id))!.role).toBe('owner');

    const ask = await ownerClient.submit(`${M}/team`, `${M}/team/${viewerUser.id}/remove`, {});
    const removed = await ownerClient.request('POST', `${M}/team/${viewerUser.id}/remove`, { _csrf: csrfOf(ask.text), confirmed: 'yes' });
    expect(removed.status).toBe(303);
    expect((await server.services.people.user(viewerUser.id))!.status).toBe('disabled');
    expect((await viewer.get(`${M}/home`)).location).toBe('/console/login');
    const audit = await ownerClient.get(`${M}/audit?action=console_user.remove`);
    expect(audit.text).toContain('viewer@shop.example');
  });
});
