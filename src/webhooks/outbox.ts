// The webhook outbox: payment and payout flows record an event here inside the transaction that
// changes the record's state, so a committed change always has its event and a rolled-back one none.
import { CompiledQuery, sql } from 'kysely';
import { isoFromMs } from '../core/clock.js';
import { newId } from '../core/ids.js';
import { merchantWebhookUrls } from '../merchants/merchant-lookups.js';
import { HotQuery, HotRowInsert } from '../store/hot-query.js';
import { preparedOnPostgres } from '../store/prepared.js';
import { isPostgres, type Executor } from '../store/schema.js';
import type { WebhookEventsTable, WebhookEventType, WebhookResourceKind } from './webhook-rows.js';

export interface EnqueueWebhookInput {
  readonly merchantId: string;
  readonly type: WebhookEventType;
  readonly resourceKind: WebhookResourceKind;
  /** The payment's or payout's transactionRef, or a payout batch's batchId. */
  readonly resourceRef: string;
  /** The flat record exactly as the status query returns it (JSON values only). */
  readonly record: Readonly<Record<string, unknown>>;
  /** The `webhookUrl` given when the payment or payout was created, if any. */
  readonly webhookUrl: string | null;
  readonly nowMs: number;
}

export const newEventId = (): string => `evt_${newId().replace(/-/g, '')}`;

/** The Unix time in ms an event id (newEventId: `evt_` + UUID v7 hex) was made at; null for an id of another form. */
export function eventIdTimeMs(id: string): number | null {
  const match = /^evt_([0-9a-f]{12})7[0-9a-f]{3}[89ab][0-9a-f]{15}$/.exec(id);
  return match ? Number.parseInt(match[1]!, 16) : null;
}

const KIND_OF_TYPE: Readonly<Record<WebhookEventType, WebhookResourceKind>> = {
  'payment.succeeded': 'payment',
  'payment.failed': 'payment',
  'payment.expired': 'payment',
  'payment.refunded': 'payment',
  'payment.late_credited': 'payment',
  'payout.succeeded': 'payout',
  'payout.failed': 'payout',
  'payout.batch_completed': 'payout_batch',
  'payout.pending_approval': 'payout',
};

/** The merchant's default URL for this kind of event, read in the caller's transaction. */
export async function merchantDefaultUrl(trx: Executor, merchantId: string, kind: WebhookResourceKind): Promise<string | null> {
  const urls = await merchantWebhookUrls(trx, merchantId);
  if (!urls) throw new Error(`webhooks: no merchant ${merchantId}`);
  return (kind === 'payment' ? urls.payment : urls.payout) || null;
}

function buildBody(input: EnqueueWebhookInput, eventId: string): string {
  if ('event' in input.record) throw new Error('webhooks: a record must not carry its own "event" field');
  // Serialized once: every attempt sends these bytes, so a receiver's signature check and dedupe see one event.
  return JSON.stringify({ ...input.record, event: { id: eventId, type: input.type, createdAt: isoFromMs(input.nowMs) } });
}

/** The event's row, compiled once (store/hot-query.ts): every payment's and payout's outcome writes one. */
const insertEvent = new HotRowInsert((db, row: WebhookEventsTable) => db.insertInto('webhook_events').values(row));

/**
 * The event's row addressed to the merchant's default URL for its kind, read from the merchant's row
 * by the insert itself (merchantDefaultUrl's choice, in SQL): one statement instead of a read and an
 * insert, which on PostgreSQL is a round trip less for every final transition in a write group's chain.
 * No row is written when the merchant does not exist.
 */
const insertEventForMerchant = new HotQuery(
  7,
  (db, id: string, type: string, kind: string, ref: string, body: string, nowMs: bigint, merchantId: string) =>
    db
      .insertInto('webhook_events')
      .columns([
        'id', 'merchant_id', 'type', 'resource_kind', 'resource_ref', 'payload_json', 'url', 'destination_source', 'status',
        'attempt_count', 'schedule_step', 'next_attempt_at_ms', 'created_at_ms',
      ])
      .expression((eb) =>
        eb
          .selectFrom((inner) =>
            inner
              .selectFrom('merchants')
              .where('merchants.id', '=', merchantId)
              .select((m) => [
                m.ref('merchants.id').as('merchant_id'),
                sql<string | null>`nullif(case when ${kind} = 'payment' then ${m.ref('payment_webhook_url')} else ${m.ref('payout_webhook_url')} end, '')`.as('url'),
              ])
              .as('m'),
          )
          .select((m) => [
            sql<string>`${id}`.as('id'),
            m.ref('m.merchant_id').as('merchant_id'),
            sql<string>`${type}`.as('type'),
            sql<string>`${kind}`.as('resource_kind'),
            sql<string>`${ref}`.as('resource_ref'),
            sql<string>`${body}`.as('payload_json'),
            m.ref('m.url').as('url'),
            sql<string>`case when ${m.ref('m.url')} is null then 'none' else 'merchant' end`.as('destination_source'),
            sql<string>`case when ${m.ref('m.url')} is null then 'no_destination' else 'pending' end`.as('status'),
            sql<bigint>`0`.as('attempt_count'),
            sql<bigint>`0`.as('schedule_step'),
            sql<bigint>`cast(${nowMs} as bigint)`.as('next_attempt_at_ms'),
            sql<bigint>`cast(${nowMs} as bigint)`.as('created_at_ms'),
          ]),
      ),
);

/** Records one event; call it inside the transaction that makes the state change it announces. */
export async function enqueueWebhookEvent(trx: Executor, input: EnqueueWebhookInput): Promise<{ eventId: string }> {
  if (KIND_OF_TYPE[input.type] !== input.resourceKind) {
    throw new Error(`webhooks: event type ${input.type} does not belong to a ${input.resourceKind}`);
  }
  const eventId = newEventId();
  const body = buildBody(input, eventId);
  const requested = input.webhookUrl || null;
  const nowMs = BigInt(input.nowMs);
  if (requested === null) {
    const written = await insertEventForMerchant.affected(trx, eventId, input.type, input.resourceKind, input.resourceRef, body, nowMs, input.merchantId);
    if (written !== 1n) throw new Error(`webhooks: no merchant ${input.merchantId}`);
    return { eventId };
  }
  await insertEvent.executeTakeFirst(trx, {
    id: eventId,
    merchant_id: input.merchantId,
    type: input.type,
    resource_kind: input.resourceKind,
    resource_ref: input.resourceRef,
    payload_json: body,
    url: requested,
    destination_source: 'request',
    status: 'pending',
    attempt_count: 0n,
    schedule_step: 0n,
    next_attempt_at_ms: nowMs,
    locked_until_ms: null,
    created_at_ms: nowMs,
    delivered_at_ms: null,
    last_error: null,
  });
  return { eventId };
}

/**
 * Many events in one statement (PostgreSQL; a write group's final transitions): each addressed as
 * enqueueWebhookEvent would, to its own `webhookUrl` or else to its merchant's default URL for its
 * kind, read by the insert. Parameters: $1 ids, $2 merchant ids, $3 types, $4 kinds, $5 refs,
 * $6 bodies, $7 requested URLs (null: the merchant's), $8 now. Writes no row for an unknown merchant.
 */
const INSERT_EVENTS = preparedOnPostgres(`
INSERT INTO webhook_events (id, merchant_id, type, resource_kind, resource_ref, payload_json, url, destination_source, status,
  attempt_count, schedule_step, next_attempt_at_ms, created_at_ms)
SELECT u.id, m.id, u.type, u.kind, u.ref, u.body, d.url,
       CASE WHEN u.requested IS NOT NULL THEN 'request' WHEN d.url IS NULL THEN 'none' ELSE 'merchant' END,
       CASE WHEN d.url IS NULL THEN 'no_destination' ELSE 'pending' END,
       0, 0, $8::bigint, $8::bigint
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS u(id, merchant_id, type, kind, ref, body, requested)
JOIN merchants m ON m.id = u.merchant_id
CROSS JOIN LATERAL (
  SELECT coalesce(u.requested, nullif(CASE WHEN u.kind = 'payment' THEN m.payment_webhook_url ELSE m.payout_webhook_url END, '')) AS url
) d`);

/** enqueueWebhookEvent for many events of one moment: on PostgreSQL one statement, on SQLite one at a time. */
export async function enqueueWebhookEvents(trx: Executor, inputs: readonly EnqueueWebhookInput[], nowMs: number): Promise<void> {
  if (inputs.length === 0) return;
  if (!isPostgres(trx)) {
    for (const input of inputs) await enqueueWebhookEvent(trx, input);
    return;
  }
  const ids = inputs.map(() => newEventId());
  inputs.forEach((input) => {
    if (KIND_OF_TYPE[input.type] !== input.resourceKind) throw new Error(`webhooks: event type ${input.type} does not belong to a ${input.resourceKind}`);
  });
  const { numAffectedRows } = await trx.executeQuery(
    CompiledQuery.raw(INSERT_EVENTS, [
      ids,
      inputs.map((input) => input.merchantId),
      inputs.map((input) => input.type),
      inputs.map((input) => input.resourceKind),
      inputs.map((input) => input.resourceRef),
      inputs.map((input, i) => buildBody(input, ids[i]!)),
      inputs.map((input) => input.webhookUrl || null),
      BigInt(nowMs),
    ]),
  );
  if (numAffectedRows !== BigInt(inputs.length)) throw new Error(`webhooks: ${inputs.length} events, ${numAffectedRows} written (an unknown merchant)`);
}
