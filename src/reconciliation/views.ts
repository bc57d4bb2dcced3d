// Runs and lines as the operator sees them (admin API, CLI): amounts as decimal strings of minor
// units (bigint, never a float), times as ISO 8601.
import { isoFromMs } from '../core/clock.js';
import type { ReconciliationLinesTable, ReconciliationOutcome, ReconciliationRunsTable } from './reconciliation-rows.js';

export interface ReconciliationRunView {
  readonly id: string;
  readonly connector: string;
  readonly day: string;
  readonly fileName: string;
  readonly checksum: string;
  readonly source: 'import' | 'fetch';
  readonly periodFrom: string;
  readonly periodTo: string;
  /** The kinds of our records the statement must list (missing_theirs); empty: none. */
  readonly expects: string[];
  readonly importedAt: string;
  readonly actor: string;
  readonly lines: number;
  readonly counts: Readonly<Record<ReconciliationOutcome, number>>;
  /** Lines not matched and not yet resolved. */
  readonly unresolved: number;
}

export interface ReconciliationLineView {
  readonly id: string;
  readonly runId: string;
  readonly lineNumber: number | null;
  readonly outcome: ReconciliationOutcome;
  readonly kind: string;
  readonly upstreamRef: string | null;
  readonly transactionRef: string | null;
  readonly merchantId: string | null;
  readonly theirs: { readonly currency: string; readonly amountMinor: string; readonly status: string; readonly mappedStatus: string } | null;
  readonly ours: { readonly currency: string; readonly amountMinor: string; readonly status: string; readonly mappedStatus: string | null } | null;
  readonly resolvedAt: string | null;
  readonly resolvedBy: string | null;
  readonly reason: string | null;
}

export const runView = (row: ReconciliationRunsTable, unresolved: bigint): ReconciliationRunView => ({
  id: row.id,
  connector: row.connector,
  day: row.day,
  fileName: row.file_name,
  checksum: row.checksum,
  source: row.source,
  periodFrom: isoFromMs(row.period_from_ms),
  periodTo: isoFromMs(row.period_to_ms),
  expects: row.expects === '' ? [] : row.expects.split(','),
  importedAt: isoFromMs(row.imported_at_ms),
  actor: row.actor,
  lines: Number(row.line_count),
  counts: {
    matched: Number(row.matched),
    amount_mismatch: Number(row.amount_mismatch),
    status_mismatch: Number(row.status_mismatch),
    missing_ours: Number(row.missing_ours),
    missing_theirs: Number(row.missing_theirs),
  },
  unresolved: Number(unresolved),
});

export const reconciliationView = (row: ReconciliationLinesTable): ReconciliationLineView => ({
  id: row.id,
  runId: row.run_id,
  lineNumber: row.line_number === null ? null : Number(row.line_number),
  outcome: row.outcome,
  kind: row.kind,
  upstreamRef: row.upstream_ref,
  transactionRef: row.transaction_ref,
  merchantId: row.merchant_id,
  theirs:
    row.their_amount_minor === null
      ? null
      : { currency: row.their_currency ?? '', amountMinor: String(row.their_amount_minor), status: row.their_status ?? '', mappedStatus: row.their_mapped_status ?? '' },
  ours:
    row.our_amount_minor === null
      ? null
      : { currency: row.our_currency ?? '', amountMinor: String(row.our_amount_minor), status: row.our_status ?? '', mappedStatus: row.our_mapped_status },
  resolvedAt: row.resolved_at_ms === null ? null : isoFromMs(row.resolved_at_ms),
  resolvedBy: row.resolved_by,
  reason: row.resolution_reason,
});
