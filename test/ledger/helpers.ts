// Shared set-up of the ledger tests: a real store, merchants inserted as plain rows, a ledger on a
// manual clock, and a sum over every account for the conservation check.
import { sql } from 'kysely';
import { ManualClock } from '../../src/core/clock.js';
import type { Currency, Minor } from '../../src/core/money.js';
import { LedgerService, type LedgerOptions } from '../../src/ledger/service.js';
import type { Db } from '../../src/store/schema.js';
import { MIGRATIONS } from '../../src/migrations.js';
import { openStore, type Store } from '../../src/store/db.js';
import { allocateTestDatabase, type TestDatabase } from '../helpers/store.js';

export const T0_MS = Date.UTC(2025, 0, 1);

export async function insertMerchant(db: Db, id: string, nowMs = T0_MS): Promise<void> {
  await db
    .insertInto('merchants')
    .values({
      id,
      name: id,
      status: 'active',
      mode: 'sandbox',
      rate_limit_per_second: 50n,
      payment_webhook_url: null,
      payout_webhook_url: null,
      webhook_secret_enc: 'x',
      created_at_ms: BigInt(nowMs),
      updated_at_ms: BigInt(nowMs),
    })
    .execute();
}

const OPEN_ATTEMPTS = 5;
const OPEN_RETRY_DELAY_MS = 200;
/**
 * Failures caused by other test runs sharing the PostgreSQL server, not by this code: Kysely's
 * Migrator introspects every schema of the database (has_schema_privilege on each name), which fails
 * when another run drops its schema at that moment; and parallel runs can exhaust max_connections.
 */
const SHARED_SERVER_FAILURE = /schema "[^"]+" does not exist|kysely_migration_lock|too many clients/;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens an existing store (same schema or file), retrying the shared-server failures above. */
export async function reopenStore(location: Pick<TestDatabase, 'databaseUrl' | 'databaseSchema' | 'sqliteFile'>): Promise<Store> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openStore(location, MIGRATIONS);
    } catch (error) {
      if (attempt >= OPEN_ATTEMPTS || !SHARED_SERVER_FAILURE.test(String(error))) throw error;
      await pause(OPEN_RETRY_DELAY_MS * attempt);
    }
  }
}

/** Opens a fresh migrated store; drops its schema or file when opening fails, so nothing leaks. */
export async function openFreshStore(): Promise<{ store: Store; location: TestDatabase }> {
  for (let attempt = 1; ; attempt++) {
    const location = allocateTestDatabase();
    try {
      return { store: await openStore(location, MIGRATIONS), location };
    } catch (error) {
      await location.drop().catch(() => undefined);
      if (attempt >= OPEN_ATTEMPTS || !SHARED_SERVER_FAILURE.test(String(error))) throw error;
      await pause(OPEN_RETRY_DELAY_MS * attempt);
    }
  }
}

export interface LedgerFixture {
  readonly store: Store;
  readonly db: Db;
  readonly clock: ManualClock;
  readonly ledger: LedgerService;
  close(): Promise<void>;
}

export async function openLedger(merchantIds: readonly string[], options: LedgerOptions = {}): Promise<LedgerFixture> {
  const { store, location } = await openFreshStore();
  const clock = new ManualClock(T0_MS);
  for (const id of merchantIds) await insertMerchant(store.db, id);
  const ledger = new LedgerService(store, clock, options);
  const close = async () => {
    await store.close();
    await location.drop();
  };
  return { store, db: store.db, clock, ledger, close };
}

/** Sum of every cached balance of a currency, merchants and platform together: always zero. */
export async function currencyTotal(db: Db, currency: Currency): Promise<Minor> {
  const { rows } = await sql<{ total: bigint | null }>`SELECT SUM(balance_minor) AS total FROM ledger_accounts WHERE currency = ${currency}`.execute(db);
  return BigInt(rows[0]?.total ?? 0n);
}

export async function accountBalance(db: Db, id: string): Promise<Minor> {
  const row = await db.selectFrom('ledger_accounts').select('balance_minor').where('id', '=', id).executeTakeFirst();
  return row?.balance_minor ?? 0n;
}

/** Funds a merchant's available balance through an operator adjustment. */
export async function fund(ledger: LedgerService, merchantId: string, currency: Currency, amountMinor: Minor): Promise<void> {
  await ledger.adjust({ merchantId, currency, account: 'available', amountMinor, reason: 'test funding', actor: 'test' });
}
