// The simulated bank's daily statement: every collection opened, refund made and payout taken in
// one UTC day, as CSV (the shape docs/simulator.md documents), served at GET /v1/statements/<day>.csv.
// The bank keeps its books in memory, so a statement only lists what it still remembers.

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

const field = (value: string): string => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export function statementCsv(rows: readonly StatementRow[]): string {
  const sorted = [...rows].sort((a, b) => a.atMs - b.atMs || a.reference.localeCompare(b.reference));
  const lines = sorted.map((row) =>
    [row.reference, row.ourReference, row.type, row.currency, String(row.amountMinor), row.status, new Date(row.atMs).toISOString()].map(field).join(','),
  );
  return [STATEMENT_HEADER, ...lines].join('\n') + '\n';
}

const DAY_MS = 86_400_000;

/** The UTC midnight of a YYYY-MM-DD day, or null. */
export function statementDayStart(day: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(ms).toISOString().slice(0, 10) === day ? ms : null;
}

export const statementDayEnd = (startMs: number): number => startMs + DAY_MS;
