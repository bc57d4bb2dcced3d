// The ledger's schema history: accounts with cached balances, journal entries, postings, payout
// reservations, pending lots. A shipped step is never edited; a change is a new step in src/migrations.ts.
import { sql, type Kysely } from 'kysely';

/** Names of the merchant balances that may never be negative; the database enforces it too. */
const NON_NEGATIVE_KINDS = sql.raw(`('available', 'pending', 'held', 'credit', 'security')`);

async function createAccounts(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.references('merchants.id'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('channel', 'text')
    .addColumn('balance_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    // The last line of defence: the service checks before it writes, the database refuses anyway.
    .addCheckConstraint('ledger_accounts_non_negative', sql`kind NOT IN ${NON_NEGATIVE_KINDS} OR balance_minor >= 0`)
    .addCheckConstraint('ledger_accounts_credit_line', sql`kind <> 'credit_line' OR balance_minor <= 0`)
    .execute();
  await db.schema.createIndex('ledger_accounts_merchant').on('ledger_accounts').columns(['merchant_id', 'currency']).execute();
}

async function createJournal(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('posting_count', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('actor', 'text')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_entries_kind_ref').unique().on('ledger_entries').columns(['kind', 'ref']).execute();
  await db.schema.createIndex('ledger_entries_merchant').on('ledger_entries').columns(['merchant_id', 'id']).execute();

  await db.schema
    .createTable('ledger_postings')
    .addColumn('entry_id', 'text', (c) => c.notNull().references('ledger_entries.id'))
    // No foreign key to ledger_accounts on purpose: on PostgreSQL each FK check share-locks the
    // referenced row, and the hot balance rows would pay for it on every posting. verify() checks it.
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_postings_pk', ['entry_id', 'account_id'])
    .addCheckConstraint('ledger_postings_non_zero', sql`amount_minor <> 0`)
    .execute();
}

async function createReservationsAndLots(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ledger_reservations')
    .addColumn('ref', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('fee_minor', 'bigint', (c) => c.notNull())
    .addColumn('from_available_minor', 'bigint', (c) => c.notNull())
    .addColumn('from_credit_minor', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_reservations_open')
    .on('ledger_reservations')
    .columns(['merchant_id', 'currency', 'status'])
    .execute();

  await db.schema
    .createTable('ledger_pending_lots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('remaining_minor', 'bigint', (c) => c.notNull())
    .addColumn('due_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addCheckConstraint('ledger_pending_lots_positive', sql`remaining_minor > 0`)
    .execute();
  await db.schema.createIndex('ledger_pending_lots_due').on('ledger_pending_lots').column('due_at_ms').execute();
  await db.schema
    .createIndex('ledger_pending_lots_merchant')
    .on('ledger_pending_lots')
    .columns(['merchant_id', 'currency', 'ref'])
    .execute();
}

/** Step of 0002_ledger, the first (the fee and limit overrides follow). */
export async function createLedgerTables(db: Kysely<any>): Promise<void> {
  await createAccounts(db);
  await createJournal(db);
  await createReservationsAndLots(db);
}

/**
 * Step of 0023_reservations_by_ref: the reservations keep only their primary key. Every query of a
 * reservation on a payout's path names its ref (the payout's transactionRef): the read, the close from
 * `held` and PostgreSQL's batched postings. `ledger_reservations_open` (merchant, currency, status) served
 * none of them, only the operator's ledger check (its sum of the held reservations now reads the table:
 * about 0.1 s at a million, beside the check's full reads of entries and postings); yet each payout wrote
 * an entry in it when reserving, and another when closing, since the close changes the indexed status.
 * With no index over status or updated_at_ms, PostgreSQL may make the close a HOT update (no index entry
 * at all) where the row's page has room. docs/benchmarks.md, session 36.
 */
export async function dropReservationsStatusIndex(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ledger_reservations_open').execute();
}

/**
 * Step of 0024_pending_lots_by_due: a group's lots by due time, so that a settlement reads the lots that
 * are due and stops where the rest begin. With only (merchant, currency, ref), every settlement of a
 * group read all of its lots, due or not, and sorted them: with settlement a day after payment, a
 * merchant's whole day of payments at every run (9.3 ms a group over 10,000 lots on SQLite, on the event
 * loop; docs/benchmarks.md, session 36).
 */
export async function indexPendingLotsByDue(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('ledger_pending_lots_group_due')
    .on('ledger_pending_lots')
    .columns(['merchant_id', 'currency', 'due_at_ms', 'id'])
    .execute();
}
