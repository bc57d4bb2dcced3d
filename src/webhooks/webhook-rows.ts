// Row types of the webhook outbox (events and their delivery attempts) and of the service's own
// signing key. Every integer column is bigint on both stores; times are `*_at_ms`.

export const WEBHOOK_EVENT_TYPES = [
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
  'payment.refunded',
  'payment.late_credited',
  'payout.succeeded',
  'payout.failed',
  'payout.batch_completed',
  'payout.pending_approval',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** payout_batch: the resource is a payout batch (resource_ref is its batchId); it uses the payout URL. */
export type WebhookResourceKind = 'payment' | 'payout' | 'payout_batch';

/** `no_destination`: no URL was given or configured; the event is kept for the record, never sent. */
export const WEBHOOK_EVENT_STATUSES = ['pending', 'delivered', 'failed', 'no_destination'] as const;
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number];

/** Where an event's URL came from; a resend re-reads the merchant's default unless it was given per request. */
export type WebhookDestinationSource = 'request' | 'merchant' | 'none';

export interface WebhookEventsTable {
  /** `evt_` + UUID v7 hex; also the `webhook-id` header. */
  id: string;
  merchant_id: string;
  type: WebhookEventType;
  resource_kind: WebhookResourceKind;
  /** The payment's or payout's transactionRef. */
  resource_ref: string;
  /** The exact body every attempt sends: built once at enqueue time. */
  payload_json: string;
  url: string | null;
  destination_source: WebhookDestinationSource;
  status: WebhookEventStatus;
  /** Attempts ever made; numbers the rows of webhook_attempts. */
  attempt_count: bigint;
  /** Position in the retry schedule; a resend starts the schedule again. */
  schedule_step: bigint;
  next_attempt_at_ms: bigint;
  /** A dispatcher's lease: until then no other dispatcher may claim the event. */
  locked_until_ms: bigint | null;
  created_at_ms: bigint;
  delivered_at_ms: bigint | null;
  last_error: string | null;
}

export interface WebhookAttemptsTable {
  id: string;
  event_id: string;
  attempt_no: bigint;
  started_at_ms: bigint;
  duration_ms: bigint;
  /** null when no HTTP answer came (refused destination, connection error, timeout). */
  http_status: bigint | null;
  error: string | null;
  /** The first characters of the receiver's answer, for the operator's and merchant's eyes. */
  response_snippet: string | null;
}

export interface ServiceKeysTable {
  /**
   * The key id webhooks carry in `Signature-Key-Id`: `webhook-signing` for the first key, `sk_...`
   * for each one made by a rotation.
   */
  id: string;
  algorithm: 'RSA-SHA512';
  public_key_pem: string;
  /** PKCS#8 PEM sealed with the service's SecretBox. */
  private_key_enc: string;
  created_at_ms: bigint;
  /** null: the current key, which signs. Else a replaced key, listed in /v1/public-key until then. */
  retires_at_ms: bigint | null;
}

export interface WebhookTables {
  webhook_events: WebhookEventsTable;
  webhook_attempts: WebhookAttemptsTable;
  service_keys: ServiceKeysTable;
}
