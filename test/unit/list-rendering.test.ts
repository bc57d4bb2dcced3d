// The list calls write their pages as text (src/api/list-rendering.ts) from records rendered once per
// row content (src/reporting/rendered-records.ts). Held here: the text is, byte for byte, what Fastify's
// own serializer of the route's response schema makes of the same page of objects; and the cache gives
// back a record only while its row and its moment are the same.
import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageEnvelopeJson, renderedPayments, renderedPayouts, sendPage } from '../../src/api/list-rendering.js';
import { registerSharedSchemas } from '../../src/api/schemas/index.js';
import { SuccessEnvelope } from '../../src/api/schemas/responses.js';
import { CURRENCIES } from '../../src/core/money.js';
import { paymentRecord, type PaymentRecordRow } from '../../src/domain/payments/records.js';
import { REFUND_WINDOW_MS } from '../../src/domain/payments/payment-limits.js';
import { payoutRecord, type PayoutRecordRow } from '../../src/domain/payouts/payout-records.js';
import { ok } from '../../src/http/envelope.js';
import { ENTRY_OVERHEAD_CHARS, RenderedRecords } from '../../src/reporting/rendered-records.js';

const text = fc.string({ unit: 'grapheme', maxLength: 30 });
const anyText = fc.oneof(text, fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('a"b', 'c\\d', 'line\nbreak', '\u0000\u001f', '\ud800', '</script>'));
const ms = fc.bigInt({ min: 0n, max: 4_102_444_800_000n });
const minor = fc.bigInt({ min: 0n, max: 10n ** 15n });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });

const paymentRow: fc.Arbitrary<PaymentRecordRow> = fc.record({
  transaction_ref: anyText,
  merchant_ref: anyText,
  method: fc.constantFrom('NATIVE', 'QRIS', 'WALLET', 'TRANSFER', 'VA', 'CARD'),
  currency: fc.constantFrom(...CURRENCIES),
  amount_minor: minor,
  payer_name: anyText,
  payer_email: anyText,
  payer_phone: anyText,
  redirect_url: anyText,
  webhook_url: maybe(anyText),
  status: fc.constantFrom('Pending', 'Success', 'Failed', 'Expired', 'Refund'),
  paid_amount_minor: maybe(minor),
  fee_minor: minor,
  created_at_ms: ms,
  updated_at_ms: ms,
  completed_at_ms: maybe(ms),
  expires_at_ms: ms,
  refunded_at_ms: maybe(ms),
  failure_reason: maybe(anyText),
  refund_state: maybe(fc.constantFrom('requested', 'done', 'failed')),
}) as fc.Arbitrary<PaymentRecordRow>;

const payoutRow: fc.Arbitrary<PayoutRecordRow> = fc.record({
  transaction_ref: anyText,
  merchant_ref: anyText,
  method: fc.constantFrom('BANK', 'UPI', 'TRANSFER', 'WALLET', 'EWALLET'),
  currency: fc.constantFrom(...CURRENCIES),
  amount_minor: minor,
  fee_minor: minor,
  bank_code: maybe(anyText),
  beneficiary_name: anyText,
  account: anyText,
  phone: anyText,
  email: anyText,
  webhook_url: maybe(anyText),
  status: fc.constantFrom('PendingApproval', 'Initiated', 'Processing', 'Success', 'Failed'),
  created_at_ms: ms,
  updated_at_ms: ms,
  completed_at_ms: maybe(ms),
  failure_reason: maybe(anyText),
  upstream_ref: maybe(anyText),
  utr: maybe(anyText),
  name_check_name: maybe(anyText),
  name_check_score: maybe(fc.bigInt({ min: 0n, max: 1000n })),
  name_check_threshold: maybe(fc.bigInt({ min: 0n, max: 1000n })),
  approval_expires_at_ms: maybe(ms),
}) as fc.Arbitrary<PayoutRecordRow>;

const cursor = fc.option(fc.string({ maxLength: 80 }), { nil: null });

// The page routes as they were before the text: objects, serialized by Fastify from the response schema.
let app: FastifyInstance;
let objects: unknown = null;
let page: { items: string[]; nextCursor: string | null } = { items: [], nextCursor: null };

beforeAll(async () => {
  app = Fastify();
  registerSharedSchemas(app);
  for (const [name, schema] of [['payments', 'PaymentPage'], ['payouts', 'PayoutPage']] as const) {
    app.get(`/objects/${name}`, { schema: { response: { 200: SuccessEnvelope(Type.Ref(schema)) } } }, async () => objects);
  }
  // As the real route: the response schema declared, the text sent past its serializer.
  app.get('/text', { schema: { response: { 200: SuccessEnvelope(Type.Ref('PaymentPage')) } } }, async (_request, reply) => sendPage(reply, page));
  await app.ready();
});
afterAll(async () => app.close());

async function fastifyBytes(path: string, value: unknown): Promise<string> {
  objects = value;
  const answer = await app.inject({ method: 'GET', url: path });
  expect(answer.statusCode).toBe(200);
  return answer.body;
}

describe('the list page as text', () => {
  it('is what Fastify serializes the same payment page to, byte for byte', async () => {
    const payments = renderedPayments();
    await fc.assert(
      fc.asyncProperty(fc.array(paymentRow, { maxLength: 6 }), cursor, ms, async (rows, nextCursor, now) => {
        const nowMs = Number(now);
        const items = rows.map((row) => payments.fresh(row, nowMs).json);
        const expected = await fastifyBytes('/objects/payments', ok({ items: rows.map((row) => paymentRecord(row, nowMs)), nextCursor }));
        expect(pageEnvelopeJson({ items, nextCursor })).toBe(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('is what Fastify serializes the same payout page to, byte for byte', async () => {
    const payouts = renderedPayouts();
    await fc.assert(
      fc.asyncProperty(fc.array(payoutRow, { maxLength: 6 }), cursor, async (rows, nextCursor) => {
        const items = rows.map((row) => payouts.fresh(row, 0).json);
        const expected = await fastifyBytes('/objects/payouts', ok({ items: rows.map(payoutRecord), nextCursor }));
        expect(pageEnvelopeJson({ items, nextCursor })).toBe(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('is sent as it is, with the JSON content type', async () => {
    const payments = renderedPayments();
    const row = fc.sample(paymentRow, { numRuns: 1, seed: 7 })[0]!;
    page = { items: [payments.fresh(row, 0).json], nextCursor: 'abc.def' };
    const answer = await app.inject({ method: 'GET', url: '/text' });
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.body).toBe(pageEnvelopeJson(page));
    expect(JSON.parse(answer.body)).toEqual(JSON.parse(JSON.stringify(ok({ items: [paymentRecord(row, 0)], nextCursor: 'abc.def' }))));
  });
});

/** A rendering that counts its work, over rows that are their own keys. */
/** 30-character keys render to 47 characters: each entry costs 30 + 47 + ENTRY_OVERHEAD_CHARS. */
const key = (n: number) => `k${n}`.padEnd(30, '.');
const ENTRY = 30 + 47 + ENTRY_OVERHEAD_CHARS;
/** Room for two such entries, not three. */
const BUDGET = 2 * ENTRY + 10;

function counting(stableUntilMs: (row: string, nowMs: number) => number = () => Infinity, maxChars = BUDGET) {
  const calls: string[] = [];
  const records = new RenderedRecords<string>(
    {
      render: (row, nowMs) => {
        calls.push(row);
        return JSON.stringify({ row, at: nowMs });
      },
      position: (row) => ({ createdAtMs: BigInt(row.length), id: row }),
      stableUntilMs,
    },
    maxChars,
  );
  const get = (key: string, nowMs = 0) => records.lookup(key, nowMs) ?? records.store(key, key, nowMs);
  return { records, calls, get };
}

describe('rendered records', () => {
  it('renders a row once and gives the same text back while the row is the same', () => {
    const { records, calls, get } = counting();
    const first = get('row-1');
    expect(get('row-1', 99).json).toBe(first.json);
    expect(get('row-2').json).toBe('{"row":"row-2","at":0}');
    expect(calls).toEqual(['row-1', 'row-2']);
    expect(first.position).toEqual({ createdAtMs: 5n, id: 'row-1' });
    expect(records.stats()).toMatchObject({ entries: 2, hits: 1, misses: 2 });
  });

  it('renders again once the moment its text held until has passed', () => {
    const { calls, get } = counting((_row, nowMs) => nowMs + 10);
    expect(get('row', 0).json).toContain('"at":0');
    expect(get('row', 10).json).toContain('"at":0');
    expect(get('row', 11).json).toContain('"at":11');
    expect(get('row', 21).json).toContain('"at":11');
    expect(calls).toEqual(['row', 'row']);
  });

  it('keeps at most its budget of text, sparing once an entry read since the hand last passed it', () => {
    const { records, calls, get } = counting();
    for (let n = 0; n < 3; n++) get(key(n));
    expect(records.stats()).toMatchObject({ entries: 2, chars: 2 * ENTRY });
    get(key(1)); // read: spared when the hand comes to it, so key(2) goes first
    get(key(3));
    calls.length = 0;
    get(key(1));
    get(key(2));
    expect(calls).toEqual([key(2)]);
    expect(get('x'.repeat(BUDGET)).json).toContain('xxx'); // larger than the whole budget: answered, not kept
    expect(records.stats().chars).toBeLessThanOrEqual(BUDGET);

    const all = counting();
    for (const n of [0, 1, 0, 1]) all.get(key(n)); // both read since stored
    all.get(key(2)); // every one spared once, then the oldest goes
    expect(all.records.stats()).toMatchObject({ entries: 2, chars: 2 * ENTRY });
    all.calls.length = 0;
    all.get(key(1));
    all.get(key(2));
    expect(all.calls).toEqual([]);
  });

  it('keeps the entries read since the last round when a full cache takes new ones', () => {
    const size = 2000;
    const { records, calls, get } = counting(() => Infinity, size * ENTRY);
    for (let n = 0; n < size; n++) get(key(n));
    expect(records.stats()).toMatchObject({ entries: size, chars: size * ENTRY });
    // One round of the hand: it clears every flag the stores set, then takes the oldest.
    get(key(size));
    const read = Array.from({ length: size }, (_, n) => n).filter((n) => n % 3 === 0 && n > 0);
    for (const n of read) get(key(n));
    // A fifth of the cache anew: the hand passes the entries read (clearing them) and takes unread ones.
    for (let n = size + 1; n <= size + size / 5; n++) get(key(n));
    expect(records.stats().chars).toBeLessThanOrEqual(size * ENTRY);
    calls.length = 0;
    for (const n of read) get(key(n));
    expect(calls).toEqual([]);
    expect(records.stats().entries).toBe(size);
  });

  it('holds a payment record until its refund deadline and no longer', () => {
    const payments = renderedPayments();
    const completed = 1_000_000n;
    const row = fc.sample(paymentRow, { numRuns: 1, seed: 3 })[0]!;
    const success: PaymentRecordRow = { ...row, currency: 'INR', method: 'NATIVE', status: 'Success', completed_at_ms: completed, refund_state: null };
    const deadline = Number(completed) + REFUND_WINDOW_MS;
    const key = 'the ref and version of this row';
    const read = (nowMs: number) => payments.lookup(key, nowMs) ?? payments.store(key, success, nowMs);
    const before = read(deadline - 1);
    expect(JSON.parse(before.json).refundable).toBe(true);
    expect(payments.lookup(key, deadline)?.json).toBe(before.json);
    expect(payments.lookup(key, deadline + 1)).toBeUndefined();
    const after = read(deadline + 1);
    expect(JSON.parse(after.json).refundable).toBe(false);
    expect(after.json).toBe(payments.fresh(success, deadline + 1).json);
    expect(payments.lookup(key, deadline + 10 * REFUND_WINDOW_MS)?.json).toBe(after.json);
  });
});
