// The simulated bank's daily statement: every collection opened, refund made and payout taken in
// one UTC day, as CSV (the shape docs/simulator.md documents), served at GET /v1/statements/<day>.csv.
// The bank keeps its books in memory, so a statement only lists what it still remembers.
import { csvField } from '../core/days.js';

export const STATEMENT_HEADER = 'reference,our_reference,type,currency,amount_minor,status,time';

export interface StatementRow {
  readonly reference: string;
  readonly ourReference: string;
  readonly type: 'collection' | 'payout' | 'refund';
  readonly currency: string;
  readonly amountMinor: bigint;
  readonly status: string;
  readonly atMs: number;
}


export function statementCsv(rows: readonly StatementRow[]): string {
  const sorted = [...rows].sort((a, b) => a.atMs - b.atMs || a.reference.localeCompare(b.reference));
  const lines = sorted.map((row) =>
    [row.reference, row.ourReference, row.type, row.currency, String(row.amountMinor), row.status, new Date(row.atMs).toISOString()].map(csvField).join(','),
  );
  return [STATEMENT_HEADER, ...lines].join('\n') + '\n';
}
