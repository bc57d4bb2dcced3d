// Merchant authentication through real HTTP, exactly as contract sections 6 and 7 put it: the three
// headers, the 300-second window, signatures over hex(SHA512(rawBody)) + Timestamp with RSA-SHA512 or
// HMAC-SHA256, one-time signatures bound to a path (also across instances sharing the database),
// disabled merchants, key rotation, canonical base64 only, the per-merchant rate limit and Request-Id.
import { generateKeyPair, generateKeyPairSync } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices } from '../../src/bootstrap.js';
import { buildApp, type AppHandle } from '../../src/server.js';
import type { Services } from '../../src/services.js';
import { PaymentClient, signHmacSha256, signRsaSha512, type MerchantKey, type SignedRequest } from '../../sdk/src/index.js';
import { startTestServer, testConfig, type TestMerchant, type TestServer } from '../helpers/server.js';

interface RawResponse {
  readonly status: number;
  readonly body: any;
  readonly headers: Headers;
}

const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

let server: TestServer;
/** Every response seen in this file, to check the Request-Id header on all of them at the end. */
const seen: RawResponse[] = [];

/** Sends exactly these bytes and headers (a Buffer body, so fetch adds no Content-Type of its own). */
async function raw(path: string, body: string | Buffer, headers: Record<string, string>, baseUrl = server.baseUrl): Promise<RawResponse> {
  const response = await fetch(baseUrl + (path.startsWith('/') ? path : `/v1/api/${path}`), {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? Buffer.from(body, 'utf8') : new Uint8Array(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { unparsable: text };
  }
  const result = { status: response.status, body: parsed, headers: response.headers };
  seen.push(result);
  return result;
}

const send = (path: string, request: SignedRequest, baseUrl?: string): Promise<RawResponse> =>
  raw(path, request.body, request.headers, baseUrl);

/** Signs `body` at an explicit Timestamp with `key` for `merchantId`. */
function signedAt(merchantId: string, key: MerchantKey, body: string, timestamp: string): SignedRequest {
  const signature =
    key.type === 'RSA-SHA512' ? signRsaSha512(key.privateKeyPem, body, timestamp) : signHmacSha256(key.secret, body, timestamp);
  return { body, headers: { 'Content-Type': 'application/json', MerchantID: merchantId, Timestamp: timestamp, Signature: signature } };
}

const keyOf = (merchant: TestMerchant): MerchantKey =>
  merchant.privateKeyPem ? { type: 'RSA-SHA512', privateKeyPem: merchant.privateKeyPem } : { type: 'HMAC-SHA256', secret: merchant.secret! };

/** A client of `merchant` whose clock is `offsetSeconds` away from the server's business clock. */
const shiftedClient = (merchant: TestMerchant, offsetSeconds: number): PaymentClient =>
  new PaymentClient({
    baseUrl: server.baseUrl,
    merchantId: merchant.id,
    key: keyOf(merchant),
    clock: () => server.clock.nowMs() / 1000 + offsetSeconds,
  });

/**
 * Moves the server's clock to just after the start of a second, so that a request signed now is checked
 * within the same second: the boundary of the 300-second window is then tested exactly, without sleeping.
 */
function alignServerClockToSecond(): void {
  const intoSecond = server.clock.nowMs() % 1000;
  server.clock.advance(1000 - intoSecond + 5);
}

function expectError(response: RawResponse, status: number, message: string): void {
  expect({ status: response.status, message: response.body?.message }).toEqual({ status, message });
  expect(response.body.code).toBe(String(status));
  expect(typeof response.body.data?.detail).toBe('string');
  expect(response.body.message).toMatch(UPPER_SNAKE);
}

function expectOk(response: RawResponse): void {
  expect({ status: response.status, code: response.body?.code, message: response.body?.message }).toEqual({
    status: 200,
    code: '200',
    message: 'SUCCESS',
  });
}

/** The same signature bytes spelled differently in base64; each must be refused. */
function respellings(signature: string): string[] {
  const out: string[] = [];
  const unpadded = signature.replace(/=+$/, '');
  if (unpadded !== signature) out.push(unpadded);
  out.push(`${signature}=`);
  // Flip an unused low bit of the last data character: Node's decoder yields the same bytes.
  const lastIndex = unpadded.length - 1;
  const flipped = BASE64_ALPHABET[BASE64_ALPHABET.indexOf(unpadded[lastIndex]!) ^ 1]!;
  out.push(unpadded.slice(0, lastIndex) + flipped + signature.slice(unpadded.length));
  out.push(`${signature.slice(0, 10)} ${signature.slice(10)}`);
  const urlSafe = signature.replace(/\+/g, '-').replace(/\//g, '_');
  if (urlSafe !== signature) out.push(urlSafe);
  return out;
}

/**
 * RSA key pairs generated together, off the main thread, before the tests: each RSA merchant gets its own
 * (merchants sharing a key pair would sign identical requests identically, and a signature is accepted once).
 */
const RSA_POOL_SIZE = 8;
let rsaPool: Promise<{ publicKeyPem: string; privateKeyPem: string }>[] = [];

async function rsaMerchant(): Promise<TestMerchant> {
  const pair = await rsaPool.shift()!;
  const created = await server.services.merchants.create({
    name: 'RSA Merchant',
    mode: 'sandbox',
    key: { type: 'RSA-SHA512', publicKeyPem: pair.publicKeyPem },
  }, 'test');
  return {
    id: created.merchant.id,
    keyId: created.key.keyId,
    privateKeyPem: pair.privateKeyPem,
    webhookSecret: created.webhookSecret,
    client: new PaymentClient({
      baseUrl: server.baseUrl,
      merchantId: created.merchant.id,
      key: { type: 'RSA-SHA512', privateKeyPem: pair.privateKeyPem },
      clock: () => server.clock.nowMs() / 1000,
    }),
  };
}

const merchantOfType = (keyType: 'HMAC-SHA256' | 'RSA-SHA512'): Promise<TestMerchant> =>
  keyType === 'RSA-SHA512' ? rsaMerchant() : server.createMerchant();

beforeAll(async () => {
  const generate = promisify(generateKeyPair);
  rsaPool = Array.from({ length: RSA_POOL_SIZE }, () =>
    generate('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    }).then(({ publicKey, privateKey }) => ({ publicKeyPem: publicKey, privateKeyPem: privateKey })),
  );
  server = await startTestServer();
});
afterAll(async () => server.close());

describe('missing and malformed credentials', () => {
  it.each(['MerchantID', 'Timestamp', 'Signature'])('refuses a request without %s with 401 MISSING_CREDENTIALS', async (name) => {
    const merchant = await server.createMerchant();
    const request = merchant.client.buildSignedRequest({ currency: 'IDR' });
    const headers = { ...request.headers };
    delete headers[name];
    expectError(await raw('payout/bankCode', request.body, headers), 401, 'MISSING_CREDENTIALS');
    // An empty value is as good as a missing header.
    expectError(await raw('payout/bankCode', request.body, { ...request.headers, [name]: '' }), 401, 'MISSING_CREDENTIALS');
  });

  it('refuses a request with no credentials at all', async () => {
    expectError(await raw('payout/bankCode', '{"currency":"IDR"}', { 'Content-Type': 'application/json' }), 401, 'MISSING_CREDENTIALS');
  });

  it.each([
    ['nine digits', '176381280'],
    ['eleven digits', '17638128001'],
    ['milliseconds', '1763812800000'],
    ['a decimal point', '1763812800.5'],
    ['letters', '17638128OO'],
    ['a sign', '+763812800'],
    ['an ISO date', '2025-11-22T12:00:00Z'],
  ])('refuses a Timestamp with %s with 401 INVALID_TIMESTAMP', async (_label, timestamp) => {
    const merchant = await server.createMerchant();
    // Signed over that very Timestamp, so only its format is wrong.
    const request = signedAt(merchant.id, keyOf(merchant), '{"currency":"IDR"}', timestamp);
    expectError(await send('payout/bankCode', request), 401, 'INVALID_TIMESTAMP');
  });
});

describe('the 300-second timestamp window', () => {
  it('refuses a Timestamp 301 s in the past or the future and accepts one 299 s away', async () => {
    const merchant = await server.createMerchant();
    const cases: ReadonlyArray<readonly [number, boolean]> = [
      [-301, false],
      [301, false],
      [-299, true],
      [299, true],
    ];
    for (const [offset, accepted] of cases) {
      alignServerClockToSecond();
      const response = await send('payout/bankCode', shiftedClient(merchant, offset).buildSignedRequest({ currency: 'IDR' }));
      if (accepted) expectOk(response);
      else expectError(response, 401, 'TIMESTAMP_OUT_OF_WINDOW');
    }
  });

  it('refuses a request signed now once the server clock has moved 301 s on, and accepts it at 299 s', async () => {
    const merchant = await rsaMerchant();
    alignServerClockToSecond();
    const late = merchant.client.buildSignedRequest({ currency: 'NGN' });
    const early = merchant.client.buildSignedRequest({ currency: 'IDR' });
    server.clock.advance(301_000);
    try {
      expectError(await send('payout/bankCode', late), 401, 'TIMESTAMP_OUT_OF_WINDOW');
    } finally {
      server.clock.advance(-301_000);
    }
    // Refused for its time, the signature was not spent: it still works within the window.
    expectOk(await send('payout/bankCode', late));
    server.clock.advance(299_000);
    try {
      expectOk(await send('payout/bankCode', early));
    } finally {
      server.clock.advance(-299_000);
    }
  });
});

describe('merchant and signature checks', () => {
  it('refuses an unknown MerchantID with 401 UNKNOWN_MERCHANT', async () => {
    const merchant = await server.createMerchant();
    const request = signedAt('mch_doesnotexist0000', keyOf(merchant), '{"currency":"IDR"}', String(Math.floor(server.clock.nowMs() / 1000)));
    expectError(await send('payout/bankCode', request), 401, 'UNKNOWN_MERCHANT');
  });

  it.each(['HMAC-SHA256', 'RSA-SHA512'] as const)('refuses a %s-signed body altered by one byte with 401 INVALID_SIGNATURE', async (keyType) => {
    const merchant = await merchantOfType(keyType);
    const request = merchant.client.buildSignedRequest({ currency: 'NGN' });
    const altered = request.body.replace('NGN', 'NGM');
    expect(Buffer.byteLength(altered)).toBe(Buffer.byteLength(request.body));
    expectError(await raw('payout/bankCode', altered, request.headers), 401, 'INVALID_SIGNATURE');
    // One more byte (still a valid body) is refused too.
    expectError(await raw('payout/bankCode', `${request.body} `, request.headers), 401, 'INVALID_SIGNATURE');
    // The Timestamp is covered as well.
    const otherTimestamp = String(Number(request.headers.Timestamp) + 1);
    expectError(await raw('payout/bankCode', request.body, { ...request.headers, Timestamp: otherTimestamp }), 401, 'INVALID_SIGNATURE');
    // The untouched request was never accepted above, so it still goes through.
    expectOk(await send('payout/bankCode', request));
  });

  it("refuses a signature made with another merchant's key with 401 INVALID_SIGNATURE", async () => {
    const a = await rsaMerchant();
    const b = await rsaMerchant();
    const c = await server.createMerchant({ keyType: 'HMAC-SHA256' });
    for (const signer of [a, c]) {
      const request = signer.client.buildSignedRequest({ currency: 'IDR' });
      expectError(await raw('payout/bankCode', request.body, { ...request.headers, MerchantID: b.id }), 401, 'INVALID_SIGNATURE');
    }
  });

  it.each(['HMAC-SHA256', 'RSA-SHA512'] as const)('refuses every re-spelling of a valid %s signature in base64', async (keyType) => {
    const merchant = await merchantOfType(keyType);
    const request = merchant.client.buildSignedRequest({ currency: 'IDR' });
    const signature = request.headers.Signature!;
    const variants = respellings(signature).filter((v) => v !== signature);
    expect(variants.length).toBeGreaterThanOrEqual(3);
    // The low-bit flip really decodes to the same bytes: only its spelling differs.
    expect(variants.some((v) => v.length === signature.length && Buffer.from(v, 'base64').equals(Buffer.from(signature, 'base64')))).toBe(true);
    for (const variant of variants) {
      expectError(await raw('payout/bankCode', request.body, { ...request.headers, Signature: variant }), 401, 'INVALID_SIGNATURE');
    }
    expectOk(await send('payout/bankCode', request));
    // Re-spelling an accepted signature must not get a second use of it either.
    for (const variant of variants) {
      const response = await raw('payout/bankCode', request.body, { ...request.headers, Signature: variant });
      expect(response.status).toBe(401);
      expect(['INVALID_SIGNATURE', 'SIGNATURE_REUSED']).toContain(response.body.message);
    }
  });
});

describe('one-time signatures', () => {
  it('answers the same signed request again on the same path', async () => {
    const merchant = await server.createMerchant();
    const request = merchant.client.buildSignedRequest({ currency: 'EGP' });
    expectOk(await send('payout/bankCode', request));
    expectOk(await send('payout/bankCode', request));
  });

  it('shares a signed body between read endpoints and refuses it on a state-changing one', async () => {
    const merchant = await rsaMerchant();
    await server.admin('PUT', '/rates/INR', { reference: '88.25', depositSpreadBps: 50, withdrawSpreadBps: 50 });
    const request = merchant.client.buildSignedRequest({ currency: 'INR' });
    expectOk(await send('payout/bankCode', request));
    expectOk(await send('account/usdt/rate', request));
    expectOk(await send('account/balance', request));
    expectError(await send('payment/initiate', request), 401, 'SIGNATURE_REUSED');
  });

  it('accepts every one of several identical requests sent at once to one path', async () => {
    const merchant = await server.createMerchant();
    const request = merchant.client.buildSignedRequest({ currency: 'IDR' });
    const responses = await Promise.all(Array.from({ length: 6 }, () => send('payout/bankCode', request)));
    for (const r of responses) expectOk(r);
  });

  it('refuses a replay for as long as its Timestamp passes the window, even once replay records are purged', async () => {
    const merchant = await server.createMerchant();
    alignServerClockToSecond();
    const second = Math.floor(server.clock.nowMs() / 1000);
    // Signed 300 s ahead: accepted now, and its Timestamp stays inside the window until second + 601.
    const request = signedAt(merchant.id, keyOf(merchant), '{"currency":"IDR"}', String(second + 300));
    expectOk(await send('payout/bankCode', request));
    // Half a second before that Timestamp leaves the window, the periodic purge runs, then the replay comes.
    const moved = (second + 600) * 1000 + 500 - server.clock.nowMs();
    server.clock.advance(moved);
    try {
      await server.handle.replay.purgeExpired();
      const replay = await send('webhook/resend', request);
      expect(replay.status).toBe(401);
      expect(['SIGNATURE_REUSED', 'TIMESTAMP_OUT_OF_WINDOW']).toContain(replay.body.message);
    } finally {
      server.clock.advance(-moved);
    }
  });

  it('answers identical SDK calls in the same second', async () => {
    const merchant = await server.createMerchant();
    const results = [];
    for (let i = 0; i < 3; i += 1) results.push(await merchant.client.bankCodes({ currency: 'IDR' }));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  describe('with a second instance on the same database', () => {
    let second: { services: Services & { close(): Promise<void> }; handle: AppHandle; baseUrl: string };
    beforeAll(async () => {
      const services = await buildServices(testConfig(server.database), server.clock);
      const handle = await buildApp(services);
      await handle.app.listen({ host: '127.0.0.1', port: 0 });
      const address = handle.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      second = { services, handle, baseUrl: `http://127.0.0.1:${port}` };
    });
    afterAll(async () => {
      await second.handle.close();
      await second.services.close();
    });

    it('judges a signature the first accepted alike on the second, and the other way round', async () => {
      const merchant = await rsaMerchant();
      const first = merchant.client.buildSignedRequest({ currency: 'NGN' });
      expectOk(await send('payout/bankCode', first));
      expectOk(await send('payout/bankCode', first, second.baseUrl));
      expectError(await send('payment/initiate', first, second.baseUrl), 401, 'SIGNATURE_REUSED');

      const other = merchant.client.buildSignedRequest({ currency: 'IDR' });
      expectOk(await send('payout/bankCode', other, second.baseUrl));
      expectError(await send('payout/initiate', other), 401, 'SIGNATURE_REUSED');
    });

    it('lets one path of two win a signature sent to both instances at once, when one path changes state', async () => {
      const merchant = await server.createMerchant();
      const request = merchant.client.buildSignedRequest({ currency: 'EGP' });
      const paths = ['payout/bankCode', 'payment/initiate', 'payout/bankCode', 'payment/initiate'];
      const responses = await Promise.all(paths.map((path, i) => send(path, request, i < 2 ? undefined : second.baseUrl)));
      // payment/initiate refuses the body after authentication (400), so "through" is anything but 401.
      const through = new Set(paths.filter((_, i) => responses[i]!.status !== 401));
      expect(through.size).toBe(1);
      for (const [i, r] of responses.entries()) if (!through.has(paths[i]!)) expectError(r, 401, 'SIGNATURE_REUSED');
    });
  });
});

describe('disabled merchants', () => {
  it('answers 403 MERCHANT_DISABLED while disabled and works again once re-enabled', async () => {
    const merchant = await rsaMerchant();
    expectOk(await send('payout/bankCode', merchant.client.buildSignedRequest({ currency: 'IDR' })));

    const disabled = await server.admin('POST', `/merchants/${merchant.id}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.status).toBe('disabled');
    expectError(await send('payout/bankCode', merchant.client.buildSignedRequest({ currency: 'IDR' })), 403, 'MERCHANT_DISABLED');
    expectError(await send('account/usdt/rate', merchant.client.buildSignedRequest({ currency: 'INR' })), 403, 'MERCHANT_DISABLED');

    const enabled = await server.admin('POST', `/merchants/${merchant.id}/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body.data.status).toBe('active');
    expectOk(await send('payout/bankCode', merchant.client.buildSignedRequest({ currency: 'IDR' })));
  });
});

describe('key rotation', () => {
  it('runs two keys at once, refuses a third, and stops accepting a revoked one', async () => {
    const merchant = await server.createMerchant({ keyType: 'RSA-SHA512' });
    const rsa = merchant.client;

    const added = await server.admin('POST', `/merchants/${merchant.id}/keys`, { type: 'HMAC-SHA256', label: 'rotation' });
    expect(added.status).toBe(200);
    const secret: string = added.body.data.secret;
    expect(secret).toMatch(/^hsk_/);
    const hmac = new PaymentClient({
      baseUrl: server.baseUrl,
      merchantId: merchant.id,
      key: { type: 'HMAC-SHA256', secret },
      clock: () => server.clock.nowMs() / 1000,
    });

    expectOk(await send('payout/bankCode', rsa.buildSignedRequest({ currency: 'IDR' })));
    expectOk(await send('payout/bankCode', hmac.buildSignedRequest({ currency: 'IDR' })));

    const third = await server.admin('POST', `/merchants/${merchant.id}/keys`, { type: 'RSA-SHA512' });
    expect(third.status).toBe(409);
    expect(third.body.code).toBe('409');
    expect(third.body.message).toMatch(UPPER_SNAKE);

    const revoked = await server.admin('DELETE', `/merchants/${merchant.id}/keys/${merchant.keyId}`);
    expect(revoked.status).toBe(200);
    expectError(await send('payout/bankCode', rsa.buildSignedRequest({ currency: 'IDR' })), 401, 'INVALID_SIGNATURE');
    expectOk(await send('payout/bankCode', hmac.buildSignedRequest({ currency: 'IDR' })));

    // A revoked key cannot be revoked again, and its slot is free for the next key.
    expect((await server.admin('DELETE', `/merchants/${merchant.id}/keys/${merchant.keyId}`)).status).toBe(404);
    const next = await server.admin('POST', `/merchants/${merchant.id}/keys`, { type: 'RSA-SHA512' });
    expect(next.status).toBe(200);
    const nextClient = new PaymentClient({
      baseUrl: server.baseUrl,
      merchantId: merchant.id,
      key: { type: 'RSA-SHA512', privateKeyPem: next.body.data.privateKeyPem },
      clock: () => server.clock.nowMs() / 1000,
    });
    expectOk(await send('payout/bankCode', nextClient.buildSignedRequest({ currency: 'IDR' })));
    expectOk(await send('payout/bankCode', hmac.buildSignedRequest({ currency: 'IDR' })));
  });

  it('accepts a registered merchant-held RSA public key next to an HMAC key', async () => {
    const merchant = await server.createMerchant({ keyType: 'HMAC-SHA256' });
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicKeyPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const privateKeyPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const added = await server.admin('POST', `/merchants/${merchant.id}/keys`, { type: 'RSA-SHA512', publicKeyPem });
    expect(added.status).toBe(200);
    expect(added.body.data.privateKeyPem).toBeUndefined();
    const own = new PaymentClient({
      baseUrl: server.baseUrl,
      merchantId: merchant.id,
      key: { type: 'RSA-SHA512', privateKeyPem },
      clock: () => server.clock.nowMs() / 1000,
    });
    expectOk(await send('payout/bankCode', own.buildSignedRequest({ currency: 'IDR' })));
    expectOk(await send('payout/bankCode', merchant.client.buildSignedRequest({ currency: 'IDR' })));
  });
});

describe('rate limit', () => {
  it('answers 429 RATE_LIMITED with an integer Retry-After to a burst over the merchant limit', async () => {
    const merchant = await server.createMerchant({ rateLimitPerSecond: 5 });
    // More than twice the burst, so some are refused even if the burst is spread over a busy second. Each body
    // differs (trailing JSON whitespace), so every request is a fresh one, not a repeat.
    const requests = Array.from({ length: 16 }, (_, i) => merchant.client.buildSignedRequest(`{"currency":"IDR"}${' '.repeat(i)}`));
    const responses = await Promise.all(requests.map((r) => send('payout/bankCode', r)));
    const limited = responses.filter((r) => r.status === 429);
    const accepted = responses.filter((r) => r.status === 200);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(accepted.length + limited.length).toBe(responses.length);
    for (const r of limited) {
      expectError(r, 429, 'RATE_LIMITED');
      const retryAfter = r.headers.get('retry-after');
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    }
  });

  it('does not let one merchant use up another merchant’s rate', async () => {
    const busy = await server.createMerchant({ rateLimitPerSecond: 2 });
    const quiet = await server.createMerchant({ rateLimitPerSecond: 2 });
    await Promise.all(Array.from({ length: 8 }, () => send('payout/bankCode', busy.client.buildSignedRequest({ currency: 'IDR' }))));
    expectOk(await send('payout/bankCode', quiet.client.buildSignedRequest({ currency: 'IDR' })));
  });
});

describe('Request-Id', () => {
  it('is on every response, success or error, and differs per request', async () => {
    const merchant = await server.createMerchant();
    const kinds = [
      await send('payout/bankCode', merchant.client.buildSignedRequest({ currency: 'IDR' })),
      await raw('payout/bankCode', '{"currency":"IDR"}', { 'Content-Type': 'application/json' }),
      await raw('payout/bankCode', 'x', { 'Content-Type': 'text/plain' }),
      await raw('nope', '{}', { 'Content-Type': 'application/json' }),
      await raw('/admin/merchants', '{}', { 'Content-Type': 'application/json' }),
    ];
    expect(kinds.map((r) => r.status)).toEqual([200, 401, 415, 404, 401]);
    const ids = seen.map((r) => r.headers.get('request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z_-]{8,}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(seen.length).toBeGreaterThan(40);
  });
});
