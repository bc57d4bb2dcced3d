// Group commit of whole units of work (src/store/write-group.ts) on the real store, both kinds:
// units started together commit together, a failing unit is rolled back alone (its savepoint) and
// fails alone, and every unit's answer is its own.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/db.js';
import { ONE_STATEMENT, refusedUnwritten, WriteGroup, type BatchKind, type UnitScope } from '../../src/store/write-group.js';
import { openTestStore } from '../helpers/store.js';

let store: Store;
beforeEach(async () => {
  store = await openTestStore();
  await sql`CREATE TABLE wg_items (id TEXT PRIMARY KEY, n BIGINT NOT NULL)`.execute(store.db);
});
afterEach(async () => store.close());

const ids = async (): Promise<string[]> =>
  (await sql<{ id: string }>`SELECT id FROM wg_items ORDER BY id`.execute(store.db)).rows.map((r) => r.id);

/** Two inserts in one unit: both or neither. */
const insertPair = (group: WriteGroup, id: string, secondId = `${id}-b`) =>
  group.run(async (trx) => {
    await sql`INSERT INTO wg_items (id, n) VALUES (${id}, 1)`.execute(trx);
    await sql`INSERT INTO wg_items (id, n) VALUES (${secondId}, 2)`.execute(trx);
    return id;
  });

describe('WriteGroup', () => {
  it('commits every unit of a group and answers each its own value', async () => {
    const group = new WriteGroup(store.db);
    expect(await Promise.all(['a', 'b', 'c'].map((id) => insertPair(group, id)))).toEqual(['a', 'b', 'c']);
    expect(await ids()).toEqual(['a', 'a-b', 'b', 'b-b', 'c', 'c-b']);
  });

  it('rolls back and fails only the unit that failed, leaving none of its writes', async () => {
    const group = new WriteGroup(store.db);
    // "y" writes its first row, then collides with "x"'s: its savepoint undoes the first row too.
    const answers = await Promise.allSettled([insertPair(group, 'x'), insertPair(group, 'y', 'x'), insertPair(group, 'z')]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await ids()).toEqual(['x', 'x-b', 'z', 'z-b']);
  });

  it('fails a unit with its own error, not a wrapped one', async () => {
    const group = new WriteGroup(store.db);
    const refused = new Error('refused by the unit');
    const answers = await Promise.allSettled([
      insertPair(group, 'p'),
      group.run(async (trx) => {
        await sql`INSERT INTO wg_items (id, n) VALUES ('q', 1)`.execute(trx);
        throw refused;
      }),
    ]);
    expect(answers[0]).toEqual({ status: 'fulfilled', value: 'p' });
    expect(answers[1]).toEqual({ status: 'rejected', reason: refused });
    expect(await ids()).toEqual(['p', 'p-b']);
  });

  it('runs a unit alone in its own transaction too', async () => {
    const group = new WriteGroup(store.db);
    expect(await insertPair(group, 'solo')).toBe('solo');
    await expect(insertPair(group, 'solo')).rejects.toThrow();
    expect(await ids()).toEqual(['solo', 'solo-b']);
  });

  describe('optimistic units', () => {
    /** One insert; `calls` counts how many times the work ran (a rerun alone runs it again). */
    const insertOne = (group: WriteGroup, id: string, calls: Map<string, number>, scopes: UnitScope[] = []) =>
      group.run(async (trx, scope) => {
        calls.set(id, (calls.get(id) ?? 0) + 1);
        scopes.push(scope);
        await sql`INSERT INTO wg_items (id, n) VALUES (${id}, 1)`.execute(trx);
        return id;
      }, ONE_STATEMENT);

    it('run without a savepoint, on either store', async () => {
      const group = new WriteGroup(store.db);
      const scopes: UnitScope[] = [];
      const calls = new Map<string, number>();
      expect(await Promise.all(['a', 'b', 'c'].map((id) => insertOne(group, id, calls, scopes)))).toEqual(['a', 'b', 'c']);
      expect(scopes.map((s) => s.unprotected)).toEqual([true, true, true]);
      expect([...calls.values()]).toEqual([1, 1, 1]);
      expect(await ids()).toEqual(['a', 'b', 'c']);
    });

    it('a refusal thrown with nothing written fails that unit alone, with its own error, and nothing runs again', async () => {
      const group = new WriteGroup(store.db);
      const calls = new Map<string, number>();
      const refused = new Error('short balance');
      const answers = await Promise.allSettled([
        insertOne(group, 'a', calls),
        group.run(async () => {
          calls.set('r', (calls.get('r') ?? 0) + 1);
          throw refusedUnwritten(refused);
        }, ONE_STATEMENT),
        insertPair(group, 'p'),
        insertOne(group, 'c', calls),
      ]);
      expect(answers).toEqual([
        { status: 'fulfilled', value: 'a' },
        { status: 'rejected', reason: refused },
        { status: 'fulfilled', value: 'p' },
        { status: 'fulfilled', value: 'c' },
      ]);
      expect(Object.fromEntries(calls)).toEqual({ a: 1, r: 1, c: 1 });
      expect(await ids()).toEqual(['a', 'c', 'p', 'p-b']);
    });

    it('any other failure of one rolls its group back and every unit runs again alone: each commits once, the failing one fails', async () => {
      await sql`INSERT INTO wg_items (id, n) VALUES ('taken', 0)`.execute(store.db);
      const group = new WriteGroup(store.db);
      const calls = new Map<string, number>();
      const answers = await Promise.allSettled([
        insertOne(group, 'a', calls),
        insertPair(group, 'p'),
        insertOne(group, 'taken', calls),
        insertOne(group, 'c', calls),
      ]);
      expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(await ids()).toEqual(['a', 'c', 'p', 'p-b', 'taken']);
      // The failing unit had no savepoint, so its group rolled back and ran again unit by unit: the
      // units before it twice, the failing one once in the group and once alone, the rest once.
      expect(Object.fromEntries(calls)).toEqual({ a: 2, taken: 2, c: 1 });
    });

    it('protect() before the first write gives the unit a savepoint: its later failure undoes only its own writes', async () => {
      const group = new WriteGroup(store.db);
      const calls = new Map<string, number>();
      const scopes: boolean[] = [];
      const answers = await Promise.allSettled([
        insertOne(group, 'a', calls),
        group.run(async (trx, scope) => {
          calls.set('two', (calls.get('two') ?? 0) + 1);
          await scope.protect();
          scopes.push(scope.unprotected);
          await sql`INSERT INTO wg_items (id, n) VALUES ('two', 1)`.execute(trx);
          await sql`INSERT INTO wg_items (id, n) VALUES ('a', 2)`.execute(trx);
        }, ONE_STATEMENT),
        insertOne(group, 'c', calls),
      ]);
      expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(scopes).toEqual([false]);
      expect(Object.fromEntries(calls)).toEqual({ a: 1, two: 1, c: 1 });
      expect(await ids()).toEqual(['a', 'c']);
    });
  });

  describe('batched units', () => {
    /** Inserts every input's row in one statement; answers each input's id; counts its calls and what they held. */
    const insertsTogether = (failWith?: Error) => {
      const calls: string[][] = [];
      const kind: BatchKind<string, string> = {
        name: 'test inserts',
        async run(trx, inputs) {
          calls.push([...inputs]);
          await sql`INSERT INTO wg_items (id, n) VALUES ${sql.join(inputs.map((id) => sql`(${id}, 1)`))}`.execute(trx);
          if (failWith) throw failWith;
          return inputs.map((id) => `batched ${id}`);
        },
      };
      return { kind, calls };
    };
    /** A unit of `kind` on the key of its id: with the group's answer it writes nothing more; without one it inserts its row itself. */
    const unit = (group: WriteGroup, kind: BatchKind<string, string>, id: string) =>
      group.runBatched(kind, id, [id], async (trx, _scope, batched) => {
        if (batched !== null) return batched;
        await sql`INSERT INTO wg_items (id, n) VALUES (${id}, 1)`.execute(trx);
        return `alone ${id}`;
      });
    /** A unit that is in no batch and touches only `key`: it writes the row `${key}-seen`, and what it found of the row `key`. */
    const look = (group: WriteGroup, key: string) =>
      group.run(
        async (trx) => {
          const found = (await sql<{ id: string }>`SELECT id FROM wg_items WHERE id = ${key}`.execute(trx)).rows.length;
          await sql`INSERT INTO wg_items (id, n) VALUES (${`${key}-seen`}, ${found})`.execute(trx);
          return found === 1 ? `${key} was there` : `${key} was not there`;
        },
        { optimistic: true, keys: [key] },
      );

    it('writes the inputs of units started together in one call, in their order, and hands each unit its answer', async () => {
      const group = new WriteGroup(store.db);
      const { kind, calls } = insertsTogether();
      const answers = await Promise.all([unit(group, kind, 'b1'), look(group, 'other'), unit(group, kind, 'b2'), unit(group, kind, 'b3')]);
      expect(answers).toEqual(['batched b1', 'other was not there', 'batched b2', 'batched b3']);
      expect(calls).toEqual([['b1', 'b2', 'b3']]);
      expect(await ids()).toEqual(['b1', 'b2', 'b3', 'other-seen']);
    });

    it('keeps a unit out of the batch when a unit before it touches the same key, or does not say what it touches', async () => {
      const group = new WriteGroup(store.db);
      const { kind, calls } = insertsTogether();
      const answers = await Promise.all([
        unit(group, kind, 'k1'),
        look(group, 'k2'), // before k2's unit, on its key: k2 must not be written before this looks
        unit(group, kind, 'k2'),
        unit(group, kind, 'k3'),
        insertPair(group, 'any'), // says nothing of what it touches: no unit after it goes ahead of it
        unit(group, kind, 'k4'),
      ]);
      expect(answers).toEqual(['batched k1', 'k2 was not there', 'alone k2', 'batched k3', 'any', 'alone k4']);
      expect(calls).toEqual([['k1', 'k3']]);
      expect(await ids()).toEqual(['any', 'any-b', 'k1', 'k2', 'k2-seen', 'k3', 'k4']);
    });

    it('with two kinds in a group, keeps each unit behind any earlier unit on its key, batched or not', async () => {
      const group = new WriteGroup(store.db);
      const a = insertsTogether();
      const b = insertsTogether();
      /** A unit of `kind` writing the row `id`, on the key `key`. */
      const on = (kind: BatchKind<string, string>, id: string, key: string) =>
        group.runBatched(kind, id, [key], async (trx, _scope, batched) => {
          if (batched !== null) return batched;
          await sql`INSERT INTO wg_items (id, n) VALUES (${id}, 1)`.execute(trx);
          return `alone ${id}`;
        });
      const answers = await Promise.all([
        on(a.kind, 'a1', 'k1'),
        on(a.kind, 'a2', 'k2'),
        on(b.kind, 'b1', 'k3'),
        on(b.kind, 'b2', 'k1'), // behind a1, though a1 is batched: a1's work in its turn comes first
        on(a.kind, 'a3', 'k3'), // behind b1, which is not in a's batch
        on(b.kind, 'b3', 'k4'),
      ]);
      expect(answers).toEqual(['batched a1', 'batched a2', 'batched b1', 'alone b2', 'alone a3', 'batched b3']);
      expect({ a: a.calls, b: b.calls }).toEqual({ a: [['a1', 'a2']], b: [['b1', 'b3']] });

      // A kind left with one unit runs it in its turn, and it still keeps the units on its key behind it.
      const c = insertsTogether();
      const again = await Promise.all([on(c.kind, 'c1', 'k5'), on(a.kind, 'a4', 'k6'), on(a.kind, 'a5', 'k5'), on(b.kind, 'b4', 'k7')]);
      expect(again).toEqual(['alone c1', 'alone a4', 'alone a5', 'alone b4']);
      expect({ a: a.calls, b: b.calls, c: c.calls }).toEqual({ a: [['a1', 'a2']], b: [['b1', 'b3']], c: [] });
      expect(await ids()).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'b1', 'b2', 'b3', 'b4', 'c1']);
    });

    it('leaves a unit that is the only one of its kind in its group to write its input itself', async () => {
      const group = new WriteGroup(store.db);
      const { kind, calls } = insertsTogether();
      expect(await Promise.all([unit(group, kind, 'solo'), look(group, 'other')])).toEqual(['alone solo', 'other was not there']);
      expect(await unit(group, kind, 'later')).toBe('alone later');
      expect(calls).toEqual([]);
      expect(await ids()).toEqual(['later', 'other-seen', 'solo']);
    });

    it('rolls the whole group back when the call fails, and runs every unit again alone', async () => {
      const group = new WriteGroup(store.db);
      const { kind, calls } = insertsTogether(new Error('the batch cannot vouch for its answer'));
      const answers = await Promise.all([unit(group, kind, 'c1'), look(group, 'other'), unit(group, kind, 'c2')]);
      // The call wrote c1 and c2 before it threw; the rollback took them, and each unit wrote its own again.
      expect(answers).toEqual(['alone c1', 'other was not there', 'alone c2']);
      expect(calls).toEqual([['c1', 'c2']]);
      expect(await ids()).toEqual(['c1', 'c2', 'other-seen']);
    });
  });
});
