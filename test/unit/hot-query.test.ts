// Hot queries (store/hot-query.ts) on the suite's store: compiled once, run with each call's
// values, and on PostgreSQL sent as named prepared statements, so the server plans them once per
// connection (a list page's planning had cost the database more than its scan).
import { sql, type Generated, type Kysely, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HotBatchQuery, HotQuery, HotRowInsert, HotRowsInsert } from '../../src/store/hot-query.js';
import { openTestStore } from '../helpers/store.js';
import { directStatements } from '../../src/store/db.js';
import type { Database } from '../../src/store/schema.js';

let store: Awaited<ReturnType<typeof openTestStore>>;
beforeAll(async () => {
  store = await openTestStore();
  await store.db
    .insertInto('rate_limit_windows')
    .values([
      { bucket: 'hot-a', window_s: 1n, n: 5n },
      { bucket: 'hot-b', window_s: 1n, n: 7n },
      { bucket: 'hot-c', window_s: 2n, n: 9n },
    ])
    .execute();
});
afterAll(async () => store?.close());

const byBucket = new HotQuery(2, (db, bucket: string, windowS: bigint) =>
  db.selectFrom('rate_limit_windows').select(['bucket', 'n']).where('bucket', '=', bucket).where('window_s', '=', windowS),
);
const byBuckets = new HotBatchQuery(1, (db, _count, buckets) =>
  db
    .selectFrom('rate_limit_windows')
    .select(['bucket', 'n'])
    .where('bucket', 'in', buckets as string[])
    .orderBy('bucket'),
);

describe(`hot queries (${process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('answers each call with its own values, many times over', async () => {
    for (let round = 0; round < 8; round++) {
      // Past PostgreSQL's fifth execution, when a prepared statement may switch to a generic plan.
      expect(await byBucket.execute(store.db, 'hot-a', 1n)).toEqual([{ bucket: 'hot-a', n: 5n }]);
      expect(await byBucket.execute(store.db, 'hot-c', 2n)).toEqual([{ bucket: 'hot-c', n: 9n }]);
      expect(await byBucket.execute(store.db, 'hot-c', 1n)).toEqual([]);
    }
    expect((await byBuckets.execute(store.db, ['hot-b', 'hot-a'])).map((r) => r.bucket)).toEqual(['hot-a', 'hot-b']);
    expect((await byBuckets.execute(store.db, ['hot-c'])).map((r) => r.bucket)).toEqual(['hot-c']);
  });

  it('inserts a row by its own columns, leaving undefined ones to their defaults, and reports a conflict', async () => {
    await sql`CREATE TABLE hot_rows (k TEXT PRIMARY KEY, n BIGINT NOT NULL DEFAULT 7)`.execute(store.db);
    const scratch = store.db as unknown as Kysely<{ hot_rows: { k: string; n: Generated<bigint> } }>;
    const insert = new HotRowInsert((db, row: { k: string; n?: bigint }) =>
      (db as unknown as typeof scratch)
        .insertInto('hot_rows')
        .values(row)
        .onConflict((oc) => oc.column('k').doNothing())
        .returning(['k', 'n']),
    );
    expect(await insert.executeTakeFirst(store.db, { k: 'a', n: 4n })).toEqual({ k: 'a', n: 4n });
    expect(await insert.executeTakeFirst(store.db, { k: 'b', n: 6n })).toEqual({ k: 'b', n: 6n });
    // The same key again: nothing inserted, nothing returned, the first row unchanged.
    expect(await insert.executeTakeFirst(store.db, { k: 'a', n: 99n })).toBeUndefined();
    // Another set of columns (n undefined): its own compiled statement, and the column's default applies.
    expect(await insert.executeTakeFirst(store.db, { k: 'c', n: undefined })).toEqual({ k: 'c', n: 7n });
    expect(await insert.executeTakeFirst(store.db, { k: 'd' })).toEqual({ k: 'd', n: 7n });
    const rows = await scratch.selectFrom('hot_rows').select(['k', 'n']).orderBy('k').execute();
    expect(rows).toEqual([
      { k: 'a', n: 4n },
      { k: 'b', n: 6n },
      { k: 'c', n: 7n },
      { k: 'd', n: 7n },
    ]);
  });

  it('inserts many rows in one statement per number of rows, each conflict skipped alone, rows of another shape by Kysely', async () => {
    await sql`CREATE TABLE hot_many (k TEXT PRIMARY KEY, n BIGINT NOT NULL DEFAULT 3)`.execute(store.db);
    const scratch = store.db as unknown as Kysely<{ hot_many: { k: string; n: Generated<bigint> } }>;
    const insert = new HotRowsInsert((db, rows: readonly { k: string; n?: bigint }[]) =>
      (db as unknown as typeof scratch)
        .insertInto('hot_many')
        .values([...rows])
        .onConflict((oc) => oc.column('k').doNothing())
        .returning(['k', 'n']),
    );
    const keys = (rows: readonly { k: string }[]) => rows.map((row) => row.k).sort();
    expect(await insert.execute(store.db, [])).toEqual([]);
    expect(keys(await insert.execute(store.db, [{ k: 'a', n: 1n }, { k: 'b', n: 2n }]))).toEqual(['a', 'b']);
    // The same size again, other values: the compiled statement takes this call's values.
    expect(keys(await insert.execute(store.db, [{ k: 'c', n: 5n }, { k: 'a', n: 9n }]))).toEqual(['c']);
    // Three hundred rows (ten thousand values would do too): compiled by lookup, in one statement.
    const many = Array.from({ length: 300 }, (_, i) => ({ k: `m${String(i).padStart(3, '0')}`, n: BigInt(i) }));
    expect(await insert.execute(store.db, many)).toHaveLength(300);
    // Rows not built alike (here the columns in another order): built by Kysely as they are.
    expect(keys(await insert.execute(store.db, [{ k: 'd', n: 4n }, { n: 3n, k: 'e' }, { k: 'f', n: 3n }]))).toEqual(['d', 'e', 'f']);
    const rows = await scratch.selectFrom('hot_many').select(['k', 'n']).where('k', '<', 'm').orderBy('k').execute();
    expect(rows).toEqual([
      { k: 'a', n: 1n },
      { k: 'b', n: 2n },
      { k: 'c', n: 5n },
      { k: 'd', n: 4n },
      { k: 'e', n: 3n },
      { k: 'f', n: 3n },
    ]);
    const stored = await scratch.selectFrom('hot_many').select(['k', 'n']).where('k', '>=', 'm').orderBy('k').execute();
    expect(stored).toEqual(many);
  });

  it('inside a transaction sees its own writes; outside one, while it is open, only what is committed', async () => {
    const setN = new HotQuery(2, (db, n: bigint, bucket: string) => db.updateTable('rate_limit_windows').set({ n }).where('bucket', '=', bucket));
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let inside: unknown;
    const rolledBack = store.db
      .transaction()
      .execute(async (trx) => {
        expect(await setN.affected(trx, 50n, 'hot-a')).toBe(1n);
        inside = await byBucket.execute(trx, 'hot-a', 1n);
        // Held open while the rest of the process runs: between a transaction's awaits, other
        // requests' work goes on and may read outside it.
        await held;
        throw new Error('rolled back');
      })
      .catch((error: Error) => error.message);
    await vi.waitFor(() => expect(inside).toEqual([{ bucket: 'hot-a', n: 50n }]));
    // SQLite has one connection, held by the transaction: this read waits for it (it must never run
    // at once there and see the uncommitted 50); PostgreSQL reads what is committed from another.
    const outside = byBucket.execute(store.db, 'hot-a', 1n);
    letGo();
    expect(await outside).toEqual([{ bucket: 'hot-a', n: 5n }]);
    expect(await rolledBack).toBe('rolled back');
    expect(await byBucket.execute(store.db, 'hot-a', 1n)).toEqual([{ bucket: 'hot-a', n: 5n }]);
  });

  it('runs on SQLite\'s connection at once only inside a running transaction, and refuses a transaction used after its end', async () => {
    const sqlite = process.env.TEST_STORE !== 'postgres';
    let kept: Transaction<Database> | undefined;
    await store.db.transaction().execute(async (trx) => {
      kept = trx;
      expect(directStatements(trx) !== null).toBe(sqlite);
      expect(await byBucket.execute(trx, 'hot-b', 1n)).toEqual([{ bucket: 'hot-b', n: 7n }]);
    });
    expect(directStatements(kept!)).toBeNull();
    await expect(byBucket.execute(kept!, 'hot-b', 1n)).rejects.toThrow('Transaction is already committed');
  });

  it.runIf(process.env.TEST_STORE === 'postgres')('runs as a named prepared statement on PostgreSQL', async () => {
    await store.db.transaction().execute(async (trx) => {
      // One connection: the statement is prepared on it by the call, then listed by the server.
      expect(await byBucket.execute(trx, 'hot-b', 1n)).toEqual([{ bucket: 'hot-b', n: 7n }]);
      const prepared = await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(trx);
      const mine = prepared.rows.filter((row) => row.statement.includes('rate_limit_windows') && row.statement.includes('"window_s" = $2'));
      expect(mine).toHaveLength(1);
      expect(mine[0]!.name).toMatch(/^paygate_\d+$/);
    });
  });

  it.runIf(process.env.TEST_STORE === 'postgres')('leaves a query marked so unprepared, planned by the server with each call\'s values', async () => {
    const unplanned = new HotQuery(
      1,
      (db, bucket: string) => db.selectFrom('rate_limit_windows').select(['bucket', 'n']).where('bucket', '=', bucket).where('n', '>', 6n),
      { preparedOnServer: false },
    );
    await store.db.transaction().execute(async (trx) => {
      for (let round = 0; round < 7; round++) expect(await unplanned.execute(trx, 'hot-b')).toEqual([{ bucket: 'hot-b', n: 7n }]);
      expect(await unplanned.execute(trx, 'hot-a')).toEqual([]);
      const prepared = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(trx);
      expect(prepared.rows.filter((row) => row.statement.includes('"n" > $2'))).toEqual([]);
    });
  });
});
