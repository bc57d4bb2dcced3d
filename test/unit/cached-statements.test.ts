// The SQLite statement cache behind Kysely: one prepared statement per SQL text, reused; the least
// recently used dropped beyond capacity; a statement still being iterated never handed out twice; a
// schema change under a cached statement seen by its next run.
import SQLite from 'better-sqlite3';
import fc from 'fast-check';
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

  it('answers the rows better-sqlite3 itself would build, for any column names, repeated or odd', () => {
    sqlite = new SQLite(':memory:');
    sqlite.defaultSafeIntegers(true);
    const cache = new CachedStatements(sqlite);
    const name = fc.oneof(fc.string({ minLength: 1, maxLength: 8 }).filter((text) => !text.includes('\u0000')), fc.constantFrom('constructor', 'toString', 'a"b', "a'b", '0', '1e3', 'x\\y'));
    const value = fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.string({ maxLength: 6 }), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }));
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 3 }), (columns, rowCount) => {
        const select = columns.map((_, i) => `? AS "${columns[i]![0].replaceAll('"', '""')}"`).join(', ');
        const sql = `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ${rowCount}) SELECT ${select} FROM n WHERE ${rowCount} > 0`;
        const values = columns.map(([, v]) => v);
        const own = sqlite.prepare(sql).all(values);
        const ours = cache.prepare(sql).all(values);
        expect(ours).toEqual(own);
        for (let i = 0; i < ours.length; i++) {
          expect(Object.getPrototypeOf(ours[i])).toBe(Object.prototype);
          expect(Object.keys(ours[i] as object)).toEqual(Object.keys(own[i] as object));
        }
        expect([...cache.prepare(sql).iterate(values)]).toEqual(own);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a column named __proto__ as an own field, never as the row\'s prototype', () => {
    const cache = open();
    const [row] = cache.prepare(`select json('{"polluted":1}') as "__proto__", name from t where id = 1`).all([]) as Record<string, unknown>[];
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('{"polluted":1}');
    expect(row!.name).toBe('a');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('builds rows for the columns a statement has after the schema changed under it, and for RETURNING', () => {
    const cache = open();
    const sql = 'select * from t order by id';
    expect([...cache.prepare(sql).iterate([])]).toEqual([{ id: 1, name: 'a' }, { id: 2, name: 'b' }, { id: 3, name: 'c' }]);
    sqlite.exec('alter table t add column size integer default 7');
    expect(cache.prepare(sql).all([])[0]).toEqual({ id: 1, name: 'a', size: 7 });
    const insert = cache.prepare("insert into t (name) values (?) returning id, name");
    expect(insert.reader).toBe(true);
    expect(insert.all(['d'])).toEqual([{ id: 4, name: 'd' }]);
    expect(cache.prepare('update t set name = ? where id = ?').run(['e', 4]).changes).toBe(1);
    expect(cache.prepare('select name from t where id = 4').all([])).toEqual([{ name: 'e' }]);
  });
});
