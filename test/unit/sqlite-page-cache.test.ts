// The service's SQLite connection keeps a page cache large enough for a million payments' interior
// pages (store/db.ts, SQLITE_PAGE_CACHE_KIB), and keeps its durability settings beside it.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, SQLITE_PAGE_CACHE_KIB, type Store } from '../../src/store/db.js';
import { allocateTestDatabase, usingPostgres, type TestDatabase } from '../helpers/store.js';

let location: TestDatabase | null = null;
let store: Store | null = null;
afterEach(async () => {
  await store?.close();
  await location?.drop();
  store = null;
  location = null;
});

describe.skipIf(usingPostgres())('the SQLite connection the store opens', () => {
  it('has a 16 MiB page cache, WAL and a synchronous commit', async () => {
    location = allocateTestDatabase();
    store = await openStore(location, {});
    const read = async (name: string) => Object.values((await sql.raw(`PRAGMA ${name}`).execute(store!.db)).rows[0] as object)[0];
    expect(SQLITE_PAGE_CACHE_KIB).toBe(16_384);
    expect(BigInt(await read('cache_size') as bigint)).toBe(-16_384n);
    expect(await read('journal_mode')).toBe('wal');
    // FULL is 2.
    expect(BigInt(await read('synchronous') as bigint)).toBe(2n);
  });
});
