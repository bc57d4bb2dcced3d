// What each report type writes: its CSV columns and how to read the next page of rows by keyset from
// where the last page ended. Each page is a bounded read, so an export of any size holds one page.
import { isoFromMs, type Clock } from '../core/clock.js';
import type { Currency } from '../core/money.js';
import { displayMethod } from '../domain/payouts/payout-request.js';
import type { StoreKind } from '../store/db.js';
import type { Db } from '../store/schema.js';
import { amount, csvLine, plain, text, type Cell } from './csv.js';
import { positionOf as keysetOf, positionParts as keysetParts } from './keyset.js';
import { recordPage, rowPosition, type RecordRow } from './lists.js';
import type { ReportType } from './report-rows.js';
import { settlementDays } from './settlements.js';
import { firstMovements, positionOf as statementPositionOf, positionParts as statementParts } from './statement.js';
import { movementPage, type Movement } from './statement-rows.js';
import { MS_PER_DAY, type TimeRange } from './time-range.js';

/** What a report was asked for: the range is required, the currency required for statement and settlements. */
export interface ReportFilters {
  readonly fromMs: number;
  readonly toMs: number;
  readonly currency?: Currency;
}

export interface SourceContext {
  readonly db: Db;
  readonly storeKind: StoreKind;
  readonly merchantId: string;
  readonly filters: ReportFilters;
  /** Rows per page. */
  readonly pageRows: number;
  /** Which days have closed (settlements). */
  readonly clock: Clock;
}

/** One page of CSV text; `position` null means this was the last page. */
export interface CsvPage {
  readonly lines: string;
  readonly rows: number;
  readonly position: readonly string[] | null;
}

export interface ReportSource {
  readonly header: readonly string[];
  /** The page after `position` (null: the first page). */
  next(ctx: SourceContext, position: readonly string[] | null): Promise<CsvPage>;
}

const iso = (ms: bigint | null): Cell => plain(ms === null ? '' : isoFromMs(ms));
const rangeOf = (f: ReportFilters): TimeRange => ({ fromMs: f.fromMs, toMs: f.toMs });
const badProgress = () => new Error('reporting: a report progress position is malformed');

function linesOf<T>(rows: readonly T[], cells: (row: T) => Cell[]): string {
  return rows.map((row) => csvLine(cells(row))).join('');
}

function recordSource<K extends 'payments' | 'payouts'>(
  kind: K,
  header: readonly string[],
  cells: (row: RecordRow<K>) => Cell[],
): ReportSource {
  return {
    header,
    async next(ctx, position) {
      const after = position === null ? null : keysetOf(position, badProgress);
      const filters = ctx.filters.currency === undefined ? {} : { currency: ctx.filters.currency };
      const rows = await recordPage(ctx.db, kind, ctx.merchantId, filters, rangeOf(ctx.filters), after, ctx.pageRows);
      const last = rows[rows.length - 1];
      return {
        lines: linesOf(rows, cells),
        rows: rows.length,
        position: rows.length < ctx.pageRows || !last ? null : keysetParts(rowPosition(last)),
      };
    },
  };
}

const payments = recordSource(
  'payments',
  ['transactionRef', 'merchantRef', 'createdAt', 'updatedAt', 'completedAt', 'currency', 'method', 'status', 'amount', 'paidAmount', 'fee', 'failureReason', 'name', 'email', 'phone'],
  (r) => [
    plain(r.transaction_ref),
    text(r.merchant_ref),
    iso(r.created_at_ms),
    iso(r.updated_at_ms),
    iso(r.completed_at_ms),
    plain(r.currency),
    plain(r.method),
    plain(r.status),
    amount(r.amount_minor),
    amount(r.paid_amount_minor ?? 0n),
    amount(r.fee_minor),
    text(r.failure_reason),
    text(r.payer_name),
    text(r.payer_email),
    text(r.payer_phone),
  ],
);

const payouts = recordSource(
  'payouts',
  ['transactionRef', 'merchantRef', 'createdAt', 'updatedAt', 'completedAt', 'currency', 'method', 'status', 'amount', 'fee', 'bankCode', 'account', 'name', 'failureReason', 'upstreamRef', 'utr'],
  (r) => [
    plain(r.transaction_ref),
    text(r.merchant_ref),
    iso(r.created_at_ms),
    iso(r.updated_at_ms),
    iso(r.completed_at_ms),
    plain(r.currency),
    plain(displayMethod(r.currency, r.method)),
    plain(r.status),
    amount(r.amount_minor),
    amount(r.fee_minor),
    text(r.bank_code),
    text(r.account),
    text(r.beneficiary_name),
    text(r.failure_reason),
    text(r.upstream_ref),
    text(r.utr),
  ],
);

const movementCells = (m: Movement): Cell[] => [
  iso(m.createdAtMs),
  plain(m.entryId),
  plain(m.type),
  plain(m.bucket),
  amount(m.amountMinor),
  amount(m.feeMinor),
  amount(m.balanceAfterMinor),
  plain(m.paymentRef ?? ''),
  plain(m.payoutRef ?? ''),
];

const statement: ReportSource = {
  header: ['createdAt', 'entryId', 'type', 'bucket', 'amount', 'fee', 'balanceAfter', 'paymentRef', 'payoutRef'],
  async next(ctx, position) {
    const currency = ctx.filters.currency!;
    const range = rangeOf(ctx.filters);
    const page =
      position === null
        ? await firstMovements(ctx, ctx.merchantId, currency, range, ctx.pageRows)
        : await movementPage(ctx.db, ctx.merchantId, currency, range, { position: statementPositionOf(position), opening: statementPositionOf(position).balances }, ctx.pageRows);
    return {
      lines: linesOf(page.movements, movementCells),
      rows: page.movements.length,
      position: page.more && page.position !== null ? statementParts(page.position) : null,
    };
  },
};

/** Settlements are read a window of days at a time, newest window first; the position is the window's start. */
const SETTLEMENT_WINDOW_DAYS = 31;

const settlements: ReportSource = {
  header: ['date', 'currency', 'collected', 'refunded', 'paidOut', 'fees', 'settled', 'net'],
  async next(ctx, position) {
    const currency = ctx.filters.currency!;
    const toMs = position === null ? ctx.filters.toMs : Number(position[0]);
    if (toMs <= ctx.filters.fromMs) return { lines: '', rows: 0, position: null };
    // Windows start at a UTC midnight, so no day is split between two windows.
    const lastDayStartMs = Math.floor((toMs - 1) / MS_PER_DAY) * MS_PER_DAY;
    const fromMs = Math.max(ctx.filters.fromMs, lastDayStartMs - (SETTLEMENT_WINDOW_DAYS - 1) * MS_PER_DAY);
    const days = await settlementDays(ctx.db, ctx.merchantId, currency, { fromMs, toMs }, ctx.clock.nowMs());
    const lines = linesOf(days, (d) => [
      plain(d.day),
      plain(currency),
      amount(d.collectedMinor),
      amount(d.refundedMinor),
      amount(d.paidOutMinor),
      amount(d.feesMinor),
      amount(d.settledMinor),
      amount(d.netMinor),
    ]);
    if (fromMs <= ctx.filters.fromMs) return { lines, rows: days.length, position: null };
    // The next window ends after the newest older movement, so years without any cost one query, not one per window.
    const older = await ctx.db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.max('created_at_ms').as('newest'))
      .where('merchant_id', '=', ctx.merchantId)
      .where('currency', '=', currency)
      .where('created_at_ms', '<', BigInt(fromMs))
      .where('created_at_ms', '>=', BigInt(ctx.filters.fromMs))
      .executeTakeFirst();
    const newest = older?.newest === null || older?.newest === undefined ? null : Number(older.newest);
    const nextToMs = newest === null ? null : Math.min(fromMs, (Math.floor(newest / MS_PER_DAY) + 1) * MS_PER_DAY);
    return { lines, rows: days.length, position: nextToMs === null ? null : [String(nextToMs)] };
  },
};

export const REPORT_SOURCES: Readonly<Record<ReportType, ReportSource>> = { payments, payouts, statement, settlements };
