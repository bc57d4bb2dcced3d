// Paystack's statement of a day: the transactions (List Transactions, GET /transaction?from&to) and the
// transfers (List Transfers, GET /transfer?from&to) created that UTC day, as the JSON document
// {"transactions": [...], "transfers": [...]} holding the `data` items of those answers. Settlements
// (GET /settlement) are not used: they list only successful pay-ins, grouped by the day Paystack paid
// them out, so neither failed or abandoned pay-ins nor transfers could be reconciled from them.
// Statuses map through the tables the connector's flows use (transformers.ts).
import {
  COLLECTION_STATEMENT_STATUS,
  outsideDay,
  PAYOUT_STATEMENT_STATUS,
  StatementFormatError,
  type StatementFormat,
  type StatementLine,
} from '../statement.js';
import { DAY_MS } from '../../core/days.js';
import { isoTime, jsonDocument, jsonItems, minorUnits, text } from '../statement-json.js';
import { fromPaystackReference, TRANSACTION_STATUS, TRANSFER_STATUS } from './transformers.js';

const CREATED = ['created_at', 'createdAt'];

export const paystackStatement: StatementFormat = {
  description:
    'JSON {"transactions": [...], "transfers": [...]}: the data items of GET /transaction and GET /transfer with from/to the UTC day (what the daily fetch stores); each item is a "line", numbered transactions first',
  parse(file, dayStartMs) {
    const document = jsonDocument(file.content);
    const transactions = jsonItems(document, 'transactions', 1);
    const transfers = jsonItems(document, 'transfers', transactions.length + 1);
    const lines: StatementLine[] = [];
    for (const { number, item } of transactions) {
      const reference = text(item, 'reference', number);
      const status = text(item, 'status', number);
      const mapped = TRANSACTION_STATUS[status];
      if (mapped === undefined) throw new StatementFormatError(number, `status "${status}" is not a Paystack transaction status`);
      lines.push(line(number, item, dayStartMs, { kind: 'payment', reference, upstreamRef: reference, status, mapped: COLLECTION_STATEMENT_STATUS[mapped] }));
    }
    for (const { number, item } of transfers) {
      const reference = text(item, 'reference', number);
      const status = text(item, 'status', number);
      const mapped = TRANSFER_STATUS[status] === undefined ? null : PAYOUT_STATEMENT_STATUS[TRANSFER_STATUS[status]!];
      if (mapped === null) throw new StatementFormatError(number, `status "${status}" is not a Paystack transfer status`);
      lines.push(line(number, item, dayStartMs, { kind: 'payout', reference, upstreamRef: text(item, 'transfer_code', number), status, mapped }));
    }
    return { fromMs: dayStartMs, toMs: dayStartMs + DAY_MS, expects: ['payment', 'payout'], lines };
  },
};

function line(
  number: number,
  item: Readonly<Record<string, unknown>>,
  dayStartMs: number,
  known: { kind: 'payment' | 'payout'; reference: string; upstreamRef: string; status: string; mapped: StatementLine['status'] },
): StatementLine {
  const atMs = isoTime(item, CREATED, number);
  const outside = outsideDay(atMs, dayStartMs);
  if (outside !== null) throw new StatementFormatError(number, outside);
  const currency = text(item, 'currency', number);
  return {
    lineNumber: number,
    upstreamRef: known.upstreamRef,
    transactionRef: fromPaystackReference(known.reference),
    kind: known.kind,
    currency,
    amountMinor: minorUnits(item, 'amount', number),
    upstreamStatus: known.status,
    status: known.mapped,
    occurredAtMs: atMs,
  };
}
