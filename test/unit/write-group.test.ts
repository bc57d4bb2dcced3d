// Group commit of whole units of work (src/store/write-group.ts) on the real store, both kinds:
// units started together commit together, a failing unit is rolled back alone (its savepoint) and
// fails alone, and every unit's answer is its own.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/db.js';
import { WriteGroup } from '../../src/store/write-group.js';
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
});
