// The ledger's hot writes on PostgreSQL as single statements, their SQL text written once here
// rather than built by Kysely on every call. Each PostgreSQL statement is a loopback round trip, and
// a group commit (store/write-group.ts) runs its units one after another, so a payout that took nine
// statements to reserve kept every other payout of its group waiting for nine round trips. The
// semantics are those of journal.ts and payouts.ts, which SQLite still runs statement by statement:
//
// - the entry's (kind, ref) is claimed first; everything after it reads the claim, so a replay
//   writes nothing;
// - the balance rows are locked in id order ("C" collation, as normalizePostings sorts) before any
//   of them changes, so the lock order of every transaction stays the ledger's one order;
// - a debit of a balance that must stay non-negative only applies when the row holds enough (the
//   guard is evaluated on the locked, newest row version); the statement reports how many deltas it
//   applied, and the caller throws INSUFFICIENT_BALANCE when one did not, which rolls the statement
//   back with its transaction (or savepoint), exactly as a failed guarded update did before;
// - an account the entry would credit (or debit without a guard) must exist: when one is missing the
//   statement writes nothing and says so, and the caller takes the statement-by-statement path,
//   which opens it in its place in the lock order (accounts are missing only before their first use);
// - whether every guarded debit has enough is decided on the locked rows before any row changes, so
//   a short entry changes nothing and fails as short, not on a constraint of another account.
import { CompiledQuery } from 'kysely';
import { preparedOnPostgres } from '../store/prepared.js';
import type { Executor } from '../store/schema.js';

/**
 * Everything after the claim: postings, locks, the decision and the balance updates. Reads the CTEs
 * `entry(id)` and `delta(id, amount_minor, guarded)`, where `delta` is empty unless the entry was
 * claimed, and ends with the CTEs `enough(ok)` and `updated(id)`.
 */
const APPLY_DELTAS = `
postings AS (
  INSERT INTO ledger_postings (entry_id, account_id, amount_minor)
  SELECT (SELECT id FROM entry), d.id, d.amount_minor FROM delta d
),
locked AS MATERIALIZED (
  SELECT a.id, a.balance_minor FROM ledger_accounts a
  WHERE a.id IN (SELECT id FROM delta)
  ORDER BY a.id COLLATE "C"
  FOR NO KEY UPDATE OF a
),
enough AS MATERIALIZED (
  SELECT NOT EXISTS (
    SELECT 1 FROM delta d LEFT JOIN locked l ON l.id = d.id
    WHERE d.guarded AND (l.id IS NULL OR l.balance_minor < -d.amount_minor)
  ) AS ok
),
updated AS (
  -- Decided and computed on the locked rows only. This scan reads the statement's snapshot: a row
  -- another transaction changed after it (before the lock above) shows its older version here, and a
  -- test or sum on that version would be stale (skipped, or written from the old balance). The
  -- locked values are the newest and nothing can change them before this statement ends; the
  -- accounts' CHECK constraint still backs the guard.
  UPDATE ledger_accounts a
  SET balance_minor = l.balance_minor + d.amount_minor
  FROM delta d JOIN locked l ON l.id = d.id
  WHERE a.id = d.id AND (SELECT ok FROM enough)
  RETURNING a.id
)`;

const APPLIED = `(SELECT count(*) FROM delta) AS wanted, (SELECT count(*) FROM updated) AS applied`;

/**
 * postJournal in one statement. Parameters: $1 entry id, $2 kind, $3 ref, $4 merchant id, $5 currency,
 * $6 posting count, $7 reason, $8 actor, $9 now; then per posting (normalized and sorted by id):
 * $10 account ids, $11 amounts, $12 guarded (a debit of a balance that must stay non-negative).
 */
const POST_ENTRY = preparedOnPostgres(`
WITH ready AS MATERIALIZED (
  SELECT NOT EXISTS (
    SELECT 1 FROM unnest($10::text[], $12::boolean[]) AS u(id, guarded)
    WHERE NOT u.guarded AND NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = u.id)
  ) AS ok
),
entry AS (
  INSERT INTO ledger_entries (id, kind, ref, merchant_id, currency, posting_count, reason, actor, created_at_ms)
  SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::bigint, $7::text, $8::text, $9::bigint WHERE (SELECT ok FROM ready)
  ON CONFLICT (kind, ref) DO NOTHING
  RETURNING id
),
delta AS MATERIALIZED (
  SELECT d.id, d.amount_minor, d.guarded
  FROM unnest($10::text[], $11::bigint[], $12::boolean[]) AS d(id, amount_minor, guarded)
  WHERE EXISTS (SELECT 1 FROM entry)
),${APPLY_DELTAS}
SELECT (SELECT ok FROM ready) AS ready, (SELECT id FROM entry) AS entry_id, ${APPLIED}`);

export interface PgDelta {
  /** The account's id (accountId). */
  readonly id: string;
  readonly amountMinor: bigint;
  /** A debit of a balance that must stay non-negative: applied only when the balance holds enough. */
  readonly guarded: boolean;
}

export interface PgEntry {
  readonly id: string;
  readonly kind: string;
  readonly ref: string;
  readonly merchantId: string | null;
  readonly currency: string;
  readonly reason: string | null;
  readonly actor: string | null;
  readonly nowMs: number;
}

interface AppliedRow {
  ready: boolean;
  entry_id: string | null;
  wanted: bigint;
  applied: bigint;
}

export type PgPostResult =
  /** An account to credit does not exist yet: nothing was written; take the step-by-step path. */
  | { readonly outcome: 'missing_account' }
  /** (kind, ref) was posted before: nothing was written. */
  | { readonly outcome: 'replayed' }
  /** A guarded debit found too little: the entry and its postings were written, no balance moved; roll back. */
  | { readonly outcome: 'short' }
  | { readonly outcome: 'posted'; readonly entryId: string };

/** Posts an entry in one statement; `deltas` normalized (one per account, none zero) and sorted by id. */
export async function postEntryPg(db: Executor, entry: PgEntry, deltas: readonly PgDelta[]): Promise<PgPostResult> {
  const { rows } = await db.executeQuery<AppliedRow>(
    CompiledQuery.raw(POST_ENTRY, [
      entry.id,
      entry.kind,
      entry.ref,
      entry.merchantId,
      entry.currency,
      BigInt(deltas.length),
      entry.reason,
      entry.actor,
      BigInt(entry.nowMs),
      deltas.map((d) => d.id),
      deltas.map((d) => d.amountMinor),
      deltas.map((d) => d.guarded),
    ]),
  );
  const row = rows[0]!;
  if (!row.ready) return { outcome: 'missing_account' };
  if (row.entry_id === null) return { outcome: 'replayed' };
  if (row.applied !== row.wanted) return { outcome: 'short' };
  return { outcome: 'posted', entryId: row.entry_id };
}

/**
 * A row the reservation is for (a payout), written by the reservation's own statement: only when
 * the balances cover it, and not at all when a row conflicting on `conflictColumns` is there
 * already. Then the reservation is not made either, and nothing is written.
 */
export interface PgReservedRecord {
  readonly table: string;
  /** The unique columns whose conflict means "this record exists already". */
  readonly conflictColumns: readonly string[];
  /** Every column written, in the order of the values given with it, with its type. */
  readonly columns: readonly (readonly [name: string, kind: 'text' | 'bigint'])[];
}

/**
 * A payout's reservation in one statement: lock available and credit (id order), split amount + fee
 * (available first, then credit), claim the ref with the reservation row, post the payout_reserve
 * entry and move the money (available -a, credit -c, held +total; held is locked last, after credit,
 * as the id order wants). Nothing is written when the two balances are short, the ref was already
 * reserved, or the merchant's held account does not exist yet. Parameters: $1 available's id,
 * $2 credit's id, $3 held's id, $4 ref, $5 merchant id, $6 currency, $7 amount, $8 fee, $9 now,
 * $10 entry id; with a record, its values from $11 on (and nothing is written when it conflicts).
 */
function reserveStatement(record: PgReservedRecord | null): string {
  const fundsCover = 'from_credit <= credit AND ready';
  const recordCte = record
    ? `
record AS (
  INSERT INTO ${record.table} (${record.columns.map(([name]) => name).join(', ')})
  SELECT ${record.columns.map(([, kind], i) => `$${11 + i}::${kind}`).join(', ')}
  FROM split WHERE ${fundsCover}
  ON CONFLICT (${record.conflictColumns.join(', ')}) DO NOTHING
  RETURNING 1
),`
    : '';
  return preparedOnPostgres(`
WITH bal AS MATERIALIZED (
  SELECT a.id, a.balance_minor FROM ledger_accounts a
  WHERE a.id IN ($1::text, $2::text)
  ORDER BY a.id COLLATE "C"
  FOR NO KEY UPDATE OF a
),
split AS MATERIALIZED (
  SELECT least(available, total) AS from_available, total - least(available, total) AS from_credit, credit,
         EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = $3::text) AS ready
  FROM (
    SELECT coalesce((SELECT balance_minor FROM bal WHERE id = $1::text), 0) AS available,
           coalesce((SELECT balance_minor FROM bal WHERE id = $2::text), 0) AS credit,
           $7::bigint + $8::bigint AS total
  ) funds
),${recordCte}
claim AS (
  INSERT INTO ledger_reservations
    (ref, merchant_id, currency, amount_minor, fee_minor, from_available_minor, from_credit_minor, status, created_at_ms, updated_at_ms)
  SELECT $4::text, $5::text, $6::text, $7::bigint, $8::bigint, from_available, from_credit, 'held', $9::bigint, $9::bigint
  FROM split WHERE ${fundsCover}${record ? ' AND EXISTS (SELECT 1 FROM record)' : ''}
  ON CONFLICT (ref) DO NOTHING
  RETURNING from_available_minor, from_credit_minor
),
entry AS (
  INSERT INTO ledger_entries (id, kind, ref, merchant_id, currency, posting_count, reason, actor, created_at_ms)
  SELECT $10::text, 'payout_reserve', $4::text, $5::text, $6::text,
         1 + (from_available_minor > 0)::int + (from_credit_minor > 0)::int, NULL, NULL, $9::bigint
  FROM claim
  ON CONFLICT (kind, ref) DO NOTHING
  RETURNING id
),
delta AS MATERIALIZED (
  SELECT d.id, d.amount_minor, d.guarded
  FROM claim c CROSS JOIN entry e CROSS JOIN LATERAL (VALUES
    ($1::text, -c.from_available_minor, true),
    ($2::text, -c.from_credit_minor, true),
    ($3::text, c.from_available_minor + c.from_credit_minor, false)
  ) AS d(id, amount_minor, guarded)
  WHERE d.amount_minor <> 0
),${APPLY_DELTAS}
SELECT s.from_available, s.from_credit, s.from_credit <= s.credit AS fits, s.ready,
       (SELECT count(*) FROM claim) AS claimed, (SELECT id FROM entry) AS entry_id, ${APPLIED},
       ${record ? '(SELECT count(*) FROM record)' : '0::bigint'} AS recorded
FROM split s`);
}

const RESERVE = reserveStatement(null);
const withRecord = new WeakMap<PgReservedRecord, string>();

/** The statement for a record's shape, built on its first use. */
function reserveStatementFor(shape: PgReservedRecord): string {
  let text = withRecord.get(shape);
  if (text === undefined) withRecord.set(shape, (text = reserveStatement(shape)));
  return text;
}

/** A record to write with the reservation: its shape, and its values in the shape's column order. */
export interface PgRecordWrite {
  readonly shape: PgReservedRecord;
  readonly values: readonly unknown[];
}

export interface PgReserveInput {
  readonly availableId: string;
  readonly creditId: string;
  readonly heldId: string;
  readonly ref: string;
  readonly merchantId: string;
  readonly currency: string;
  readonly amountMinor: bigint;
  readonly feeMinor: bigint;
  readonly nowMs: number;
  readonly entryId: string;
}

export interface PgReserveResult {
  readonly fromAvailableMinor: bigint;
  readonly fromCreditMinor: bigint;
  /** available + credit covered amount + fee. */
  readonly fits: boolean;
  /** The merchant's held account exists; when it does not, nothing was written. */
  readonly ready: boolean;
  /** This call wrote the reservation row (false: short, not ready, or the ref was already reserved). */
  readonly claimed: boolean;
  /** The entry this call posted; null when not claimed, or (a bug) the entry existed already. */
  readonly entryId: string | null;
  /** Every balance change applied (always, when claimed: the rows were locked while deciding). */
  readonly complete: boolean;
  /** With a record: this call wrote it (false: short, not ready, or a conflicting row is there). */
  readonly recorded: boolean;
}

interface ReserveRow extends AppliedRow {
  from_available: bigint;
  from_credit: bigint;
  fits: boolean;
  claimed: bigint;
  recorded: bigint;
}

/**
 * The reservation in one statement; with `record` (and its values, in its columns' order) the row it
 * is for is written by the same statement, first, and the reservation only with it.
 */
export async function reservePg(
  db: Executor,
  input: PgReserveInput,
  record: PgRecordWrite | null = null,
): Promise<PgReserveResult> {
  const { rows } = await db.executeQuery<ReserveRow>(
    CompiledQuery.raw(record ? reserveStatementFor(record.shape) : RESERVE, [
      input.availableId,
      input.creditId,
      input.heldId,
      input.ref,
      input.merchantId,
      input.currency,
      input.amountMinor,
      input.feeMinor,
      BigInt(input.nowMs),
      input.entryId,
      ...(record?.values ?? []),
    ]),
  );
  const row = rows[0]!;
  return {
    fromAvailableMinor: row.from_available,
    fromCreditMinor: row.from_credit,
    fits: row.fits,
    ready: row.ready,
    claimed: row.claimed === 1n,
    entryId: row.entry_id,
    complete: row.applied === row.wanted,
    recorded: row.recorded === 1n,
  };
}
