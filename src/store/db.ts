// Opens the one database handle: embedded SQLite (WAL, synchronous=FULL) by default, PostgreSQL
// when DATABASE_URL is set, and brings the schema up to date before anything else touches it.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { migrationProvider } from './migrations/index.js';
import type { Database, Db } from './schema.js';

export type StoreKind = 'sqlite' | 'postgres';

export interface Store {
  readonly db: Db;
  readonly kind: StoreKind;
  /** Is the database answering? Used by /readyz. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const PG_INT8_OID = 20;
const PG_NUMERIC_OID = 1700;

function openSqlite(file: string): Store {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.defaultSafeIntegers(true);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    kind: 'sqlite',
    ping: async () => sqlite.open,
    close: () => db.destroy(),
  };
}

async function ensurePgSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } finally {
    await client.end();
  }
}

async function openPostgres(url: string, schema: string | null): Promise<Store> {
  if (schema) await ensurePgSchema(url, schema);
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: schema ? `-c search_path=${schema} -c synchronous_commit=on` : '-c synchronous_commit=on',
    types: {
      getTypeParser: (oid: number, format?: any) => {
        if (oid === PG_INT8_OID || oid === PG_NUMERIC_OID) return (value: string) => BigInt(value);
        return pg.types.getTypeParser(oid, format);
      },
    },
  });
  // A dropped connection must not crash the process; the next query reports the failure.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => db.destroy(),
  };
}

/**
 * Kysely's migrator introspects every schema of the database, so on a server shared with other
 * schemas being created or dropped (parallel test runs) it can fail on someone else's schema.
 * PostgreSQL runs each migration in a transaction, so a bounded retry is safe.
 */
const SHARED_SERVER_RACE = /does not exist|kysely_migration_lock/;
const MIGRATION_ATTEMPTS = 5;

/**
 * On PostgreSQL the migrator is told its schema: without it, it finds the bookkeeping tables of any
 * other schema in the database and wrongly assumes they are its own.
 */
export async function migrate(db: Db, schema: string | null = null): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const migrator = new Migrator({ db, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (!error && !failed) return;
    if (schema && attempt < MIGRATION_ATTEMPTS && SHARED_SERVER_RACE.test(String(error))) {
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      continue;
    }
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** Where the store lives: PostgreSQL when databaseUrl is set (in databaseSchema if given), else the SQLite file. */
export interface StoreConfig {
  readonly databaseUrl: string | null;
  readonly databaseSchema: string | null;
  readonly sqliteFile: string;
}

export async function openStore(config: StoreConfig): Promise<Store> {
  const store = config.databaseUrl
    ? await openPostgres(config.databaseUrl, config.databaseSchema)
    : openSqlite(config.sqliteFile);
  await migrate(store.db, config.databaseUrl ? config.databaseSchema : null);
  return store;
}
