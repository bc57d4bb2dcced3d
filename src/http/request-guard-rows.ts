// Row types of the two tables http/ keeps for its guards on merchant requests: one-time signatures
// (replay-guard.ts) and the shared rate-limit counters (rate-limit-shared.ts).

/** One accepted signature, keyed by (signed_at_s, signature_hash) since 0017 (request-guard-migrations.ts). */
export interface SignatureClaimsTable {
  /** The request's Timestamp header, Unix seconds; CARRIED_OVER_SIGNED_AT_S for records from before 0017. */
  signed_at_s: bigint;
  /** sha256 hex of the Signature header value. */
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

export interface RequestGuardTables {
  signature_claims: SignatureClaimsTable;
  rate_limit_windows: RateLimitWindowsTable;
}
