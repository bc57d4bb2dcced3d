// The webhook schemas: the merchant's and operator's event log (events, attempts, pages), and the
// bodies the service POSTs to merchants (the record, flat, plus its event object).
import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/webhook-rows.js';
import { WebhookDeliveryStatus, WebhookEventType } from './enums.js';
import { PaymentRecord } from './payment.js';
import { PayoutRecord } from './payout.js';
import { PayoutBatchStatus } from './payout-batch.js';
import { Text } from '../../http/text.js';
import { Nullable, ref, shared, StringEnum } from './shared.js';

const EVENT_ID = { minLength: 1, maxLength: 64, pattern: '^evt_[0-9a-f]{32}$', examples: ['evt_019a8f3c5d2e7b4c8a1f6e0d9c8b7a65'] };

export const EventIdField = Text(EVENT_ID);

/** A list's `before`: an event id taken as the point in time it carries (WebhookService.pagePosition). */
export const EventCursorField = Text({
  ...EVENT_ID,
  description: "Only events older than this one: the page before's nextBefore. An event deleted since (retention) still places the page, by the time its id carries.",
});

const eventProperties = {
  id: Type.String({ description: 'The event id; also the webhook-id header. Deduplicate on it.' }),
  merchantId: Type.String(),
  type: ref(WebhookEventType),
  resourceKind: StringEnum(['payment', 'payout', 'payout_batch'] as const),
  resourceRef: Type.String({ description: 'The transactionRef of the payment or payout, or the batchId of a payout batch' }),
  url: Nullable(Type.String()),
  status: ref(WebhookDeliveryStatus),
  attemptCount: Type.Integer(),
  nextAttemptAt: Nullable(Type.String({ description: 'When the next attempt is due (pending events only)' })),
  createdAt: Type.String(),
  deliveredAt: Nullable(Type.String()),
  lastError: Nullable(Type.String()),
};

export const WebhookEvent = shared('WebhookEvent', Type.Object(eventProperties));

export const WebhookAttempt = shared(
  'WebhookAttempt',
  Type.Object({
    attemptNo: Type.Integer(),
    startedAt: Type.String(),
    durationMs: Type.Integer(),
    httpStatus: Type.Union([Type.Integer(), Type.Null()]),
    error: Nullable(Type.String()),
    responseSnippet: Nullable(Type.String({ description: 'The first 200 characters of the answer' })),
  }),
);

export const WebhookEventDetail = shared(
  'WebhookEventDetail',
  Type.Object({
    ...eventProperties,
    payload: Type.Unknown({ description: 'The body as sent: the record, flat, plus its event object' }),
    attempts: Type.Array(ref(WebhookAttempt)),
  }),
);

export const WebhookEventPage = shared(
  'WebhookEventPage',
  Type.Object({
    events: Type.Array(ref(WebhookEvent)),
    nextBefore: Nullable(Type.String({ description: 'Pass as before for the next (older) page; null on the last page' })),
  }),
);

const BATCH_EVENT_TYPES = ['payout.batch_completed'] as const;
/** The event types a body of `kind` may carry: a payout batch's events are not a payout's. */
const typesOf = (kind: 'payment' | 'payout' | 'payout_batch') =>
  kind === 'payout_batch' ? [...BATCH_EVENT_TYPES] : WEBHOOK_EVENT_TYPES.filter((type) => type.startsWith(`${kind}.`) && !(BATCH_EVENT_TYPES as readonly string[]).includes(type));

const eventInfo = (kind: 'payment' | 'payout' | 'payout_batch') =>
  Type.Object({
    id: Type.String({ description: 'The event id, also sent as the webhook-id header; deduplicate on it.' }),
    type: StringEnum(typesOf(kind)),
    createdAt: Type.String(),
  });

export const PaymentWebhook = shared(
  'PaymentWebhook',
  Type.Intersect(
    [
      ref(PaymentRecord),
      Type.Object({
        event: eventInfo('payment'),
        lateCredit: Type.Optional(
          Type.Object(
            {
              paidAmount: Type.Number({ description: 'What arrived after expiry, major units' }),
              fee: Type.Number({ description: "The payment's fee, capped at paidAmount" }),
              credited: Type.Number({ description: 'paidAmount - fee, now in pending like any payment' }),
              receivedAt: Type.String(),
              creditedAt: Nullable(Type.String()),
            },
            { description: 'payment.late_credited only: the late money the operator credited.' },
          ),
        ),
      }),
    ],
    {
    description: 'The payment record exactly as payment/status returns it, flat, plus the event (and lateCredit on payment.late_credited).',
  }),
);

export const PayoutWebhook = shared(
  'PayoutWebhook',
  Type.Intersect([ref(PayoutRecord), Type.Object({ event: eventInfo('payout') })], {
    description: 'The payout record exactly as payout/status returns it, flat, plus the event.',
  }),
);

export const PayoutBatchWebhook = shared(
  'PayoutBatchWebhook',
  Type.Intersect([ref(PayoutBatchStatus), Type.Object({ event: eventInfo('payout_batch') })], {
    description: 'The batch record exactly as payout/batchStatus returns it, flat, plus the event.',
  }),
);

export const ServiceKeyEntry = shared(
  'ServiceKeyEntry',
  Type.Object({
    keyId: Type.String({ description: 'As webhooks carry it in the Signature-Key-Id header.' }),
    algorithm: Type.Literal('RSA-SHA512'),
    publicKeyPem: Type.String({ description: 'SPKI PEM' }),
    status: Type.Union([Type.Literal('current'), Type.Literal('previous')], { description: 'current signs now; previous was replaced and is listed until retiresAt.' }),
    createdAt: Type.String(),
    retiresAt: Type.Union([Type.String(), Type.Null()], { description: 'When a previous key stops being listed; null for the current key.' }),
  }),
);

export const PublicKey = shared(
  'PublicKey',
  Type.Object({
    algorithm: Type.Literal('RSA-SHA512'),
    publicKeyPem: Type.String({ description: 'SPKI PEM of the current service RSA key (the one signing now)' }),
    keyId: Type.String({ description: "The current key's id." }),
    keys: Type.Array(ref(ServiceKeyEntry), { description: 'The current key first, then replaced keys still within their overlap.' }),
  }),
);

export const WEBHOOK_SCHEMAS = [
  WebhookEvent,
  WebhookAttempt,
  WebhookEventDetail,
  WebhookEventPage,
  PaymentWebhook,
  PayoutWebhook,
  PayoutBatchWebhook,
  ServiceKeyEntry,
  PublicKey,
];
