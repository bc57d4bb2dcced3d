// The settlement's two reads of the pending lots (migration 0024_pending_lots_by_due): the groups with
// money due, and a group's due lots, soonest due first. Both read only the lots that are due, however
// many are still waiting. SQLite is checked as it ships, without statistics: asked for the distinct
// groups of all due lots, it read every lot through the merchants' index, and a group's due lots took
// all of the group's lots, sorted.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DUE_LOTS_SCANNED, dueLots, dueLotsQuery, groupsWithDueLots, groupsWithDueLotsQuery } from '../../src/ledger/lots.js';
import type { LedgerPendingLotsTable } from '../../src/ledger/ledger-rows.js';
import type { Store } from '../../src/store/db.js';
import type { TestDatabase } from '../helpers/store.js';
import { planOf } from '../helpers/plans.js';
import { insertMerchant, openFreshStore, openLedger, T0_MS } from './helpers.js';

const NOW = T0_MS + 86_400_000;
let store: Store;
let location: TestDatabase;

const lot = (id: string, merchantId: string, dueAtMs: number, currency = 'INR'): LedgerPendingLotsTable => ({
  id,
  merchant_id: merchantId,
  currency,
  ref: `pay-${id}`,
  remaining_minor: 100n,
  due_at_ms: BigInt(dueAtMs),
  created_at_ms: BigInt(T0_MS),
});

beforeAll(async () => {
  ({ store, location } = await openFreshStore());
  for (const id of ['m-a', 'm-b', 'm-c']) await insertMerchant(store.db, id);
  // A day of waiting lots for m-a (none due), then the few that are due, in an order their ids do not follow.
  const waiting = Array.from({ length: 3_000 }, (_, i) => lot(`w-${String(i).padStart(5, '0')}`, 'm-a', NOW + 1_000 + i * 20_000));
  for (let i = 0; i < waiting.length; i += 500) await store.db.insertInto('ledger_pending_lots').values(waiting.slice(i, i + 500)).execute();
  await store.db
    .insertInto('ledger_pending_lots')
    .values([
      lot('d-1', 'm-a', NOW - 1_000),
      lot('d-2', 'm-a', NOW - 50_000),
      lot('d-3', 'm-b', NOW),
      lot('d-4', 'm-b', NOW - 10_000, 'IDR'),
      lot('d-5', 'm-c', NOW + 1), // due a millisecond later
    ])
    .execute();
});
afterAll(async () => {
  await store.close();
  await location.drop();
});

describe('the settlement reads only the lots that are due', () => {
  it('finds every group with money due, and each group\'s due lots soonest first', async () => {
    const groups = (await groupsWithDueLots(store.db, NOW, 500)).map((g) => `${g.merchantId}/${g.currency}`).sort();
    expect(groups).toEqual(['m-a/INR', 'm-b/IDR', 'm-b/INR']);
    expect(await dueLots(store.db, 'm-a', 'INR', NOW, 1_000)).toEqual({ ids: ['d-2', 'd-1'], totalMinor: 200n, lastId: 'd-1' });
    expect((await dueLots(store.db, 'm-a', 'INR', NOW, 1))?.ids).toEqual(['d-2']);
    expect(await dueLots(store.db, 'm-c', 'INR', NOW, 1_000)).toBeNull();
    expect((await dueLots(store.db, 'm-c', 'INR', NOW + 1, 1_000))?.ids).toEqual(['d-5']);
  });

  it('reads a range of the due-time indexes, planned without statistics on SQLite', async () => {
    if (store.kind === 'sqlite') {
      // As shipped: the service never runs ANALYZE.
      expect(Number((await sql<{ n: number | bigint }>`SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_stat1'`.execute(store.db)).rows[0]!.n)).toBe(0);
    }
    const groupsPlan = await planOf(store, groupsWithDueLotsQuery(store.db, NOW, 500).compile());
    expect(groupsPlan).toContain('ledger_pending_lots_due');
    expect(groupsPlan).not.toContain('ledger_pending_lots_merchant');
    const lotsPlan = await planOf(store, dueLotsQuery(store.db, 'm-a', 'INR', NOW, 1_000).compile());
    if (store.kind === 'sqlite') expect(lotsPlan).toMatch(/SEARCH ledger_pending_lots USING INDEX ledger_pending_lots_group_due \(merchant_id=\? AND currency=\? AND due_at_ms<\?\)/);
    expect(lotsPlan).not.toMatch(/TEMP B-TREE|Sort/);
  });

  it('finds a group whose lots come after more than DUE_LOTS_SCANNED due ones once those are settled', async () => {
    const backlog = Array.from({ length: DUE_LOTS_SCANNED }, (_, i) => lot(`b-${String(i).padStart(6, '0')}`, 'm-c', NOW - 3_600_000 + i));
    for (let i = 0; i < backlog.length; i += 500) await store.db.insertInto('ledger_pending_lots').values(backlog.slice(i, i + 500)).execute();
    await store.db.insertInto('ledger_pending_lots').values(lot('late-1', 'm-b', NOW - 60_000, 'EGP')).execute();
    const found = async () => (await groupsWithDueLots(store.db, NOW, 500)).map((g) => `${g.merchantId}/${g.currency}`).sort();
    // The scan is bounded: the backlog of m-c fills it.
    expect(await found()).toEqual(['m-c/INR']);
    // As a settlement run deletes what it settled, the groups behind the backlog come up.
    await store.db.deleteFrom('ledger_pending_lots').where('id', 'like', 'b-%').execute();
    expect(await found()).toEqual(['m-a/INR', 'm-b/EGP', 'm-b/IDR', 'm-b/INR']);
  });
});

describe('settlement runs over more due lots than a run looks among', () => {
  it('say there is more until every group is settled, and settle each lot once', async () => {
    // 26 merchants with 400 due lots each, merchant k's due after merchant k-1's: the first 25 fill the
    // lots a run looks among, so the first run settles them (400 each, under a group's batch) and the
    // 26th merchant's money waits for the next run, which the first must ask for.
    const merchants = Array.from({ length: 26 }, (_, k) => `m-${String(k).padStart(2, '0')}`);
    expect(25 * 400).toBe(DUE_LOTS_SCANNED);
    const f = await openLedger(merchants, { settlementDelayMs: { INR: 60_000 } });
    try {
      for (const [k, merchantId] of merchants.entries()) {
        await f.db.transaction().execute((trx) => f.ledger.creditPayment(trx, { merchantId, currency: 'INR', paidMinor: 400n * 100n, feeMinor: 0n, channel: 'sim', ref: `pay-${k}` }));
        // The payment's one lot as 400 lots of 100 (they still sum to the pending balance), due in the merchant's own block.
        const one = await f.db.selectFrom('ledger_pending_lots').selectAll().where('merchant_id', '=', merchantId).executeTakeFirstOrThrow();
        await f.db.deleteFrom('ledger_pending_lots').where('id', '=', one.id).execute();
        const lots = Array.from({ length: 400 }, (_, i) => ({ ...one, id: `${one.id}-${String(i).padStart(3, '0')}`, remaining_minor: 100n, due_at_ms: one.due_at_ms + BigInt(k * 1_000 + i) }));
        for (let i = 0; i < lots.length; i += 200) await f.db.insertInto('ledger_pending_lots').values(lots.slice(i, i + 200)).execute();
      }
      f.clock.advance(120_000);

      const first = await f.ledger.settlePending();
      expect({ groups: first.groups.length, lots: first.groups.reduce((n, g) => n + g.lotCount, 0), more: first.more }).toEqual({ groups: 25, lots: 10_000, more: true });
      const second = await f.ledger.settlePending();
      expect({ groups: second.groups.map((g) => g.merchantId), more: second.more }).toEqual({ groups: ['m-25'], more: false });
      expect((await f.ledger.settlePending()).groups).toEqual([]);
      for (const merchantId of merchants) expect(await f.ledger.balances(merchantId, 'INR')).toMatchObject({ available: 400n * 100n, pending: 0n });
      expect(await f.ledger.verify()).toEqual([]);
    } finally {
      await f.close();
    }
  });
});
