// PostgreSQL: a debit decided on a balance that another transaction raised after the
// reservation's statement took its snapshot. The one-statement reservation (ledger/pg-posting.ts)
// locks the balances and decides on their newest values; its balance updates must then apply to
// those values too, not be skipped because the snapshot's older row looked short. Reproduced
// deterministically: the raising transaction holds the row lock until the reservation is seen
// waiting for it, then commits.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/store/transactions.js';
import { usingPostgres } from '../helpers/store.js';
import { fund, openLedger, type LedgerFixture } from './helpers.js';

const M = 'mch_snapshot';

interface Race {
  readonly name: string;
  /** Takes 80.00 from available: short on the 40.00 its snapshot shows, enough on the 100.00 committed next. */
  take(f: LedgerFixture): Promise<unknown>;
  readonly after: Partial<Record<'available' | 'held', bigint>>;
}

const RACES: readonly Race[] = [
  {
    name: 'a payout reservation (one statement: lock, split, claim, post)',
    take: (f) => withTransaction(f.db, (trx) => f.ledger.reserveForPayout(trx, { merchantId: M, currency: 'INR', amountMinor: 80_00n, feeMinor: 0n, ref: 'po-b' })),
    after: { available: 20_00n, held: 80_00n },
  },
  {
    name: 'a journal entry with a guarded debit (an operator adjustment)',
    take: (f) => f.ledger.adjust({ merchantId: M, currency: 'INR', account: 'available', amountMinor: -80_00n, reason: 'race test', actor: 'test' }),
    after: { available: 20_00n, held: 0n },
  },
];

describe.runIf(usingPostgres())('a debit waiting on a balance another transaction raises', () => {
  it.each(RACES)('$name is decided and applied on the raised balance', async (race) => {
    const f = await openLedger([M]);
    try {
      await fund(f.ledger, M, 'INR', 100_00n);
      await withTransaction(f.db, (trx) => f.ledger.reserveForPayout(trx, { merchantId: M, currency: 'INR', amountMinor: 60_00n, feeMinor: 0n, ref: 'po-a' }));
      expect(await f.ledger.balances(M, 'INR')).toMatchObject({ available: 40_00n, held: 60_00n });

      let commitRaise!: () => void;
      const raiseMayCommit = new Promise<void>((resolve) => (commitRaise = resolve));
      let raiseXid!: (xid: string) => void;
      const xid = new Promise<string>((resolve) => (raiseXid = resolve));
      // Releasing po-a gives available its 60.00 back, uncommitted, with available's row locked.
      const raising = f.db.transaction().execute(async (trx) => {
        await f.ledger.releaseReservation(trx, 'po-a');
        const { rows } = await sql<{ xid: string }>`SELECT txid_current()::text AS xid`.execute(trx);
        raiseXid(rows[0]!.xid);
        await raiseMayCommit;
      });
      const raisedBy = await xid;

      const taking = race.take(f);
      await waitUntilSomeoneWaitsFor(f.db, raisedBy);
      commitRaise();
      await raising;
      await taking;

      expect(await f.ledger.balances(M, 'INR')).toMatchObject(race.after);
      expect(await f.ledger.verify()).toEqual([]);
    } finally {
      await f.close();
    }
  });
});

/** Until a backend waits on the lock of transaction `xid` (the reservation, blocked on the raised row). */
async function waitUntilSomeoneWaitsFor(db: Parameters<typeof withTransaction>[0], xid: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const { rows } = await sql<{ n: string }>`
      SELECT count(*)::text AS n FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted AND transactionid::text = ${xid}`.execute(db);
    if (Number(rows[0]!.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`nothing waited for transaction ${xid}`);
}
