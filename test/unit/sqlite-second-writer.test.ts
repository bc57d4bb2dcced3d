// The SQLite connection the store opens: its settings (a page cache big enough for a million
// payments' interior pages, store/db.ts SQLITE_PAGE_CACHE_KIB, beside WAL and a synchronous commit), and
// two processes writing one SQLite file, as the operator CLI does beside the running service: a
// transaction that reads and then writes must not fail with "database is locked" because the other
// process committed in between. It waits for the other writer instead (store/db.ts, BEGIN IMMEDIATE).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, SQLITE_PAGE_CACHE_KIB, type Store } from '../../src/store/db.js';
import { allocateTestDatabase, usingPostgres, type TestDatabase } from '../helpers/store.js';

const betterSqlite = createRequire(import.meta.url).resolve('better-sqlite3');

/** A second process that writes one row into `probe` and exits; it says "writing" just before. */
function otherWriter(file: string): { writing: Promise<void>; exited: Promise<number | null> } {
  const script = `
    const SQLite = require(${JSON.stringify(betterSqlite)});
    const db = new SQLite(${JSON.stringify(file)});
    db.pragma('busy_timeout = 10000');
    process.stdout.write('writing\\n');
    db.prepare("INSERT INTO probe (who) VALUES ('other')").run();
    db.close();`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const writing = new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('writing') && resolve()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { writing, exited };
}

let location: TestDatabase | null = null;
let store: Store | null = null;
afterEach(async () => {
  await store?.close();
  await location?.drop();
  store = null;
  location = null;
});

describe.skipIf(usingPostgres())('a SQLite transaction beside another process that writes', () => {
  it('reads, lets the other process try to write, then writes: both rows land and neither side fails', async () => {
    location = allocateTestDatabase();
    store = await openStore(location, {});
    const db = store.db;
    await sql`CREATE TABLE probe (id INTEGER PRIMARY KEY, who TEXT NOT NULL)`.execute(db);
    let other: ReturnType<typeof otherWriter> | null = null;
    await db.transaction().execute(async (trx) => {
      expect((await sql<{ n: bigint }>`SELECT count(*) AS n FROM probe`.execute(trx)).rows[0]!.n).toBe(0n);
      other = otherWriter(location!.sqliteFile);
      await other.writing;
      // Give the other process time to reach its insert: with a deferred BEGIN it commits here, and this
      // transaction's write below then fails with SQLITE_BUSY; with BEGIN IMMEDIATE it waits for us.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await sql`INSERT INTO probe (who) VALUES ('service')`.execute(trx);
    });
    expect(await other!.exited).toBe(0);
    const rows = await sql<{ who: string }>`SELECT who FROM probe ORDER BY id`.execute(db);
    expect(rows.rows.map((row) => row.who)).toEqual(['service', 'other']);
  }, 30_000);
});

describe.skipIf(usingPostgres())('the SQLite connection the store opens', () => {
  it('has a 16 MiB page cache, WAL and a synchronous commit', async () => {
    location = allocateTestDatabase();
    store = await openStore(location, {});
    const read = async (name: string) => Object.values((await sql.raw(`PRAGMA ${name}`).execute(store!.db)).rows[0] as object)[0];
    expect(SQLITE_PAGE_CACHE_KIB).toBe(16_384);
    expect(await read('cache_size')).toBe(-16_384n);
    expect(await read('journal_mode')).toBe('wal');
    // FULL is 2.
    expect(await read('synchronous')).toBe(2n);
  });
});
