// What a connector offers for reconciliation: how to read the upstream's statement (a file the
// operator imports, or the body its report API answers) into lines in our vocabulary, and, where the
// upstream has such an API, how to fetch one UTC day of it. The core compares these lines with our
// records; it never learns a provider's format.
import { DAY_MS, dayOf } from '../core/days.js';
import type { UpstreamCollectionStatus, UpstreamPayoutStatus } from './channel.js';

/** What a statement line is about: a pay-in, a payout, or a refund of a pay-in. */
export const STATEMENT_KINDS = ['payment', 'payout', 'refund'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

/**
 * A line's status after the connector's own mapping (the same tables its flows use): SUCCESS (paid,
 * sent, refunded), PENDING (still under way), FAILED, EXPIRED (a pay-in nobody paid).
 */
export const STATEMENT_STATUSES = ['SUCCESS', 'PENDING', 'FAILED', 'EXPIRED'] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];

export interface StatementLine {
  /** 1-based line (CSV) or item (JSON) number in the file, for the operator. */
  readonly lineNumber: number;
  /** The upstream's own id of the transaction. */
  readonly upstreamRef: string;
  /** Our transactionRef, when the upstream carries it back (reference, notes); null otherwise. */
  readonly transactionRef: string | null;
  readonly kind: StatementKind;
  readonly currency: string;
  readonly amountMinor: bigint;
  /** The status as the upstream wrote it. */
  readonly upstreamStatus: string;
  readonly status: StatementStatus;
  readonly occurredAtMs: number;
}

/**
 * A parsed statement. `expects`: the kinds of our records that must all appear in it when they were
 * created within [fromMs, toMs) and reached this upstream ("missing on theirs"); empty when the
 * statement lists something else than a day's transactions (a settlement report lists what was paid
 * out that day, whenever it happened), so absence from it proves nothing.
 */
export interface Statement {
  readonly fromMs: number;
  readonly toMs: number;
  readonly expects: readonly StatementKind[];
  readonly lines: readonly StatementLine[];
}

/** The file as imported or fetched: its name (for the operator) and its text. */
export interface StatementFile {
  readonly fileName: string;
  readonly content: string;
}

/** The file does not have the documented shape; nothing of it is used. */
export class StatementFormatError extends Error {
  constructor(
    readonly lineNumber: number,
    readonly reason: string,
  ) {
    super(`line ${lineNumber}: ${reason}`);
  }
}

export interface StatementFormat {
  /** One line for the operator: what file this is and where it comes from. */
  readonly description: string;
  /** Parses the whole file of the UTC day starting at `dayStartMs`; StatementFormatError on the first bad line. */
  parse(file: StatementFile, dayStartMs: number): Statement;
}

/** Splits CSV text into rows of fields (RFC 4180 quoting); a row's number is its 1-based line. */
export function csvRows(content: string): { readonly lineNumber: number; readonly fields: string[] }[] {
  const rows: { lineNumber: number; fields: string[] }[] = [];
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (line === '' && i === lines.length - 1) break;
    rows.push({ lineNumber: i + 1, fields: csvFields(line, i + 1) });
  }
  return rows;
}

function csvFields(line: string, lineNumber: number): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i += 1;
      for (;;) {
        if (i >= line.length) throw new StatementFormatError(lineNumber, 'a quoted field is not closed');
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        value += line[i];
        i += 1;
      }
      fields.push(value);
      if (i < line.length && line[i] !== ',') throw new StatementFormatError(lineNumber, 'text after a quoted field');
    } else {
      const end = line.indexOf(',', i);
      fields.push(end === -1 ? line.slice(i) : line.slice(i, end));
      i = end === -1 ? line.length : end;
    }
    if (i >= line.length) return fields;
    i += 1;
  }
}


const AMOUNT = /^(0|[1-9]\d{0,17})$/;

/** A non-negative integer of minor units; null when it is not one. */
export const minorOf = (text: string): bigint | null => (AMOUNT.test(text) ? BigInt(text) : null);

/** Our statement status of a pay-in state, as every connector's collection mapping ends in. */
export const COLLECTION_STATEMENT_STATUS: Readonly<Record<UpstreamCollectionStatus, StatementStatus>> = {
  PAID: 'SUCCESS',
  PENDING: 'PENDING',
  FAILED: 'FAILED',
  EXPIRED: 'EXPIRED',
};

/** Our statement status of a payout (or refund) state; UNKNOWN has none (a statement line is something the upstream knows). */
export const PAYOUT_STATEMENT_STATUS: Readonly<Record<UpstreamPayoutStatus, StatementStatus | null>> = {
  SUCCESS: 'SUCCESS',
  PROCESSING: 'PENDING',
  FAILED: 'FAILED',
  UNKNOWN: null,
};

/** A line's time must fall in the statement's day: the reason it does not, or null. */
export const outsideDay = (atMs: number, dayStartMs: number): string | null =>
  atMs >= dayStartMs && atMs < dayStartMs + DAY_MS ? null : `time ${new Date(atMs).toISOString()} is not on ${dayOf(dayStartMs)} (UTC)`;
