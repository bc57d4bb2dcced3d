// Row types of the reconciliation tables (migration 0014). Integer columns are bigint on both stores.

export const RECONCILIATION_OUTCOMES = ['matched', 'amount_mismatch', 'status_mismatch', 'missing_ours', 'missing_theirs'] as const;
export type ReconciliationOutcome = (typeof RECONCILIATION_OUTCOMES)[number];

/** One statement compared with our records: an operator's import or the daily job's fetch. */
export interface ReconciliationRunsTable {
  id: string;
  connector: string;
  /** The statement's UTC day, YYYY-MM-DD. */
  day: string;
  file_name: string;
  /** sha256 hex of the file's text: the same file imported again answers this run. */
  checksum: string;
  source: 'import' | 'fetch';
  /** The day of a fetched statement (unique per connector: the daily job fetches a day once); null for imports. */
  fetched_day: string | null;
  /** Our records created in [period_from_ms, period_to_ms) of the statement's kinds must appear in it. */
  period_from_ms: bigint;
  period_to_ms: bigint;
  /** Comma-separated kinds the statement covers for "missing on theirs"; empty: none. */
  expects: string;
  imported_at_ms: bigint;
  actor: string;
  line_count: bigint;
  matched: bigint;
  amount_mismatch: bigint;
  status_mismatch: bigint;
  missing_ours: bigint;
  missing_theirs: bigint;
}

/** A statement line and what it matched, or one of our records the statement lacks (missing_theirs). */
export interface ReconciliationLinesTable {
  id: string;
  run_id: string;
  /** The statement's line (or item) number; null for missing_theirs. */
  line_number: bigint | null;
  outcome: ReconciliationOutcome;
  kind: string;
  upstream_ref: string | null;
  transaction_ref: string | null;
  merchant_id: string | null;
  their_currency: string | null;
  their_amount_minor: bigint | null;
  /** As the upstream wrote it, and after the connector's mapping. */
  their_status: string | null;
  their_mapped_status: string | null;
  our_currency: string | null;
  our_amount_minor: bigint | null;
  /** Our record's status, and its statement status (the mapped statuses are compared). */
  our_status: string | null;
  our_mapped_status: string | null;
  resolved_at_ms: bigint | null;
  resolved_by: string | null;
  resolution_reason: string | null;
}

export interface ReconciliationTables {
  reconciliation_runs: ReconciliationRunsTable;
  reconciliation_lines: ReconciliationLinesTable;
}
