// How payment/list and payout/list write their answer: each item by the very serializer the response
// schema of payment/status and payout/status compiles to (fast-json-stringify over the shared schemas, as
// Fastify builds it), kept per row content by reporting/rendered-records.ts, and the page and envelope
// around the items as text. test/unit/list-rendering.test.ts holds the text equal, byte for byte, to what
// the route's own response schema serializes the same page of objects to.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import fastJson from 'fast-json-stringify';
import { Counter, Gauge, type Registry } from 'prom-client';
import { paymentRecord, paymentRecordStableUntilMs, type PaymentRecordRow } from '../domain/payments/records.js';
import { payoutRecord, type PayoutRecordRow } from '../domain/payouts/payout-records.js';
import { ok } from '../http/envelope.js';
import { rowPosition, type Page } from '../reporting/lists.js';
import { RenderedRecords } from '../reporting/rendered-records.js';
import { SHARED_SCHEMAS } from './schemas/index.js';

const EXTERNAL_SCHEMAS = Object.fromEntries(SHARED_SCHEMAS.map((schema) => [schema.$id, schema]));

/** The serializer Fastify compiles for a response schema that references the shared schemas. */
const serializerOf = (schema: TSchema): ((value: unknown) => string) =>
  fastJson(schema as unknown as Parameters<typeof fastJson>[0], { schema: EXTERNAL_SCHEMAS as unknown as Record<string, Parameters<typeof fastJson>[0]> });

const serializePaymentRecord = serializerOf(Type.Ref('PaymentRecord'));
const serializePayoutRecord = serializerOf(Type.Ref('PayoutRecord'));

/** A fresh cache of rendered payment records (one per app). */
export const renderedPayments = (): RenderedRecords<PaymentRecordRow> =>
  new RenderedRecords<PaymentRecordRow>({
    render: (row, nowMs) => serializePaymentRecord(paymentRecord(row, nowMs)),
    position: rowPosition,
    stableUntilMs: paymentRecordStableUntilMs,
  });

/** A fresh cache of rendered payout records (one per app); a payout's record does not depend on the time. */
export const renderedPayouts = (): RenderedRecords<PayoutRecordRow> =>
  new RenderedRecords<PayoutRecordRow>({ render: (row) => serializePayoutRecord(payoutRecord(row)), position: rowPosition, stableUntilMs: () => Infinity });

/** The rendered records of both lists of one app. */
export interface ListRecordCaches {
  readonly payments: RenderedRecords<PaymentRecordRow>;
  readonly payouts: RenderedRecords<PayoutRecordRow>;
}

export const listRecordCaches = (): ListRecordCaches => ({ payments: renderedPayments(), payouts: renderedPayouts() });

/**
 * paygate_list_records_total{list, result}: list items served from the rendered records (hit) or read
 * and rendered (miss), and paygate_list_records_kept_chars{list}: the text they hold. Read at each scrape.
 */
export function countListRecords(registry: Registry, caches: ListRecordCaches): void {
  const lists = Object.entries(caches) as [string, RenderedRecords<unknown>][];
  new Counter({
    name: 'paygate_list_records_total',
    help: 'List items served from the rendered records (hit) or read and rendered (miss), by list.',
    labelNames: ['list', 'result'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [list, records] of lists) {
        const { hits, misses } = records.stats();
        this.inc({ list, result: 'hit' }, hits);
        this.inc({ list, result: 'miss' }, misses);
      }
    },
  });
  new Gauge({
    name: 'paygate_list_records_kept_chars',
    help: 'Characters of rendered list records (keys and JSON) kept, by list.',
    labelNames: ['list'],
    registers: [registry],
    collect() {
      for (const [list, records] of lists) this.set({ list }, records.stats().chars);
    },
  });
}

/** Fastify's own content type for JSON: with it, a string answer is sent as it is, not serialized again. */
const JSON_UTF8 = 'application/json; charset=utf-8';

/** Answers with a page whose JSON is already written (pageEnvelopeJson). */
export const sendPage = (reply: FastifyReply, page: Page<string>): FastifyReply => reply.type(JSON_UTF8).send(pageEnvelopeJson(page));

const SUCCESS = ok(null);
const PAGE_START = `{"code":${JSON.stringify(SUCCESS.code)},"message":${JSON.stringify(SUCCESS.message)},"data":{"items":[`;

/** `{code, message, data: {items, nextCursor}}` with items already JSON: what `ok(page)` serializes to. */
export function pageEnvelopeJson(page: Page<string>): string {
  return `${PAGE_START}${page.items.join(',')}],"nextCursor":${page.nextCursor === null ? 'null' : JSON.stringify(page.nextCursor)}}}`;
}
