// The SQLite statement cache behind Kysely: one prepared statement per SQL text, reused; the least
// recently used dropped beyond capacity; a statement still being iterated never handed out twice; a
// schema change under a cached statement seen by its next run.
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CachedStatements } from '../../src/store/db.js';

let sqlite: SQLite.Database;
afterEach(() => {
  if (sqlite?.open) sqlite.close();
});

const open = (capacity?: number): CachedStatements => {
  sqlite = new SQLite(':memory:');
  sqlite.exec('create table t (id integer primary key, name text)');
  sqlite.exec("insert into t (name) values ('a'), ('b'), ('c')");
  return new CachedStatements(sqlite, capacity);
};

describe('CachedStatements', () => {
  it('prepares a SQL text once and reuses the statement', () => {
    const cache = open();
    const first = cache.prepare('select name from t where id = ?');
    expect(first.all([1])).toEqual([{ name: 'a' }]);
    const again = cache.prepare('select name from t where id = ?');
    expect(again).toBe(first);
    expect(again.all([2])).toEqual([{ name: 'b' }]);
    expect(cache.size).toBe(1);
  });

  it('drops the least recently used statement beyond its capacity', () => {
    const cache = open(2);
    const a = cache.prepare('select 1');
    const b = cache.prepare('select 2');
    expect(cache.prepare('select 1')).toBe(a);
    cache.prepare('select 3');
    expect(cache.size).toBe(2);
    expect(cache.prepare('select 1')).toBe(a);
    expect(cache.prepare('select 2')).not.toBe(b);
  });

  it('never hands out a statement that is still iterating', () => {
    const cache = open();
    const sql = 'select name from t order by id';
    const iterating = cache.prepare(sql);
    const rows = iterating.iterate([]);
    expect(rows.next().value).toEqual({ name: 'a' });
    const other = cache.prepare(sql);
    expect(other).not.toBe(iterating);
    expect(other.all([])).toHaveLength(3);
    expect(rows.next().value).toEqual({ name: 'b' });
    rows.return?.();
  });

  it('runs a cached statement against the schema as it is now', () => {
    const cache = open();
    const sql = 'select * from t where id = ?';
    expect(cache.prepare(sql).all([1])).toEqual([{ id: 1, name: 'a' }]);
    sqlite.exec("alter table t add column note text default 'n'");
    expect(cache.prepare(sql).all([1])).toEqual([{ id: 1, name: 'a', note: 'n' }]);
  });
});
