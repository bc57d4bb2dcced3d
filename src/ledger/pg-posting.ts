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
 * The balance rows whose ids `ids` (a list or a subquery) names, locked in id order ("C" collation, as
 * normalizePostings sorts), with their newest values: every statement here locks this way, so the
 * lock order of every transaction stays the ledger's one order.
 */
const lockedInIdOrder = (ids: string): string =>
  `SELECT a.id, a.balance_minor FROM ledger_accounts a WHERE a.id IN (${ids}) ORDER BY a.id COLLATE "C" FOR NO KEY UPDATE OF a`;

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
  ${lockedInIdOrder(`SELECT id FROM delta`)}
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
  ${lockedInIdOrder(`$1::text, $2::text`)}
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

/**
 * Many reservations with their records in one statement, as a write group gathers them (intake.ts):
 * one round trip for a group's payouts instead of one each. For each input in order, as reservePg
 * would decide it when the inputs ran one after another in this order:
 *
 * - every balance any input touches (available, credit, held) is locked first, in id order;
 * - an input whose merchant has no held account yet, or whose record's unique columns are taken
 *   (by a committed row, or by an earlier input of the same statement), writes nothing;
 * - the others take amount + fee from available first, then credit, in arrival order per balance (a
 *   running sum over the locked balances). Up to the first input its balance cannot cover, each is
 *   what it would have been one at a time; from that input on nothing of that balance is written,
 *   and the caller runs those inputs again one at a time (a smaller one after it may still fit);
 * - then the records, the reservations, their entries and postings, and each balance once, by the
 *   sum of its moves, computed from its locked value.
 *
 * One row per input: `ready` (held exists), `taken` (a committed row has its record's key),
 * `repeated` (an earlier input has it), `covered`, the split, and whether its record, reservation
 * and entry were written.
 * Parameters: $1 – $9 arrays (available, credit and held ids, refs, merchant ids, currencies,
 * amounts, fees, entry ids), $10 now, then one array per record column.
 */
function reserveManyStatement(record: PgReservedRecord): string {
  const recordColumns = record.columns.map(([name]) => name);
  const arrays = record.columns.map(([, kind], i) => `$${11 + i}::${kind}[]`);
  const r = (name: string): string => `r_${name}`;
  const sameKey = (left: string, right: string): string =>
    record.conflictColumns.map((name) => `${left}.${r(name)} = ${right}.${r(name)}`).join(' AND ');
  const keyOfRow = (row: string, item: string): string => record.conflictColumns.map((name) => `${row}.${name} = ${item}.${r(name)}`).join(' AND ');
  return preparedOnPostgres(`
WITH u AS MATERIALIZED (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::text[], ${arrays.join(', ')})
    WITH ORDINALITY AS u(available_id, credit_id, held_id, ref, merchant_id, currency, amount_minor, fee_minor, entry_id, ${recordColumns.map(r).join(', ')}, ord)
),
bal AS MATERIALIZED (
  ${lockedInIdOrder(`SELECT available_id FROM u UNION SELECT credit_id FROM u UNION SELECT held_id FROM u`)}
),
marked AS MATERIALIZED (
  SELECT u.*, u.amount_minor + u.fee_minor AS total,
         EXISTS (SELECT 1 FROM bal WHERE bal.id = u.held_id) AS ready,
         EXISTS (SELECT 1 FROM ${record.table} t WHERE ${keyOfRow('t', 'u')}) AS taken,
         EXISTS (SELECT 1 FROM u v WHERE v.ord < u.ord AND ${sameKey('v', 'u')}) AS repeated
  FROM u
),
fresh AS MATERIALIZED (SELECT * FROM marked WHERE ready AND NOT taken AND NOT repeated),
split AS MATERIALIZED (
  SELECT f.*, least(greatest(f.available - f.before, 0), f.total) AS from_available
  FROM (
    SELECT fresh.*, coalesce(sum(total) OVER earlier, 0)::bigint AS before,
           coalesce((SELECT balance_minor FROM bal WHERE bal.id = fresh.available_id), 0) AS available,
           coalesce((SELECT balance_minor FROM bal WHERE bal.id = fresh.credit_id), 0) AS credit
    FROM fresh
    WINDOW earlier AS (PARTITION BY available_id ORDER BY ord ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
  ) f
),
covered AS MATERIALIZED (
  SELECT s.*, s.total - s.from_available AS from_credit
  FROM (
    SELECT split.*, (sum(total - from_available) OVER (PARTITION BY available_id ORDER BY ord ROWS UNBOUNDED PRECEDING))::bigint AS credit_used
    FROM split
  ) s
  WHERE s.credit_used <= s.credit
),
record AS (
  INSERT INTO ${record.table} (${recordColumns.join(', ')})
  SELECT ${recordColumns.map(r).join(', ')} FROM covered ORDER BY ord
  ON CONFLICT (${record.conflictColumns.join(', ')}) DO NOTHING
  RETURNING ${record.conflictColumns.join(', ')}
),
claim AS (
  INSERT INTO ledger_reservations
    (ref, merchant_id, currency, amount_minor, fee_minor, from_available_minor, from_credit_minor, status, created_at_ms, updated_at_ms)
  SELECT c.ref, c.merchant_id, c.currency, c.amount_minor, c.fee_minor, c.from_available, c.from_credit, 'held', $10::bigint, $10::bigint
  FROM covered c WHERE EXISTS (SELECT 1 FROM record w WHERE ${keyOfRow('w', 'c')})
  ON CONFLICT (ref) DO NOTHING
  RETURNING ref
),
entry AS (
  INSERT INTO ledger_entries (id, kind, ref, merchant_id, currency, posting_count, reason, actor, created_at_ms)
  SELECT c.entry_id, 'payout_reserve', c.ref, c.merchant_id, c.currency,
         1 + (c.from_available > 0)::int + (c.from_credit > 0)::int, NULL, NULL, $10::bigint
  FROM covered c JOIN claim k ON k.ref = c.ref
  ON CONFLICT (kind, ref) DO NOTHING
  RETURNING id, ref
),
moves AS MATERIALIZED (
  SELECT e.id AS entry_id, m.account_id, m.amount_minor
  FROM covered c JOIN entry e ON e.ref = c.ref CROSS JOIN LATERAL (VALUES
    (c.available_id, -c.from_available), (c.credit_id, -c.from_credit), (c.held_id, c.total)
  ) AS m(account_id, amount_minor)
  WHERE m.amount_minor <> 0
),
postings AS (
  INSERT INTO ledger_postings (entry_id, account_id, amount_minor) SELECT entry_id, account_id, amount_minor FROM moves
),
updated AS (
  -- From the locked values (see APPLY_DELTAS): the newest, and nothing else changes them before the commit.
  UPDATE ledger_accounts a SET balance_minor = b.balance_minor + d.delta
  FROM (SELECT account_id, sum(amount_minor)::bigint AS delta FROM moves GROUP BY account_id) d JOIN bal b ON b.id = d.account_id
  WHERE a.id = d.account_id
  RETURNING a.id
)
SELECT m.ready, m.taken, m.repeated, c.ord IS NOT NULL AS covered,
       c.from_available, c.from_credit,
       c.ord IS NOT NULL AND EXISTS (SELECT 1 FROM record w WHERE ${keyOfRow('w', 'm')}) AS recorded,
       k.ref IS NOT NULL AS claimed, e.id AS entry_id,
       (SELECT count(DISTINCT account_id) FROM moves) AS wanted, (SELECT count(*) FROM updated) AS applied
FROM marked m
LEFT JOIN covered c ON c.ord = m.ord
LEFT JOIN claim k ON k.ref = c.ref
LEFT JOIN entry e ON e.ref = c.ref
ORDER BY m.ord`);
}

const manyWithRecord = new WeakMap<PgReservedRecord, string>();

/** What reserveManyPg found and did for one input. */
export interface PgManyReserveResult {
  readonly ready: boolean;
  /** A committed row already has this input's record key. */
  readonly taken: boolean;
  /** An earlier input of the same call has this input's record key. */
  readonly repeated: boolean;
  /** Its balance covered it in arrival order: its record and reservation were to be written. */
  readonly covered: boolean;
  readonly fromAvailableMinor: bigint | null;
  readonly fromCreditMinor: bigint | null;
  readonly recorded: boolean;
  readonly claimed: boolean;
  readonly entryId: string | null;
  /** Every balance the call moved was updated. */
  readonly complete: boolean;
}

interface ManyRow {
  ready: boolean;
  taken: boolean;
  repeated: boolean;
  covered: boolean;
  from_available: bigint | null;
  from_credit: bigint | null;
  recorded: boolean;
  claimed: boolean;
  entry_id: string | null;
  wanted: bigint;
  applied: bigint;
}

/** Many reservations with records of one shape in one statement (see reserveManyStatement); one result per input, in order. */
export async function reserveManyPg(
  db: Executor,
  inputs: readonly PgReserveInput[],
  shape: PgReservedRecord,
  values: readonly (readonly unknown[])[],
  nowMs: number,
): Promise<PgManyReserveResult[]> {
  let text = manyWithRecord.get(shape);
  if (text === undefined) manyWithRecord.set(shape, (text = reserveManyStatement(shape)));
  const column = <K extends keyof PgReserveInput>(key: K): PgReserveInput[K][] => inputs.map((input) => input[key]);
  const { rows } = await db.executeQuery<ManyRow>(
    CompiledQuery.raw(text, [
      column('availableId'),
      column('creditId'),
      column('heldId'),
      column('ref'),
      column('merchantId'),
      column('currency'),
      column('amountMinor'),
      column('feeMinor'),
      column('entryId'),
      BigInt(nowMs),
      ...shape.columns.map((_, i) => values.map((row) => row[i] ?? null)),
    ]),
  );
  if (rows.length !== inputs.length) throw new Error(`ledger: ${inputs.length} reservations answered ${rows.length} rows`);
  return rows.map((row) => ({
    ready: row.ready,
    taken: row.taken,
    repeated: row.repeated,
    covered: row.covered,
    fromAvailableMinor: row.from_available,
    fromCreditMinor: row.from_credit,
    recorded: row.recorded,
    claimed: row.claimed,
    entryId: row.entry_id,
    complete: row.applied === row.wanted,
  }));
}

/**
 * Many payouts' completions in one statement (outcomes.ts gathers a write group's): each held
 * reservation closed, its `payout_complete` entry with its postings (given, normalized per entry),
 * and every balance once by the sum of its moves, from its locked value (id order). Nothing is
 * written when an account to credit does not exist yet (`ready` false; the caller completes them one
 * by one, which opens it). When a guarded balance would go below zero (`enough` false, a bug) the
 * reservations, entries and postings are written but no balance moves, and the caller throws, which
 * rolls them back with its transaction.
 * Parameters: entries' $1 ids, $2 refs, $3 merchant ids, $4 currencies, $5 posting counts; postings'
 * $6 entry (1-based position), $7 account ids, $8 amounts, $9 guarded; $10 now.
 */
const COMPLETE_MANY = preparedOnPostgres(`
WITH e AS MATERIALIZED (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[]) WITH ORDINALITY AS e(id, ref, merchant_id, currency, posting_count, ord)
),
d AS MATERIALIZED (
  SELECT * FROM unnest($6::bigint[], $7::text[], $8::bigint[], $9::boolean[]) AS d(ord, account_id, amount_minor, guarded)
),
ready AS MATERIALIZED (
  SELECT NOT EXISTS (
    SELECT 1 FROM d WHERE NOT d.guarded AND NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = d.account_id)
  ) AS ok
),
closed AS (
  UPDATE ledger_reservations r SET status = 'completed', updated_at_ms = $10::bigint
  FROM e WHERE r.ref = e.ref AND r.status = 'held' AND (SELECT ok FROM ready)
  RETURNING r.ref, r.merchant_id, r.currency, r.amount_minor, r.fee_minor, r.from_available_minor, r.from_credit_minor, r.created_at_ms
),
entry AS (
  INSERT INTO ledger_entries (id, kind, ref, merchant_id, currency, posting_count, reason, actor, created_at_ms)
  SELECT e.id, 'payout_complete', e.ref, e.merchant_id, e.currency, e.posting_count, NULL, NULL, $10::bigint
  FROM e JOIN closed c ON c.ref = e.ref
  ON CONFLICT (kind, ref) DO NOTHING
  RETURNING id, ref
),
delta AS MATERIALIZED (
  SELECT n.id AS entry_id, d.account_id, d.amount_minor, d.guarded
  FROM d JOIN e ON e.ord = d.ord JOIN entry n ON n.ref = e.ref
),
postings AS (
  INSERT INTO ledger_postings (entry_id, account_id, amount_minor) SELECT entry_id, account_id, amount_minor FROM delta
),
sums AS MATERIALIZED (
  SELECT account_id, sum(amount_minor)::bigint AS delta, bool_or(guarded) AS guarded FROM delta GROUP BY account_id
),
locked AS MATERIALIZED (
  ${lockedInIdOrder(`SELECT account_id FROM sums`)}
),
enough AS MATERIALIZED (
  SELECT NOT EXISTS (
    SELECT 1 FROM sums s LEFT JOIN locked l ON l.id = s.account_id
    WHERE l.id IS NULL OR (s.guarded AND l.balance_minor + s.delta < 0)
  ) AS ok
),
updated AS (
  UPDATE ledger_accounts a SET balance_minor = l.balance_minor + s.delta
  FROM sums s JOIN locked l ON l.id = s.account_id
  WHERE a.id = s.account_id AND (SELECT ok FROM enough)
  RETURNING a.id
)
SELECT (SELECT ok FROM ready) AS ready, (SELECT ok FROM enough) AS enough,
       (SELECT count(*) FROM sums) AS wanted, (SELECT count(*) FROM updated) AS applied,
       c.ref IS NOT NULL AS closed, n.id AS entry_id, c.merchant_id, c.currency, c.amount_minor, c.fee_minor,
       c.from_available_minor, c.from_credit_minor, c.created_at_ms
FROM e LEFT JOIN closed c ON c.ref = e.ref LEFT JOIN entry n ON n.ref = e.ref
ORDER BY e.ord`);

/** One completion of completeManyPg: its entry and its postings (normalized, one per account). */
export interface PgCompletion {
  readonly entry: PgEntry;
  readonly deltas: readonly PgDelta[];
}

/** A completed reservation as completeManyPg closed it; null fields when it was not held. */
export interface PgClosedReservation {
  readonly closed: boolean;
  readonly entryId: string | null;
  readonly merchantId: string | null;
  readonly currency: string | null;
  readonly amountMinor: bigint | null;
  readonly feeMinor: bigint | null;
  readonly fromAvailableMinor: bigint | null;
  readonly fromCreditMinor: bigint | null;
  readonly createdAtMs: bigint | null;
}

interface CompleteManyRow {
  ready: boolean;
  enough: boolean;
  wanted: bigint;
  applied: bigint;
  closed: boolean;
  entry_id: string | null;
  merchant_id: string | null;
  currency: string | null;
  amount_minor: bigint | null;
  fee_minor: bigint | null;
  from_available_minor: bigint | null;
  from_credit_minor: bigint | null;
  created_at_ms: bigint | null;
}

export type PgCompleteManyResult =
  /** An account to credit does not exist yet: nothing was written. */
  | { readonly outcome: 'missing_account' }
  | { readonly outcome: 'posted'; readonly reservations: readonly PgClosedReservation[] };

/** Many completions in one statement (see COMPLETE_MANY); each entry's ref is its reservation's. */
export async function completeManyPg(db: Executor, completions: readonly PgCompletion[], nowMs: number): Promise<PgCompleteManyResult> {
  if (completions.length === 0) return { outcome: 'posted', reservations: [] };
  const entries = completions.map((c) => c.entry);
  const postings = completions.flatMap((c, i) => c.deltas.map((d) => ({ ord: BigInt(i + 1), ...d })));
  const { rows } = await db.executeQuery<CompleteManyRow>(
    CompiledQuery.raw(COMPLETE_MANY, [
      entries.map((e) => e.id),
      entries.map((e) => e.ref),
      entries.map((e) => e.merchantId),
      entries.map((e) => e.currency),
      completions.map((c) => BigInt(c.deltas.length)),
      postings.map((p) => p.ord),
      postings.map((p) => p.id),
      postings.map((p) => p.amountMinor),
      postings.map((p) => p.guarded),
      BigInt(nowMs),
    ]),
  );
  if (rows.length !== completions.length) throw new Error(`ledger: ${completions.length} completions answered ${rows.length} rows`);
  if (!rows[0]!.ready) return { outcome: 'missing_account' };
  // Every balance was locked before the sums were checked: a shortfall or an update that did not
  // apply is a bug, and the caller's transaction must roll back.
  if (!rows[0]!.enough || rows[0]!.applied !== rows[0]!.wanted) throw new Error('ledger: the completions could not move their balances');
  return {
    outcome: 'posted',
    reservations: rows.map((row) => ({
      closed: row.closed,
      entryId: row.entry_id,
      merchantId: row.merchant_id,
      currency: row.currency,
      amountMinor: row.amount_minor,
      feeMinor: row.fee_minor,
      fromAvailableMinor: row.from_available_minor,
      fromCreditMinor: row.from_credit_minor,
      createdAtMs: row.created_at_ms,
    })),
  };
}
