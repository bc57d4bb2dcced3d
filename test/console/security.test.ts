// The console's security rules over plain HTTP (no browser): sign-in with password and TOTP, one
// generic answer for every failure, lockout, CSRF refusals that change nothing, idle and absolute
// expiry, sign-out everywhere, invitations, read-only support, headers and cookies. Both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/audit/audit-log.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { codeNow, ConsoleClient, createAndEnrol, csrfOf, PASSWORD } from './console-client.js';

const GENERIC = 'Wrong email, password or code.';

describe('console security', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ CONSOLE_LOCKOUT_FAILURES: '3', CONSOLE_ADDRESS_FAILURES: '1000' }, { worker: false });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('serves the sign-in page with the strict CSP and no-store, and sends strangers to it', async () => {
    const client = new ConsoleClient(server);
    const home = await client.get('/console/users');
    expect(home.status).toBe(303);
    expect(home.location).toBe('/console/login');
    const page = await client.get('/console/login');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; require-trusted-types-for 'script'",
    );
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).toContain('<label for="f-email">');
    const loginCookie = page.headers.getSetCookie().find((c) => c.startsWith('paygate_console_login='))!;
    expect(loginCookie).toMatch(/HttpOnly/);
    expect(loginCookie).toMatch(/SameSite=Strict/);
    expect(loginCookie).toMatch(/Path=\/console/);
  });

  it('makes an operator set up TOTP at first sign-in before any page, then signs in with password and code', async () => {
    const client = new ConsoleClient(server);
    await server.services.people.createUser({ email: 'first@ops.example', kind: 'operator', role: 'admin', password: PASSWORD }, 'test');
    const first = await client.login('first@ops.example', PASSWORD);
    expect(first.status).toBe(303);
    expect(first.location).toBe('/console/enrol');
    const session = first.headers.getSetCookie().find((c) => c.startsWith('paygate_console='))!;
    expect(session).toMatch(/HttpOnly; SameSite=Strict/);
    // Every page waits for the enrolment.
    expect((await client.get('/console/users')).location).toBe('/console/enrol');
    const enrol = await client.get('/console/enrol');
    expect(enrol.text).toContain('<svg');
    const wrong = await client.request('POST', '/console/enrol', { _csrf: csrfOf(enrol.text), code: '000000' });
    expect(wrong.status).toBe(400);
    const { secretOf } = await import('./console-client.js');
    const secret = secretOf(enrol.text);
    const done = await client.request('POST', '/console/enrol', { _csrf: csrfOf(enrol.text), code: codeNow(server, secret) });
    expect(done.status).toBe(200);
    expect([...done.text.matchAll(/<li><code>[a-z2-7]{5}-[a-z2-7]{5}<\/code><\/li>/g)]).toHaveLength(10);
    expect((await client.get('/console/users')).status).toBe(200);

    server.clock.advance(30_000);
    const again = new ConsoleClient(server);
    expect((await again.login('first@ops.example', PASSWORD, '')).text).toContain(GENERIC);
    const ok = await again.login('first@ops.example', PASSWORD, codeNow(server, secret));
    expect(ok.location).toBe('/console');
    // The same code cannot open a second session.
    const replay = await new ConsoleClient(server).login('first@ops.example', PASSWORD, codeNow(server, secret));
    expect(replay.status).toBe(401);
    expect(replay.text).toContain(GENERIC);
  });

  it('answers a wrong password, a wrong code and an unknown email with the same message', async () => {
    const client = new ConsoleClient(server);
    const user = await createAndEnrol(server, client, { email: 'same@ops.example', kind: 'operator', role: 'support' });
    const answers = await Promise.all([
      new ConsoleClient(server).login(user.email, 'not the password at all', codeNow(server, user.secret)),
      new ConsoleClient(server).login(user.email, user.password, '123456'),
      new ConsoleClient(server).login('nobody@ops.example', user.password, '123456'),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.text).toContain(GENERIC);
      expect(answer.text).not.toMatch(/password is|unknown|no such|locked/i);
    }
  });

  it('locks an account after the configured failures, even for the right password and code, with the same message', async () => {
    const client = new ConsoleClient(server);
    const user = await createAndEnrol(server, client, { email: 'locked@ops.example', kind: 'operator', role: 'admin' });
    for (let i = 0; i < 3; i++) expect((await new ConsoleClient(server).login(user.email, 'wrong password here')).status).toBe(401);
    const refused = await new ConsoleClient(server).login(user.email, user.password, codeNow(server, user.secret));
    expect(refused.status).toBe(401);
    expect(refused.text).toContain(GENERIC);
    server.clock.advance(16 * 60_000);
    const after = await new ConsoleClient(server).login(user.email, user.password, codeNow(server, user.secret));
    expect(after.location).toBe('/console');
    const failures = await listAudit(server.services.store.db, { action: 'console.login_failed', limit: 200 });
    expect(failures.items.some((e) => e.target === user.email && e.address !== null)).toBe(true);
  });

  it('accepts a recovery code once, renews the codes with a current TOTP code, and lets an admin reset two-factor', async () => {
    const client = new ConsoleClient(server);
    const user = await createAndEnrol(server, client, { email: 'recover@ops.example', kind: 'operator', role: 'admin' });
    const code = user.recoveryCodes[0]!;
    expect((await new ConsoleClient(server).login(user.email, user.password, code)).location).toBe('/console');
    expect((await new ConsoleClient(server).login(user.email, user.password, code)).status).toBe(401);

    expect((await client.submit('/console/account', '/console/account/recovery-codes', { code: '000000' })).status).toBe(400);
    const renewed = await client.submit('/console/account', '/console/account/recovery-codes', { code: codeNow(server, user.secret) });
    const fresh = [...renewed.text.matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code><\/li>/g)].map((m) => m[1]!);
    expect(fresh).toHaveLength(10);
    expect((await new ConsoleClient(server).login(user.email, user.password, user.recoveryCodes[1]!)).status).toBe(401);
    expect((await new ConsoleClient(server).login(user.email, user.password, fresh[0]!)).location).toBe('/console');

    const admin = new ConsoleClient(server);
    await createAndEnrol(server, admin, { email: 'resetter@ops.example', kind: 'operator', role: 'admin' });
    const id = (await server.services.people.userByEmail(user.email))!.id;
    const ask = await admin.submit('/console/users', `/console/users/${id}/reset-totp`, {});
    expect((await admin.request('POST', `/console/users/${id}/reset-totp`, { _csrf: csrfOf(ask.text), confirmed: 'yes' })).status).toBe(303);
    expect((await client.get('/console/account')).location).toBe('/console/login');
    expect((await new ConsoleClient(server).login(user.email, user.password)).location).toBe('/console/enrol');
  });

  it('refuses a state-changing POST without or with a wrong CSRF token, and changes nothing', async () => {
    const client = new ConsoleClient(server);
    await createAndEnrol(server, client, { email: 'csrf@ops.example', kind: 'operator', role: 'admin' });
    const before = await server.services.people.listUsers({ limit: 200 });
    const invite = { email: 'invitee@ops.example', role: 'support' };
    expect((await client.request('POST', '/console/users/invite', invite)).status).toBe(403);
    expect((await client.request('POST', '/console/users/invite', { ...invite, _csrf: 'x'.repeat(43) })).status).toBe(403);
    const page = await client.get('/console/users');
    // The right token, but the browser says the form came from another site.
    const crossSite = await client.request('POST', '/console/users/invite', { ...invite, _csrf: csrfOf(page.text) }, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const invitations = await server.services.store.db.selectFrom('console_invitations').select('email').where('email', '=', invite.email).execute();
    expect(invitations).toEqual([]);
    expect((await client.request('POST', '/console/account/logout-everywhere', {})).status).toBe(403);
    expect((await client.get('/console/users')).status).toBe(200);
    expect((await server.services.people.listUsers({ limit: 200 })).items.length).toBe(before.items.length);
    // Sign-in itself needs the form's token (double-submit cookie).
    const bare = await new ConsoleClient(server).request('POST', '/console/login', { email: 'csrf@ops.example', password: PASSWORD });
    expect(bare.status).toBe(403);
  });

  it('ends a session after the idle period and after the absolute age', async () => {
    const client = new ConsoleClient(server);
    await createAndEnrol(server, client, { email: 'idle@ops.example', kind: 'operator', role: 'support' });
    expect((await client.get('/console/users')).status).toBe(200);
    server.clock.advance(31 * 60_000);
    expect((await client.get('/console/users')).location).toBe('/console/login');

    const busy = new ConsoleClient(server);
    await createAndEnrol(server, busy, { email: 'busy@ops.example', kind: 'operator', role: 'support' });
    for (let hour = 0; hour < 12; hour++) {
      server.clock.advance(25 * 60_000);
      expect((await busy.get('/console/users')).status).toBe(200);
      server.clock.advance(25 * 60_000);
      expect((await busy.get('/console/users')).status).toBe(200);
      server.clock.advance(10 * 60_000);
      const page = await busy.get('/console/users');
      if (page.status !== 200) {
        expect(hour).toBeGreaterThanOrEqual(11);
        expect(page.location).toBe('/console/login');
        return;
      }
    }
    expect((await busy.get('/console/users')).location).toBe('/console/login');
  });

  it('signs a user out everywhere', async () => {
    const laptop = new ConsoleClient(server);
    const user = await createAndEnrol(server, laptop, { email: 'everywhere@ops.example', kind: 'operator', role: 'admin' });
    const phone = new ConsoleClient(server);
    expect((await phone.login(user.email, user.password, codeNow(server, user.secret))).location).toBe('/console');
    const out = await laptop.submit('/console/account', '/console/account/logout-everywhere', {});
    expect(out.status).toBe(303);
    expect((await phone.get('/console/users')).location).toBe('/console/login');
    expect((await laptop.get('/console/users')).location).toBe('/console/login');
  });

  it('lets support read but not change: no invitation form, and the action answers 403', async () => {
    const client = new ConsoleClient(server);
    await createAndEnrol(server, client, { email: 'support@ops.example', kind: 'operator', role: 'support' });
    const page = await client.get('/console/users');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('/console/users/invite');
    const refused = await client.request('POST', '/console/users/invite', { _csrf: csrfOf(page.text), email: 'x@ops.example', role: 'admin' });
    expect(refused.status).toBe(403);
  });

  it('keeps merchant users out of operator pages, and lets an admin disable a user, ending their sessions', async () => {
    const merchant = await server.createMerchant();
    const owner = new ConsoleClient(server);
    await createAndEnrol(server, owner, { email: 'owner@shop.example', kind: 'merchant', role: 'owner', merchantId: merchant.id });
    // The front door is the first page of the merchant's menu (its merchant pages, not the operator's).
    expect((await owner.get('/console')).location).toMatch(/^\/console\/merchant\//);
    for (const path of ['/console/merchants', '/console/users', '/console/audit', `/console/merchants/${merchant.id}`]) {
      expect((await owner.get(path)).status, path).toBe(403);
    }
    const admin = new ConsoleClient(server);
    await createAndEnrol(server, admin, { email: 'disabler@ops.example', kind: 'operator', role: 'admin' });
    const ownerId = (await server.services.people.userByEmail('owner@shop.example'))!.id;
    const ask = await admin.submit('/console/users', `/console/users/${ownerId}/disable`, {});
    expect(ask.text).toMatch(/name="confirmed" value="yes"/);
    expect((await owner.get('/console/account')).status).toBe(200);
    expect((await admin.request('POST', `/console/users/${ownerId}/disable`, { _csrf: csrfOf(ask.text), confirmed: 'yes' })).status).toBe(303);
    expect((await owner.get('/console/account')).location).toBe('/console/login');
    expect((await new ConsoleClient(server).login('owner@shop.example', PASSWORD)).text).toContain(GENERIC);
  });

  it('invites by a single-use link; the invitee sets a password and, as an operator, TOTP', async () => {
    const admin = new ConsoleClient(server);
    await createAndEnrol(server, admin, { email: 'inviter@ops.example', kind: 'operator', role: 'admin' });
    const bad = await admin.submit('/console/users', '/console/users/invite', { email: 'not an email', role: 'owner', merchantId: '' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="f-email-error"/);
    expect(bad.text).toMatch(/id="f-merchantId-error"/);
    const made = await admin.submit('/console/users', '/console/users/invite', { email: 'new-op@ops.example', role: 'support' });
    expect(made.status).toBe(200);
    const link = /<code class="secret">(http[^<]+)<\/code>/.exec(made.text)![1]!;
    const path = new URL(link).pathname;
    const invitee = new ConsoleClient(server);
    const form = await invitee.get(path);
    expect(form.status).toBe(200);
    const short = await invitee.request('POST', path, { _csrf: csrfOf(form.text), password: 'short', confirm: 'short' });
    expect(short.status).toBe(400);
    expect(short.text).toMatch(/id="f-password-error"/);
    const accepted = await invitee.request('POST', path, { _csrf: csrfOf(short.text), password: PASSWORD, confirm: PASSWORD });
    expect(accepted.location).toBe('/console/enrol');
    expect((await new ConsoleClient(server).get(path)).status).toBe(404);
    const audit = await listAudit(server.services.store.db, { action: 'console_invitation.create', limit: 10 });
    expect(audit.items[0]).toMatchObject({ actor: 'console:inviter@ops.example', target: 'new-op@ops.example' });
    expect(audit.items[0]!.address).toMatch(/127\.0\.0\.1/);
  });
});

describe('console cookies behind https', () => {
  it('are Secure, __Host- prefixed with Path=/, HttpOnly and SameSite=Strict', async () => {
    const server = await startTestServer({ CONSOLE_SECURE_COOKIE: 'true' }, { worker: false });
    try {
      const client = new ConsoleClient(server);
      const page = await client.get('/console/login');
      const login = page.headers.getSetCookie().find((c) => c.startsWith('__Host-paygate_console_login='))!;
      expect(login.split('; ').slice(1).sort()).toEqual(['HttpOnly', 'Max-Age=3600', 'Path=/', 'SameSite=Strict', 'Secure']);
      await server.services.people.createUser({ email: 'tls@ops.example', kind: 'operator', role: 'admin', password: PASSWORD }, 'test');
      const signedIn = await client.login('tls@ops.example', PASSWORD);
      const session = signedIn.headers.getSetCookie().find((c) => c.startsWith('__Host-paygate_console='))!;
      expect(session.split('; ').slice(1).sort()).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict', 'Secure']);
      expect(signedIn.location).toBe('/console/enrol');
    } finally {
      await server.close();
    }
  });
});
