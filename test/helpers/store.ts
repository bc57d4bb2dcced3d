// Each test gets its own real database: a fresh SQLite file, or (TEST_STORE=postgres) a fresh
// schema on the local PostgreSQL server. No database is ever mocked.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { MIGRATIONS } from '../../src/migrations.js';
import { openStore, type Store } from '../../src/store/db.js';

export const TEST_PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const usingPostgres = (): boolean => process.env.TEST_STORE === 'postgres';

export interface TestDatabase {
  readonly databaseUrl: string | null;
  readonly databaseSchema: string | null;
  readonly sqliteFile: string;
  readonly dataDir: string;
  /** Removes the schema or file; call after every store opened on it is closed. */
  drop(): Promise<void>;
}

/** Allocates an empty database location (not yet opened). */
export function allocateTestDatabase(): TestDatabase {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-test-'));
  const sqliteFile = path.join(dataDir, 'test.sqlite');
  if (!usingPostgres()) {
    return {
      databaseUrl: null,
      databaseSchema: null,
      sqliteFile,
      dataDir,
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  return {
    databaseUrl: TEST_PG_URL,
    databaseSchema: schema,
    sqliteFile,
    dataDir,
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_PG_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Opens (and migrates) a fresh store; close() also drops it. */
export async function openTestStore(): Promise<Store & { readonly location: TestDatabase }> {
  const location = allocateTestDatabase();
  let store: Store;
  try {
    store = await openStore(location, MIGRATIONS);
  } catch (error) {
    await location.drop();
    throw error;
  }
  return {
    ...store,
    db: store.db,
    kind: store.kind,
    ping: store.ping,
    location,
    close: async () => {
      await store.close();
      await location.drop();
    },
  };
}

/**
 * A fresh store migrated up to, not including, `migration`, for that migration's own test: the test
 * writes rows of the old shape, then runs migrate() for the rest. Close the store, then drop the location.
 */
export async function openStoreBefore(migration: string): Promise<{ readonly store: Store; readonly location: TestDatabase }> {
  const names = Object.keys(MIGRATIONS);
  if (!names.includes(migration)) throw new Error(`no migration ${migration}`);
  const before = Object.fromEntries(names.slice(0, names.indexOf(migration)).map((name) => [name, MIGRATIONS[name]!]));
  const location = allocateTestDatabase();
  return { store: await openStore(location, before), location };
}
