// Runs the schema's migrations in name order on start-up, for SQLite and PostgreSQL alike. The
// migrations themselves belong to the modules that own the tables; src/migrations.ts names them.
import { Migrator, type Kysely, type Migration } from 'kysely';
import type { Db } from './schema.js';
import { sleep } from '../core/clock.js';

/** Every migration by the name databases record for it in their kysely_migration table. */
export type Migrations = Readonly<Record<string, Migration>>;

/** One module's part of a migration. */
export type MigrationStep = (db: Kysely<any>) => Promise<void>;

/** One migration made of the steps of several modules, run in the order given (the order they shipped in). */
export function migrationOf(...steps: readonly MigrationStep[]): Migration {
  return {
    up: async (db) => {
      for (const step of steps) await step(db);
    },
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
export async function migrate(db: Db, migrations: Migrations, schema: string | null = null): Promise<void> {
  const provider = { getMigrations: async () => ({ ...migrations }) };
  for (let attempt = 1; ; attempt++) {
    const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (!error && !failed) return;
    if (schema && attempt < MIGRATION_ATTEMPTS && SHARED_SERVER_RACE.test(String(error))) {
      await sleep(50 * attempt);
      continue;
    }
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
