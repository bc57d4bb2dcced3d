// Hot queries (store/hot-query.ts) on the suite's store: compiled once, run with each call's
// values, and on PostgreSQL sent as named prepared statements, so the server plans them once per
// connection (a list page's planning had cost the database more than its scan).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HotBatchQuery, HotQuery } from '../../src/store/hot-query.js';
import { openTestStore } from '../helpers/store.js';

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
});
