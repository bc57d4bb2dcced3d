// Group commit for whole units of work: the transactions that requests and jobs start at about the
// same time run one after another inside one transaction, so they share its commit (one fsync)
// instead of each paying for its own, with the same durability: no caller hears back before the
// shared commit. Each unit runs under a savepoint of its own, so one that fails (a short balance, a
// constraint) is rolled back alone and fails alone; the others commit. A unit that lost a deadlock
// or serialization race, or a group whose commit failed, runs again in a transaction of its own.
import { CompiledQuery, type Transaction } from 'kysely';
import { GroupBatch } from '../core/group-batch.js';
import { isPostgres, type Database, type Db } from './schema.js';
import { isRetryableDbError, withTransaction } from './transactions.js';

/** Units per shared transaction: bounds how long one commit keeps its callers waiting. */
export const MAX_UNITS_PER_COMMIT = 64;

type Unit = (trx: Transaction<Database>) => Promise<unknown>;

// The savepoint statements, compiled once: every unit of every group runs two or three of them.
const OPEN = CompiledQuery.raw('SAVEPOINT write_group_unit');
const RELEASE = CompiledQuery.raw('RELEASE SAVEPOINT write_group_unit');
const ROLL_BACK = CompiledQuery.raw('ROLLBACK TO SAVEPOINT write_group_unit');
/** PostgreSQL: this unit's savepoint released and the next unit's opened in one round trip. */
const RELEASE_AND_OPEN = CompiledQuery.raw('RELEASE SAVEPOINT write_group_unit; SAVEPOINT write_group_unit');
type Outcome = { readonly value: unknown } | { readonly error: unknown } | { readonly alone: true };

export class WriteGroup {
  private readonly batch: GroupBatch<Unit, Outcome>;
  private readonly postgres: boolean;

  constructor(
    private readonly db: Db,
    maxUnitsPerCommit: number = MAX_UNITS_PER_COMMIT,
  ) {
    this.batch = new GroupBatch(maxUnitsPerCommit, (units) => this.runGroup(units));
    this.postgres = isPostgres(db);
  }

  /**
   * Runs `work` in a transaction shared with other units, all or nothing for this unit; resolves
   * with its answer once the shared transaction committed, or rejects with its own failure.
   * `work` must touch nothing but the database through `trx` (it may run twice).
   */
  async run<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    let outcome: Outcome;
    try {
      outcome = await this.batch.add(work);
    } catch {
      // The shared commit failed: everything was rolled back, so this unit runs again on its own.
      outcome = { alone: true };
    }
    if ('alone' in outcome) return withTransaction(this.db, work);
    if ('error' in outcome) throw outcome.error;
    return outcome.value as T;
  }

  private async runGroup(units: readonly Unit[]): Promise<Outcome[]> {
    if (units.length === 1) return [{ alone: true }];
    return this.db.transaction().execute(async (trx) => {
      const outcomes: Outcome[] = [];
      // On PostgreSQL each statement is a round trip and the units wait for one another, so the
      // savepoint bookkeeping goes in as few as it can: one parameterless query may hold several
      // statements there (release this unit's savepoint and open the next unit's together), a
      // savepoint rolled back to stays open for the next unit, and the commit releases the last.
      let open = false;
      for (const [index, unit] of units.entries()) {
        if (!open) await trx.executeQuery(OPEN);
        open = true;
        const last = index === units.length - 1;
        try {
          const value = await unit(trx);
          if (this.postgres) {
            if (!last) await trx.executeQuery(RELEASE_AND_OPEN);
          } else {
            await trx.executeQuery(RELEASE);
            open = false;
          }
          outcomes.push({ value });
        } catch (error) {
          await trx.executeQuery(ROLL_BACK);
          if (!this.postgres) {
            await trx.executeQuery(RELEASE);
            open = false;
          }
          outcomes.push(isRetryableDbError(error) ? { alone: true } : { error });
        }
      }
      return outcomes;
    });
  }
}

const groups = new WeakMap<Db, WriteGroup>();

/** The store's one write group (made on first use), so every caller of a store shares its commits. */
export function writeGroupOf(db: Db): WriteGroup {
  let group = groups.get(db);
  if (!group) groups.set(db, (group = new WriteGroup(db)));
  return group;
}
