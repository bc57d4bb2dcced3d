// Journal posting, the only way money moves: an entry whose postings sum to zero, written with
// the cached balance updates in the caller's transaction. (kind, ref) is unique, so posting the
// same business event twice is a replay that changes nothing.
import { sql } from 'kysely';
import { AppError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Currency, Minor } from '../core/money.js';
import { HotBatchQuery, HotQuery, HotRowInsert } from '../store/hot-query.js';
import { isPostgres, type Executor } from '../store/schema.js';
import { accountId, mustStayNonNegative, openAccount, type AccountRef } from './accounts.js';
import type { LedgerEntriesTable } from './ledger-rows.js';
import { postEntryPg, type PgDelta } from './pg-posting.js';

export const ENTRY_KINDS = [
  'payment_credit',
  'unallocated_payment',
  'late_credit',
  'late_return',
  'refund',
  'refund_reversal',
  'payout_reserve',
  'payout_release',
  'payout_complete',
  'settlement',
  'credit_grant',
  'credit_lower',
  'security_deposit',
  'security_release',
  'adjustment',
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export interface Posting {
  readonly account: AccountRef;
  readonly amountMinor: Minor;
}

export interface EntryInput {
  readonly kind: EntryKind;
  readonly ref: string;
  readonly merchantId: string | null;
  readonly currency: Currency;
  readonly postings: readonly Posting[];
  readonly reason?: string;
  readonly actor?: string;
  readonly nowMs: number;
}

export interface PostResult {
  readonly entryId: string;
  /** True when (kind, ref) was already posted: nothing was written this time. */
  readonly replayed: boolean;
}

/** Upper bound on postings per entry; every operation here needs at most four. */
const MAX_POSTINGS = 8;

export const insufficientBalance = (detail = 'The amount exceeds the balance it would come from.'): AppError =>
  new AppError('INSUFFICIENT_BALANCE', detail);

/** Adds postings to the same account together and drops zeros; asserts the entry is balanced. */
export function normalizePostings(entry: Pick<EntryInput, 'currency' | 'postings'>): { id: string; posting: Posting }[] {
  const byId = new Map<string, Posting>();
  for (const posting of entry.postings) {
    if (typeof posting.amountMinor !== 'bigint') throw new Error('ledger: posting amount must be a bigint');
    if (posting.account.currency !== entry.currency) throw new Error('ledger: an entry posts in one currency only');
    const id = accountId(posting.account);
    const previous = byId.get(id)?.amountMinor ?? 0n;
    byId.set(id, { account: posting.account, amountMinor: previous + posting.amountMinor });
  }
  const postings = [...byId].filter(([, p]) => p.amountMinor !== 0n).map(([id, posting]) => ({ id, posting }));
  const sumMinor = postings.reduce((sum, p) => sum + p.posting.amountMinor, 0n);
  if (sumMinor !== 0n) throw new Error(`ledger: entry postings sum to ${sumMinor}, not zero`);
  if (postings.length < 2 || postings.length > MAX_POSTINGS) {
    throw new Error(`ledger: an entry needs 2 to ${MAX_POSTINGS} non-zero postings, got ${postings.length}`);
  }
  // One lock order for every transaction: plain code-unit order, the same as PostgreSQL's "C" collation.
  return postings.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

// The statements of a posting on SQLite (and of PostgreSQL's step-by-step fallback), compiled once
// (store/hot-query.ts): a payout's reservation or a payment's credit runs them on every call.
const addToBalance = new HotQuery(2, (db, id: string, deltaMinor: Minor) =>
  db
    .updateTable('ledger_accounts')
    .set({ balance_minor: sql<bigint>`balance_minor + ${deltaMinor}` })
    .where('id', '=', id),
);
/** The same, only while the balance covers the debit: `coverMinor` is the debit's size (-deltaMinor). */
const addToBalanceIfCovered = new HotQuery(3, (db, id: string, deltaMinor: Minor, coverMinor: Minor) =>
  db
    .updateTable('ledger_accounts')
    .set({ balance_minor: sql<bigint>`balance_minor + ${deltaMinor}` })
    .where('id', '=', id)
    .where('balance_minor', '>=', coverMinor),
);
const claimEntry = new HotRowInsert((db, row: LedgerEntriesTable) =>
  db
    .insertInto('ledger_entries')
    .values(row)
    .onConflict((oc) => oc.columns(['kind', 'ref']).doNothing())
    .returning('id'),
);
/** An entry's postings in one insert: (entry_id, account_id, amount_minor) per posting. */
const insertPostings = new HotBatchQuery(3, (db, count, values) =>
  db.insertInto('ledger_postings').values(
    Array.from({ length: count }, (_, i) => ({
      entry_id: values[i * 3] as string,
      account_id: values[i * 3 + 1] as string,
      amount_minor: values[i * 3 + 2] as Minor,
    })),
  ),
);

/**
 * Applies one delta to an account's cached balance in a single statement. For an account that must
 * not go negative the WHERE clause makes the update conditional: PostgreSQL re-evaluates it on the
 * newest row version after waiting for the row lock, so concurrent debits can neither lose an
 * update nor overdraw. Zero rows updated means "not enough" (a missing account holds zero).
 */
async function applyDelta(db: Executor, id: string, posting: Posting, nowMs: number): Promise<void> {
  const guarded = mustStayNonNegative(posting.account) && posting.amountMinor < 0n;
  const update = (): Promise<bigint> =>
    guarded ? addToBalanceIfCovered.affected(db, id, posting.amountMinor, -posting.amountMinor) : addToBalance.affected(db, id, posting.amountMinor);
  if ((await update()) === 1n) return;
  if (guarded) throw insufficientBalance();
  await openAccount(db, posting.account, nowMs);
  if ((await update()) !== 1n) throw new Error(`ledger: account ${id} could not be updated`);
}

/**
 * Posts an entry: claims (kind, ref), writes the postings, then updates the cached balances in
 * account-id order. A replayed (kind, ref) writes nothing. Throws INSUFFICIENT_BALANCE when a guarded
 * account is short; the caller's transaction must then be rolled back (it always is when the error
 * leaves `db.transaction().execute`).
 */
export async function postJournal(db: Executor, entry: EntryInput): Promise<PostResult> {
  const postings = normalizePostings(entry);
  if (entry.ref.length === 0 || entry.ref.length > 200) throw new Error('ledger: ref must be 1 to 200 characters');
  if (isPostgres(db)) return postJournalPg(db, entry, postings);
  return postStepByStep(db, entry, postings);
}

async function postStepByStep(db: Executor, entry: EntryInput, postings: { id: string; posting: Posting }[]): Promise<PostResult> {
  const claimed = await claimEntry.executeTakeFirst(db, {
    id: newId(),
    kind: entry.kind,
    ref: entry.ref,
    merchant_id: entry.merchantId,
    currency: entry.currency,
    posting_count: BigInt(postings.length),
    reason: entry.reason ?? null,
    actor: entry.actor ?? null,
    created_at_ms: BigInt(entry.nowMs),
  });
  if (!claimed) return { entryId: await existingEntryId(db, entry.kind, entry.ref), replayed: true };

  await insertPostings.execute(
    db,
    postings.flatMap(({ id, posting }) => [claimed.id, id, posting.amountMinor]),
  );
  // Balance rows last: on PostgreSQL their row locks are then held only until the commit.
  for (const { id, posting } of postings) await applyDelta(db, id, posting, entry.nowMs);
  return { entryId: claimed.id, replayed: false };
}

/** Normalized postings as the one-statement posting takes them: a debit of a balance that must stay non-negative is guarded. */
export function pgDeltasOf(postings: readonly { id: string; posting: Posting }[]): PgDelta[] {
  return postings.map(({ id, posting }) => ({ id, amountMinor: posting.amountMinor, guarded: mustStayNonNegative(posting.account) && posting.amountMinor < 0n }));
}

/**
 * PostgreSQL: the same in one statement and one round trip (pg-posting.ts). Before an account's
 * first use the statement writes nothing and the entry is posted statement by statement below,
 * which opens the account in its place in the lock order.
 */
async function postJournalPg(db: Executor, entry: EntryInput, postings: { id: string; posting: Posting }[]): Promise<PostResult> {
  const entryId = newId();
  const posted = await postEntryPg(
    db,
    {
      id: entryId,
      kind: entry.kind,
      ref: entry.ref,
      merchantId: entry.merchantId,
      currency: entry.currency,
      reason: entry.reason ?? null,
      actor: entry.actor ?? null,
      nowMs: entry.nowMs,
    },
    pgDeltasOf(postings),
  );
  switch (posted.outcome) {
    case 'posted':
      return { entryId, replayed: false };
    case 'replayed':
      return { entryId: await existingEntryId(db, entry.kind, entry.ref), replayed: true };
    case 'short':
      throw insufficientBalance();
    case 'missing_account':
      return postStepByStep(db, entry, postings);
  }
}

async function existingEntryId(db: Executor, kind: EntryKind, ref: string): Promise<string> {
  const row = await findEntry(db, kind, ref);
  if (!row) throw new Error(`ledger: entry ${kind}/${ref} conflicted but cannot be read`);
  return row.id;
}

export async function findEntry(db: Executor, kind: EntryKind, ref: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('ledger_entries').select('id').where('kind', '=', kind).where('ref', '=', ref).executeTakeFirst();
}

/** The postings of one entry keyed by account id (to answer a replay with the original split). */
export async function entryPostings(db: Executor, entryId: string): Promise<Map<string, Minor>> {
  const rows = await db
    .selectFrom('ledger_postings')
    .select(['account_id', 'amount_minor'])
    .where('entry_id', '=', entryId)
    .execute();
  return new Map(rows.map((r) => [r.account_id, r.amount_minor]));
}
