// Xendit's statement of a day: the List Transactions API (GET /transactions with created[gte] and
// created[lte] the UTC day, https://docs.xendit.co/apidocs/list-transactions), every page joined into
// its answer's shape {"has_more": false, "data": [...]}. Payments (PAYMENT), payouts (DISBURSEMENT)
// and refunds (REFUND) are compared; every other type (top-ups, withdrawals, transfers, fees,
// adjustments) is not a transaction of ours and is skipped. A pay-in appears only once money
// arrived, so the statement covers payouts and refunds for "missing on theirs", not pay-ins.
import type { UpstreamCollectionStatus, UpstreamPayoutStatus } from '../channel.js';
import {
  COLLECTION_STATEMENT_STATUS,
  outsideDay,
  PAYOUT_STATEMENT_STATUS,
  StatementFormatError,
  type StatementFormat,
  type StatementKind,
  type StatementLine,
} from '../statement.js';
import { DAY_MS } from '../../core/days.js';
import { isoTime, jsonDocument, jsonItems, text } from '../statement-json.js';
import { fromRupiah } from './transformers.js';

/** A transaction's status (PENDING, SUCCESS, FAILED, VOIDED, REVERSED) as a pay-in's state. */
export const TRANSACTION_PAYMENT_STATUS: Readonly<Record<string, UpstreamCollectionStatus>> = {
  PENDING: 'PENDING',
  SUCCESS: 'PAID',
  FAILED: 'FAILED',
  VOIDED: 'FAILED',
  REVERSED: 'FAILED',
};

/** ...and as a payout's or refund's state. */
export const TRANSACTION_PAYOUT_STATUS: Readonly<Record<string, UpstreamPayoutStatus>> = {
  PENDING: 'PROCESSING',
  SUCCESS: 'SUCCESS',
  FAILED: 'FAILED',
  VOIDED: 'FAILED',
  REVERSED: 'FAILED',
};

const KIND_OF_TYPE: Readonly<Record<string, StatementKind>> = { PAYMENT: 'payment', DISBURSEMENT: 'payout', REFUND: 'refund' };

export const xenditStatement: StatementFormat = {
  description:
    'JSON answer of GET /transactions with created[gte]/created[lte] the UTC day ({"has_more":false,"data":[...]}, pages joined); each item is a "line"; PAYMENT, DISBURSEMENT and REFUND are compared, other types skipped',
  parse(file, dayStartMs) {
    const document = jsonDocument(file.content);
    if (!Array.isArray(document.data)) throw new StatementFormatError(1, 'data is missing or not an array');
    const lines: StatementLine[] = [];
    for (const { number, item } of jsonItems(document, 'data', 1)) {
      const kind = KIND_OF_TYPE[text(item, 'type', number)];
      if (kind === undefined) continue;
      const status = text(item, 'status', number);
      const mapped =
        kind === 'payment'
          ? TRANSACTION_PAYMENT_STATUS[status] === undefined ? undefined : COLLECTION_STATEMENT_STATUS[TRANSACTION_PAYMENT_STATUS[status]!]
          : TRANSACTION_PAYOUT_STATUS[status] === undefined ? undefined : PAYOUT_STATEMENT_STATUS[TRANSACTION_PAYOUT_STATUS[status]!];
      if (mapped === undefined || mapped === null) throw new StatementFormatError(number, `status "${status}" is not a Xendit transaction status`);
      const currency = text(item, 'currency', number);
      const amountMinor = fromRupiah(item.amount);
      if (amountMinor === null) throw new StatementFormatError(number, 'amount is not an amount of rupiah');
      const atMs = isoTime(item, ['created'], number);
      const outside = outsideDay(atMs, dayStartMs);
      if (outside !== null) throw new StatementFormatError(number, outside);
      const reference = item.reference_id;
      lines.push({
        lineNumber: number,
        upstreamRef: typeof item.product_id === 'string' && item.product_id !== '' ? item.product_id : text(item, 'id', number),
        transactionRef: typeof reference === 'string' && reference !== '' ? reference : null,
        kind,
        currency,
        amountMinor,
        upstreamStatus: status,
        status: mapped,
        occurredAtMs: atMs,
      });
    }
    return { fromMs: dayStartMs, toMs: dayStartMs + DAY_MS, expects: ['payout', 'refund'], lines };
  },
};
