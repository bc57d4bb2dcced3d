// Strings with a control character (C0, DEL, C1) or an unpaired surrogate are refused at the schema
// edge with 400 VALIDATION_FAILED on every route and field, on both stores, and change nothing;
// ordinary text in any script is stored and read back unchanged.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAppError } from '../../src/http/errors.js';
import { PLAIN_TEXT_PATTERN } from '../../src/http/text.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { expectNoWrites, snapshot } from '../helpers/snapshot.js';
import { initiateBody, newMerchantRef } from '../payments/api-helpers.js';
import { fund, payoutBody } from '../payouts/helpers.js';

const SOME_REF = '0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b';
const SOME_EVENT = 'evt_019a8f3c5d2e7b4c8a1f6e0d9c8b7a65';

let server: TestServer;
let merchant: TestMerchant;

beforeAll(async () => {
  server = await startTestServer({}, { worker: false });
  merchant = await server.createMerchant();
  await fund(server, merchant.id, 'INR', 100_000_000n);
});

afterAll(async () => {
  await server?.close();
});

interface Answer {
  readonly status: number;
  readonly body: any;
}

async function merchantCall(path: string, body: object): Promise<Answer> {
  const answer = await merchant.client.request(path, body);
  return { status: answer.status, body: { code: answer.code, message: answer.message, data: answer.data } };
}

async function adminCall(method: string, path: string, body?: object): Promise<Answer> {
  return server.admin(method, path, body);
}

function expectRefused(answer: Answer, field: string): void {
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ code: '400', message: 'VALIDATION_FAILED' });
  expect(answer.status).toBe(400);
  expect(answer.body.data.errors[0].field).toBe(field);
}

/** A request with one string field the test may spoil; every other field is valid. */
interface Target {
  readonly name: string;
  readonly field: string;
  readonly value: string;
  send(value: string): Promise<Answer>;
}

/** currency and method are enums: any other value, a spoilt one too, is the contract's unsupported reason. */
const ENUM_REASONS: Readonly<Record<string, string>> = { currency: 'UNSUPPORTED_CURRENCY', method: 'UNSUPPORTED_METHOD' };

function merchantTarget(path: string, field: string, build: () => object): Target {
  const value = String((build() as Record<string, unknown>)[field]);
  return { name: `${path} ${field}`, field, value, send: (spoilt) => merchantCall(path, { ...build(), [field]: spoilt }) };
}

function adminTarget(method: string, path: string, field: string, body: Record<string, unknown>): Target {
  return { name: `${method} /admin${path} ${field}`, field, value: String(body[field]), send: (spoilt) => adminCall(method, path, { ...body, [field]: spoilt }) };
}

const payment = (): Record<string, unknown> => ({ ...initiateBody('INR', 'NATIVE', { webhookUrl: 'https://shop.example.com/hooks' }) });
const payout = (): Record<string, unknown> => ({ ...payoutBody('INR', 'BANK', { webhookUrl: 'https://shop.example.com/hooks' }) });
const byTransactionRef = () => ({ transactionRef: SOME_REF });
const byMerchantRef = () => ({ merchantRef: 'order-1' });

const TARGETS: Target[] = [
  ...['merchantRef', 'method', 'currency', 'name', 'email', 'phone', 'redirectUrl', 'webhookUrl'].map((f) => merchantTarget('payment/initiate', f, payment)),
  ...['merchantRef', 'currency', 'method', 'bankCode', 'name', 'account', 'phone', 'email', 'webhookUrl'].map((f) => merchantTarget('payout/initiate', f, payout)),
  ...['payment/status', 'payment/fetch', 'payout/status', 'payout/fetch', 'payment/refund'].map((p) => merchantTarget(p, 'transactionRef', byTransactionRef)),
  ...['payment/status', 'payout/fetch'].map((p) => merchantTarget(p, 'merchantRef', byMerchantRef)),
  merchantTarget('sandbox/payment/complete', 'transactionRef', () => ({ transactionRef: SOME_REF, outcome: 'Success' })),
  ...['account/balance', 'account/usdt/rate', 'payment/methods', 'payout/bankCode'].map((p) => merchantTarget(p, 'currency', () => ({ currency: 'INR' }))),
  merchantTarget('webhook/events', 'before', () => ({ before: SOME_EVENT })),
  merchantTarget('webhook/resend', 'eventId', () => ({ eventId: SOME_EVENT })),
  adminTarget('POST', '/merchants', 'name', { name: 'Acme' }),
  adminTarget('POST', '/merchants', 'paymentWebhookUrl', { name: 'Acme', paymentWebhookUrl: 'https://acme.example/hooks' }),
  adminTarget('PUT', '/rates/INR', 'reference', { reference: '88.25', depositSpreadBps: 50, withdrawSpreadBps: 50 }),
];

/** An ASCII value with one forbidden code unit put in at `at` (ASCII neighbours leave a surrogate unpaired). */
const forbidden = fc.oneof(
  fc.integer({ min: 0x00, max: 0x1f }),
  fc.constant(0x7f),
  fc.integer({ min: 0x80, max: 0x9f }),
  fc.integer({ min: 0xd800, max: 0xdfff }),
);

describe('control characters and unpaired surrogates', () => {
  it('NUL in a reference is refused on every lookup and action route', async () => {
    for (const path of ['payment/status', 'payment/fetch', 'payout/status', 'payout/fetch', 'payment/refund']) {
      expectRefused(await merchantCall(path, { transactionRef: 'x\u0000' }), 'transactionRef');
    }
    expectRefused(await merchantCall('sandbox/payment/complete', { transactionRef: 'x\u0000', outcome: 'Success' }), 'transactionRef');
  });

  it('NUL in name, email, redirectUrl or webhookUrl is refused by both initiate routes', async () => {
    for (const field of ['name', 'email', 'redirectUrl', 'webhookUrl']) {
      const spoilt = field === 'email' ? 'asha\u0000@example.com' : `${String(payment()[field])}\u0000`;
      expectRefused(await merchantCall('payment/initiate', { ...payment(), [field]: spoilt }), field);
    }
    for (const field of ['name', 'email', 'webhookUrl']) {
      const spoilt = field === 'email' ? 'asha\u0000@example.com' : `${String(payout()[field])}\u0000`;
      expectRefused(await merchantCall('payout/initiate', { ...payout(), [field]: spoilt }), field);
    }
  });

  it('NUL in operator bodies and path parameters is refused', async () => {
    expectRefused(await adminCall('POST', '/merchants', { name: 'Acme\u0000' }), 'name');
    expectRefused(await adminCall('POST', `/merchants/${merchant.id}/keys`, { type: 'HMAC-SHA256', label: 'k\u0000' }), 'label');
    // A PEM key keeps its line breaks, but nothing else from the control range.
    expectRefused(await adminCall('POST', '/merchants', { name: 'Acme', publicKeyPem: '-----BEGIN PUBLIC KEY-----\n\u0000\n' }), 'publicKeyPem');
    expectRefused(
      await adminCall('POST', `/merchants/${merchant.id}/adjustments`, { currency: 'INR', account: 'available', amount: 1, reason: 'fix\u0000', idempotencyKey: 'k-1' }),
      'reason',
    );
    expectRefused(await adminCall('POST', '/merchants/mch_x%00/disable'), 'id');
    const checkout = await fetch(`${server.baseUrl}/checkout/tok%00`);
    expect(checkout.status).toBe(400);
  });

  it('the refusal says what is wrong with the field', async () => {
    const answer = await merchantCall('payment/status', { transactionRef: 'x\u0085' });
    expect(answer.body.data.errors).toEqual([{ field: 'transactionRef', problem: 'must not contain control characters or unpaired surrogates' }]);
  });

  it('a forbidden character anywhere in any string field is refused and changes nothing', async () => {
    const before = await snapshot(server.services.store);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TARGETS), forbidden, fc.nat(), async (target, unit, position) => {
        const at = position % (target.value.length + 1);
        const spoilt = target.value.slice(0, at) + String.fromCharCode(unit) + target.value.slice(at);
        const answer = await target.send(spoilt);
        expect(answer.status, `${target.name} ${JSON.stringify(spoilt)} -> ${JSON.stringify(answer.body)}`).toBe(400);
        const enumReason = ENUM_REASONS[target.field];
        if (enumReason) {
          expect(answer.body.message).toBe(enumReason);
        } else {
          expect(answer.body.message).toBe('VALIDATION_FAILED');
          expect(answer.body.data.errors[0].field).toBe(target.field);
        }
      }),
      { numRuns: 150 },
    );
    expectNoWrites(before, await snapshot(server.services.store));
  });

  it('names in Devanagari, Arabic and emoji are stored and read back unchanged', async () => {
    const words = fc.constantFrom('आशा राव', 'अंकित', 'محمد علي', 'فاطمة', 'Ayşe 😀', '👩🏽‍💻 Dev', 'Zoë Ñúñez', '李小龙');
    await fc.assert(
      fc.asyncProperty(words, words, async (first, last) => {
        const name = `${first} ${last}`;
        const created = await merchantCall('payment/initiate', { ...payment(), name });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        const read = await merchantCall('payment/status', { transactionRef: created.body.data.transactionRef });
        expect(read.body.data.name).toBe(name);
        const paidOut = await merchantCall('payout/initiate', { ...payout(), merchantRef: newMerchantRef(), name });
        expect(paidOut.status, JSON.stringify(paidOut.body)).toBe(200);
        const payoutRead = await merchantCall('payout/status', { transactionRef: paidOut.body.data.transactionRef });
        expect(payoutRead.body.data.name).toBe(name);
      }),
      { numRuns: 12 },
    );
  });

  it('the OpenAPI document shows the rule on request strings, beside a field\'s own pattern', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as any;
    const initiate = doc.paths['/v1/api/payment/initiate'].post.requestBody.content['application/json'].schema.properties;
    expect(initiate.redirectUrl.pattern).toBe(PLAIN_TEXT_PATTERN);
    expect(initiate.name.allOf).toEqual([{ pattern: PLAIN_TEXT_PATTERN }]);
    const createMerchant = doc.paths['/admin/merchants'].post.requestBody.content['application/json'].schema.properties;
    expect(createMerchant.name.pattern).toBe(PLAIN_TEXT_PATTERN);
  });

  it('a value the database cannot encode is a 400, never a 500', async () => {
    const { store } = server.services;
    const failure = await sql`select ${'x\u0000'}::text as value`.execute(store.db).then(
      () => null,
      (error: unknown) => error,
    );
    // SQLite stores NUL, so only PostgreSQL raises the error here; the mapping is checked on both.
    const errors: unknown[] = [{ code: '22021' }, { code: '22P05' }, ...(store.kind === 'postgres' ? [failure] : [])];
    if (store.kind === 'postgres') expect((failure as { code?: string }).code).toBe('22021');
    for (const error of errors) {
      const mapped = toAppError(error);
      expect(mapped.status).toBe(400);
      expect(mapped.reason).toBe('VALIDATION_FAILED');
    }
  });
});
