// Read side of the ledger: a merchant's five balances and its journal, newest first.
import { toMajor, type Currency, type Minor } from '../core/money.js';
import { GroupBatch } from '../core/group-batch.js';
import { HotBatchQuery } from '../store/hot-query.js';
import type { Executor } from '../store/schema.js';
import { accountId, BALANCE_KINDS, merchantAccount, type BalanceKind } from './accounts.js';
import { ENTRY_KINDS } from './journal.js';

export type Balances = Readonly<Record<BalanceKind, Minor>>;

/** The unlocked read of merchants' accounts by their derived ids, compiled once per number of ids. */
const accountRows = new HotBatchQuery(1, (db, _count, ids) =>
  db.selectFrom('ledger_accounts').select(['id', 'kind', 'balance_minor']).where('id', 'in', ids as string[]),
);

const balanceIds = (merchantId: string, currency: Currency): string[] =>
  BALANCE_KINDS.map((kind) => accountId(merchantAccount(merchantId, currency, kind)));

/** The five balances from the rows read; an account never used does not exist yet: a zero balance. */
function balancesFrom(ids: readonly string[], byId: ReadonlyMap<string, Minor>): Balances {
  const [available, pending, held, credit, security] = ids.map((id) => byId.get(id) ?? 0n) as [Minor, Minor, Minor, Minor, Minor];
  return { available, pending, held, credit, security };
}

export async function merchantBalances(db: Executor, merchantId: string, currency: Currency): Promise<Balances> {
  const ids = balanceIds(merchantId, currency);
  const rows = await accountRows.execute(db, ids);
  return balancesFrom(ids, new Map(rows.map((row) => [row.id, row.balance_minor])));
}

interface BalanceRead {
  readonly merchantId: string;
  readonly currency: Currency;
}

/** Bounded so one read stays a small statement (five ids a read). */
const MAX_READS_PER_BATCH = 100;

/**
 * Balance reads outside any transaction (account/balance, the consoles), those arriving together
 * answered by one statement: on PostgreSQL a round trip each was the largest share of the read's
 * cost. Each read gets only the accounts derived from its own merchant and currency.
 */
export class BalanceReads {
  private readonly reads = new GroupBatch<BalanceRead, Balances>(MAX_READS_PER_BATCH, (batch) => this.readAll(batch));

  constructor(private readonly db: Executor) {}

  read(merchantId: string, currency: Currency): Promise<Balances> {
    return this.reads.add({ merchantId, currency });
  }

  private async readAll(batch: readonly BalanceRead[]): Promise<Balances[]> {
    const idsOf = batch.map((read) => balanceIds(read.merchantId, read.currency));
    const rows = await accountRows.execute(this.db, [...new Set(idsOf.flat())]);
    const byId = new Map(rows.map((row) => [row.id, row.balance_minor]));
    return idsOf.map((ids) => balancesFrom(ids, byId));
  }
}

export const JOURNAL_DEFAULT_LIMIT = 50;
export const JOURNAL_MAX_LIMIT = 500;

export interface JournalQuery {
  readonly limit?: number;
  /** Entry id to page back from (exclusive); ids are time-ordered. */
  readonly before?: string;
  readonly currency?: Currency;
  /** Only the entries of these refs (a payment's transactionRef and refund ref, a payout's transactionRef). */
  readonly refs?: readonly string[];
}

export interface JournalPosting {
  readonly accountId: string;
  readonly kind: string;
  readonly channel: string | null;
  /** The merchant whose account this is; null for the platform's accounts. */
  readonly merchantId: string | null;
  readonly amountMinor: Minor;
}

export interface JournalEntry {
  readonly id: string;
  readonly kind: string;
  readonly ref: string;
  readonly currency: Currency;
  readonly reason: string | null;
  readonly actor: string | null;
  readonly createdAtMs: number;
  readonly postings: readonly JournalPosting[];
}

/**
 * The entries of a record's refs (the console's payment and payout pages): every kind named, so that both
 * stores look each ref up in the unique (kind, ref) index, where they used to walk the merchant's history
 * newest first until the refs turned up (an old record's page read every entry made since;
 * docs/benchmarks.md, session 37). Neither the merchant nor an order is asked of the store: given either,
 * both planners (SQLite without statistics, PostgreSQL on a young table) chose a merchant's index
 * instead. The answer is at most one entry per kind and ref; the caller keeps the merchant's own and
 * orders them.
 */
export const refEntriesQuery = (db: Executor, refs: readonly string[]) =>
  db.selectFrom('ledger_entries').selectAll().where('kind', 'in', [...ENTRY_KINDS]).where('ref', 'in', [...refs]);

async function journalEntries(db: Executor, merchantId: string, query: JournalQuery, limit: number) {
  if (query.refs === undefined) {
    return db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .$if(query.before !== undefined, (q) => q.where('id', '<', query.before!))
      .$if(query.currency !== undefined, (q) => q.where('currency', '=', query.currency!))
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
  if (query.refs.length === 0) return [];
  const rows = await refEntriesQuery(db, query.refs).execute();
  return rows
    .filter((e) => e.merchant_id === merchantId)
    .filter((e) => (query.before === undefined || e.id < query.before) && (query.currency === undefined || e.currency === query.currency))
    .sort((a, b) => (a.id < b.id ? 1 : -1))
    .slice(0, limit);
}

export async function merchantJournal(db: Executor, merchantId: string, query: JournalQuery = {}): Promise<JournalEntry[]> {
  const limit = Math.min(Math.max(1, Math.trunc(query.limit ?? JOURNAL_DEFAULT_LIMIT)), JOURNAL_MAX_LIMIT);
  const entries = await journalEntries(db, merchantId, query, limit);
  if (entries.length === 0) return [];
  const postings = await db
    .selectFrom('ledger_postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .select(['p.entry_id', 'p.account_id', 'p.amount_minor', 'a.kind', 'a.channel', 'a.merchant_id'])
    .where(
      'p.entry_id',
      'in',
      entries.map((e) => e.id),
    )
    .orderBy('p.account_id')
    .execute();
  const byEntry = new Map<string, JournalPosting[]>();
  for (const p of postings) {
    const list = byEntry.get(p.entry_id) ?? [];
    list.push({ accountId: p.account_id, kind: p.kind, channel: p.channel, merchantId: p.merchant_id, amountMinor: p.amount_minor });
    byEntry.set(p.entry_id, list);
  }
  return entries.map((e) => ({
    id: e.id,
    kind: e.kind,
    ref: e.ref,
    currency: e.currency as Currency,
    reason: e.reason,
    actor: e.actor,
    createdAtMs: Number(e.created_at_ms),
    postings: byEntry.get(e.id) ?? [],
  }));
}

/** The balance object of `account/balance` (interface spec section 2): major units as JSON numbers. */
export function balanceView(currency: Currency, balances: Balances) {
  return {
    currency,
    available: toMajor(balances.available),
    pending: toMajor(balances.pending),
    held: toMajor(balances.held),
    credit: toMajor(balances.credit),
    security: toMajor(balances.security),
  };
}
