// Row types of the payout table (migration 0005, approvals 0012). Integer columns are bigint on both stores.
import type { ColumnKinds } from '../../store/packed-rows.js';

/** PendingApproval: above the merchant's approval threshold, waiting for a second key (approvals.ts). */
export const PAYOUT_STATUSES = ['PendingApproval', 'Initiated', 'Processing', 'Success', 'Failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const FINAL_PAYOUT_STATUSES: readonly PayoutStatus[] = ['Success', 'Failed'];

export interface PayoutsTable {
  /** UUID v7, the primary key; also the upstream's idempotency key. */
  transaction_ref: string;
  merchant_id: string;
  merchant_ref: string;
  /** sha256 hex of the canonical request: a repeated merchantRef is "the same body" when this matches. */
  request_hash: string;
  currency: string;
  /** The method as stored and sent upstream (NGN: BANK). */
  method: string;
  amount_minor: bigint;
  /** Fixed at initiation; reserved with the amount and charged when the payout succeeds. */
  fee_minor: bigint;
  /** IFSC (INR BANK), bank code from the list, or null (INR UPI, EGP WALLET). */
  bank_code: string | null;
  beneficiary_name: string;
  /** Account number, VPA or mobile number. Never logged in full. */
  account: string;
  phone: string;
  email: string;
  webhook_url: string | null;
  status: PayoutStatus;
  failure_reason: string | null;
  /** The upstream's reference of the transfer (UTR, NIP session id ...), once known. */
  upstream_ref: string | null;
  /** The bank's own reference of the transfer (India's UTR), where the channel gives one beside its own id. */
  utr: string | null;
  channel: string;
  /**
   * Initiated with nameCheck: true: the holder's name the bank resolved, the match score and the
   * threshold it passed, in ten-thousandths (name-match.ts). All null without a name check.
   */
  name_check_name: string | null;
  name_check_score: bigint | null;
  name_check_threshold: bigint | null;
  /**
   * The connectors after `channel` in the payout's route when it was accepted, comma-separated: if
   * the upstream refuses the payout definitively at submission, it goes to the next one (live only).
   */
  fallback_channels: string | null;
  /**
   * How many times the payout was (or was about to be) sent upstream. Raised and committed BEFORE
   * each submission, so a row with submit_attempts >= 1 may have reached the upstream and must be
   * asked about before it is ever sent again.
   */
  submit_attempts: bigint;
  /** Status queries made (Processing polls and recovery checks); drives the poll backoff. */
  query_attempts: bigint;
  /** When the payout job should next act on the row (submit, retry, poll); null once final. */
  next_action_at_ms: bigint | null;
  /** The lease of the worker acting on the row; a row is free when null or in the past. */
  locked_until_ms: bigint | null;
  created_at_ms: bigint;
  updated_at_ms: bigint;
  completed_at_ms: bigint | null;
  /** The payout/batch it came in (payout_batches.id), or null for a payout/initiate payout. */
  batch_id: string | null;
  /** The API key whose signature created the payout: an approval must come from another key. */
  created_by_key_id: string | null;
  /** PendingApproval only: when the expiry job fails the payout with APPROVAL_EXPIRED. */
  approval_expires_at_ms: bigint | null;
  /** The key that approved or rejected it (null when it expired or never needed approval). */
  approval_decided_by_key_id: string | null;
  /** The approver's free-text reason, if they gave one. */
  approval_reason: string | null;
}

/** Each column's type on PostgreSQL, for the statements written by hand (migrations 0005 and after). */
export const PAYOUT_COLUMN_KINDS: ColumnKinds<PayoutsTable> = {
  transaction_ref: 'text',
  merchant_id: 'text',
  merchant_ref: 'text',
  request_hash: 'text',
  currency: 'text',
  method: 'text',
  amount_minor: 'bigint',
  fee_minor: 'bigint',
  bank_code: 'text',
  beneficiary_name: 'text',
  account: 'text',
  phone: 'text',
  email: 'text',
  webhook_url: 'text',
  status: 'text',
  failure_reason: 'text',
  upstream_ref: 'text',
  utr: 'text',
  channel: 'text',
  name_check_name: 'text',
  name_check_score: 'bigint',
  name_check_threshold: 'bigint',
  fallback_channels: 'text',
  submit_attempts: 'bigint',
  query_attempts: 'bigint',
  next_action_at_ms: 'bigint',
  locked_until_ms: 'bigint',
  created_at_ms: 'bigint',
  updated_at_ms: 'bigint',
  completed_at_ms: 'bigint',
  batch_id: 'text',
  created_by_key_id: 'text',
  approval_expires_at_ms: 'bigint',
  approval_decided_by_key_id: 'text',
  approval_reason: 'text',
};

/** A merchant's maker-checker setting (approvals.ts). */
export interface PayoutApprovalSettingsTable {
  merchant_id: string;
  /** JSON object currency -> threshold in minor units (a decimal string); payouts above it wait for approval. */
  thresholds_json: string;
  timeout_seconds: bigint;
  updated_at_ms: bigint;
}

export interface PayoutTables {
  payouts: PayoutsTable;
  payout_approval_settings: PayoutApprovalSettingsTable;
}
