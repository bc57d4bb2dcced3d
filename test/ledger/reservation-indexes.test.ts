// Migration 0023_reservations_by_ref: the payout reservations keep their primary key only. Every query of
// a reservation on a payout's path names its ref; the index over (merchant, currency, status) served only
// the operator's ledger check, and each payout wrote it twice. Reservations made before the migration are
// released and completed (one by one, and together as a write group completes them) after it, and the
// check still finds the held ones equal to the merchants' held balances.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { LedgerService } from '../../src/ledger/service.js';
import { MIGRATIONS } from '../../src/migrations.js';
import type { Executor } from '../../src/store/schema.js';
import { migrate } from '../../src/store/migrator.js';
import { indexNamesOf } from '../helpers/plans.js';
import { openStoreBefore } from '../helpers/store.js';
import { fund, insertMerchant, T0_MS } from './helpers.js';

const STORE = process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite';
const M = 'm-reservations';

describe(`migration 0023_reservations_by_ref (${STORE})`, () => {
  it('drops the status index, and reservations made before it are closed and checked after it', async () => {
    const { store, location } = await openStoreBefore('0023_reservations_by_ref');
    try {
      await insertMerchant(store.db, M);
      const clock = new ManualClock(T0_MS);
      const open = () => new LedgerService(store, clock);
      const tx = <T>(work: (trx: Executor) => Promise<T>): Promise<T> => store.db.transaction().execute(work);
      let ledger = open();
      await fund(ledger, M, 'INR', 1_000_00n);
      for (const [ref, amount] of [['po-1', 100_00n], ['po-2', 200_00n], ['po-3', 300_00n]] as const) {
        await tx((trx) => ledger.reserveForPayout(trx, { merchantId: M, currency: 'INR', amountMinor: amount, feeMinor: 5_00n, ref }));
      }
      await tx((trx) => ledger.completeReservation(trx, 'po-1'));
      expect(await ledger.balances(M, 'INR')).toMatchObject({ available: 385_00n, held: 510_00n });
      expect(await indexNamesOf(store, 'ledger_reservations')).toContain('ledger_reservations_open');

      await migrate(store.db, MIGRATIONS, location.databaseSchema);
      expect((await indexNamesOf(store, 'ledger_reservations')).filter((name) => !name.endsWith('_pkey') && !name.startsWith('sqlite_autoindex'))).toEqual([]);

      ledger = open();
      expect(await ledger.verify()).toEqual([]);
      await tx((trx) => ledger.releaseReservation(trx, 'po-2'));
      // Completions together, as a write group's: on PostgreSQL one statement for them all.
      await tx((trx) => ledger.completeReservations(trx, [{ ref: 'po-3', merchantId: M, currency: 'INR', amountMinor: 300_00n, feeMinor: 5_00n }]));
      expect(await ledger.balances(M, 'INR')).toMatchObject({ available: 590_00n, held: 0n });
      expect(await ledger.verify()).toEqual([]);
      // A closed reservation stays closed: a second close of the same ref is refused, by the row's status.
      await expect(tx((trx) => ledger.releaseReservation(trx, 'po-3'))).rejects.toMatchObject({ reason: 'CONFLICT' });

    } finally {
      await store.close();
      await location.drop();
    }
  });
});
