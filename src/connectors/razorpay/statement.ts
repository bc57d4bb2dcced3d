// Razorpay's statement of a day: the Settlement Recon report (GET /v1/settlements/recon/combined?year&
// month&day, https://razorpay.com/docs/api/settlements/fetch-recon/), every payment, refund, transfer
// and adjustment settled that day, as its JSON answer {"entity": "collection", "count", "items": [...]}
// (the daily fetch joins its pages into one items array). Only payments and refunds are ours; the other
// items are skipped. A settlement report lists what was settled that day, whenever it was paid, so it
// proves nothing about our records it does not list: it expects none (no missing_theirs).
import type { UpstreamCollectionStatus, UpstreamPayoutStatus } from '../channel.js';
import {
  COLLECTION_STATEMENT_STATUS,
  PAYOUT_STATEMENT_STATUS,
  StatementFormatError,
  type StatementFormat,
  type StatementLine,
} from '../statement.js';
import { DAY_MS } from '../../core/days.js';
import { jsonDocument, jsonItems, minorUnits, text, type JsonObject } from '../statement-json.js';
import { refFromNotes, type Notes } from './transformers.js';

/** A settled item is money that moved: a payment was paid to us, a refund was sent back. */
export const RECON_PAYMENT_STATUS: Readonly<Record<string, UpstreamCollectionStatus>> = { settled: 'PAID' };
export const RECON_REFUND_STATUS: Readonly<Record<string, UpstreamPayoutStatus>> = { settled: 'SUCCESS' };
/** Item types that are not transactions of ours (Route transfers, Razorpay's own adjustments). */
const NOT_OURS = new Set(['transfer', 'adjustment']);

function seconds(item: JsonObject, field: string, number: number): number | null {
  const value = item[field];
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new StatementFormatError(number, `${field} is not a Unix time in seconds`);
  return value * 1000;
}

export const razorpayStatement: StatementFormat = {
  description:
    'JSON answer of GET /v1/settlements/recon/combined?year&month&day ({"entity":"collection","count":N,"items":[...]}, pages joined); each item is a "line"; payments and refunds are compared, transfers and adjustments skipped',
  parse(file, dayStartMs) {
    const document = jsonDocument(file.content);
    if (!Array.isArray(document.items)) throw new StatementFormatError(1, 'items is missing or not an array');
    const lines: StatementLine[] = [];
    for (const { number, item } of jsonItems(document, 'items', 1)) {
      const type = text(item, 'type', number);
      if (NOT_OURS.has(type)) continue;
      if (type !== 'payment' && type !== 'refund') throw new StatementFormatError(number, `type "${type}" is not payment, refund, transfer or adjustment`);
      if (typeof item.settled !== 'boolean') throw new StatementFormatError(number, 'settled is not true or false');
      const status = item.settled ? 'settled' : 'unsettled';
      const mapped = type === 'payment' ? RECON_PAYMENT_STATUS[status] : RECON_REFUND_STATUS[status];
      if (mapped === undefined) throw new StatementFormatError(number, `an ${status} ${type} has no place in a settlement report`);
      const atMs = seconds(item, 'settled_at', number) ?? seconds(item, 'created_at', number);
      if (atMs === null) throw new StatementFormatError(number, 'settled_at and created_at are missing');
      lines.push({
        lineNumber: number,
        upstreamRef: text(item, 'entity_id', number),
        transactionRef: refFromNotes(item.notes as Notes | undefined),
        kind: type,
        currency: text(item, 'currency', number),
        amountMinor: minorUnits(item, 'amount', number),
        upstreamStatus: status,
        status: type === 'payment' ? COLLECTION_STATEMENT_STATUS[mapped as UpstreamCollectionStatus] : PAYOUT_STATEMENT_STATUS[mapped as UpstreamPayoutStatus]!,
        occurredAtMs: atMs,
      });
    }
    return { fromMs: dayStartMs, toMs: dayStartMs + DAY_MS, expects: [], lines };
  },
};
