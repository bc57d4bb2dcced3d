// Row types of the pay-in tables (migration 0003). Integer columns are bigint on both stores.
import type { PaymentStatus } from './checkout-view.js';

/** requested: the background job still has to ask the channel; ready: instructions stored; failed: the channel refused. */
export type CollectionStateColumn = 'requested' | 'ready' | 'failed';

/**
 * requested: the ledger debit is committed and the upstream refund is being (or will be) asked for;
 * done: refunded upstream (status Refund); rejected: the upstream refused and the debit was returned.
 */
export type RefundStateColumn = 'requested' | 'done' | 'rejected';

export interface PaymentsTable {
  /** UUID v7, the primary key. */
  transaction_ref: string;
  merchant_id: string;
  merchant_ref: string;
  /** sha256 hex of the canonical request: a repeated merchantRef is "the same body" when this matches. */
  request_hash: string;
  method: string;
  currency: string;
  amount_minor: bigint;
  /** Computed once at creation from the merchant's fee schedule. */
  fee_minor: bigint;
  paid_amount_minor: bigint | null;
  status: PaymentStatus;
  failure_reason: string | null;
  payer_name: string;
  payer_email: string;
  payer_phone: string;
  redirect_url: string;
  webhook_url: string | null;
  /** sha256 hex of the checkout token; pages look payments up by it. */
  checkout_token_hash: string;
  /** The token itself, sealed with the service key, so a repeated initiate returns the same checkoutUrl. */
  checkout_token_enc: string;
  channel: string;
  upstream_ref: string | null;
  /** CollectionInstructions as JSON once the channel prepared them. */
  collection_json: string | null;
  collection_state: CollectionStateColumn;
  collection_attempts: bigint;
  /** When the collection job may (next) ask the channel. */
  collection_next_at_ms: bigint;
  /**
   * Until when the worker that claimed the collection request has it (null before the first claim and
   * after a retry was scheduled); in no index, so a claim rewrites no index entry.
   */
  collection_lease_until_ms: bigint | null;
  /**
   * When reconciliation (or, past expiry, the expiry job) next asks the channel about a pending
   * collection; also the lease while that question is in flight; null when there is nothing to ask.
   */
  reconcile_at_ms: bigint | null;
  refund_state: RefundStateColumn | null;
  /** Our id of the current refund attempt: the ledger entry's ref and the key the refund is retried under. */
  refund_ref: string | null;
  refund_upstream_ref: string | null;
  refund_attempts: bigint;
  /** When the refund job may (next) ask the channel; also the lease of a refund in flight. */
  refund_next_at_ms: bigint | null;
  created_at_ms: bigint;
  updated_at_ms: bigint;
  expires_at_ms: bigint;
  completed_at_ms: bigint | null;
  refunded_at_ms: bigint | null;
}

/**
 * refund_pending: to be returned to the payer through the channel (refundable methods);
 * refunded: the channel returned it; held: in suspense for the operator (not refundable, or refused).
 * The operator resolves held money (held-money.ts): returning (the channel is being asked),
 * returned (the channel sent it back), credited (paid to the merchant as a late payment).
 */
export type LateDisposition = 'refund_pending' | 'refunded' | 'held' | 'returning' | 'returned' | 'credited';

/** Money that arrived for a payment that had already expired: recorded, never credited to the merchant. */
export interface LatePaymentsTable {
  transaction_ref: string;
  merchant_id: string;
  currency: string;
  method: string;
  channel: string;
  upstream_ref: string;
  paid_amount_minor: bigint;
  disposition: LateDisposition;
  refund_upstream_ref: string | null;
  attempts: bigint;
  next_at_ms: bigint;
  last_error: string | null;
  created_at_ms: bigint;
  updated_at_ms: bigint;
  /** The operator who resolved held money (migration 0006); null until then. */
  resolved_by: string | null;
  resolved_at_ms: bigint | null;
  /** The operator's reason for the resolution. */
  resolution_note: string | null;
  /** The fee kept when the money was credited to the merchant. */
  credited_fee_minor: bigint | null;
}

export interface PaymentTables {
  payments: PaymentsTable;
  late_payments: LatePaymentsTable;
}
