// Property-based fuzzing of the merchant API through real HTTP. For every merchant route (today's and
// the ones still to come, which may answer 404 for now), arbitrary bodies and arbitrary header
// combinations, correctly signed or not, must give an answer below 500, always in the envelope with a
// stable UPPER_SNAKE reason, and must write nothing: every table keeps its rows, except that
// `signature_claims` may grow (it records accepted signatures by design) and the shared rate-limit
// counters in `rate_limit_windows` change with every request.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REASON_STATUS } from '../../src/core/errors.js';
import { signHmacSha256, signRsaSha512, type SignedRequest } from '../../sdk/src/index.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { expectNoWrites, snapshot as snapshotOf } from '../helpers/snapshot.js';

const NUM_RUNS = 150;

const ROUTES = [
  'payout/bankCode',
  'account/balance',
  'account/usdt/rate',
  'payment/initiate',
  'payment/status',
  'payment/fetch',
  'payment/refund',
  'payment/methods',
  'payout/initiate',
  'payout/status',
  'payout/fetch',
  'sandbox/payment/complete',
] as const;

const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
const KNOWN_REASONS = new Map<string, number>(Object.entries(REASON_STATUS));

let server: TestServer;
let hmacMerchant: TestMerchant;
let rsaMerchant: TestMerchant;

// ---------------------------------------------------------------------------------------------------
// Sending and checking

interface Attempt {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

async function attempt(request: Attempt): Promise<void> {
  const response = await fetch(server.baseUrl + request.path, {
    method: request.method,
    headers: request.headers,
    // A Buffer, so fetch adds no Content-Type of its own: the header set is exactly the generated one.
    body: Buffer.from(request.body, 'utf8'),
  });
  const text = await response.text();
  const where = `${request.method} ${request.path} -> ${response.status} ${text.slice(0, 300)}`;
  expect(response.status, where).toBeLessThan(500);
  expect(response.headers.get('request-id'), where).toBeTruthy();
  expect(response.headers.get('content-type') ?? '', where).toMatch(/^application\/json/);
  const body = JSON.parse(text) as { code: unknown; message: unknown; data: any };
  expect(Object.keys(body).sort(), where).toEqual(['code', 'data', 'message']);
  expect(body.code, where).toBe(String(response.status));
  if (response.status === 200) {
    expect(body.message, where).toBe('SUCCESS');
    return;
  }
  expect(body.message, where).toMatch(UPPER_SNAKE);
  // A stable reason from the contract's table, whose HTTP status is the one answered.
  expect(KNOWN_REASONS.get(body.message as string), where).toBe(response.status);
  expect(typeof body.data?.detail, where).toBe('string');
  expect(body.data.detail, where).not.toMatch(/node_modules|\.ts:\d+|\bat \S+ \(|SELECT |INSERT |sqlite|postgres|kysely/i);
}

// ---------------------------------------------------------------------------------------------------
// Arbitraries: bodies

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '';
  } catch {
    return '';
  }
}

const currencyLike = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<unknown>('INR', 'EGP', 'NGN', 'IDR') },
  { weight: 2, arbitrary: fc.constantFrom<unknown>('USD', 'inr', '', ' INR', 'INR\u0000', '__proto__', 'constructor', 'IDRR', 'ÍDR') },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.boolean()) },
);

const amountLike = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -1, 0.001, 100.005, 100.5, 1e21, 1e308, -0, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1, 0.1 + 0.2, 5e-324),
  fc.string({ maxLength: 20 }),
);

const refLike = fc.oneof(fc.uuid(), fc.string({ maxLength: 80 }), fc.stringMatching(/^[A-Za-z0-9_-]{1,70}$/));
const textLike = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constant(''));
const methodLike = fc.oneof(
  fc.constantFrom('NATIVE', 'TRANSFER', 'BNI', 'BRI', 'MANDIRI', 'PERMATA', 'QRIS', 'OVO', 'DANA', 'FAWRY', 'WALLET', 'BANK', 'UPI'),
  textLike,
);
const urlLike = fc.oneof(fc.webUrl(), textLike, fc.constantFrom('http://127.0.0.1/x', 'http://169.254.169.254/latest', 'file:///etc/passwd'));

/** Bodies shaped like the API's requests, each field right or wrong. */
const shapedFields = fc.record(
  {
    currency: currencyLike,
    amount: amountLike,
    merchantRef: refLike,
    transactionRef: refLike,
    method: methodLike,
    name: textLike,
    email: fc.oneof(fc.emailAddress(), textLike),
    phone: fc.oneof(fc.stringMatching(/^\d{1,20}$/), textLike),
    account: fc.oneof(fc.stringMatching(/^\d{1,24}$/), textLike),
    bankCode: fc.oneof(fc.constantFrom('058', '00014', 'SBIN0001234', '1003'), textLike),
    redirectUrl: urlLike,
    webhookUrl: urlLike,
    outcome: fc.constantFrom('Success', 'Failed', 'success', ''),
  },
  { requiredKeys: [] },
);

const FIELD_NAMES = ['currency', 'amount', 'merchantRef', 'transactionRef', 'method', 'name', 'email', 'phone', 'account', 'bankCode', 'redirectUrl'];

/**
 * A shaped body with one field certainly invalid (an object where no field takes one), so no creation
 * can ever be accepted and the no-write property holds for routes still being written; the other
 * fields exercise every validator.
 */
const shapedInvalidBody = fc
  .tuple(shapedFields, fc.constantFrom(...FIELD_NAMES), fc.constantFrom<unknown>({ $: 1 }, [], [[]], { currency: 'INR' }))
  .map(([fields, broken, value]) => safeStringify({ ...fields, [broken]: value }));

/** Bodies of the read routes, which may well succeed. */
const readBody = fc.oneof(
  { weight: 3, arbitrary: fc.record({ currency: currencyLike }).map(safeStringify) },
  fc.record({ transactionRef: refLike }).map(safeStringify),
  fc.record({ merchantRef: refLike }).map(safeStringify),
  fc.tuple(currencyLike, fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 })).map(([currency, extra]) =>
    safeStringify({ ...extra, currency }),
  ),
);

const hugeNumber = fc.stringMatching(/^-?\d{1,400}(\.\d{1,40})?([eE][+-]?\d{1,4})?$/);

const rawText = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue().map(safeStringify) },
  { weight: 2, arbitrary: fc.anything({ maxDepth: 3, withNullPrototype: true, withObjectString: true }).map(safeStringify) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 200 }) },
  { weight: 2, arbitrary: hugeNumber.map((n) => `{"currency":"INR","amount":${n}}`) },
  { weight: 1, arbitrary: hugeNumber.map((n) => `{"currency":${n}}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5000 }).map((n) => `${'{"currency":'.repeat(n)}"INR"${'}'.repeat(n)}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 10000 }).map((n) => `{"currency":${'['.repeat(n)}${']'.repeat(n)}}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      '{"currency":"INR","__proto__":{"currency":"USD"}}',
      '{"currency":"INR","currency":"USD"}',
      '{"currency":"IDR"}\u0000',
      '\ufeff{"currency":"IDR"}',
      '{"currency":"\\ud800"}',
      '{"currency":"INR"} trailing',
      '',
      ' ',
      'null',
    ),
  },
  { weight: 3, arbitrary: shapedInvalidBody },
  { weight: 3, arbitrary: readBody },
);

// ---------------------------------------------------------------------------------------------------
// Arbitraries: routes and headers

const route = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...ROUTES).map((r) => `/v1/api/${r}`) },
  { weight: 1, arbitrary: fc.webPath().map((p) => `/v1/api${p.startsWith('/') ? p : `/${p}`}`) },
  { weight: 1, arbitrary: fc.constantFrom(...ROUTES).map((r) => `/v1/api/${r}?currency=INR&x=%00`) },
);

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant<string | undefined>('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom<string | undefined>(
      undefined,
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      'application/json;;',
      ';',
      '*/*',
    ),
  },
  { weight: 1, arbitrary: printable },
);

type MerchantMode = 'own' | 'other' | 'missing' | 'unknown' | 'garbage' | 'long';
type TimestampMode = 'now' | 'missing' | 'garbage' | 'past' | 'future' | 'milliseconds' | 'random10';
type SignatureMode = 'valid' | 'missing' | 'garbage' | 'randomBase64' | 'unpadded' | 'huge' | 'otherKey';

const headerModes = fc.record({
  merchant: fc.constantFrom<MerchantMode>('own', 'own', 'other', 'missing', 'unknown', 'garbage', 'long'),
  timestamp: fc.constantFrom<TimestampMode>('now', 'now', 'missing', 'garbage', 'past', 'future', 'milliseconds', 'random10'),
  signature: fc.constantFrom<SignatureMode>('valid', 'valid', 'missing', 'garbage', 'randomBase64', 'unpadded', 'huge', 'otherKey'),
  garbage: printable,
  digits: fc.stringMatching(/^\d{10}$/),
  randomBytes: fc.uint8Array({ minLength: 1, maxLength: 300 }),
  useRsa: fc.boolean(),
});

function nowSeconds(): number {
  return Math.floor(server.clock.nowMs() / 1000);
}

type HeaderModes = typeof headerModes extends fc.Arbitrary<infer T> ? T : never;

function buildHeaders(modes: HeaderModes, body: string, ct: string | undefined): Record<string, string> {
  const merchant = modes.useRsa ? rsaMerchant : hmacMerchant;
  const other = modes.useRsa ? hmacMerchant : rsaMerchant;
  const headers: Record<string, string> = {};
  if (ct !== undefined) headers['Content-Type'] = ct;

  const merchantId = {
    own: merchant.id,
    other: other.id,
    missing: undefined,
    unknown: `mch_${modes.digits}`,
    garbage: modes.garbage,
    long: `mch_${'x'.repeat(100)}`,
  }[modes.merchant];
  if (merchantId !== undefined) headers.MerchantID = merchantId;

  const timestamp = {
    now: String(nowSeconds()),
    missing: undefined,
    garbage: modes.garbage,
    past: String(nowSeconds() - 3600),
    future: String(nowSeconds() + 3600),
    milliseconds: String(server.clock.nowMs()),
    random10: modes.digits,
  }[modes.timestamp];
  if (timestamp !== undefined) headers.Timestamp = timestamp;

  const signedTimestamp = timestamp ?? String(nowSeconds());
  const sign = (who: TestMerchant): string =>
    who.privateKeyPem ? signRsaSha512(who.privateKeyPem, body, signedTimestamp) : signHmacSha256(who.secret!, body, signedTimestamp);
  const signature = {
    valid: () => sign(merchant),
    missing: () => undefined,
    garbage: () => modes.garbage,
    randomBase64: () => Buffer.from(modes.randomBytes).toString('base64'),
    unpadded: () => sign(merchant).replace(/=+$/, ''),
    huge: () => 'A'.repeat(3000),
    otherKey: () => sign(other),
  }[modes.signature]();
  if (signature !== undefined) headers.Signature = signature;
  return headers;
}

// ---------------------------------------------------------------------------------------------------

beforeAll(async () => {
  // No background jobs: the only writes during the fuzzing are the ones requests could make.
  server = await startTestServer({}, { worker: false });
  hmacMerchant = await server.createMerchant({ keyType: 'HMAC-SHA256' });
  rsaMerchant = await server.createMerchant({ keyType: 'RSA-SHA512' });
  // Some reads then succeed, so the success path is fuzzed as well.
  const rate = await server.admin('PUT', '/rates/INR', { reference: '88.25', depositSpreadBps: 50, withdrawSpreadBps: 50 });
  expect(rate.status).toBe(200);
});
afterAll(async () => server.close());

describe('fuzzing the merchant API', () => {
  it('sees the tables it guards', async () => {
    const tables = [...(await snapshotOf(server.services.store)).keys()];
    expect(tables).toEqual(expect.arrayContaining(['merchants', 'api_keys', 'usdt_rates', 'audit_log', 'signature_claims']));
  });

  it('answers correctly signed arbitrary bodies on every route below 500, in the envelope, writing nothing', async () => {
    const before = await snapshotOf(server.services.store);
    await fc.assert(
      fc.asyncProperty(route, rawText, fc.boolean(), async (path, body, useRsa) => {
        const merchant = useRsa ? rsaMerchant : hmacMerchant;
        const signed: SignedRequest = merchant.client.buildSignedRequest(body);
        await attempt({ method: 'POST', path, headers: signed.headers, body: signed.body });
      }),
      { numRuns: NUM_RUNS },
    );
    expectNoWrites(before, await snapshotOf(server.services.store));
  });

  it('answers request-shaped bodies, signed, on every route below 500, writing nothing', async () => {
    const before = await snapshotOf(server.services.store);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.oneof(shapedInvalidBody, readBody), async (path, body) => {
        const signed = hmacMerchant.client.buildSignedRequest(body);
        await attempt({ method: 'POST', path: `/v1/api/${path}`, headers: signed.headers, body: signed.body });
      }),
      { numRuns: NUM_RUNS },
    );
    expectNoWrites(before, await snapshotOf(server.services.store));
  });

  it('answers arbitrary header combinations, signed or not, below 500, in the envelope, writing nothing', async () => {
    const before = await snapshotOf(server.services.store);
    await fc.assert(
      fc.asyncProperty(
        route,
        rawText,
        headerModes,
        contentType,
        fc.constantFrom('POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE'),
        async (path, body, modes, ct, method) => {
          await attempt({ method, path, headers: buildHeaders(modes, body, ct), body });
        },
      ),
      { numRuns: NUM_RUNS },
    );
    expectNoWrites(before, await snapshotOf(server.services.store));
  });
});
