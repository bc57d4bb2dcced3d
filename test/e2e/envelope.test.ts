// The response envelope and the request-shape errors of contract sections 1 and 7, through real HTTP:
// INVALID_JSON, VALIDATION_FAILED with field problems, UNSUPPORTED_CURRENCY, PAYLOAD_TOO_LARGE,
// UNSUPPORTED_MEDIA_TYPE, NOT_FOUND, and error bodies that never leak internals.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices } from '../../src/bootstrap.js';
import { buildApp } from '../../src/server.js';
import type { SignedRequest } from '../../sdk/src/index.js';
import { startTestServer, testConfig, type TestMerchant, type TestServer } from '../helpers/server.js';

interface RawResponse {
  readonly status: number;
  readonly text: string;
  readonly body: any;
  readonly headers: Headers;
}

const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
/** What must never appear in an answer: stack frames, source paths, SQL, driver names. */
const LEAKS = [
  /\bat [\w.<>]+ \(/,
  /\bat (?:file:\/\/|\/)/,
  /node_modules/,
  /\.(?:ts|js|mjs):\d+/,
  /\b(?:SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/i,
  /\b(?:sqlite|SQLITE_\w+|postgres|kysely|pg_|relation "|syntax error)/i,
  /\bTypeError\b|\bReferenceError\b|\bundefined is not\b|Cannot read propert/,
  /\/work\/|\/tmp\//,
];

let server: TestServer;
let merchant: TestMerchant;

const KIB_64 = 64 * 1024;

async function raw(path: string, body: string | Buffer | undefined, headers: Record<string, string>, method = 'POST', baseUrl = server.baseUrl): Promise<RawResponse> {
  const response = await fetch(baseUrl + (path.startsWith('/') ? path : `/v1/api/${path}`), {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body, 'utf8') : new Uint8Array(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, text, body: parsed, headers: response.headers };
}

const send = (path: string, request: SignedRequest, baseUrl?: string): Promise<RawResponse> =>
  raw(path, request.body, request.headers, 'POST', baseUrl);

/** Signs `text` as the exact body bytes and sends it. */
const signedText = (path: string, text: string): Promise<RawResponse> => send(path, merchant.client.buildSignedRequest(text));

/** The contract's error envelope, with nothing else in it and nothing internal. */
function expectErrorEnvelope(response: RawResponse, status: number, message?: string): void {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('request-id')).toBeTruthy();
  expect(response.body).toBeDefined();
  expect(Object.keys(response.body).sort()).toEqual(['code', 'data', 'message']);
  expect(response.body.code).toBe(String(status));
  expect(response.body.message).toMatch(UPPER_SNAKE);
  if (message !== undefined) expect(response.body.message).toBe(message);
  expect(typeof response.body.data.detail).toBe('string');
  expect(response.body.data.detail.length).toBeGreaterThan(0);
  for (const key of Object.keys(response.body.data)) expect(['detail', 'errors']).toContain(key);
  for (const pattern of LEAKS) expect(response.text).not.toMatch(pattern);
}

function expectFieldProblem(response: RawResponse, field: string): void {
  expectErrorEnvelope(response, 400, 'VALIDATION_FAILED');
  const errors = response.body.data.errors as { field: unknown; problem: unknown }[];
  expect(Array.isArray(errors)).toBe(true);
  expect(errors.length).toBeGreaterThan(0);
  for (const e of errors) {
    expect(Object.keys(e).sort()).toEqual(['field', 'problem']);
    expect(typeof e.field).toBe('string');
    expect(typeof e.problem).toBe('string');
    expect((e.problem as string).length).toBeGreaterThan(0);
  }
  expect(errors.map((e) => e.field)).toContain(field);
}

beforeAll(async () => {
  server = await startTestServer();
  merchant = await server.createMerchant();
});
afterAll(async () => server.close());

describe('success envelope', () => {
  it('is HTTP 200 with code "200", message "SUCCESS" and the data, as JSON', async () => {
    const response = await signedText('payout/bankCode', '{"currency":"IDR"}');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('request-id')).toBeTruthy();
    expect(Object.keys(response.body).sort()).toEqual(['code', 'data', 'message']);
    expect(response.body.code).toBe('200');
    expect(response.body.message).toBe('SUCCESS');
    expect(Array.isArray(response.body.data)).toBe(true);
  });

  it('accepts application/json with a charset parameter', async () => {
    const request = merchant.client.buildSignedRequest({ currency: 'NGN' });
    const response = await raw('payout/bankCode', request.body, { ...request.headers, 'Content-Type': 'application/json; charset=utf-8' });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('SUCCESS');
  });
});

describe('INVALID_JSON', () => {
  it.each([
    ['broken JSON', '{"currency":"IDR"'],
    ['a trailing comma', '{"currency":"IDR",}'],
    ['a JSON array', '["IDR"]'],
    ['a JSON string', '"IDR"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['an empty body', ''],
    ['two objects', '{"currency":"IDR"}{"currency":"IDR"}'],
  ])('answers 400 INVALID_JSON to %s signed correctly over those bytes', async (_label, text) => {
    expectErrorEnvelope(await signedText('payout/bankCode', text), 400, 'INVALID_JSON');
  });

  it('answers a broken body from an unsigned caller with 401, revealing nothing about the body', async () => {
    const response = await raw('payout/bankCode', '{"currency":', { 'Content-Type': 'application/json' });
    expectErrorEnvelope(response, 401, 'MISSING_CREDENTIALS');
  });
});

describe('VALIDATION_FAILED', () => {
  it('names an unknown field', async () => {
    expectFieldProblem(await signedText('payout/bankCode', '{"currency":"IDR","curency":"IDR"}'), 'curency');
  });

  it('names a missing field', async () => {
    expectFieldProblem(await signedText('payout/bankCode', '{}'), 'currency');
  });

  it.each([
    ['a number', '{"currency":5}'],
    ['null', '{"currency":null}'],
    ['a boolean', '{"currency":true}'],
    ['an object', '{"currency":{"code":"IDR"}}'],
    ['an array', '{"currency":["IDR"]}'],
  ])('names a field of the wrong type (%s) on every merchant route', async (_label, text) => {
    for (const path of ['payout/bankCode', 'account/balance', 'account/usdt/rate']) {
      expectFieldProblem(await signedText(path, text), 'currency');
    }
  });
});

describe('UNSUPPORTED_CURRENCY', () => {
  it.each(['USD', 'inr', 'EUR', 'XXX'])('answers 400 UNSUPPORTED_CURRENCY for %s', async (currency) => {
    for (const path of ['payout/bankCode', 'account/balance', 'account/usdt/rate']) {
      expectErrorEnvelope(await signedText(path, JSON.stringify({ currency })), 400, 'UNSUPPORTED_CURRENCY');
    }
  });
});

describe('PAYLOAD_TOO_LARGE', () => {
  it('answers 413 to a body one byte over 64 KiB', async () => {
    const text = `{"currency":"IDR"${' '.repeat(KIB_64 - 18 + 1)}}`;
    expect(Buffer.byteLength(text)).toBe(KIB_64 + 1);
    expectErrorEnvelope(await signedText('payout/bankCode', text), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers 413 to a far larger body, even unsigned', async () => {
    const text = JSON.stringify({ currency: 'IDR', padding: 'x'.repeat(200 * 1024) });
    expectErrorEnvelope(await raw('payout/bankCode', text, { 'Content-Type': 'application/json' }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('accepts a body of exactly 64 KiB', async () => {
    const text = `{"currency":"IDR"${' '.repeat(KIB_64 - 18)}}`;
    expect(Buffer.byteLength(text)).toBe(KIB_64);
    const response = await signedText('payout/bankCode', text);
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('SUCCESS');
  });
});

describe('UNSUPPORTED_MEDIA_TYPE', () => {
  it.each([
    ['text/plain', 'text/plain'],
    ['form data', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=xyz'],
    ['a look-alike', 'application/jsonx'],
    ['XML', 'application/xml'],
  ])('answers 415 to %s', async (_label, contentType) => {
    const request = merchant.client.buildSignedRequest({ currency: 'IDR' });
    expectErrorEnvelope(await raw('payout/bankCode', request.body, { ...request.headers, 'Content-Type': contentType }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers 415 when the Content-Type header is missing', async () => {
    const request = merchant.client.buildSignedRequest({ currency: 'IDR' });
    const { 'Content-Type': _dropped, ...headers } = request.headers;
    expectErrorEnvelope(await raw('payout/bankCode', request.body, headers), 415, 'UNSUPPORTED_MEDIA_TYPE');
    // With no body at all as well.
    expectErrorEnvelope(await raw('payout/bankCode', undefined, headers), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('NOT_FOUND', () => {
  it.each([
    ['POST', '/v1/api/nope'],
    ['POST', '/v1/api/payout/bankcode'],
    ['POST', '/v1/api/payout'],
    ['POST', '/v2/api/payout/bankCode'],
    ['GET', '/nothing/here'],
    ['GET', '/v1/api'],
  ])('answers %s %s with the 404 envelope', async (method, path) => {
    const request = merchant.client.buildSignedRequest({ currency: 'IDR' });
    const response = await raw(path, method === 'GET' ? undefined : request.body, method === 'GET' ? {} : request.headers, method);
    expectErrorEnvelope(response, 404, 'NOT_FOUND');
  });

  it.each(['/v1/api/%', '/v1/api/payout/bankCode%', '/v1/api/%zz', '/admin/%E0%A4%A'])(
    'answers a malformed URL (%s) in the envelope, with a Request-Id',
    async (path) => {
      // node:http, because fetch would refuse or re-encode such a URL before sending it.
      const response = await new Promise<RawResponse>((resolve, reject) => {
        const url = new URL(server.baseUrl);
        const request = http.request(
          { host: url.hostname, port: url.port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '2' } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => {
              const headers = new Headers();
              for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
              let body: unknown;
              try {
                body = JSON.parse(text);
              } catch {
                body = undefined;
              }
              resolve({ status: res.statusCode ?? 0, text, body, headers });
            });
          },
        );
        request.on('error', reject);
        request.end('{}');
      });
      expect([400, 404]).toContain(response.status);
      expectErrorEnvelope(response, response.status);
    },
  );

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('answers %s on a POST route with 404 or 405 in the envelope', async (method) => {
    const request = merchant.client.buildSignedRequest({ currency: 'IDR' });
    const response = await raw('payout/bankCode', method === 'GET' ? undefined : request.body, method === 'GET' ? {} : request.headers, method);
    expect([404, 405]).toContain(response.status);
    expectErrorEnvelope(response, response.status, response.status === 404 ? 'NOT_FOUND' : 'METHOD_NOT_ALLOWED');
  });
});

describe('errors never leak internals', () => {
  it('keeps prototype-polluting keys out', async () => {
    const response = await signedText('payout/bankCode', '{"currency":"IDR","__proto__":{"polluted":true}}');
    expect(response.status).toBe(400);
    expectErrorEnvelope(response, 400);
    expect(['INVALID_JSON', 'VALIDATION_FAILED']).toContain(response.body.message);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers with a bare INTERNAL_ERROR or UNAVAILABLE when the database is gone', async () => {
    const services = await buildServices(testConfig(server.database), server.clock);
    const handle = await buildApp(services);
    await handle.app.listen({ host: '127.0.0.1', port: 0 });
    const address = handle.app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      await services.store.close();
      const response = await send('payout/bankCode', merchant.client.buildSignedRequest({ currency: 'IDR' }), baseUrl);
      expect([500, 503]).toContain(response.status);
      expectErrorEnvelope(response, response.status, response.status === 500 ? 'INTERNAL_ERROR' : 'UNAVAILABLE');
    } finally {
      await handle.close();
      // Whatever else the services hold (the upstream simulator, ...) goes too; the store is already closed.
      await services.close().catch(() => undefined);
    }
  });

  it('returns error details that name no SQL, file or stack across odd inputs', async () => {
    const oddBodies = [
      '{"currency":"\'; DROP TABLE merchants; --"}',
      '{"currency":"IDR\\u0000"}',
      `{"currency":"${'A'.repeat(5000)}"}`,
      '{"currency":1e400}',
      `${'['.repeat(3000)}${']'.repeat(3000)}`,
      '{"currency":"\\ud800"}',
    ];
    for (const text of oddBodies) {
      const response = await signedText('payout/bankCode', text);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expectErrorEnvelope(response, response.status);
    }
    const table = await server.services.store.db.selectFrom('merchants').select('id').execute();
    expect(table.length).toBeGreaterThan(0);
  });
});
