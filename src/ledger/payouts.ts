// Payout funds: reserve amount + fee into `held` (available first, then credit), then either
// complete (the money leaves to the beneficiary and the fee to revenue) or release (it goes back
// where it came from). A reservation is closed exactly once; its row's status guards that.
// Called through LedgerService by the payout module: reserve from domain/payouts/intake.ts, complete
// and release from domain/payouts/outcomes.ts, each in the transaction of the payout's change.
import { CompiledQuery } from 'kysely';
import { AppError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Currency, Minor } from '../core/money.js';
import { HotQuery, HotRowInsert } from '../store/hot-query.js';
import { executeCompiled } from '../store/db.js';
import type { Executor } from '../store/schema.js';
import type { LedgerReservationsTable } from './ledger-rows.js';
import { accountId, merchantAccount, platformAccount, readMerchantBalances } from './accounts.js';
import { assertNonNegative, assertPositive, minMinor, type LedgerContext } from './context.js';
import { insufficientBalance, normalizePostings, pgDeltasOf, postJournal } from './journal.js';
import { completeManyPg, reserveManyPg, reservePg, type PgManyReserveResult, type PgRecordWrite, type PgReservedRecord, type PgReserveInput, type PgReserveResult } from './pg-posting.js';

export interface PayoutReservation {
  readonly merchantId: string;
  readonly currency: Currency;
  readonly amountMinor: Minor;
  readonly feeMinor: Minor;
  /** The payout's transactionRef. */
  readonly ref: string;
}

export interface Reservation {
  readonly ref: string;
  readonly merchantId: string;
  readonly currency: Currency;
  readonly amountMinor: Minor;
  readonly feeMinor: Minor;
  readonly fromAvailableMinor: Minor;
  readonly fromCreditMinor: Minor;
  readonly status: 'held' | 'released' | 'completed';
  /** True when this call found the work already done (same ref). */
  readonly replayed: boolean;
}

const toReservation = (row: LedgerReservationsTable, replayed: boolean): Reservation => ({
  ref: row.ref,
  merchantId: row.merchant_id,
  currency: row.currency as Currency,
  amountMinor: row.amount_minor,
  feeMinor: row.fee_minor,
  fromAvailableMinor: row.from_available_minor,
  fromCreditMinor: row.from_credit_minor,
  status: row.status,
  replayed,
});

async function readReservation(db: Executor, ref: string): Promise<LedgerReservationsTable | undefined> {
  return db.selectFrom('ledger_reservations').selectAll().where('ref', '=', ref).executeTakeFirst();
}

/** A retried reserve must describe the same payout; anything else is a bug upstream of the ledger. */
function assertSameReservation(row: LedgerReservationsTable, input: PayoutReservation): void {
  if (row.merchant_id !== input.merchantId || row.amount_minor !== input.amountMinor || row.fee_minor !== input.feeMinor) {
    throw AppError.fault('CONFLICT', `Reservation ${input.ref} exists with different amounts.`);
  }
}

/** The two parts a reservation took (available, credit) make exactly its amount + fee, neither negative. */
function assertPartsMakeTotal(row: LedgerReservationsTable): void {
  const partsMinor = row.from_available_minor + row.from_credit_minor;
  if (row.from_available_minor < 0n || row.from_credit_minor < 0n || partsMinor !== row.amount_minor + row.fee_minor) {
    throw new Error(`ledger: reservation ${row.ref} took ${partsMinor} for amount + fee ${row.amount_minor + row.fee_minor}`);
  }
}

interface Split {
  readonly fromAvailableMinor: Minor;
  readonly fromCreditMinor: Minor;
}

/** Available first, then credit; null when the two together are short. */
function splitReservation(balances: { available: Minor; credit: Minor }, totalMinor: Minor): Split | null {
  const fromAvailableMinor = minMinor(balances.available, totalMinor);
  const fromCreditMinor = totalMinor - fromAvailableMinor;
  return fromCreditMinor > balances.credit ? null : { fromAvailableMinor, fromCreditMinor };
}

/**
 * available -a, credit -c, held +(amount + fee) with a = min(available, total), c = total - a.
 * On PostgreSQL this is one statement (pg-posting.ts reservePg): it locks available and credit, decides
 * the split from the locked rows and writes the reservation, its entry and the balances, so a hot
 * merchant's rows are locked from that one round trip to the commit, and a payout is never refused
 * while available + credit suffice. SQLite (one writer at a time) reads, decides and writes in turn.
 */
export async function reserveForPayout(
  db: Executor,
  ctx: LedgerContext,
  input: PayoutReservation,
  /**
   * Kept for callers whose transaction already holds the balances (a payout batch after its first
   * item); both stores now decide under lock (or as the one writer) anyway, so it changes nothing.
   */
  _options: { readonly lockFirst?: boolean } = {},
): Promise<Reservation> {
  assertPositive('amountMinor', input.amountMinor);
  assertNonNegative('feeMinor', input.feeMinor);
  if (ctx.storeKind === 'postgres') return reserveInOneStatement(db, ctx, input);
  return reserveLocked(db, ctx, input);
}

const totalOf = (input: PayoutReservation): Minor => input.amountMinor + input.feeMinor;

/** The one-statement reservation's parameters (pg-posting.ts). */
function reserveInputOf(input: PayoutReservation, nowMs: number): PgReserveInput {
  const { merchantId, currency } = input;
  return {
    availableId: accountId(merchantAccount(merchantId, currency, 'available')),
    creditId: accountId(merchantAccount(merchantId, currency, 'credit')),
    heldId: accountId(merchantAccount(merchantId, currency, 'held')),
    ref: input.ref,
    merchantId,
    currency,
    amountMinor: input.amountMinor,
    feeMinor: input.feeMinor,
    nowMs,
    entryId: newId(),
  };
}

const SHORT_FOR_PAYOUT = 'Payout amount plus fee exceeds the available balance and credit.';

/** PostgreSQL: reserveLocked and writeReservation as one statement and one round trip. */
async function reserveInOneStatement(db: Executor, ctx: LedgerContext, input: PayoutReservation): Promise<Reservation> {
  const nowMs = ctx.clock.nowMs();
  const result = await reservePg(db, reserveInputOf(input, nowMs));
  if (!result.claimed) {
    // Before the merchant's first payout its held account does not exist: nothing was written, and
    // the step-by-step path opens it in its place in the lock order.
    if (!result.ready) return reserveLocked(db, ctx, input);
    const existing = await readReservation(db, input.ref);
    if (existing) return replayedReservation(existing, input);
    if (!result.fits) throw insufficientBalance(SHORT_FOR_PAYOUT);
    throw new Error(`ledger: reservation ${input.ref} conflicted but cannot be read`);
  }
  return claimedHold(input, result, nowMs);
}

/** A reservation the one statement claimed: its entry posted and every balance moved, else a bug (roll back). */
function claimedHold(input: PayoutReservation, result: PgReserveResult, nowMs: number): Reservation {
  if (result.entryId === null) throw new Error(`ledger: reserve entry ${input.ref} exists without its reservation row`);
  // The balances were locked while the split was decided, so every change applies; if not, roll back.
  if (!result.complete) throw new Error(`ledger: reservation ${input.ref} could not move its balances`);
  return toReservation(heldRow(input, result, nowMs), false);
}

/** What reserveWithRecord did; only 'reserved' wrote anything. */
export type RecordReservation =
  | { readonly outcome: 'reserved'; readonly reservation: Reservation }
  /** A row conflicting with the record is there already (a repeated merchantRef). */
  | { readonly outcome: 'record_exists' }
  /** available + credit do not cover amount + fee: the refusal to throw, unless the record turns out to exist. */
  | { readonly outcome: 'short'; readonly refusal: AppError }
  /** PostgreSQL, and the merchant's held account does not exist yet: use reserveForPayout after writing the record. */
  | { readonly outcome: 'step_by_step' };

/**
 * The record the reservation is for (the payout row, with its values in `record`'s column order) and
 * the reservation, both or neither: on PostgreSQL one statement in one round trip; on SQLite, the one
 * writer, the balances are read and the split decided before anything is written, so a short balance
 * or a conflicting record still leaves nothing behind, and a unit of the write group needs no
 * savepoint for it.
 */
export async function reserveWithRecord(
  db: Executor,
  ctx: LedgerContext,
  input: PayoutReservation,
  record: PgRecordWrite,
): Promise<RecordReservation> {
  assertPositive('amountMinor', input.amountMinor);
  assertNonNegative('feeMinor', input.feeMinor);
  if (ctx.storeKind !== 'postgres') return reserveWithRecordSqlite(db, ctx, input, record);
  const nowMs = ctx.clock.nowMs();
  const result = await reservePg(db, reserveInputOf(input, nowMs), record);
  if (!result.ready) return { outcome: 'step_by_step' };
  if (!result.fits) return { outcome: 'short', refusal: insufficientBalance(SHORT_FOR_PAYOUT) };
  if (!result.recorded) return { outcome: 'record_exists' };
  if (!result.claimed) throw new Error(`ledger: reservation ${input.ref} conflicted, yet its record is new`);
  return { outcome: 'reserved', reservation: claimedHold(input, result, nowMs) };
}

/** One statement for many reservations names each once: a ref twice would be answered (and posted) twice. */
function assertDistinctRefs(refs: readonly string[]): void {
  if (new Set(refs).size !== refs.length) throw new Error('ledger: the same reservation twice in one statement');
}

/** A record reservation made with others in one statement; 'retry': nothing written, make it alone with reserveWithRecord. */
export type ManyRecordReservation = RecordReservation | { readonly outcome: 'retry' };

/**
 * PostgreSQL: reserveWithRecord for many payouts at once, in one statement (pg-posting.ts
 * reserveManyPg), every record of one shape; one answer per item, in order. An item answered
 * 'retry' had nothing written: one its balance could not cover in arrival order (a smaller one
 * after it may still fit) or whose record key an earlier item of the call also has. Throws, having
 * written what the caller's transaction must roll back, when a record the statement found free was
 * taken meanwhile (the later items' splits counted it) or the statement did not do what it answered.
 */
export async function reserveManyWithRecord(
  db: Executor,
  ctx: LedgerContext,
  items: readonly { readonly input: PayoutReservation; readonly record: PgRecordWrite }[],
): Promise<ManyRecordReservation[]> {
  if (ctx.storeKind !== 'postgres') throw new Error('ledger: reservations in one statement are for PostgreSQL');
  const shape = items[0]?.record.shape;
  if (shape === undefined) return [];
  assertDistinctRefs(items.map(({ input }) => input.ref));
  for (const { input, record } of items) {
    assertPositive('amountMinor', input.amountMinor);
    assertNonNegative('feeMinor', input.feeMinor);
    if (record.shape !== shape) throw new Error('ledger: reservations in one statement need records of one shape');
  }
  const nowMs = ctx.clock.nowMs();
  const inputs = items.map(({ input }) => reserveInputOf(input, nowMs));
  const results = await reserveManyPg(
    db,
    inputs,
    shape,
    items.map(({ record }) => record.values),
    nowMs,
  );
  return results.map((result, i) => manyOutcome(items[i]!.input, result, nowMs));
}

function manyOutcome(input: PayoutReservation, result: PgManyReserveResult, nowMs: number): ManyRecordReservation {
  if (!result.ready) return { outcome: 'step_by_step' };
  if (result.taken) return { outcome: 'record_exists' };
  if (result.repeated || !result.covered) return { outcome: 'retry' };
  if (!result.recorded) throw new Error(`ledger: the record of reservation ${input.ref} was taken while the statement ran`);
  if (!result.claimed || result.entryId === null) throw new Error(`ledger: reservation ${input.ref} conflicted, yet its record is new`);
  if (!result.complete) throw new Error(`ledger: reservation ${input.ref} could not move its balances`);
  const split = { fromAvailableMinor: result.fromAvailableMinor!, fromCreditMinor: result.fromCreditMinor! };
  return { outcome: 'reserved', reservation: toReservation(heldRow(input, split, nowMs), false) };
}

/**
 * SQLite: decide the split from the balances as this transaction sees them (no other writer can move
 * them before it commits), then write the record, then the reservation. Once the record is written the
 * reservation cannot be short; any failure after it is a bug or a database failure, which the caller's
 * rollback undoes.
 */
async function reserveWithRecordSqlite(db: Executor, ctx: LedgerContext, input: PayoutReservation, record: PgRecordWrite): Promise<RecordReservation> {
  const split = await splitFromBalances(db, ctx, input);
  if (!split) return { outcome: 'short', refusal: insufficientBalance(SHORT_FOR_PAYOUT) };
  const { rows } = await executeCompiled(db, CompiledQuery.raw(recordInsertFor(record.shape), record.values.map((value) => value ?? null)));
  if (rows.length === 0) return { outcome: 'record_exists' };
  const reservation = await writeReservation(db, ctx, input, split);
  if (reservation.replayed) throw new Error(`ledger: reservation ${input.ref} existed before its record`);
  return { outcome: 'reserved', reservation };
}

const recordInserts = new WeakMap<PgReservedRecord, string>();
const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** SQLite: the record's insert, which writes nothing (and answers no row) when a row conflicts with it. */
function recordInsertFor(shape: PgReservedRecord): string {
  let text = recordInserts.get(shape);
  if (text === undefined) {
    const columns = shape.columns.map(([name]) => quoted(name));
    text =
      `insert into ${quoted(shape.table)} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')}) ` +
      `on conflict (${shape.conflictColumns.map(quoted).join(', ')}) do nothing returning 1 as written`;
    recordInserts.set(shape, text);
  }
  return text;
}

/** The reservation row of a new hold, its parts checked against its total. */
function heldRow(input: PayoutReservation, split: Split, nowMs: number): LedgerReservationsTable {
  const row: LedgerReservationsTable = {
    ref: input.ref,
    merchant_id: input.merchantId,
    currency: input.currency,
    amount_minor: input.amountMinor,
    fee_minor: input.feeMinor,
    from_available_minor: split.fromAvailableMinor,
    from_credit_minor: split.fromCreditMinor,
    status: 'held',
    created_at_ms: BigInt(nowMs),
    updated_at_ms: BigInt(nowMs),
  };
  assertPartsMakeTotal(row);
  return row;
}

/** The split of amount + fee the merchant's available and credit allow now (read locked on PostgreSQL), or null when they are short. */
async function splitFromBalances(db: Executor, ctx: LedgerContext, input: PayoutReservation): Promise<Split | null> {
  const balances = await readMerchantBalances(db, ctx.storeKind, input.merchantId, input.currency, ['available', 'credit'], true);
  return splitReservation(balances, totalOf(input));
}

async function reserveLocked(db: Executor, ctx: LedgerContext, input: PayoutReservation): Promise<Reservation> {
  const split = await splitFromBalances(db, ctx, input);
  if (split) return writeReservation(db, ctx, input, split);
  const existing = await readReservation(db, input.ref);
  if (existing) return replayedReservation(existing, input);
  throw insufficientBalance(SHORT_FOR_PAYOUT);
}

/** The reservation row, unless its ref is taken (compiled once: every payout on SQLite writes one). */
const claimReservation = new HotRowInsert((db, row: LedgerReservationsTable) =>
  db
    .insertInto('ledger_reservations')
    .values(row)
    .onConflict((oc) => oc.column('ref').doNothing())
    .returning('ref'),
);

/** Claims the ref with the reservation row (a replay writes nothing), then posts the entry. */
async function writeReservation(db: Executor, ctx: LedgerContext, input: PayoutReservation, split: Split): Promise<Reservation> {
  const { merchantId, currency } = input;
  const nowMs = ctx.clock.nowMs();
  const row = heldRow(input, split, nowMs);
  const claimed = await claimReservation.executeTakeFirst(db, row);
  if (!claimed) return replayedReservation((await readReservation(db, input.ref))!, input);
  const posted = await postJournal(db, {
    kind: 'payout_reserve',
    ref: input.ref,
    merchantId,
    currency,
    nowMs,
    postings: [
      { account: merchantAccount(merchantId, currency, 'available'), amountMinor: -split.fromAvailableMinor },
      { account: merchantAccount(merchantId, currency, 'credit'), amountMinor: -split.fromCreditMinor },
      { account: merchantAccount(merchantId, currency, 'held'), amountMinor: totalOf(input) },
    ],
  });
  if (posted.replayed) throw new Error(`ledger: reserve entry ${input.ref} exists without its reservation row`);
  return toReservation(row, false);
}

function replayedReservation(row: LedgerReservationsTable, input: PayoutReservation): Reservation {
  assertSameReservation(row, input);
  return toReservation(row, true);
}

/**
 * Moves a held reservation to its final status; returns null when it is no longer held. The
 * conditional UPDATE takes the row lock, so of a racing release and complete only one proceeds.
 */
async function closeReservation(
  db: Executor,
  ref: string,
  status: 'released' | 'completed',
  nowMs: number,
): Promise<LedgerReservationsTable | null> {
  return (await closeHeld.executeTakeFirst(db, status, BigInt(nowMs), ref)) ?? null;
}

/** A held reservation closed (compiled once: every payout's final transition runs it). */
const closeHeld = new HotQuery(3, (db, status: 'released' | 'completed', updatedAtMs: bigint, ref: string) =>
  db
    .updateTable('ledger_reservations')
    .set({ status, updated_at_ms: updatedAtMs })
    .where('ref', '=', ref)
    .where('status', '=', 'held')
    .returningAll(),
);

/** Explains why a reservation could not be closed: a replay of the same close, or a conflict. */
async function alreadyClosed(db: Executor, ref: string, wanted: 'released' | 'completed'): Promise<Reservation> {
  const row = await readReservation(db, ref);
  if (!row) throw AppError.fault('NOT_FOUND', `No reservation ${ref}.`);
  if (row.status !== wanted) throw AppError.fault('CONFLICT', `Reservation ${ref} is already ${row.status}.`);
  return toReservation(row, true);
}

/**
 * Payout failed: held -total; the credit part goes back to `credit` as far as the line has room
 * (a settlement may have repaid it meanwhile), everything else to `available`.
 */
export async function releaseReservation(db: Executor, ctx: LedgerContext, ref: string): Promise<Reservation> {
  const nowMs = ctx.clock.nowMs();
  const row = await closeReservation(db, ref, 'released', nowMs);
  if (!row) return alreadyClosed(db, ref, 'released');
  assertPartsMakeTotal(row);
  const { merchant_id: merchantId } = row;
  const currency = row.currency as Currency;
  // Lock available too: rows are always taken in id order, and available sorts before credit.
  const kinds = ['available', 'credit', 'credit_line'] as const;
  const balances = await readMerchantBalances(db, ctx.storeKind, merchantId, currency, kinds, true);
  const roomMinor = -balances.credit_line - balances.credit;
  const toCreditMinor = minMinor(row.from_credit_minor, roomMinor > 0n ? roomMinor : 0n);
  const totalMinor = row.amount_minor + row.fee_minor;
  const posted = await postJournal(db, {
    kind: 'payout_release',
    ref,
    merchantId,
    currency,
    nowMs,
    postings: [
      { account: merchantAccount(merchantId, currency, 'held'), amountMinor: -totalMinor },
      { account: merchantAccount(merchantId, currency, 'credit'), amountMinor: toCreditMinor },
      { account: merchantAccount(merchantId, currency, 'available'), amountMinor: totalMinor - toCreditMinor },
    ],
  });
  if (posted.replayed) throw new Error(`ledger: release of ${ref} posted twice`);
  return toReservation(row, false);
}

/** Payout succeeded: held -total, settlement +amount (paid out), fee revenue +fee. */
export async function completeReservation(db: Executor, ctx: LedgerContext, ref: string): Promise<Reservation> {
  const nowMs = ctx.clock.nowMs();
  const row = await closeReservation(db, ref, 'completed', nowMs);
  if (!row) return alreadyClosed(db, ref, 'completed');
  assertPartsMakeTotal(row);
  const currency = row.currency as Currency;
  const posted = await postJournal(db, {
    kind: 'payout_complete',
    ref,
    merchantId: row.merchant_id,
    currency,
    nowMs,
    postings: completionPostings({ ref, merchantId: row.merchant_id, currency, amountMinor: row.amount_minor, feeMinor: row.fee_minor }),
  });
  if (posted.replayed) throw new Error(`ledger: completion of ${ref} posted twice`);
  return toReservation(row, false);
}

/** A payout whose held reservation completes (completeReservations): its ref and what it reserved. */
export interface Completion {
  readonly ref: string;
  readonly merchantId: string;
  readonly currency: Currency;
  readonly amountMinor: Minor;
  readonly feeMinor: Minor;
}

/** completeReservation's postings: held -(amount + fee), settlement +amount, fee revenue +fee. */
function completionPostings(c: Completion) {
  return [
    { account: merchantAccount(c.merchantId, c.currency, 'held'), amountMinor: -(c.amountMinor + c.feeMinor) },
    { account: platformAccount(c.currency, 'settlement'), amountMinor: c.amountMinor },
    { account: platformAccount(c.currency, 'fee_revenue'), amountMinor: c.feeMinor },
  ];
}

/**
 * completeReservation for many payouts, in the caller's transaction: on PostgreSQL one statement for
 * them all (pg-posting.ts completeManyPg), falling back to one at a time before a currency's first
 * completion opens its platform accounts; on SQLite one at a time. Throws, for the caller to roll
 * back, when a reservation was not held or does not hold what `completions` says.
 */
export async function completeReservations(db: Executor, ctx: LedgerContext, completions: readonly Completion[]): Promise<Reservation[]> {
  const oneByOne = async () => {
    const done: Reservation[] = [];
    for (const c of completions) {
      const reservation = await completeReservation(db, ctx, c.ref);
      if (reservation.replayed) throw new Error(`ledger: reservation ${c.ref} was not held, or its completion was posted before`);
      done.push(holdsCompletion(c, reservation));
    }
    return done;
  };
  assertDistinctRefs(completions.map((c) => c.ref));
  if (ctx.storeKind !== 'postgres' || completions.length === 0) return oneByOne();
  const nowMs = ctx.clock.nowMs();
  const result = await completeManyPg(
    db,
    completions.map((c) => ({
      entry: { id: newId(), kind: 'payout_complete', ref: c.ref, merchantId: c.merchantId, currency: c.currency, reason: null, actor: null, nowMs },
      deltas: pgDeltasOf(normalizePostings({ currency: c.currency, postings: completionPostings(c) })),
    })),
    nowMs,
  );
  if (result.outcome === 'missing_account') return oneByOne();
  return result.reservations.map((closed, i) => {
    const c = completions[i]!;
    if (!closed.closed || closed.entryId === null) throw new Error(`ledger: reservation ${c.ref} was not held, or its completion was posted before`);
    const row: LedgerReservationsTable = {
      ref: c.ref,
      merchant_id: closed.merchantId!,
      currency: closed.currency!,
      amount_minor: closed.amountMinor!,
      fee_minor: closed.feeMinor!,
      from_available_minor: closed.fromAvailableMinor!,
      from_credit_minor: closed.fromCreditMinor!,
      status: 'completed',
      created_at_ms: closed.createdAtMs!,
      updated_at_ms: BigInt(nowMs),
    };
    assertPartsMakeTotal(row);
    return holdsCompletion(c, toReservation(row, false));
  });
}

/** The reservation a completion closed held what the completion says: its merchant, amount and fee. */
function holdsCompletion(c: Completion, reservation: Reservation): Reservation {
  if (reservation.merchantId !== c.merchantId || reservation.amountMinor !== c.amountMinor || reservation.feeMinor !== c.feeMinor) {
    throw new Error(`ledger: reservation ${c.ref} does not hold the amounts its completion posted`);
  }
  return reservation;
}
