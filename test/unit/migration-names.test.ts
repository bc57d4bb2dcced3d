// The names of the shipped migrations, as every existing database recorded them in kysely_migration.
// Kysely refuses to migrate a database whose recorded names the code no longer provides, so moving a
// migration's steps between modules must never rename, drop or reorder one of these.
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/migrations.js';

const SHIPPED = [
  '0001_foundation',
  '0002_ledger',
  '0003_payments',
  '0004_webhooks',
  '0005_payouts',
  '0006_held_money_and_audit',
  '0007_signature_paths_rate_windows',
];

describe('migration names', () => {
  it('keeps every shipped name, first and in order', () => {
    expect(Object.keys(MIGRATIONS).slice(0, SHIPPED.length)).toEqual(SHIPPED);
  });

  it('lists migrations in the name order the migrator runs them in', () => {
    const names = Object.keys(MIGRATIONS);
    expect([...names].sort()).toEqual(names);
  });
});
