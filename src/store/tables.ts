// Row types of the foundation's tables. Every integer column is read as bigint on both stores
// (SQLite with safe integers, PostgreSQL int8 parsed to BigInt), so money never passes a float.
import type { Generated } from 'kysely';

export interface MerchantsTable {
  id: string;
  name: string;
  status: 'active' | 'disabled';
  mode: 'sandbox' | 'live';
  rate_limit_per_second: bigint;
  payment_webhook_url: string | null;
  payout_webhook_url: string | null;
  /** whsec_ secret for Standard Webhooks signatures, encrypted with the service's secret key. */
  webhook_secret_enc: string;
  created_at_ms: bigint;
  updated_at_ms: bigint;
}

export interface ApiKeysTable {
  id: string;
  merchant_id: string;
  type: 'RSA-SHA512' | 'HMAC-SHA256';
  public_key_pem: string | null;
  /** HMAC secret encrypted at rest (AES-256-GCM); null for RSA keys. */
  secret_enc: string | null;
  label: string | null;
  status: 'active' | 'revoked';
  created_at_ms: bigint;
  revoked_at_ms: bigint | null;
}

export interface UsedSignaturesTable {
  /** sha256 hex of the Signature header value: one row per accepted signature. */
  signature_hash: string;
  merchant_id: string;
  expires_at_ms: bigint;
  /** The route it was first accepted on; '' for records older than this column (reuse refused). */
  path: string;
  /** Whether that route changes state: such a signature is never accepted on another path. */
  path_effect: 'read' | 'change';
}

/** Requests counted per rate-limit bucket (a merchant, or its repeats) and Unix second, when shared. */
export interface RateLimitWindowsTable {
  bucket: string;
  window_s: bigint;
  n: bigint;
}

export interface UsdtRatesTable {
  currency: string;
  /** Reference rate in millionths of the local currency per USDT (83.25 INR -> 83250000). */
  reference_rate_micros: bigint;
  deposit_spread_bps: bigint;
  withdraw_spread_bps: bigint;
  set_at_ms: bigint;
  set_by: string;
}

/** One operator action (see src/domain/audit.ts); never holds a secret. */
export interface AuditLogTable {
  /** UUID v7: ordering by id is ordering by time. */
  id: string;
  /** "admin" for the operator API, "cli:<os user>" for the CLI, "merchant:<id>" for a merchant's own resend. */
  actor: string;
  action: string;
  /** What was acted on: a merchant, key, event, payment or currency. */
  target: string;
  /** The merchant concerned, when there is one (filters the log by merchant). */
  merchant_id: string | null;
  detail_json: string;
  created_at_ms: bigint;
}

export interface FoundationTables {
  merchants: MerchantsTable;
  api_keys: ApiKeysTable;
  used_signatures: UsedSignaturesTable;
  rate_limit_windows: RateLimitWindowsTable;
  usdt_rates: UsdtRatesTable;
  audit_log: AuditLogTable;
}

export type { Generated };
