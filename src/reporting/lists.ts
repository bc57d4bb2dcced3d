// payment/list and payout/list: a merchant's own records, newest first, filtered, a keyset page at a
// time. Each item is the very record payment/status or payout/status answers (the same serializer).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { validationError } from '../core/errors.js';
import type { Currency } from '../core/money.js';
import { PAYMENT_RECORD_COLUMNS, paymentRecord, type PaymentRecord, type PaymentRecordRow } from '../domain/payments/records.js';
import type { PaymentsTable } from '../domain/payments/payment-rows.js';
import { PAYOUT_RECORD_COLUMNS, payoutRecord, type PayoutRecord, type PayoutRecordRow } from '../domain/payouts/payout-records.js';
import { PAYOUT_COLUMN_KINDS, type PayoutsTable } from '../domain/payouts/payout-rows.js';
import { HotQuery } from '../store/hot-query.js';
import { PACKED_COLUMN, PackedColumns, type ColumnKinds } from '../store/packed-rows.js';
import { isPostgres, type Db } from '../store/schema.js';
import { filterFingerprint, type CursorCodec, type CursorScope } from './cursor.js';
import { notOlderThan, olderThan, positionOf, positionParts, type KeysetPosition } from './keyset.js';
import type { RenderedRecord, RenderedRecords } from './rendered-records.js';
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

/** Only the columns the record shows: a page reads neither checkout tokens nor collection payloads. */
export type RecordRow<K extends RecordKind> = K extends 'payments' ? PaymentRecordRow : PayoutRecordRow;

const COLUMNS: Record<RecordKind, readonly string[]> = { payments: PAYMENT_RECORD_COLUMNS, payouts: PAYOUT_RECORD_COLUMNS };

const PAYMENT_KINDS: Pick<ColumnKinds<PaymentsTable>, (typeof PAYMENT_RECORD_COLUMNS)[number]> = {
  transaction_ref: 'text',
  merchant_ref: 'text',
  method: 'text',
  currency: 'text',
  amount_minor: 'bigint',
  payer_name: 'text',
  payer_email: 'text',
  payer_phone: 'text',
  redirect_url: 'text',
  webhook_url: 'text',
  status: 'text',
  paid_amount_minor: 'bigint',
  fee_minor: 'bigint',
  created_at_ms: 'bigint',
  updated_at_ms: 'bigint',
  completed_at_ms: 'bigint',
  expires_at_ms: 'bigint',
  refunded_at_ms: 'bigint',
  failure_reason: 'text',
  refund_state: 'text',
};

const PAYOUT_KINDS: Pick<ColumnKinds<PayoutsTable>, (typeof PAYOUT_RECORD_COLUMNS)[number]> = PAYOUT_COLUMN_KINDS;

/** A page's rows as PostgreSQL sends them: packed, one text a row (store/packed-rows.ts). */
export const PACKED: { readonly [K in RecordKind]: PackedColumns<RecordRow<K>> } = {
  payments: new PackedColumns(PAYMENT_RECORD_COLUMNS, PAYMENT_KINDS),
  payouts: new PackedColumns(PAYOUT_RECORD_COLUMNS, PAYOUT_KINDS),
};

/** Which filters a page query has: its SQL text, compiled once per shape (see pageQuery). */
interface PageShape {
  readonly kind: RecordKind;
  readonly status: boolean;
  readonly currency: boolean;
  /** none; a method compared as is; or payouts' TRANSFER, which also matches NGN's BANK. */
  readonly method: 'none' | 'plain' | 'payout-transfer';
  readonly merchantRef: boolean;
  readonly transactionRef: boolean;
  readonly from: boolean;
  readonly to: boolean;
  readonly after: boolean;
  /** SQLite's scan windows: rows at or after a position only (see windowedPageRows). */
  readonly notBefore: boolean;
  /** PostgreSQL, for rendered pages: each row's ref and version only (ROW_VERSION), not its columns. */
  readonly versions: boolean;
  /** PostgreSQL: the most rows the statement may read, a constant of its text (see pageQuery); 0 on SQLite. */
  readonly bound: number;
}

const pageQueries = new Map<string, HotQuery<unknown[], unknown>>();

/**
 * The page query of one shape, its values in this order: merchant, then each filter present in the
 * order of PageShape, the position (created, id) when paging on, and the limit.
 *
 * On PostgreSQL the rows are picked by a subquery whose limit is a constant (`bound`: LIST_MAX_LIMIT + 1
 * for list pages, an export's page size for its pages) and the page's own limit applies outside it.
 * Either way the plan is the same backward index scan, stopped after the page's rows; the constant is
 * for the planner of the named statement. With the limit as a parameter, its generic plan is costed as
 * if it read a tenth of the merchant's rows, so on a large table it never won against the plans made
 * for each call's values, and every list call was planned anew (66 µs of the database's CPU a call
 * with a million payments, more than the scan). Bounded by the constant, the generic plan costs what a
 * call's own would, and PostgreSQL keeps it after its first five calls.
 */
function pageQuery(shape: PageShape): HotQuery<unknown[], unknown> {
  const key = JSON.stringify(shape);
  let query = pageQueries.get(key);
  if (query === undefined) {
    const arity =
      2 + [shape.status, shape.currency, shape.method !== 'none', shape.merchantRef, shape.transactionRef, shape.from, shape.to].filter(Boolean).length + (shape.after ? 2 : 0) + (shape.notBefore ? 2 : 0);
    query = new HotQuery(arity, (db, ...values: unknown[]) => {
      const next = (): any => values.shift();
      // One query for both tables: they share every column filtered or ordered on.
      const loose = db as unknown as Kysely<Record<RecordKind, PaymentsTable>>;
      const picked = loose
        .selectFrom(shape.kind as 'payments')
        .where('merchant_id', '=', next())
        .$if(shape.status, (q) => q.where('status', '=', next()))
        .$if(shape.currency, (q) => q.where('currency', '=', next()))
        .$if(shape.method !== 'none', (q) => q.where((eb) => methodMatches(eb, shape.method === 'payout-transfer', next())))
        .$if(shape.merchantRef, (q) => q.where('merchant_ref', '=', next()))
        .$if(shape.transactionRef, (q) => q.where('transaction_ref', '=', next()))
        .$if(shape.from, (q) => q.where('created_at_ms', '>=', next()))
        .$if(shape.to, (q) => q.where('created_at_ms', '<', next()))
        .$if(shape.after, (q) => q.where(olderThan('created_at_ms', 'transaction_ref', { createdAtMs: next(), id: next() })))
        .$if(shape.notBefore, (q) => q.where(notOlderThan('created_at_ms', 'transaction_ref', { createdAtMs: next(), id: next() })))
        .orderBy('created_at_ms', 'desc')
        .orderBy('transaction_ref', 'desc');
      if (!isPostgres(db)) return picked.select(COLUMNS[shape.kind] as (keyof PaymentsTable)[]).limit(next());
      const [shown, kept] = shape.versions
        ? [['transaction_ref', ROW_VERSION] as never, ['transaction_ref', 'row_version']]
        : [[PACKED[shape.kind].selection(), 'transaction_ref'] as never, [PACKED_COLUMN]];
      const bounded = picked.select(shown).select('created_at_ms').limit(sql.lit(shape.bound));
      return loose
        .selectFrom(bounded.as('page'))
        .select(kept as never)
        .orderBy('created_at_ms', 'desc')
        .orderBy('transaction_ref', 'desc')
        .limit(next());
    });
    pageQueries.set(key, query);
  }
  return query;
}

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
  const rows = await pageRows({ db, kind, merchantId, filters, range }, after, limit);
  return isPostgres(db) ? (PACKED[kind] as PackedColumns<RecordRow<K>>).unpack(rows) : (rows as RecordRow<K>[]);
}

/** What a page reads, whichever part of it a query reads: a merchant's rows of a kind, filtered, in a time range. */
interface PageRead {
  readonly db: Db;
  readonly kind: RecordKind;
  readonly merchantId: string;
  readonly filters: RecordFilters;
  readonly range: TimeRange;
}

/**
 * The page query's answer as the store sends it: plain rows on SQLite; on PostgreSQL packed rows, or
 * with `versions` each row's ref and ROW_VERSION only.
 */
function pageRows(read: PageRead, after: KeysetPosition | null, limit: number, versions = false): Promise<unknown[]> {
  if (!isPostgres(read.db) && scansForFilter(read.filters)) return windowedPageRows(read, after, limit);
  return onePageQuery(read, after, null, limit, versions);
}

/**
 * The merchant's rows are indexed by time and by status (and by ref), not by currency or method: a page
 * filtered on those reads the merchant's rows newest first until it has its rows, all of them when
 * none matches (200,000 payments took 71 - 90 ms on SQLite, linear in the merchant's history).
 */
const scansForFilter = (filters: RecordFilters): boolean =>
  (filters.currency !== undefined || filters.method !== undefined) && filters.merchantRef === undefined && filters.transactionRef === undefined;

/** How many of the merchant's rows one window of a SQLite scan covers (see windowedPageRows). */
export const LIST_SCAN_WINDOW_ROWS = 4_000;

/**
 * On SQLite a statement holds the event loop, and every other request, for as long as it runs. So a page
 * whose filter the indexes cannot serve is read a window at a time: the window's older edge is found on
 * the (merchant, created, ref) index alone (LIST_SCAN_WINDOW_ROWS entries on), the page's query runs
 * between the position and that edge, and the event loop gets a turn before the next, older window,
 * until the page has its rows or the merchant's rows (in the range) run out. The rows and their order
 * are exactly one query's: each window starts strictly below the last one's edge.
 */
async function windowedPageRows(read: PageRead, after: KeysetPosition | null, limit: number): Promise<unknown[]> {
  const rows: unknown[] = [];
  let position = after;
  for (let window = 0; ; window++) {
    if (window > 0) await nextTurn();
    const edge = await windowEdge(read, position);
    rows.push(...(await onePageQuery(read, position, edge, limit - rows.length, false)));
    if (rows.length >= limit || edge === null) return rows;
    position = edge;
  }
}

const windowEdgeQueries = new Map<string, HotQuery<unknown[], { created_at_ms: bigint; transaction_ref: string }>>();

/** The row LIST_SCAN_WINDOW_ROWS - 1 rows older than `position` (or the newest) in the range, or null when there are fewer. */
async function windowEdge({ db, kind, merchantId, range }: PageRead, position: KeysetPosition | null): Promise<KeysetPosition | null> {
  const [from, to, after] = [range.fromMs !== null, range.toMs !== null, position !== null];
  const key = `${kind} ${from} ${to} ${after}`;
  let query = windowEdgeQueries.get(key);
  if (query === undefined) {
    const arity = 2 + (from ? 1 : 0) + (to ? 1 : 0) + (after ? 2 : 0);
    query = new HotQuery(arity, (executor, ...values: unknown[]) => {
      const next = (): any => values.shift();
      const loose = executor as unknown as Kysely<Record<RecordKind, PaymentsTable>>;
      return loose
        .selectFrom(kind as 'payments')
        .select(['created_at_ms', 'transaction_ref'])
        .where('merchant_id', '=', next())
        .$if(from, (q) => q.where('created_at_ms', '>=', next()))
        .$if(to, (q) => q.where('created_at_ms', '<', next()))
        .$if(after, (q) => q.where(olderThan('created_at_ms', 'transaction_ref', { createdAtMs: next(), id: next() })))
        .orderBy('created_at_ms', 'desc')
        .orderBy('transaction_ref', 'desc')
        .limit(1)
        .offset(next());
    });
    windowEdgeQueries.set(key, query);
  }
  const values: unknown[] = [merchantId];
  if (range.fromMs !== null) values.push(BigInt(range.fromMs));
  if (range.toMs !== null) values.push(BigInt(range.toMs));
  if (position !== null) values.push(position.createdAtMs, position.id);
  values.push(LIST_SCAN_WINDOW_ROWS - 1);
  const [row] = await query.execute(db, ...values);
  return row === undefined ? null : { createdAtMs: BigInt(row.created_at_ms), id: row.transaction_ref };
}

/** One page query: rows strictly older than `after` and, with `notBefore`, at or newer than it. */
function onePageQuery(
  { db, kind, merchantId, filters, range }: PageRead,
  after: KeysetPosition | null,
  notBefore: KeysetPosition | null,
  limit: number,
  versions: boolean,
): Promise<unknown[]> {
  const shape: PageShape = {
    kind,
    status: filters.status !== undefined,
    currency: filters.currency !== undefined,
    method: filters.method === undefined ? 'none' : kind === 'payouts' && filters.method === 'TRANSFER' ? 'payout-transfer' : 'plain',
    merchantRef: filters.merchantRef !== undefined,
    transactionRef: filters.transactionRef !== undefined,
    from: range.fromMs !== null,
    to: range.toMs !== null,
    after: after !== null,
    notBefore: notBefore !== null,
    versions: versions && isPostgres(db),
    // A list page's limit is at most LIST_MAX_LIMIT + 1; an export reads pages of its own fixed size.
    bound: isPostgres(db) ? Math.max(limit, LIST_MAX_LIMIT + 1) : 0,
  };
  const values: unknown[] = [merchantId, filters.status, filters.currency, filters.method, filters.merchantRef, filters.transactionRef];
  values.push(range.fromMs === null ? undefined : BigInt(range.fromMs), range.toMs === null ? undefined : BigInt(range.toMs));
  if (after !== null) values.push(after.createdAtMs, after.id);
  if (notBefore !== null) values.push(notBefore.createdAtMs, notBefore.id);
  values.push(limit);
  return pageQuery(shape).execute(db, ...values.filter((value) => value !== undefined)) as Promise<unknown[]>;
}

/** NGN bank payouts are stored as BANK and shown as TRANSFER: a payout filter matches either name. */
function methodMatches(eb: any, payoutTransfer: boolean, method: unknown) {
  if (payoutTransfer) {
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

/** A list call's checked request: its limit, filters, time range, cursor scope and starting position. */
interface PagePlan {
  readonly limit: number;
  readonly filters: RecordFilters;
  readonly range: TimeRange;
  readonly scope: CursorScope;
  readonly after: KeysetPosition | null;
}

/** Checks limit, range and cursor. */
function planPage(ctx: ListContext, kind: RecordKind, merchantId: string, query: ListQuery): PagePlan {
  const limit = query.limit ?? LIST_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX_LIMIT) throw validationError('limit', `must be 1 to ${LIST_MAX_LIMIT}`);
  const { limit: _limit, cursor, ...filters } = query;
  const range = parseRange(filters);
  const scope: CursorScope = { merchantId, list: kind, fingerprint: filterFingerprint(filters) };
  const after = cursor === undefined ? null : positionOf(ctx.cursors.decode(scope, cursor), invalidCursor);
  return { limit, filters, range, scope, after };
}

/** The cursor of the page after one that ended at `last`, if the read found more than the limit. */
const cursorAfter = (ctx: ListContext, plan: PagePlan, found: number, last: KeysetPosition | undefined): string | null =>
  found > plan.limit && last ? ctx.cursors.encode(plan.scope, positionParts(last)) : null;

/** Reads one page more than asked to know whether another follows. */
async function listRecords<K extends RecordKind, T>(
  ctx: ListContext,
  kind: K,
  merchantId: string,
  query: ListQuery,
  show: (row: RecordRow<K>) => T,
): Promise<Page<T>> {
  const plan = planPage(ctx, kind, merchantId, query);
  const rows = await recordPage(ctx.db, kind, merchantId, plan.filters, plan.range, plan.after, plan.limit + 1);
  const page = rows.slice(0, plan.limit);
  const last = page[page.length - 1];
  return { items: page.map(show), nextCursor: cursorAfter(ctx, plan, rows.length, last && rowPosition(last)) };
}

export const listPayments = (ctx: ListContext, merchantId: string, query: ListQuery): Promise<Page<PaymentRecord>> =>
  listRecords(ctx, 'payments', merchantId, query, (row) => paymentRecord(row, ctx.nowMs()));

export const listPayouts = (ctx: ListContext, merchantId: string, query: ListQuery): Promise<Page<PayoutRecord>> =>
  listRecords(ctx, 'payouts', merchantId, query, (row) => payoutRecord(row));

/**
 * A row's version on PostgreSQL: the transaction that wrote the tuple read (`xmin`, new with every update
 * of the row, and one tuple a transaction is ever seen by others) and, against the 32-bit xid coming round
 * again, the row's updated_at_ms. With the ref, it names one content of a row: the key of its rendering.
 */
const ROW_VERSION = sql<string>`xmin::text || '/' || updated_at_ms::text`.as('row_version');

interface VersionRow {
  readonly transaction_ref: string;
  readonly row_version: string;
}

const versionKey = (row: VersionRow): string => `${row.transaction_ref}/${row.row_version}`;

/** The rows a rendered page did not find in the cache, each packed with its version, by ref. */
const missingRows: { readonly [K in RecordKind]: HotQuery<[merchantId: string, refs: string[]], VersionRow> } = {
  payments: missingRowsQuery('payments'),
  payouts: missingRowsQuery('payouts'),
};

function missingRowsQuery(kind: RecordKind): HotQuery<[merchantId: string, refs: string[]], VersionRow> {
  return new HotQuery(2, (db, merchantId: string, refs: string[]) =>
    (db as unknown as Kysely<Record<RecordKind, PaymentsTable>>)
      .selectFrom(kind as 'payments')
      .select(['transaction_ref', ROW_VERSION, PACKED[kind].selection()] as never)
      .where('merchant_id', '=', merchantId)
      .where('transaction_ref', '=', sql<string>`any(${refs})`),
  ) as unknown as HotQuery<[merchantId: string, refs: string[]], VersionRow>;
}

/**
 * The same page as listPayments or listPayouts gives, its items already JSON text (rendered-records.ts).
 * On PostgreSQL the page query reads each row's ref and version only; the records kept under those are
 * served as they are, and the rest are read packed in one more query, rendered and kept (if one of them
 * changed in between, the page is read again in one query). On SQLite the items are rendered as read.
 */
export async function listRendered<K extends RecordKind>(
  ctx: ListContext,
  kind: K,
  records: RenderedRecords<RecordRow<K>>,
  merchantId: string,
  query: ListQuery,
): Promise<Page<string>> {
  const plan = planPage(ctx, kind, merchantId, query);
  const rows = await pageRows({ db: ctx.db, kind, merchantId, filters: plan.filters, range: plan.range }, plan.after, plan.limit + 1, true);
  const nowMs = ctx.nowMs();
  const count = Math.min(rows.length, plan.limit);
  if (!isPostgres(ctx.db)) return renderedPage(ctx, plan, rows.length, rows.slice(0, count).map((row) => records.fresh(row as RecordRow<K>, nowMs)));
  const found = new Array<RenderedRecord | undefined>(count);
  const missing: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = rows[i] as VersionRow;
    found[i] = records.lookup(versionKey(row), nowMs);
    if (found[i] === undefined) missing.push(row.transaction_ref);
  }
  if (missing.length > 0 && !(await renderMissing(ctx.db, kind, records, merchantId, missing, rows as VersionRow[], found, nowMs))) {
    // A row changed between the two reads, and may no longer match the filters: read the page again in
    // one query, as listPayments does, so that it is one moment's answer.
    const again = await recordPage(ctx.db, kind, merchantId, plan.filters, plan.range, plan.after, plan.limit + 1);
    return renderedPage(ctx, plan, again.length, again.slice(0, plan.limit).map((row) => records.fresh(row, nowMs)));
  }
  return renderedPage(ctx, plan, rows.length, found as RenderedRecord[]);
}

const renderedPage = (ctx: ListContext, plan: PagePlan, read: number, records: readonly RenderedRecord[]): Page<string> => ({
  items: records.map((record) => record.json),
  nextCursor: cursorAfter(ctx, plan, read, records[records.length - 1]?.position),
});

/**
 * Reads the missing rows packed, renders each and keeps it under the version it was read at. False if a
 * row's version is not the one the page query read (it changed in between); the page is then not used.
 */
async function renderMissing<K extends RecordKind>(
  db: Db,
  kind: K,
  records: RenderedRecords<RecordRow<K>>,
  merchantId: string,
  missing: string[],
  rows: readonly VersionRow[],
  found: (RenderedRecord | undefined)[],
  nowMs: number,
): Promise<boolean> {
  const packed = PACKED[kind] as PackedColumns<RecordRow<K>>;
  const read = new Map<string, { readonly key: string; readonly record: RenderedRecord }>();
  for (const row of await missingRows[kind].execute(db, merchantId, missing)) {
    const key = versionKey(row);
    read.set(row.transaction_ref, { key, record: records.store(key, packed.unpackOne((row as unknown as Record<string, string>)[PACKED_COLUMN]!), nowMs) });
  }
  for (let i = 0; i < found.length; i++) {
    if (found[i] !== undefined) continue;
    const again = read.get(rows[i]!.transaction_ref);
    if (again === undefined || again.key !== versionKey(rows[i]!)) return false;
    found[i] = again.record;
  }
  return true;
}
