// The webhook outbox: payment and payout flows record an event here inside the transaction that
// changes the record's state, so a committed change always has its event and a rolled-back one none.
import { isoFromMs } from '../core/clock.js';
import { newId } from '../core/ids.js';
import { merchantWebhookUrls } from '../merchants/merchant-lookups.js';
import { HotRowInsert } from '../store/hot-query.js';
import type { Executor } from '../store/schema.js';
import type { WebhookDestinationSource, WebhookEventsTable, WebhookEventType, WebhookResourceKind } from './webhook-rows.js';

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

/** Records one event; call it inside the transaction that makes the state change it announces. */
export async function enqueueWebhookEvent(trx: Executor, input: EnqueueWebhookInput): Promise<{ eventId: string }> {
  if (KIND_OF_TYPE[input.type] !== input.resourceKind) {
    throw new Error(`webhooks: event type ${input.type} does not belong to a ${input.resourceKind}`);
  }
  const eventId = newEventId();
  const body = buildBody(input, eventId);
  const requested = input.webhookUrl || null;
  const url = requested ?? (await merchantDefaultUrl(trx, input.merchantId, input.resourceKind));
  const source: WebhookDestinationSource = requested ? 'request' : url ? 'merchant' : 'none';
  const nowMs = BigInt(input.nowMs);
  await insertEvent.executeTakeFirst(trx, {
    id: eventId,
    merchant_id: input.merchantId,
    type: input.type,
    resource_kind: input.resourceKind,
    resource_ref: input.resourceRef,
    payload_json: body,
    url,
    destination_source: source,
    status: url ? 'pending' : 'no_destination',
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
