// The operator API under /admin (contract section 12): bearer token, merchants and their keys, webhook
// settings, rate limits, webhook secret rotation and USDT rates; and that one merchant's key never
// authenticates another merchant.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentClient, type MerchantKey } from '../../sdk/src/index.js';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../helpers/server.js';

const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

async function adminRaw(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${server.baseUrl}/admin${path}`, { method, headers, body: body === undefined ? undefined : Buffer.from(body) });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), headers: response.headers };
}

function expectError(response: { status: number; body: any }, status: number, message?: string): void {
  expect(response.status).toBe(status);
  expect(Object.keys(response.body).sort()).toEqual(['code', 'data', 'message']);
  expect(response.body.code).toBe(String(status));
  expect(response.body.message).toMatch(UPPER_SNAKE);
  if (message) expect(response.body.message).toBe(message);
  expect(typeof response.body.data.detail).toBe('string');
}

function expectOk(response: { status: number; body: any }): void {
  expect(response.status).toBe(200);
  expect(response.body.code).toBe('200');
  expect(response.body.message).toBe('SUCCESS');
}

const clientFor = (merchantId: string, key: MerchantKey): PaymentClient =>
  new PaymentClient({ baseUrl: server.baseUrl, merchantId, key, clock: () => server.clock.nowMs() / 1000 });

async function canCall(client: PaymentClient): Promise<{ status: number; message: string }> {
  const result = await client.bankCodes({ currency: 'IDR' });
  return { status: result.status, message: result.message };
}

function rsaPair(bits: number): { publicKeyPem: string; privateKeyPem: string } {
  const pair = generateKeyPairSync('rsa', { modulusLength: bits });
  return {
    publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

async function createHmacMerchant(name = 'HMAC Shop'): Promise<{ id: string; keyId: string; client: PaymentClient; webhookSecret: string }> {
  const created = await server.admin('POST', '/merchants', { name, keyType: 'HMAC-SHA256' });
  expectOk(created);
  const { merchant, key, webhookSecret } = created.body.data;
  return { id: merchant.id, keyId: key.keyId, webhookSecret, client: clientFor(merchant.id, { type: 'HMAC-SHA256', secret: key.secret }) };
}

describe('bearer token', () => {
  it.each([
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer not-the-token' }],
    ['the token without the Bearer scheme', { authorization: TEST_ADMIN_TOKEN }],
    ['a Basic scheme', { authorization: `Basic ${Buffer.from(`admin:${TEST_ADMIN_TOKEN}`).toString('base64')}` }],
    ['the token with a trailing character', { authorization: `Bearer ${TEST_ADMIN_TOKEN}x` }],
    ['an empty Bearer', { authorization: 'Bearer ' }],
  ])('answers 401 in the envelope with %s', async (_label, headers: Record<string, string>) => {
    for (const [method, path, body] of [
      ['GET', '/merchants', undefined],
      ['POST', '/merchants', '{"name":"Sneaky"}'],
      ['PUT', '/rates/INR', '{"reference":"1","depositSpreadBps":0,"withdrawSpreadBps":0}'],
    ] as const) {
      const response = await adminRaw(method, path, body ? { ...headers, 'content-type': 'application/json' } : headers, body);
      expectError(response, 401);
      expect(response.headers.get('request-id')).toBeTruthy();
    }
    // Nothing was created or changed by the refused calls.
    const list = await server.admin('GET', '/merchants');
    expect(list.body.data.some((m: { name: string }) => m.name === 'Sneaky')).toBe(false);
    expect((await server.admin('GET', '/rates')).body.data.some((r: { currency: string; reference: number }) => r.reference === 1)).toBe(false);
  });

  it('refuses merchant API credentials on the operator API', async () => {
    const merchant = await createHmacMerchant();
    const signed = merchant.client.buildSignedRequest({ name: 'x' });
    expectError(await adminRaw('POST', '/merchants', signed.headers, signed.body), 401);
  });
});

describe('creating merchants', () => {
  it('generates an RSA key by default and returns its private key once, usable with the SDK', async () => {
    const created = await server.admin('POST', '/merchants', { name: 'Generated RSA' });
    expectOk(created);
    const { merchant, key, webhookSecret } = created.body.data;
    expect(merchant.id).toMatch(/^mch_[A-Za-z0-9]+$/);
    expect(merchant).toMatchObject({ name: 'Generated RSA', status: 'active', mode: 'sandbox' });
    expect(key.type).toBe('RSA-SHA512');
    expect(key.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(key.secret).toBeUndefined();
    expect(webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(await canCall(clientFor(merchant.id, { type: 'RSA-SHA512', privateKeyPem: key.privateKeyPem }))).toEqual({ status: 200, message: 'SUCCESS' });
    // Shown once: neither the list nor the key list ever shows a secret again.
    const everything = JSON.stringify([(await server.admin('GET', '/merchants')).body, (await server.admin('GET', `/merchants/${merchant.id}/keys`)).body]);
    expect(everything).not.toContain('PRIVATE KEY');
    expect(everything).not.toContain(webhookSecret.slice(6));
  });

  it('issues an HMAC secret that works with the SDK and is never listed again', async () => {
    const created = await server.admin('POST', '/merchants', { name: 'HMAC', keyType: 'HMAC-SHA256', mode: 'live' });
    expectOk(created);
    const { merchant, key } = created.body.data;
    expect(merchant.mode).toBe('live');
    expect(key.type).toBe('HMAC-SHA256');
    expect(key.secret).toMatch(/^hsk_/);
    expect(key.privateKeyPem).toBeUndefined();
    expect(await canCall(clientFor(merchant.id, { type: 'HMAC-SHA256', secret: key.secret }))).toEqual({ status: 200, message: 'SUCCESS' });
    const keys = await server.admin('GET', `/merchants/${merchant.id}/keys`);
    expectOk(keys);
    expect(JSON.stringify(keys.body)).not.toContain(key.secret.slice(4));
    expect(keys.body.data).toEqual([expect.objectContaining({ id: key.keyId, type: 'HMAC-SHA256', status: 'active' })]);
  });

  it('registers a merchant-held RSA public key and returns no private key', async () => {
    const own = rsaPair(2048);
    const created = await server.admin('POST', '/merchants', { name: 'Own key', publicKeyPem: own.publicKeyPem });
    expectOk(created);
    const { merchant, key } = created.body.data;
    expect(key.type).toBe('RSA-SHA512');
    expect(key.privateKeyPem).toBeUndefined();
    expect(await canCall(clientFor(merchant.id, { type: 'RSA-SHA512', privateKeyPem: own.privateKeyPem }))).toEqual({ status: 200, message: 'SUCCESS' });
  });

  it('refuses a 1024-bit key, a non-RSA key and garbage with VALIDATION_FAILED, creating nothing', async () => {
    const before = (await server.admin('GET', '/merchants')).body.data.length;
    const weak = rsaPair(1024).publicKeyPem;
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    for (const publicKeyPem of [weak, ec, 'not a key', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n']) {
      const response = await server.admin('POST', '/merchants', { name: 'Weak key', publicKeyPem });
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.data.errors.map((e: { field: string }) => e.field)).toContain('publicKeyPem');
    }
    // The merchant row and its key are one transaction: a refused key leaves no merchant behind.
    const after = (await server.admin('GET', '/merchants')).body.data;
    expect(after.length).toBe(before);
    expect(after.some((m: { name: string }) => m.name === 'Weak key')).toBe(false);
  });

  it.each([
    ['no name', {}],
    ['an empty name', { name: '' }],
    ['an unknown field', { name: 'X', colour: 'blue' }],
    ['an unknown key type', { name: 'X', keyType: 'DSA' }],
    ['an unknown mode', { name: 'X', mode: 'test' }],
    ['a zero rate limit', { name: 'X', rateLimitPerSecond: 0 }],
  ])('refuses %s with VALIDATION_FAILED', async (_label, body) => {
    expectError(await server.admin('POST', '/merchants', body), 400, 'VALIDATION_FAILED');
  });

  it('refuses a body that is not JSON with INVALID_JSON', async () => {
    const response = await adminRaw('POST', '/merchants', { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, '{"name":');
    expectError(response, 400, 'INVALID_JSON');
  });
});

describe('managing merchants', () => {
  it('lists merchants and reads one; an unknown id is 404 NOT_FOUND', async () => {
    const a = await createHmacMerchant('Listed A');
    const b = await createHmacMerchant('Listed B');
    const list = await server.admin('GET', '/merchants');
    expectOk(list);
    const ids = list.body.data.map((m: { id: string }) => m.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    for (const m of list.body.data) {
      expect(Object.keys(m)).not.toEqual(expect.arrayContaining(['webhookSecret']));
      expect(JSON.stringify(m)).not.toMatch(/secret_enc|whsec_|hsk_/);
    }
    const one = await server.admin('GET', `/merchants/${a.id}`);
    expectOk(one);
    expect(one.body.data).toMatchObject({ id: a.id, name: 'Listed A', status: 'active', rateLimitPerSecond: expect.any(Number) });
    expect(one.body.data.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    expectError(await server.admin('GET', '/merchants/mch_nosuchmerchant'), 404, 'NOT_FOUND');
    for (const [method, path] of [
      ['POST', '/merchants/mch_nosuchmerchant/disable'],
      ['POST', '/merchants/mch_nosuchmerchant/enable'],
      ['POST', '/merchants/mch_nosuchmerchant/webhook-secret'],
      ['DELETE', `/merchants/mch_nosuchmerchant/keys/${a.keyId}`],
      ['DELETE', `/merchants/${b.id}/keys/${a.keyId}`],
    ] as const) {
      expectError(await server.admin(method, path), 404, 'NOT_FOUND');
    }
    expectError(await server.admin('POST', '/merchants/mch_nosuchmerchant/keys', { type: 'HMAC-SHA256' }), 404, 'NOT_FOUND');
    expectError(await server.admin('PUT', '/merchants/mch_nosuchmerchant/rate-limit', { perSecond: 3 }), 404, 'NOT_FOUND');
    // Revoking another merchant's key through this merchant's path did nothing.
    expect(await canCall(a.client)).toEqual({ status: 200, message: 'SUCCESS' });
  });

  it('disables and re-enables a merchant', async () => {
    const merchant = await createHmacMerchant();
    const disabled = await server.admin('POST', `/merchants/${merchant.id}/disable`);
    expectOk(disabled);
    expect(disabled.body.data.status).toBe('disabled');
    expect(await canCall(merchant.client)).toEqual({ status: 403, message: 'MERCHANT_DISABLED' });
    expect((await server.admin('GET', `/merchants/${merchant.id}`)).body.data.status).toBe('disabled');
    const enabled = await server.admin('POST', `/merchants/${merchant.id}/enable`);
    expectOk(enabled);
    expect(enabled.body.data.status).toBe('active');
    expect(await canCall(merchant.client)).toEqual({ status: 200, message: 'SUCCESS' });
  });

  it('sets, changes and clears the default webhook URLs and refuses non-URLs', async () => {
    const merchant = await createHmacMerchant();
    const set = await server.admin('PUT', `/merchants/${merchant.id}/webhooks`, {
      paymentWebhookUrl: 'https://merchant.example/hooks/payments',
      payoutWebhookUrl: 'https://merchant.example/hooks/payouts',
    });
    expectOk(set);
    expect(set.body.data).toMatchObject({
      paymentWebhookUrl: 'https://merchant.example/hooks/payments',
      payoutWebhookUrl: 'https://merchant.example/hooks/payouts',
    });
    // Only the field given changes.
    const one = await server.admin('PUT', `/merchants/${merchant.id}/webhooks`, { payoutWebhookUrl: 'https://merchant.example/v2/payouts' });
    expect(one.body.data).toMatchObject({
      paymentWebhookUrl: 'https://merchant.example/hooks/payments',
      payoutWebhookUrl: 'https://merchant.example/v2/payouts',
    });
    for (const bad of ['not a url at all', 'ftp://merchant.example/hooks', 'javascript:alert(1)', '/relative/path/only', 'merchant.example/hooks']) {
      const response = await server.admin('PUT', `/merchants/${merchant.id}/webhooks`, { paymentWebhookUrl: bad });
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.data.errors.map((e: { field: string }) => e.field)).toContain('paymentWebhookUrl');
    }
    expectError(await server.admin('PUT', `/merchants/${merchant.id}/webhooks`, { paymentWebhookUrl: 42 }), 400, 'VALIDATION_FAILED');
    expectError(await server.admin('PUT', `/merchants/${merchant.id}/webhooks`, { webhookUrl: 'https://merchant.example/x' }), 400, 'VALIDATION_FAILED');
    // Refused changes changed nothing.
    expect((await server.admin('GET', `/merchants/${merchant.id}`)).body.data.paymentWebhookUrl).toBe('https://merchant.example/hooks/payments');
    const cleared = await server.admin('PUT', `/merchants/${merchant.id}/webhooks`, { paymentWebhookUrl: null });
    expect(cleared.body.data).toMatchObject({ paymentWebhookUrl: null, payoutWebhookUrl: 'https://merchant.example/v2/payouts' });
    // Refused at creation too.
    expectError(await server.admin('POST', '/merchants', { name: 'Bad hook', paymentWebhookUrl: 'not a url at all' }), 400, 'VALIDATION_FAILED');
  });

  it('sets the rate limit, which the next requests obey', async () => {
    const merchant = await createHmacMerchant();
    const set = await server.admin('PUT', `/merchants/${merchant.id}/rate-limit`, { perSecond: 3 });
    expectOk(set);
    expect(set.body.data.rateLimitPerSecond).toBe(3);
    const results = await Promise.all(Array.from({ length: 12 }, () => merchant.client.bankCodes({ currency: 'IDR' })));
    const limited = results.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    for (const r of limited) {
      expect(r.message).toBe('RATE_LIMITED');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    for (const perSecond of [0, -1, 1.5, '10']) {
      expectError(await server.admin('PUT', `/merchants/${merchant.id}/rate-limit`, { perSecond }), 400, 'VALIDATION_FAILED');
    }
    expect((await server.admin('GET', `/merchants/${merchant.id}`)).body.data.rateLimitPerSecond).toBe(3);
  });

  it('rotates the webhook secret and shows the new one once', async () => {
    const merchant = await createHmacMerchant();
    const rotated = await server.admin('POST', `/merchants/${merchant.id}/webhook-secret`);
    expectOk(rotated);
    const secret: string = rotated.body.data.webhookSecret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(secret).not.toBe(merchant.webhookSecret);
    expect(await server.services.merchants.webhookSecret(merchant.id)).toBe(secret);
    const again = await server.admin('POST', `/merchants/${merchant.id}/webhook-secret`);
    expect(again.body.data.webhookSecret).not.toBe(secret);
    expect(JSON.stringify((await server.admin('GET', `/merchants/${merchant.id}`)).body)).not.toContain(secret.slice(6));
    // The API key is untouched by a webhook secret rotation.
    expect(await canCall(merchant.client)).toEqual({ status: 200, message: 'SUCCESS' });
  });

  it('adds and revokes keys: at most two active, 409 for a third', async () => {
    const merchant = await createHmacMerchant();
    expectError(await server.admin('POST', `/merchants/${merchant.id}/keys`, { type: 'RSA-SHA512', publicKeyPem: 'garbage' }), 400, 'VALIDATION_FAILED');
    expectError(await server.admin('POST', `/merchants/${merchant.id}/keys`, { type: 'HMAC' }), 400, 'VALIDATION_FAILED');
    const second = await server.admin('POST', `/merchants/${merchant.id}/keys`, { type: 'HMAC-SHA256', label: 'next' });
    expectOk(second);
    expectError(await server.admin('POST', `/merchants/${merchant.id}/keys`, { type: 'HMAC-SHA256' }), 409);
    const keys = await server.admin('GET', `/merchants/${merchant.id}/keys`);
    expect(keys.body.data.map((k: { status: string }) => k.status)).toEqual(['active', 'active']);
    expectOk(await server.admin('DELETE', `/merchants/${merchant.id}/keys/${merchant.keyId}`));
    const after = await server.admin('GET', `/merchants/${merchant.id}/keys`);
    expect(after.body.data.find((k: { id: string }) => k.id === merchant.keyId).status).toBe('revoked');
    expect(await canCall(merchant.client)).toEqual({ status: 401, message: 'INVALID_SIGNATURE' });
    const next = clientFor(merchant.id, { type: 'HMAC-SHA256', secret: second.body.data.secret });
    expect(await canCall(next)).toEqual({ status: 200, message: 'SUCCESS' });
  });
});

describe('key limit under concurrency', () => {
  it('never lets concurrent key additions exceed two active keys', async () => {
    const merchant = await createHmacMerchant();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => server.admin('POST', `/merchants/${merchant.id}/keys`, { type: 'HMAC-SHA256' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const keys = await server.admin('GET', `/merchants/${merchant.id}/keys`);
    expect(keys.body.data.filter((k: { status: string }) => k.status === 'active')).toHaveLength(2);
  });
});

describe('USDT rates', () => {
  it('sets and lists rates; refuses unknown currencies and malformed values', async () => {
    const set = await server.admin('PUT', '/rates/NGN', { reference: '1480.25', depositSpreadBps: 100, withdrawSpreadBps: 200 });
    expectOk(set);
    expect(set.body.data).toMatchObject({ currency: 'NGN', reference: 1480.25, depositSpreadBps: 100, withdrawSpreadBps: 200 });
    const list = await server.admin('GET', '/rates');
    expectOk(list);
    expect(list.body.data.map((r: { currency: string }) => r.currency)).toContain('NGN');
    expectError(await server.admin('PUT', '/rates/USD', { reference: '1', depositSpreadBps: 0, withdrawSpreadBps: 0 }), 400, 'UNSUPPORTED_CURRENCY');
    for (const body of [
      { reference: 'abc', depositSpreadBps: 0, withdrawSpreadBps: 0 },
      { reference: '0', depositSpreadBps: 0, withdrawSpreadBps: 0 },
      { reference: '-1', depositSpreadBps: 0, withdrawSpreadBps: 0 },
      { reference: '1.1234567', depositSpreadBps: 0, withdrawSpreadBps: 0 },
      { reference: 88.25, depositSpreadBps: 0, withdrawSpreadBps: 0 },
      { reference: '88', depositSpreadBps: 5001, withdrawSpreadBps: 0 },
      { reference: '88', depositSpreadBps: 0, withdrawSpreadBps: -1 },
      { reference: '88', depositSpreadBps: 0 },
    ]) {
      expectError(await server.admin('PUT', '/rates/INR', body), 400, 'VALIDATION_FAILED');
    }
  });
});

describe('merchant isolation', () => {
  it("never lets merchant A's key authenticate as merchant B", async () => {
    const a = await createHmacMerchant('Isolation A');
    const b = await createHmacMerchant('Isolation B');
    const own = rsaPair(2048);
    const rsaA = await server.admin('POST', `/merchants/${a.id}/keys`, { type: 'RSA-SHA512', publicKeyPem: own.publicKeyPem });
    expectOk(rsaA);
    for (const signer of [a.client, clientFor(a.id, { type: 'RSA-SHA512', privateKeyPem: own.privateKeyPem })]) {
      const signed = signer.buildSignedRequest({ currency: 'IDR' });
      const asB = await signer.send('payout/bankCode', { body: signed.body, headers: { ...signed.headers, MerchantID: b.id } });
      expect({ status: asB.status, message: asB.message }).toEqual({ status: 401, message: 'INVALID_SIGNATURE' });
      // The same request as A is fine: the refusal was about whose key it is.
      expect((await signer.send('payout/bankCode', signed)).status).toBe(200);
    }
    // B's balance read with A's key is refused the same way.
    const signed = a.client.buildSignedRequest({ currency: 'INR' });
    const balance = await a.client.send('account/balance', { body: signed.body, headers: { ...signed.headers, MerchantID: b.id } });
    expect({ status: balance.status, message: balance.message }).toEqual({ status: 401, message: 'INVALID_SIGNATURE' });
  });
});
