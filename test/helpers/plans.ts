// A store's plan for a compiled query, as text, for tests that check which index a query reads.
import { CompiledQuery, sql } from 'kysely';
import type { Store } from '../../src/store/db.js';

export const indexNamesOf = async (store: Store, table: string): Promise<string[]> => {
  const rows =
    store.kind === 'sqlite'
      ? await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ${table}`.execute(store.db)
      : await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = ${table} AND schemaname = current_schema()`.execute(store.db);
  return rows.rows.map((r) => r.name);
};

/**
 * SQLite's EXPLAIN QUERY PLAN, or PostgreSQL's EXPLAIN with sequential scans ruled out: a small test
 * table is read whole whatever its indexes, and with that off the plan shows whether the planner can
 * use a partial index, which it may only for a query that implies the index's condition.
 */
export async function planOf(store: Store, compiled: { readonly sql: string; readonly parameters: readonly unknown[] }): Promise<string> {
  if (store.kind === 'sqlite') {
    const rows = await store.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
    return rows.rows.map((r) => r.detail).join('\n');
  }
  return store.db.connection().execute(async (conn) => {
    await sql`SET enable_seqscan = off`.execute(conn);
    try {
      const rows = await conn.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${compiled.sql}`, [...compiled.parameters]));
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await sql`SET enable_seqscan = on`.execute(conn);
    }
  });
}
