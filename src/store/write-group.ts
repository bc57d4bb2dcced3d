// Group commit for whole units of work: the transactions that requests and jobs start at about the
// same time run one after another inside one transaction, so they share its commit (one fsync)
// instead of each paying for its own, with the same durability: no caller hears back before the
// shared commit. Each unit runs under a savepoint of its own, so one that fails (a short balance, a
// constraint) is rolled back alone and fails alone; the others commit. A unit that lost a deadlock
// or serialization race, or a group whose commit failed, runs again in a transaction of its own.
//
// Every savepoint costs two statements (on PostgreSQL each a round trip that the whole group waits
// for; on SQLite two more trips through the driver on the one connection), so a unit may run
// optimistically, without one: it writes in one statement (or, while it has written nothing,
// asks for its savepoint with `scope.protect()` and then writes as it likes), and when it refuses it
// throws `refusedUnwritten(error)` having written nothing. Any other failure of an unprotected unit
// may have left the transaction aborted or holding half its writes, so the whole group is rolled
// back and every unit of it runs again in a transaction of its own: a rare failure costs a rerun,
// never a partial write.
//
// Units of one kind may also go in together: a unit run with `runBatched` names a batch kind and its
// input, and the group runs every such unit's input of a kind in one call of the kind (on PostgreSQL
// one statement, one round trip for all of them) before its units run; each unit then goes on from
// its own answer. A unit that ran alone gets no answer (null) and does its work itself.
import { CompiledQuery, type Transaction } from 'kysely';
import { COMMIT_LINGER, GroupBatch } from '../core/group-batch.js';
import { isPostgres, type Database, type Db } from './schema.js';
import { executeCompiled } from './db.js';
import { isRetryableDbError, withTransaction } from './transactions.js';

/**
 * Units per shared transaction, per store: bounds how long one commit keeps its callers waiting. On
 * SQLite a unit costs no round trip and a commit is the dear part, so a busy process takes twice as
 * many (alternating runs of the payout cases: more payouts a second and less CPU a payout with 128
 * than with 64, and far fewer with 16; docs/benchmarks.md, session 26). On PostgreSQL every statement
 * of a unit is a round trip the rest of the group waits for, and the runs could not tell 128 from 64.
 */
export const MAX_UNITS_PER_COMMIT = { sqlite: 128, postgres: 64 } as const;

/** What a unit knows of its savepoint. */
export interface UnitScope {
  /** Without a savepoint around it (an optimistic unit, until it calls protect()). */
  readonly unprotected: boolean;
  /** Opens the unit's savepoint if it has none yet; call it only while the unit has written nothing. */
  protect(): Promise<void>;
}

export interface RunOptions {
  /**
   * The unit needs no savepoint, on either store: it writes in one statement, unless it calls
   * `scope.protect()` before its first write; unprotected, it refuses only through `refusedUnwritten`,
   * with nothing written. Any other failure of it rolls its whole group back, and every unit of the
   * group runs again alone. (On SQLite a failed statement does not end the transaction, but a unit
   * that wrote part of its work before failing would leave that part behind all the same.)
   */
  readonly optimistic?: boolean;
  /**
   * What the unit reads or writes that another unit's order could change: a batched unit runs ahead
   * of the units that arrived before it only when none of them shares a key with it (see runBatches).
   * Without keys a unit is taken to touch everything, so no batched unit after it moves past it.
   */
  readonly keys?: readonly [string, ...string[]];
}

/** A unit that writes in one statement and never refuses: it needs no savepoint. */
export const ONE_STATEMENT: RunOptions = { optimistic: true };

/** ONE_STATEMENT, with the keys of what it touches (RunOptions.keys; at least one). */
export const oneStatementOn = (key: string, ...more: string[]): RunOptions => ({ optimistic: true, keys: [key, ...more] });

/** The keys of what units touch (RunOptions.keys): a payout's row, a merchant's funds in a currency, a payment's row. */
export const unitKeys = {
  payout: (transactionRef: string) => `payout ${transactionRef}`,
  funds: (merchantId: string, currency: string) => `funds ${merchantId} ${currency}`,
  merchantRef: (merchantId: string, merchantRef: string) => `payout merchantRef ${merchantId} ${merchantRef}`,
  payment: (transactionRef: string) => `payment ${transactionRef}`,
} as const;

/** A unit's refusal (an AppError, say) thrown when it wrote nothing: the group goes on without a rollback. */
export class UnwrittenRefusal {
  constructor(readonly error: unknown) {}
}

export const refusedUnwritten = (error: unknown): UnwrittenRefusal => new UnwrittenRefusal(error);

const unwrapped = (error: unknown): unknown => (error instanceof UnwrittenRefusal ? error.error : error);

type Work<T> = (trx: Transaction<Database>, scope: UnitScope) => Promise<T>;

/**
 * A kind of unit whose inputs a group writes in one call (`runBatched`). `run` answers one result per
 * input, in the inputs' order, and writes for an input only what its result says it wrote; it may
 * throw (a database failure, or a result it cannot vouch for), which rolls the whole group back and
 * runs every unit of it again alone.
 */
export interface BatchKind<I, R> {
  readonly name: string;
  run(trx: Transaction<Database>, inputs: readonly I[]): Promise<readonly R[]>;
}

type BatchedWork<R, T> = (trx: Transaction<Database>, scope: UnitScope, batched: R | null) => Promise<T>;

interface Unit {
  readonly work: BatchedWork<unknown, unknown>;
  readonly optimistic: boolean;
  readonly batch: { readonly kind: BatchKind<unknown, unknown>; readonly input: unknown } | null;
  /** RunOptions.keys; null: it may touch anything. */
  readonly keys: readonly string[] | null;
}

/** A unit in a transaction of its own: its savepoint is the transaction. */
const ALONE: UnitScope = { unprotected: false, protect: async () => {} };

/** An unprotected unit failed: its group's transaction may be aborted or half written, so it all rolls back. */
class GroupAbandoned extends Error {}

// The savepoint statements, compiled once: every unit of every group runs two or three of them.
const OPEN = CompiledQuery.raw('SAVEPOINT write_group_unit');
const RELEASE = CompiledQuery.raw('RELEASE SAVEPOINT write_group_unit');
const ROLL_BACK = CompiledQuery.raw('ROLLBACK TO SAVEPOINT write_group_unit');
/** PostgreSQL: this unit's savepoint released and the next unit's opened in one round trip. */
const RELEASE_AND_OPEN = CompiledQuery.raw('RELEASE SAVEPOINT write_group_unit; SAVEPOINT write_group_unit');
/** PostgreSQL: a failed unit undone and its savepoint closed in one round trip (the next unit needs none). */
const ROLL_BACK_AND_RELEASE = CompiledQuery.raw('ROLLBACK TO SAVEPOINT write_group_unit; RELEASE SAVEPOINT write_group_unit');
type Outcome = { readonly value: unknown } | { readonly error: unknown } | { readonly alone: true };

export class WriteGroup {
  private readonly batch: GroupBatch<Unit, Outcome>;
  private readonly postgres: boolean;

  constructor(private readonly db: Db) {
    this.postgres = isPostgres(db);
    const maxUnits = this.postgres ? MAX_UNITS_PER_COMMIT.postgres : MAX_UNITS_PER_COMMIT.sqlite;
    this.batch = new GroupBatch(maxUnits, (units) => this.runGroup(units), COMMIT_LINGER);
  }

  /**
   * Runs `work` in a transaction shared with other units, all or nothing for this unit; resolves
   * with its answer once the shared transaction committed, or rejects with its own failure.
   * `work` must touch nothing but the database through `trx` (it may run twice).
   */
  async run<T>(work: Work<T>, options: RunOptions = {}): Promise<T> {
    return this.enter({ work: (trx, scope) => work(trx, scope), optimistic: options.optimistic === true, batch: null, keys: options.keys ?? null });
  }

  /**
   * An optimistic unit (see RunOptions) whose `input` the group may write together with the other
   * units' of the same `kind`, in one call of the kind, before any unit of the group runs: `work`
   * then gets its input's result. It does so only when no unit that arrived before it shares one of
   * its `keys`, so the answer is the one it would have had in its turn. When it is not in a batch (a
   * group of one, a unit before it on the same keys, a rerun alone after its group failed) it gets
   * null and writes its input itself, in its turn. Once its answer says the batch wrote for it, `work`
   * must neither open a savepoint (`scope.protect()`) nor refuse: what the batch wrote is outside any
   * savepoint of the unit's.
   */
  async runBatched<I, R, T>(kind: BatchKind<I, R>, input: I, keys: readonly [string, ...string[]], work: BatchedWork<R, T>): Promise<T> {
    return this.enter({
      work: work as BatchedWork<unknown, unknown>,
      optimistic: true,
      batch: { kind: kind as BatchKind<unknown, unknown>, input },
      keys,
    }) as Promise<T>;
  }

  private async enter<T>(unit: Unit): Promise<T> {
    const work = unit.work;
    let outcome: Outcome;
    try {
      outcome = await this.batch.add(unit);
    } catch {
      // The shared transaction failed (its commit, or an unprotected unit): everything was rolled
      // back, so this unit runs again on its own.
      outcome = { alone: true };
    }
    if ('alone' in outcome) {
      try {
        return (await withTransaction(this.db, (trx) => work(trx, ALONE, null))) as T;
      } catch (error) {
        throw unwrapped(error);
      }
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.value as T;
  }

  private async runGroup(units: readonly Unit[]): Promise<Outcome[]> {
    if (units.length === 1) return [{ alone: true }];
    return this.db.transaction().execute(async (trx) => {
      const batched = await runBatches(trx, units);
      const outcomes: Outcome[] = [];
      // On PostgreSQL each statement is a round trip and the units wait for one another, so the
      // savepoint bookkeeping goes in as few as it can: one parameterless query may hold several
      // statements there (release this unit's savepoint and open the next unit's together), a
      // savepoint rolled back to stays open for the next unit, and the commit releases the last.
      // Savepoints never nest: each is released before an unprotected unit writes after it.
      // `open`: a savepoint opened since the last write, which this unit uses if it is protected.
      let open = false;
      for (const [index, unit] of units.entries()) {
        const last = index === units.length - 1;
        let isProtected = !unit.optimistic;
        if (isProtected && !open) await executeCompiled(trx, OPEN);
        open = false;
        const scope: UnitScope = {
          get unprotected() {
            return !isProtected;
          },
          protect: async () => {
            if (isProtected) return;
            await executeCompiled(trx, OPEN);
            isProtected = true;
          },
        };
        const nextProtected = !last && !units[index + 1]!.optimistic;
        try {
          const value = await unit.work(trx, scope, batched.get(unit) ?? null);
          if (isProtected && !this.postgres) await executeCompiled(trx, RELEASE);
          else if (isProtected && !last) {
            await executeCompiled(trx, nextProtected ? RELEASE_AND_OPEN : RELEASE);
            open = nextProtected;
          }
          outcomes.push({ value });
        } catch (error) {
          if (!isProtected) {
            if (error instanceof UnwrittenRefusal) {
              outcomes.push({ error: error.error });
              continue;
            }
            throw new GroupAbandoned('write group: a unit without a savepoint failed', { cause: error });
          }
          if (!this.postgres) {
            await executeCompiled(trx, ROLL_BACK);
            await executeCompiled(trx, RELEASE);
          } else if (last || nextProtected) {
            await executeCompiled(trx, ROLL_BACK);
            open = true;
          } else {
            await executeCompiled(trx, ROLL_BACK_AND_RELEASE);
          }
          const cause = unwrapped(error);
          outcomes.push(isRetryableDbError(cause) ? { alone: true } : { error: cause });
        }
      }
      return outcomes;
    });
  }
}

/** Two units whose order matters: they share a key, or one of them did not say what it touches. */
const touchSame = (a: Unit, b: Unit): boolean => a.keys === null || b.keys === null || a.keys.some((key) => b.keys!.includes(key));

/**
 * The group's batches, kind by kind in the order their first units arrived, each in one call: each
 * batched unit's result, to hand to its work. A batch runs before the group's units, so a unit joins
 * it only when no unit that arrived before it, other than the batch's own, touches its keys (a unit
 * of an earlier batch may still have work to do in its turn, so it counts too). The others run in
 * their turn. A kind with fewer than two units joining leaves them to do their own.
 */
async function runBatches(trx: Transaction<Database>, units: readonly Unit[]): Promise<Map<Unit, unknown>> {
  const results = new Map<Unit, unknown>();
  const kinds = [...new Set(units.flatMap((unit) => (unit.batch === null ? [] : [unit.batch.kind])))];
  for (const kind of kinds) {
    const members: Unit[] = [];
    for (const [index, unit] of units.entries()) {
      if (unit.batch?.kind !== kind) continue;
      const blocked = units.slice(0, index).some((before) => !members.includes(before) && touchSame(before, unit));
      if (!blocked) members.push(unit);
    }
    if (members.length < 2) continue;
    const answers = await kind.run(
      trx,
      members.map((unit) => unit.batch!.input),
    );
    if (answers.length !== members.length) throw new Error(`write group: batch ${kind.name} answered ${answers.length} of ${members.length} inputs`);
    members.forEach((unit, i) => results.set(unit, answers[i]));
  }
  return results;
}

const groups = new WeakMap<Db, WriteGroup>();

/** The store's one write group (made on first use), so every caller of a store shares its commits. */
export function writeGroupOf(db: Db): WriteGroup {
  let group = groups.get(db);
  if (!group) groups.set(db, (group = new WriteGroup(db)));
  return group;
}
