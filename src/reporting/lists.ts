// payment/list and payout/list: a merchant's own records, newest first, filtered, a keyset page at a
// time. Each item is the very record payment/status or payout/status answers (the same serializer).
import type { Kysely } from 'kysely';
import { validationError } from '../core/errors.js';
import type { Currency } from '../core/money.js';
import { paymentRecord, type PaymentRecord } from '../domain/payments/records.js';
import type { PaymentsTable } from '../domain/payments/payment-rows.js';
import { payoutRecord, type PayoutRecord } from '../domain/payouts/payout-records.js';
import type { PayoutsTable } from '../domain/payouts/payout-rows.js';
import type { Db } from '../store/schema.js';
import { filterFingerprint, type CursorCodec, type CursorScope } from './cursor.js';
import { olderThan, positionOf, positionParts, type KeysetPosition } from './keyset.js';
import { parseRange, type TimeRange } from './time-range.js';

export const LIST_MAX_LIMIT = 100;
export const LIST_DEFAULT_LIMIT = 50;

/** The filters both lists take; every one given must match (AND). */
export interface RecordFilters {
  readonly status?: string;
  readonly currency?: Currency;
  readonly method?: string;
  readonly from?: string;
  readonly to?: string;
  readonly merchantRef?: string;
  readonly transactionRef?: string;
}

export interface ListQuery extends RecordFilters {
  readonly limit?: number;
  readonly cursor?: string;
}

export interface Page<T> {
  readonly items: T[];
  /** Pass back as `cursor` with the same filters for the next (older) page; null on the last page. */
  readonly nextCursor: string | null;
}

export type RecordKind = 'payments' | 'payouts';

type RecordRow<K extends RecordKind> = K extends 'payments' ? PaymentsTable : PayoutsTable;

/** One page of a merchant's rows of `kind`, starting strictly after `after` (null: the newest). */
export async function recordPage<K extends RecordKind>(
  db: Db,
  kind: K,
  merchantId: string,
  filters: RecordFilters,
  range: TimeRange,
  after: KeysetPosition | null,
  limit: number,
): Promise<RecordRow<K>[]> {
  // One query for both tables: they share every column filtered or ordered on.
  const loose = db as unknown as Kysely<Record<RecordKind, PaymentsTable>>;
  const rows = await loose
    .selectFrom(kind as 'payments')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .$if(filters.status !== undefined, (q) => q.where('status', '=', filters.status as PaymentsTable['status']))
    .$if(filters.currency !== undefined, (q) => q.where('currency', '=', filters.currency!))
    .$if(filters.method !== undefined, (q) => q.where((eb) => methodMatches(eb, kind, filters.method!)))
    .$if(filters.merchantRef !== undefined, (q) => q.where('merchant_ref', '=', filters.merchantRef!))
    .$if(filters.transactionRef !== undefined, (q) => q.where('transaction_ref', '=', filters.transactionRef!))
    .$if(range.fromMs !== null, (q) => q.where('created_at_ms', '>=', BigInt(range.fromMs!)))
    .$if(range.toMs !== null, (q) => q.where('created_at_ms', '<', BigInt(range.toMs!)))
    .$if(after !== null, (q) => q.where((eb) => olderThan(eb, 'created_at_ms', 'transaction_ref', after!)))
    .orderBy('created_at_ms', 'desc')
    .orderBy('transaction_ref', 'desc')
    .limit(limit)
    .execute();
  return rows as unknown as RecordRow<K>[];
}

/** NGN bank payouts are stored as BANK and shown as TRANSFER: a payout filter matches either name. */
function methodMatches(eb: any, kind: RecordKind, method: string) {
  if (kind === 'payouts' && method === 'TRANSFER') {
    return eb.or([eb('method', '=', method), eb.and([eb('currency', '=', 'NGN'), eb('method', '=', 'BANK')])]);
  }
  return eb('method', '=', method);
}

export const rowPosition = (row: { created_at_ms: bigint; transaction_ref: string }): KeysetPosition => ({
  createdAtMs: row.created_at_ms,
  id: row.transaction_ref,
});

export interface ListContext {
  readonly db: Db;
  readonly cursors: CursorCodec;
  readonly nowMs: () => number;
}

const invalidCursor = () => validationError('cursor', 'is not a cursor of this list with these filters');

/** Checks limit, range and cursor, reads one page more than asked to know whether another follows. */
async function listRecords<K extends RecordKind, T>(
  ctx: ListContext,
  kind: K,
  merchantId: string,
  query: ListQuery,
  show: (row: RecordRow<K>) => T,
): Promise<Page<T>> {
  const limit = query.limit ?? LIST_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX_LIMIT) throw validationError('limit', `must be 1 to ${LIST_MAX_LIMIT}`);
  const { limit: _limit, cursor, ...filters } = query;
  const range = parseRange(filters);
  const scope: CursorScope = { merchantId, list: kind, fingerprint: filterFingerprint(filters) };
  const after = cursor === undefined ? null : positionOf(ctx.cursors.decode(scope, cursor), invalidCursor);
  const rows = await recordPage(ctx.db, kind, merchantId, filters, range, after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > limit && last ? ctx.cursors.encode(scope, positionParts(rowPosition(last))) : null;
  return { items: page.map(show), nextCursor };
}

export const listPayments = (ctx: ListContext, merchantId: string, query: ListQuery): Promise<Page<PaymentRecord>> =>
  listRecords(ctx, 'payments', merchantId, query, (row) => paymentRecord(row, ctx.nowMs()));

export const listPayouts = (ctx: ListContext, merchantId: string, query: ListQuery): Promise<Page<PayoutRecord>> =>
  listRecords(ctx, 'payouts', merchantId, query, (row) => payoutRecord(row));
