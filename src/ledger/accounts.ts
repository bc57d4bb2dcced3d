// The chart of accounts: what accounts exist, their deterministic ids, which must never be
// negative, and the locking read every decision about a merchant's balances starts from.
import { sql } from 'kysely';
import type { Currency, Minor } from '../core/money.js';
import type { StoreKind } from '../store/db.js';
import { HotBatchQuery } from '../store/hot-query.js';
import type { Executor } from '../store/schema.js';

/** The five balances a merchant sees (`account/balance`); none of them is ever negative. */
export const BALANCE_KINDS = ['available', 'pending', 'held', 'credit', 'security'] as const;
export type BalanceKind = (typeof BALANCE_KINDS)[number];

/**
 * `credit_line` is the platform's side of a merchant's credit line: its balance is minus the line
 * the operator granted (never positive), so `line - credit` is the credit in use.
 */
export type MerchantAccountKind = BalanceKind | 'credit_line';

/**
 * The platform's own accounts, per currency. Their balances mirror the merchants' money and are
 * usually negative (an asset seen from the merchants' side): the sum over all accounts is zero.
 */
export const PLATFORM_KINDS = ['upstream_clearing', 'fee_revenue', 'settlement', 'adjustments', 'suspense'] as const;
export type PlatformAccountKind = (typeof PLATFORM_KINDS)[number];

export type AccountRef =
  | { readonly owner: 'merchant'; readonly merchantId: string; readonly currency: Currency; readonly kind: MerchantAccountKind }
  | { readonly owner: 'platform'; readonly currency: Currency; readonly kind: PlatformAccountKind; readonly channel?: string };

const CHANNEL_PATTERN = /^[a-z0-9_-]{1,32}$/;
const MERCHANT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const merchantAccount = (merchantId: string, currency: Currency, kind: MerchantAccountKind): AccountRef => ({
  owner: 'merchant',
  merchantId,
  currency,
  kind,
});

export const platformAccount = (currency: Currency, kind: PlatformAccountKind, channel?: string): AccountRef =>
  channel === undefined ? { owner: 'platform', currency, kind } : { owner: 'platform', currency, kind, channel };

export const clearingAccount = (currency: Currency, channel: string): AccountRef => {
  if (!CHANNEL_PATTERN.test(channel)) throw new Error(`ledger: invalid channel name "${channel}"`);
  return platformAccount(currency, 'upstream_clearing', channel);
};

/**
 * Ids are derived, never looked up, so posting needs no account query. Merchant ids start with
 * "m:" and platform ids with "p:": sorting by id takes a merchant's rows before the (shared, hot)
 * platform rows, and every transaction takes its row locks in that one order, so none deadlock.
 */
export function accountId(ref: AccountRef): string {
  if (ref.owner === 'platform') {
    return ref.channel === undefined ? `p:${ref.currency}:${ref.kind}` : `p:${ref.currency}:${ref.kind}:${ref.channel}`;
  }
  if (!MERCHANT_ID_PATTERN.test(ref.merchantId)) throw new Error(`ledger: invalid merchant id "${ref.merchantId}"`);
  return `m:${ref.merchantId}:${ref.currency}:${ref.kind}`;
}

/** Merchant balances may not go below zero; the credit line and platform accounts may. */
export const mustStayNonNegative = (ref: AccountRef): boolean =>
  ref.owner === 'merchant' && (BALANCE_KINDS as readonly string[]).includes(ref.kind);

/** Creates an account row if it is missing; accounts come into being on first use. */
export async function openAccount(db: Executor, ref: AccountRef, nowMs: number): Promise<void> {
  await db
    .insertInto('ledger_accounts')
    .values({
      id: accountId(ref),
      merchant_id: ref.owner === 'merchant' ? ref.merchantId : null,
      currency: ref.currency,
      kind: ref.kind,
      channel: ref.owner === 'platform' ? (ref.channel ?? null) : null,
      balance_minor: 0n,
      created_at_ms: BigInt(nowMs),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export type MerchantBalances = Readonly<Record<MerchantAccountKind, Minor>>;

/** A merchant's balance rows by id, compiled once per number of ids (store/hot-query.ts). */
const balancesRead = new HotBatchQuery(1, (db, _count, ids) =>
  db
    .selectFrom('ledger_accounts')
    .select(['kind', 'balance_minor'])
    .where('id', 'in', ids as string[]),
);
/** The same rows locked, in code-unit order as normalizePostings sorts: PostgreSQL locks them in the order the sort yields. */
const balancesLocked = new HotBatchQuery(1, (db, _count, ids) =>
  db
    .selectFrom('ledger_accounts')
    .select(['kind', 'balance_minor'])
    .where('id', 'in', ids as string[])
    .orderBy(sql`id COLLATE "C"`)
    .forNoKeyUpdate(),
);

/**
 * Reads a merchant's balances of the given kinds; a missing account reads as zero. With `lock` on
 * PostgreSQL the rows stay locked (in id order) until the transaction ends, so a decision taken
 * from them (how much comes from available, how much credit to repay) cannot be overtaken. SQLite
 * needs no lock: it runs one writer at a time. Deadlock rule: a transaction may afterwards update
 * only rows that sort after the last one it locked, so `kinds` must include every earlier row it
 * will touch (kind names sort as available < credit < credit_line < held < pending < security).
 */
export async function readMerchantBalances(
  db: Executor,
  storeKind: StoreKind,
  merchantId: string,
  currency: Currency,
  kinds: readonly MerchantAccountKind[],
  lock: boolean,
): Promise<MerchantBalances> {
  const ids = kinds.map((kind) => accountId(merchantAccount(merchantId, currency, kind)));
  const rows = await (lock && storeKind === 'postgres' ? balancesLocked : balancesRead).execute(db, ids);
  const balances: Record<MerchantAccountKind, Minor> = {
    available: 0n,
    pending: 0n,
    held: 0n,
    credit: 0n,
    security: 0n,
    credit_line: 0n,
  };
  for (const row of rows) balances[row.kind as MerchantAccountKind] = row.balance_minor;
  return balances;
}
