// The verifier: re-derives every invariant of the ledger from the rows, in one consistent
// snapshot, and lists each violation. An empty list means the books balance.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sql, type RawBuilder } from 'kysely';
import type { StoreKind } from '../store/db.js';
import type { Db, Executor } from '../store/schema.js';

export type ViolationCode =
  | 'ENTRY_UNBALANCED'
  | 'ENTRY_INCOMPLETE'
  | 'ENTRY_MIXED_CURRENCY'
  | 'POSTING_WITHOUT_ACCOUNT'
  | 'BALANCE_MISMATCH'
  | 'NEGATIVE_BALANCE'
  | 'CREDIT_OVER_LINE'
  | 'PENDING_LOTS_MISMATCH'
  | 'HELD_MISMATCH'
  | 'CURRENCY_NOT_ZERO';

export interface Violation {
  readonly code: ViolationCode;
  /** The entry id, account id, or merchant/currency the violation is about. */
  readonly subject: string;
  readonly detail: string;
}

type Check = (db: Executor) => Promise<Violation[]>;

const rows = async <T>(db: Executor, query: RawBuilder<T>): Promise<T[]> => (await query.execute(db)).rows;

/** Every entry has exactly the postings it was written with, and they sum to zero. */
const entriesBalance: Check = async (db) => {
  const found = await rows(
    db,
    sql<{ id: string; posting_count: bigint; n: bigint; total: bigint }>`
      SELECT e.id, e.posting_count, COUNT(p.entry_id) AS n, COALESCE(SUM(p.amount_minor), 0) AS total
      FROM ledger_entries e LEFT JOIN ledger_postings p ON p.entry_id = e.id
      GROUP BY e.id, e.posting_count
      HAVING COUNT(p.entry_id) <> e.posting_count OR COUNT(p.entry_id) < 2 OR COALESCE(SUM(p.amount_minor), 0) <> 0`,
  );
  return found.map((r) =>
    BigInt(r.total) !== 0n
      ? { code: 'ENTRY_UNBALANCED', subject: r.id, detail: `postings sum to ${r.total}` }
      : { code: 'ENTRY_INCOMPLETE', subject: r.id, detail: `${r.n} postings, expected ${r.posting_count}` },
  );
};

const entriesSingleCurrency: Check = async (db) => {
  const found = await rows(
    db,
    sql<{ id: string; account_id: string }>`
      SELECT e.id, a.id AS account_id
      FROM ledger_entries e
      JOIN ledger_postings p ON p.entry_id = e.id
      JOIN ledger_accounts a ON a.id = p.account_id
      WHERE a.currency <> e.currency`,
  );
  return found.map((r) => ({ code: 'ENTRY_MIXED_CURRENCY', subject: r.id, detail: `posts to ${r.account_id}` }));
};

/** Every posting belongs to an account (postings carry no foreign key, see the migration). */
const postingsHaveAccounts: Check = async (db) => {
  const found = await rows(
    db,
    sql<{ entry_id: string; account_id: string }>`
      SELECT p.entry_id, p.account_id FROM ledger_postings p
      LEFT JOIN ledger_accounts a ON a.id = p.account_id WHERE a.id IS NULL`,
  );
  return found.map((r) => ({ code: 'POSTING_WITHOUT_ACCOUNT', subject: r.entry_id, detail: `posts to missing account ${r.account_id}` }));
};

/** Every cached balance equals the sum of its postings. */
const cachedBalances: Check = async (db) => {
  const found = await rows(
    db,
    sql<{ id: string; balance_minor: bigint; total: bigint }>`
      SELECT a.id, a.balance_minor, COALESCE(s.total, 0) AS total
      FROM ledger_accounts a
      LEFT JOIN (SELECT account_id, SUM(amount_minor) AS total FROM ledger_postings GROUP BY account_id) s
        ON s.account_id = a.id
      WHERE a.balance_minor <> COALESCE(s.total, 0)`,
  );
  return found.map((r) => ({ code: 'BALANCE_MISMATCH', subject: r.id, detail: `cached ${r.balance_minor}, postings sum to ${r.total}` }));
};

/** No merchant balance below zero, no credit line above zero. */
const signs: Check = async (db) => {
  const found = await rows(
    db,
    sql<{ id: string; balance_minor: bigint }>`
      SELECT id, balance_minor FROM ledger_accounts
      WHERE (kind IN ('available', 'pending', 'held', 'credit', 'security') AND balance_minor < 0)
         OR (kind = 'credit_line' AND balance_minor > 0)`,
  );
  return found.map((r) => ({ code: 'NEGATIVE_BALANCE', subject: r.id, detail: `balance ${r.balance_minor}` }));
};

/** Unused credit never exceeds the line: credit + credit_line <= 0. */
const creditWithinLine: Check = async (db) => {
  const found = await rows(
    db,
    sql<{ merchant_id: string; currency: string; excess: bigint }>`
      SELECT merchant_id, currency, SUM(balance_minor) AS excess FROM ledger_accounts
      WHERE kind IN ('credit', 'credit_line')
      GROUP BY merchant_id, currency
      HAVING SUM(balance_minor) > 0`,
  );
  return found.map((r) => ({
    code: 'CREDIT_OVER_LINE',
    subject: `${r.merchant_id}/${r.currency}`,
    detail: `unused credit exceeds the line by ${r.excess}`,
  }));
};

/** Compares per merchant/currency sums of a merchant account kind with those of a side table. */
async function compareGroups(
  db: Executor,
  kind: 'pending' | 'held',
  side: RawBuilder<{ merchant_id: string; currency: string; total: bigint }>,
  code: ViolationCode,
): Promise<Violation[]> {
  const accounts = await rows(
    db,
    sql<{ merchant_id: string; currency: string; total: bigint }>`
      SELECT merchant_id, currency, balance_minor AS total FROM ledger_accounts WHERE kind = ${kind}`,
  );
  const expected = new Map<string, bigint>();
  for (const r of await rows(db, side)) expected.set(`${r.merchant_id}/${r.currency}`, BigInt(r.total));
  const violations: Violation[] = [];
  const seen = new Set<string>();
  for (const r of accounts) {
    const key = `${r.merchant_id}/${r.currency}`;
    seen.add(key);
    const want = expected.get(key) ?? 0n;
    if (BigInt(r.total) !== want) violations.push({ code, subject: key, detail: `${kind} ${r.total}, expected ${want}` });
  }
  for (const [key, want] of expected) {
    if (!seen.has(key) && want !== 0n) violations.push({ code, subject: key, detail: `no ${kind} account, expected ${want}` });
  }
  return violations;
}

/** `pending` is exactly the money of its lots; `held` is exactly the open reservations. */
const sideTables: Check = async (db) => [
  ...(await compareGroups(
    db,
    'pending',
    sql`SELECT merchant_id, currency, SUM(remaining_minor) AS total FROM ledger_pending_lots GROUP BY merchant_id, currency`,
    'PENDING_LOTS_MISMATCH',
  )),
  ...(await compareGroups(
    db,
    'held',
    sql`SELECT merchant_id, currency, SUM(amount_minor + fee_minor) AS total FROM ledger_reservations
        WHERE status = 'held' GROUP BY merchant_id, currency`,
    'HELD_MISMATCH',
  )),
];

/** Conservation: across merchants and platform, every currency's balances sum to zero. */
const conservation: Check = async (db) => {
  const found = await rows(
    db,
    sql<{ currency: string; total: bigint }>`
      SELECT currency, SUM(balance_minor) AS total FROM ledger_accounts GROUP BY currency HAVING SUM(balance_minor) <> 0`,
  );
  return found.map((r) => ({ code: 'CURRENCY_NOT_ZERO', subject: r.currency, detail: `all balances sum to ${r.total}` }));
};

const CHECKS: readonly Check[] = [entriesBalance, entriesSingleCurrency, postingsHaveAccounts, cachedBalances, signs, creditWithinLine, sideTables, conservation];

/** Runs every check in one snapshot (REPEATABLE READ on PostgreSQL), so concurrent posting cannot fake a violation. */
export async function verifyLedger(db: Db, storeKind: StoreKind): Promise<Violation[]> {
  const transaction = storeKind === 'postgres' ? db.transaction().setIsolationLevel('repeatable read') : db.transaction();
  return transaction.execute(async (trx) => {
    const violations: Violation[] = [];
    for (const check of CHECKS) violations.push(...(await check(trx)));
    return violations;
  });
}

/**
 * Whether the SQLite journal holds at least `count` entries, read off its largest rowid in one step
 * (entries are never deleted, so it is their number; a count would read them all).
 */
export async function journalRowsAtLeast(db: Db, count: number): Promise<boolean> {
  if (count <= 0) return true;
  const { rows: found } = await sql<{ n: bigint | number | null }>`SELECT max(rowid) AS n FROM ledger_entries`.execute(db);
  return Number(found[0]?.n ?? 0) >= count;
}

/**
 * tsx's loader API as an absolute URL, found from this file: the thread's start-up code is evaluated
 * without a file of its own, so a bare package name there would be looked up from the working directory.
 */
function tsxApiUrl(): string {
  const meta = import.meta as ImportMeta & { resolve?: (specifier: string) => string };
  return typeof meta.resolve === 'function' ? meta.resolve('tsx/esm/api') : pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
}

/** What the verifier's thread (verify-thread.ts) posts back. */
export type VerifyThreadReply = { readonly ok: true; readonly violations: Violation[] } | { readonly ok: false; readonly message: string };

/**
 * verifyLedger over the SQLite file, on a connection of its own in a worker thread (verify-thread.ts
 * says why), so the service's event loop goes on serving while the journal is read. From the
 * TypeScript sources (tests, the CLI under tsx) the thread registers tsx's loader first; the built
 * service starts the compiled module.
 */
export function verifyLedgerInThread(file: string): Promise<Violation[]> {
  const fromSource = import.meta.url.endsWith('.ts');
  const worker = fromSource
    ? new Worker(
        `import(${JSON.stringify(tsxApiUrl())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./verify-thread.ts', import.meta.url).href)}); });`,
        { eval: true, workerData: { file } },
      )
    : new Worker(new URL('./verify-thread.js', import.meta.url), { workerData: { file } });
  return new Promise((resolve, reject) => {
    let settled = false;
    worker.once('message', (reply: VerifyThreadReply) => {
      settled = true;
      if (reply.ok) resolve(reply.violations);
      else reject(new Error(`ledger verify: ${reply.message}`));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(new Error(`ledger verify: ${error.message}`));
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`ledger verify: the verifier's thread ended (exit code ${code}) without an answer`));
    });
  });
}
