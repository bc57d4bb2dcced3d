// Versioned migrations, applied in name order on start-up for SQLite and PostgreSQL alike.
// Append new ones; never edit one that has shipped.
import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_ledger.js';
import * as m0003 from './0003_payments.js';
import * as m0004 from './0004_webhooks.js';
import * as m0005 from './0005_payouts.js';
import * as m0006 from './0006_held_money_and_audit.js';
import * as m0007 from './0007_signature_paths_rate_windows.js';

const MIGRATIONS: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_ledger': m0002,
  '0003_payments': m0003,
  '0004_webhooks': m0004,
  '0005_payouts': m0005,
  '0006_held_money_and_audit': m0006,
  '0007_signature_paths_rate_windows': m0007,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
