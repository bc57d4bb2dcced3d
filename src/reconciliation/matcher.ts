// The comparison itself, pure: each statement line against our record of it, and our records the
// statement should list but does not. Amounts are compared as bigint minor units (with the currency),
// statuses after the connector mapped the upstream's status to a statement status.
import type { Statement, StatementLine } from '../connectors/statement.js';
import type { OurStatementRecord } from '../domain/statement-records.js';
import type { ReconciliationOutcome } from './reconciliation-rows.js';

export interface MatchedLine {
  readonly outcome: ReconciliationOutcome;
  readonly line: StatementLine | null;
  readonly ours: OurStatementRecord | null;
}

const key = (kind: string, ref: string): string => `${kind}\u0000${ref}`;

/** Our record of a line: by our transactionRef when the upstream carries it, else by the upstream's reference. */
function indexOurs(records: readonly OurStatementRecord[]): { byRef: Map<string, OurStatementRecord>; byUpstream: Map<string, OurStatementRecord> } {
  const byRef = new Map<string, OurStatementRecord>();
  const byUpstream = new Map<string, OurStatementRecord>();
  for (const record of records) {
    byRef.set(key(record.kind, record.transactionRef), record);
    if (record.upstreamRef !== null) byUpstream.set(key(record.kind, record.upstreamRef), record);
  }
  return { byRef, byUpstream };
}

export function outcomeOf(line: StatementLine, ours: OurStatementRecord | undefined): ReconciliationOutcome {
  if (ours === undefined) return 'missing_ours';
  if (ours.currency !== line.currency || ours.amountMinor !== line.amountMinor) return 'amount_mismatch';
  if (ours.mappedStatus !== line.status) return 'status_mismatch';
  return 'matched';
}

/**
 * `found`: our records the lines name (any day); `expected`: those the statement's period must list.
 * Every line gives one result; every expected record no line named gives a missing_theirs.
 */
export function reconcile(statement: Statement, found: readonly OurStatementRecord[], expected: readonly OurStatementRecord[]): MatchedLine[] {
  const { byRef, byUpstream } = indexOurs([...expected, ...found]);
  const named = new Set<OurStatementRecord>();
  const results: MatchedLine[] = [];
  for (const line of statement.lines) {
    const ours = (line.transactionRef === null ? undefined : byRef.get(key(line.kind, line.transactionRef))) ?? byUpstream.get(key(line.kind, line.upstreamRef));
    if (ours) named.add(ours);
    results.push({ outcome: outcomeOf(line, ours), line, ours: ours ?? null });
  }
  for (const record of expected) {
    const seen = named.has(byRef.get(key(record.kind, record.transactionRef))!);
    if (!seen) results.push({ outcome: 'missing_theirs', line: null, ours: record });
  }
  return results;
}
