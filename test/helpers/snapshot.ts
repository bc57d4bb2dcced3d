// Every table of a store with its row count and a digest of its rows, so a test can show that a
// refused request wrote nothing.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Store } from '../../src/store/db.js';

export interface TableState {
  readonly count: number;
  readonly digest: string;
}

const jsonSafe = (_key: string, value: unknown): unknown =>
  typeof value === 'bigint' ? `${value}n` : value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value;

/** Every table of the store (whatever migrations exist by now), with its row count and a digest of its rows. */
export async function snapshot(store: Store): Promise<Map<string, TableState>> {
  const { db, kind } = store;
  const names =
    kind === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)).rows.map((r) => r.name)
      : (
          await sql<{ table_name: string }>`select table_name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
        ).rows.map((r) => r.table_name);
  const state = new Map<string, TableState>();
  for (const name of names.sort()) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db)).rows;
    const lines = rows.map((row) => JSON.stringify(row, jsonSafe)).sort();
    state.set(name, { count: rows.length, digest: createHash('sha256').update(lines.join('\n')).digest('hex') });
  }
  return state;
}

/**
 * Nothing changed, except that `signature_claims` may grow (it records accepted signatures by design)
 * and the shared rate-limit counters in `rate_limit_windows` move with every request.
 */
export function expectNoWrites(before: Map<string, TableState>, after: Map<string, TableState>): void {
  expect([...after.keys()]).toEqual([...before.keys()]);
  for (const [name, was] of before) {
    const now = after.get(name)!;
    if (name === 'signature_claims') {
      expect(now.count, name).toBeGreaterThanOrEqual(was.count);
    } else if (name !== 'rate_limit_windows') {
      expect({ table: name, ...now }).toEqual({ table: name, ...was });
    }
  }
}
