// account/statement: every movement of a merchant's five balances in one currency, newest first,
// with the bucket's balance after it. The cursor carries the balances reached, so later pages never
// re-read history and postings committed between pages change nothing already walked.
import { isoFromMs } from '../core/clock.js';
import { validationError } from '../core/errors.js';
import { toMajor, type Currency } from '../core/money.js';
import { BALANCE_KINDS, type BalanceKind } from '../ledger/accounts.js';
import type { StoreKind } from '../store/db.js';
import type { Db } from '../store/schema.js';
import { filterFingerprint, type CursorCodec, type CursorScope } from './cursor.js';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, type Page } from './lists.js';
import { movementPage, openingBalances, type Buckets, type Movement, type StatementPosition } from './statement-rows.js';
import { parseRange, type TimeRange } from './time-range.js';

export interface StatementQuery {
  readonly currency: Currency;
  readonly from?: string;
  readonly to?: string;
  readonly limit?: number;
  readonly cursor?: string;
}

/** One movement as the merchant sees it; amounts in major units, signed (a debit is negative). */
export interface StatementLine {
  readonly entryId: string;
  readonly type: string;
  readonly bucket: BalanceKind;
  readonly amount: number;
  readonly fee: number;
  readonly balanceAfter: number;
  readonly paymentRef?: string;
  readonly payoutRef?: string;
  readonly createdAt: string;
}

export function statementLine(m: Movement): StatementLine {
  return {
    entryId: m.entryId,
    type: m.type,
    bucket: m.bucket,
    amount: toMajor(m.amountMinor),
    fee: toMajor(m.feeMinor),
    balanceAfter: toMajor(m.balanceAfterMinor),
    ...(m.paymentRef === null ? {} : { paymentRef: m.paymentRef }),
    ...(m.payoutRef === null ? {} : { payoutRef: m.payoutRef }),
    createdAt: isoFromMs(m.createdAtMs),
  };
}

export const positionParts = (p: StatementPosition): string[] => [
  p.createdAtMs.toString(),
  p.entryId,
  p.accountId,
  ...BALANCE_KINDS.map((kind) => p.balances[kind].toString()),
];

const INTEGER = /^-?\d{1,20}$/;

export function positionOf(parts: readonly string[]): StatementPosition {
  const [created, entryId, accountId, ...amounts] = parts;
  if (created === undefined || entryId === undefined || accountId === undefined || amounts.length !== BALANCE_KINDS.length || ![created, ...amounts].every((x) => INTEGER.test(x))) {
    throw validationError('cursor', 'is not a cursor of this list with these filters');
  }
  const balances = Object.fromEntries(BALANCE_KINDS.map((kind, i) => [kind, BigInt(amounts[i]!)])) as Buckets;
  return { createdAtMs: BigInt(created), entryId, accountId, balances };
}

export interface StatementContext {
  readonly db: Db;
  readonly storeKind: StoreKind;
  readonly cursors: CursorCodec;
}

/**
 * The first page reads the cached balances and the newest movements in one snapshot (repeatable read
 * on PostgreSQL; a SQLite read transaction is one), so balance after agrees with account/balance.
 */
export async function firstMovements(ctx: Pick<StatementContext, 'db' | 'storeKind'>, merchantId: string, currency: Currency, range: TimeRange, limit: number) {
  const tx = ctx.db.transaction();
  const snapshot = ctx.storeKind === 'postgres' ? tx.setIsolationLevel('repeatable read') : tx;
  return snapshot.execute(async (trx) => {
    const opening = await openingBalances(trx, merchantId, currency, range);
    return movementPage(trx, merchantId, currency, range, { position: null, opening }, limit);
  });
}

export async function statement(ctx: StatementContext, merchantId: string, query: StatementQuery): Promise<Page<StatementLine>> {
  const limit = query.limit ?? LIST_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX_LIMIT) throw validationError('limit', `must be 1 to ${LIST_MAX_LIMIT}`);
  const { limit: _limit, cursor, ...filters } = query;
  const range = parseRange(filters);
  const scope: CursorScope = { merchantId, list: 'statement', fingerprint: filterFingerprint(filters) };
  const page =
    cursor === undefined
      ? await firstMovements(ctx, merchantId, query.currency, range, limit)
      : await movementPage(ctx.db, merchantId, query.currency, range, { position: positionOf(ctx.cursors.decode(scope, cursor)), opening: emptyBuckets() }, limit);
  const nextCursor = page.more && page.position !== null ? ctx.cursors.encode(scope, positionParts(page.position)) : null;
  return { items: page.movements.map(statementLine), nextCursor };
}

const emptyBuckets = (): Buckets => Object.fromEntries(BALANCE_KINDS.map((kind) => [kind, 0n])) as Buckets;
