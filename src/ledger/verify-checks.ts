// The ledger verifier's checks as plain SQL and what each finding means, with no database library
// behind them: verify.ts runs them through Kysely in the service's thread (PostgreSQL, a small SQLite
// journal), and verify-thread.ts runs them on better-sqlite3 alone. That thread loaded Kysely only to
// run these statements, about 12 MiB of the 29 MiB a thread added to the service's resident set at its
// peak (docs/benchmarks.md, session 40), where the budget is 300 MiB. The statements are the same text
// on both stores.

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

/** Runs one statement (positional `?` parameters on SQLite, `$n` on PostgreSQL: see `param`) and answers its rows. */
export type RunSql = (text: string, parameters: readonly unknown[]) => Promise<readonly Record<string, unknown>[]>;

/** A check: its statements run one after another, all inside the caller's one snapshot. */
type Check = (run: RunSql, param: (n: number) => string) => Promise<Violation[]>;

const text = (value: unknown): string => String(value);
/** Integers arrive as bigint (better-sqlite3's safe integers) or as decimal text (node-postgres' int8 and numeric). */
const integer = (value: unknown): bigint => BigInt(value as bigint | string | number);

/** Every entry has exactly the postings it was written with, and they sum to zero. */
const entriesBalance: Check = async (run) =>
  (
    await run(
      `SELECT e.id, e.posting_count, COUNT(p.entry_id) AS n, COALESCE(SUM(p.amount_minor), 0) AS total
       FROM ledger_entries e LEFT JOIN ledger_postings p ON p.entry_id = e.id
       GROUP BY e.id, e.posting_count
       HAVING COUNT(p.entry_id) <> e.posting_count OR COUNT(p.entry_id) < 2 OR COALESCE(SUM(p.amount_minor), 0) <> 0`,
      [],
    )
  ).map((r) =>
    integer(r.total) !== 0n
      ? { code: 'ENTRY_UNBALANCED', subject: text(r.id), detail: `postings sum to ${integer(r.total)}` }
      : { code: 'ENTRY_INCOMPLETE', subject: text(r.id), detail: `${integer(r.n)} postings, expected ${integer(r.posting_count)}` },
  );

const entriesSingleCurrency: Check = async (run) =>
  (
    await run(
      `SELECT e.id, a.id AS account_id
       FROM ledger_entries e
       JOIN ledger_postings p ON p.entry_id = e.id
       JOIN ledger_accounts a ON a.id = p.account_id
       WHERE a.currency <> e.currency`,
      [],
    )
  ).map((r) => ({ code: 'ENTRY_MIXED_CURRENCY', subject: text(r.id), detail: `posts to ${text(r.account_id)}` }));

/** Every posting belongs to an account (postings carry no foreign key, see the migration). */
const postingsHaveAccounts: Check = async (run) =>
  (
    await run(
      `SELECT p.entry_id, p.account_id FROM ledger_postings p
       LEFT JOIN ledger_accounts a ON a.id = p.account_id WHERE a.id IS NULL`,
      [],
    )
  ).map((r) => ({ code: 'POSTING_WITHOUT_ACCOUNT', subject: text(r.entry_id), detail: `posts to missing account ${text(r.account_id)}` }));

/** Every cached balance equals the sum of its postings. */
const cachedBalances: Check = async (run) =>
  (
    await run(
      `SELECT a.id, a.balance_minor, COALESCE(s.total, 0) AS total
       FROM ledger_accounts a
       LEFT JOIN (SELECT account_id, SUM(amount_minor) AS total FROM ledger_postings GROUP BY account_id) s
         ON s.account_id = a.id
       WHERE a.balance_minor <> COALESCE(s.total, 0)`,
      [],
    )
  ).map((r) => ({ code: 'BALANCE_MISMATCH', subject: text(r.id), detail: `cached ${integer(r.balance_minor)}, postings sum to ${integer(r.total)}` }));

/** No merchant balance below zero, no credit line above zero. */
const signs: Check = async (run) =>
  (
    await run(
      `SELECT id, balance_minor FROM ledger_accounts
       WHERE (kind IN ('available', 'pending', 'held', 'credit', 'security') AND balance_minor < 0)
          OR (kind = 'credit_line' AND balance_minor > 0)`,
      [],
    )
  ).map((r) => ({ code: 'NEGATIVE_BALANCE', subject: text(r.id), detail: `balance ${integer(r.balance_minor)}` }));

/** Unused credit never exceeds the line: credit + credit_line <= 0. */
const creditWithinLine: Check = async (run) =>
  (
    await run(
      `SELECT merchant_id, currency, SUM(balance_minor) AS excess FROM ledger_accounts
       WHERE kind IN ('credit', 'credit_line')
       GROUP BY merchant_id, currency
       HAVING SUM(balance_minor) > 0`,
      [],
    )
  ).map((r) => ({
    code: 'CREDIT_OVER_LINE',
    subject: `${text(r.merchant_id)}/${text(r.currency)}`,
    detail: `unused credit exceeds the line by ${integer(r.excess)}`,
  }));

/** Compares per merchant/currency sums of a merchant account kind with those of a side table (`sideSql` answers merchant_id, currency, total). */
async function compareGroups(run: RunSql, param: (n: number) => string, kind: 'pending' | 'held', sideSql: string, code: ViolationCode): Promise<Violation[]> {
  const accounts = await run(`SELECT merchant_id, currency, balance_minor AS total FROM ledger_accounts WHERE kind = ${param(1)}`, [kind]);
  const expected = new Map<string, bigint>();
  for (const r of await run(sideSql, [])) expected.set(`${text(r.merchant_id)}/${text(r.currency)}`, integer(r.total));
  const violations: Violation[] = [];
  const seen = new Set<string>();
  for (const r of accounts) {
    const key = `${text(r.merchant_id)}/${text(r.currency)}`;
    seen.add(key);
    const want = expected.get(key) ?? 0n;
    const total = integer(r.total);
    if (total !== want) violations.push({ code, subject: key, detail: `${kind} ${total}, expected ${want}` });
  }
  for (const [key, want] of expected) {
    if (!seen.has(key) && want !== 0n) violations.push({ code, subject: key, detail: `no ${kind} account, expected ${want}` });
  }
  return violations;
}

/** `pending` is exactly the money of its lots; `held` is exactly the open reservations. */
const sideTables: Check = async (run, param) => [
  ...(await compareGroups(
    run,
    param,
    'pending',
    'SELECT merchant_id, currency, SUM(remaining_minor) AS total FROM ledger_pending_lots GROUP BY merchant_id, currency',
    'PENDING_LOTS_MISMATCH',
  )),
  ...(await compareGroups(
    run,
    param,
    'held',
    `SELECT merchant_id, currency, SUM(amount_minor + fee_minor) AS total FROM ledger_reservations
     WHERE status = 'held' GROUP BY merchant_id, currency`,
    'HELD_MISMATCH',
  )),
];

/** Conservation: across merchants and platform, every currency's balances sum to zero. */
const conservation: Check = async (run) =>
  (await run('SELECT currency, SUM(balance_minor) AS total FROM ledger_accounts GROUP BY currency HAVING SUM(balance_minor) <> 0', [])).map((r) => ({
    code: 'CURRENCY_NOT_ZERO',
    subject: text(r.currency),
    detail: `all balances sum to ${integer(r.total)}`,
  }));

const CHECKS: readonly Check[] = [entriesBalance, entriesSingleCurrency, postingsHaveAccounts, cachedBalances, signs, creditWithinLine, sideTables, conservation];

/** How the store writes the n-th (1-based) positional parameter. */
export const sqliteParam = (): string => '?';
export const postgresParam = (n: number): string => `$${n}`;

/** Every check, one after another, through `run`; the caller holds them in one snapshot. */
export async function runChecks(run: RunSql, param: (n: number) => string): Promise<Violation[]> {
  const violations: Violation[] = [];
  for (const check of CHECKS) violations.push(...(await check(run, param)));
  return violations;
}
