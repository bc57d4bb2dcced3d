// The simulated bank's daily statement (docs/simulator.md, "Statements") read into statement lines:
// a CSV with the header below, one transaction per line, statuses as the bank's API answers them and
// mapped with the same tables the connector's flows use.
import {
  COLLECTION_STATEMENT_STATUS,
  csvRows,
  minorOf,
  outsideDay,
  PAYOUT_STATEMENT_STATUS,
  StatementFormatError,
  type StatementFormat,
  type StatementKind,
  type StatementLine,
  type StatementStatus,
} from '../statement.js';
import { DAY_MS } from '../../core/days.js';
import { COLLECTION_STATUSES, PAYOUT_STATUSES } from './transformers.js';

export const SIMULATOR_STATEMENT_COLUMNS = ['reference', 'our_reference', 'type', 'currency', 'amount_minor', 'status', 'time'] as const;

const KINDS: Readonly<Record<string, StatementKind>> = { collection: 'payment', payout: 'payout', refund: 'refund' };
const CURRENCY = /^[A-Z]{3}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

function statusOf(kind: StatementKind, raw: string): StatementStatus | null {
  if (kind === 'payment') return (COLLECTION_STATUSES as readonly string[]).includes(raw) ? COLLECTION_STATEMENT_STATUS[raw as (typeof COLLECTION_STATUSES)[number]] : null;
  return (PAYOUT_STATUSES as readonly string[]).includes(raw) ? PAYOUT_STATEMENT_STATUS[raw as (typeof PAYOUT_STATUSES)[number]] : null;
}

export const simulatorStatement: StatementFormat = {
  description: `CSV, header ${SIMULATOR_STATEMENT_COLUMNS.join(',')}, one line per collection, refund or payout of the UTC day (GET /v1/statements/YYYY-MM-DD.csv at the simulated bank)`,
  parse(file, dayStartMs) {
    const rows = csvRows(file.content);
    const header = rows[0];
    if (!header || header.fields.join(',') !== SIMULATOR_STATEMENT_COLUMNS.join(',')) {
      throw new StatementFormatError(1, `the header must be ${SIMULATOR_STATEMENT_COLUMNS.join(',')}`);
    }
    const lines: StatementLine[] = [];
    const seen = new Set<string>();
    for (const { lineNumber, fields } of rows.slice(1)) {
      const fail = (reason: string): never => {
        throw new StatementFormatError(lineNumber, reason);
      };
      if (fields.length !== SIMULATOR_STATEMENT_COLUMNS.length) fail(`${fields.length} columns, expected ${SIMULATOR_STATEMENT_COLUMNS.length}`);
      const [reference, ourReference, type, currency, amount, status, time] = fields as [string, string, string, string, string, string, string];
      if (reference === '') fail('reference is empty');
      const kind = KINDS[type] ?? fail(`type "${type}" is not collection, payout or refund`);
      if (seen.has(`${kind}:${reference}`)) fail(`reference ${reference} appears twice`);
      seen.add(`${kind}:${reference}`);
      if (!CURRENCY.test(currency)) fail(`currency "${currency}" is not a 3-letter code`);
      const amountMinor = minorOf(amount) ?? fail(`amount_minor "${amount}" is not a whole number of minor units`);
      const mapped = statusOf(kind, status) ?? fail(`status "${status}" is not one of the bank's ${type} statuses`);
      const atMs = ISO_TIME.test(time) ? Date.parse(time) : Number.NaN;
      if (Number.isNaN(atMs)) fail(`time "${time}" is not an ISO 8601 UTC time`);
      const outside = outsideDay(atMs, dayStartMs);
      if (outside !== null) fail(outside);
      lines.push({
        lineNumber,
        upstreamRef: reference,
        transactionRef: ourReference === '' ? null : ourReference,
        kind,
        currency,
        amountMinor,
        upstreamStatus: status,
        status: mapped,
        occurredAtMs: atMs,
      });
    }
    return { fromMs: dayStartMs, toMs: dayStartMs + DAY_MS, expects: ['payment', 'payout', 'refund'], lines };
  },
};
