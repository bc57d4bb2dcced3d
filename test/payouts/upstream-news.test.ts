// What an upstream's news costs, and the job's writes around it. News about a payout that is final
// already (a poll found it settled, then the callback says the same) is known news: it writes nothing,
// takes no unit of the write group, and costs the one read that found the row final. The submitting
// job's Processing transition gives its lease back in the same statement, and never a lease another
// worker took over. The first submission is counted by the claim's own statement. A provider that calls
// back is polled only as a backstop. Run without the background worker and without the routing
// settings' reread every 5 s (three statements: on a loaded machine one fell inside the first
// submission's count), so that no job's statement falls inside a count; the payout job is driven by hand.
// The bank's callbacks are lost for the whole file: news is given by hand or found by a poll. A callback
// for a payout of an earlier test (the bank settles by the server's clock, which the poll test moves on)
// was read as known news inside the first submission's count, on a loaded machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markProcessing } from '../../src/domain/payouts/outcomes.js';
import type { PayoutContext } from '../../src/domain/payouts/payout-context.js';
import { pollDelayMs } from '../../src/domain/payouts/payout-limits.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { usingPostgres } from '../helpers/store.js';
import { entriesOf, eventsOf } from '../payments/api-helpers.js';
import { fund, payoutBody, payoutRow } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ ROUTING_REFRESH_MS: '0' }, { worker: false });
  loseCallbacks();
});
afterAll(async () => {
  expect(await server.services.ledger.verify()).toEqual([]);
  await server.close();
});

const rowOf = (ref: string) => payoutRow(server, ref);

/** The bank's faults back to none, except that its callbacks stay lost. */
function loseCallbacks(): void {
  const simulator = server.services.channels.simulator.server!;
  simulator.resetFaults();
  simulator.faults.dropCallbacks = true;
}

/** A new merchant with INR 10,000 available. */
async function fundedShop(): Promise<TestMerchant> {
  const shop = await server.createMerchant();
  await fund(server, shop.id, 'INR', 10_000_00n);
  return shop;
}

describe('payout news once the payout is final', () => {
  it('is answered with the final row after one read, and writes nothing', async () => {
    const shop = await fundedShop();
    const created = await shop.client.payoutInitiate(payoutBody('INR', 'BANK'));
    expect(created.status).toBe(200);
    const ref = created.data.transactionRef;
    expect(await server.services.payouts.processDue()).toBe(1);
    const payouts = server.services.payouts;

    const closed = await payouts.applyPayoutState(ref, { status: 'SUCCESS' }, 'simulator');
    expect(closed?.status).toBe('Success');
    const entries = await entriesOf(server, shop.id, 'payout_complete');
    const events = (await eventsOf(server, ref)).length;

    for (const news of [{ status: 'SUCCESS' as const }, { status: 'FAILED' as const, failureReason: 'INVALID_ACCOUNT' }]) {
      const before = server.services.store.statements();
      const again = await payouts.applyPayoutState(ref, news, 'simulator');
      // One read (the old path ran five statements). A timer of the server's own (the shared rate
      // limit's lease on PostgreSQL) may add one statement inside the count, never more.
      expect(server.services.store.statements() - before).toBeLessThanOrEqual(2);
      expect(again).toEqual(closed);
    }
    expect(await entriesOf(server, shop.id, 'payout_complete')).toBe(entries);
    expect((await eventsOf(server, ref)).length).toBe(events);
    expect((await shop.client.payoutStatus({ transactionRef: ref })).data.status).toBe('Success');
  });

  it('news about several payouts arriving together is read in one statement on PostgreSQL', async () => {
    const shop = await fundedShop();
    const refs: string[] = [];
    for (let i = 0; i < 5; i += 1) refs.push((await shop.client.payoutInitiate(payoutBody('INR', 'BANK'))).data.transactionRef);
    expect(await server.services.payouts.processDue()).toBe(5);
    const payouts = server.services.payouts;
    for (const ref of refs) expect((await payouts.applyPayoutState(ref, { status: 'SUCCESS' }, 'simulator'))?.status).toBe('Success');

    const before = server.services.store.statements();
    const again = await Promise.all(refs.map((ref) => payouts.applyPayoutState(ref, { status: 'SUCCESS' }, 'simulator')));
    // PostgreSQL: one read for the five (one each before); a timer of the server's own may add one
    // inside the count. SQLite: each read at once, by itself (store/hot-query.ts BatchedLookup).
    const statements = server.services.store.statements() - before;
    if (usingPostgres()) expect(statements).toBeLessThanOrEqual(2);
    else expect(statements).toBeGreaterThanOrEqual(refs.length);
    expect(again.map((row) => [row?.transaction_ref, row?.status])).toEqual(refs.map((ref) => [ref, 'Success']));
  });
});

describe('Processing after the submission', () => {
  const lock = (ref: string, lease: bigint) => server.services.store.db.updateTable('payouts').set({ locked_until_ms: lease }).where('transaction_ref', '=', ref).execute();

  const nowMs = 1_800_000_000_000;
  // markProcessing reads only the store, the clock and the channel (whether it calls back) of its context.
  const fixedCtx = () => ({ db: server.services.store.db, clock: { nowMs: () => nowMs }, channels: server.services.channels }) as unknown as PayoutContext;
  /** The submitting job's lease, and one another worker took over. */
  const ours = 1_900_000_000_000n;
  const theirs = 1_900_000_000_001n;
  /** Three new Initiated payouts of a new merchant, by these merchantRefs. */
  const threePayouts = async (prefix: string): Promise<[string, string, string]> => {
    const shop = await fundedShop();
    const refs: string[] = [];
    for (const n of [1, 2, 3]) refs.push((await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { merchantRef: `${prefix}-${n}` }))).data.transactionRef);
    return refs as [string, string, string];
  };

  it("gives back the submitting job's lease with the transition, and never a lease another worker took over", async () => {
    const ctx = fixedCtx();
    const [mine, takenOver, byCallback] = await threePayouts('up-news');
    await lock(mine, ours);
    await lock(takenOver, theirs);
    await lock(byCallback, theirs);

    expect(await markProcessing(ctx, await rowOf(mine), { status: 'PROCESSING', upstreamRef: 'bank-1' }, ours)).toBe(true);
    expect(await markProcessing(ctx, await rowOf(takenOver), { status: 'PROCESSING', upstreamRef: 'bank-2' }, ours)).toBe(true);

    const a = await rowOf(mine);
    expect({ status: a.status, upstream: a.upstream_ref, lock: a.locked_until_ms, next: a.next_action_at_ms, queries: a.query_attempts }).toEqual({
      status: 'Processing',
      upstream: 'bank-1',
      lock: null,
      next: BigInt(nowMs + pollDelayMs(0, true)), // the simulator calls back: the poll is a backstop
      queries: 0n,
    });
    const b = await rowOf(takenOver);
    expect({ status: b.status, lock: b.locked_until_ms }).toEqual({ status: 'Processing', lock: theirs });
    // A callback's news (no lease of its own) moves the row and leaves the worker's lease alone.
    expect(await markProcessing(ctx, await rowOf(byCallback), { status: 'PROCESSING', upstreamRef: 'bank-3' })).toBe(true);
    const c = await rowOf(byCallback);
    expect({ status: c.status, lock: c.locked_until_ms }).toEqual({ status: 'Processing', lock: theirs });
    // A second transition finds the row moved on already: nothing changes.
    expect(await markProcessing(ctx, a, { status: 'PROCESSING' }, ours)).toBe(false);
  });

  it('moves the payouts of transitions started together as one at a time would (on PostgreSQL in one statement)', async () => {
    const ctx = fixedCtx();
    const refs = await threePayouts('together');
    const [mine, takenOver, already] = refs;
    await lock(mine, ours);
    await lock(takenOver, theirs);
    expect(await markProcessing(ctx, await rowOf(already), { status: 'PROCESSING', upstreamRef: 'bank-early' })).toBe(true);
    const rows = await Promise.all(refs.map(rowOf));

    // All in one turn of the event loop, so they share a group: the first payout twice, the third already moved.
    const moved = await Promise.all([
      markProcessing(ctx, rows[0]!, { status: 'PROCESSING', upstreamRef: 'bank-a' }, ours),
      markProcessing(ctx, rows[1]!, { status: 'PROCESSING', upstreamRef: 'bank-b', utr: 'UTR-B' }, ours),
      markProcessing(ctx, rows[0]!, { status: 'PROCESSING', upstreamRef: 'bank-a-again' }, ours),
      markProcessing(ctx, rows[2]!, { status: 'PROCESSING', upstreamRef: 'bank-late' }),
    ]);
    expect(moved).toEqual([true, true, false, false]);
    const after = await Promise.all(refs.map(rowOf));
    expect(after.map((row) => [row.status, row.upstream_ref, row.utr, row.locked_until_ms, row.next_action_at_ms])).toEqual([
      ['Processing', 'bank-a', null, null, BigInt(nowMs + pollDelayMs(0, true))],
      ['Processing', 'bank-b', 'UTR-B', theirs, BigInt(nowMs + pollDelayMs(0, true))],
      ['Processing', 'bank-early', null, null, BigInt(nowMs + pollDelayMs(0, true))],
    ]);
  });
});

describe('polls of a Processing payout', () => {
  it('are only a backstop where the upstream calls back: none before 30 s, then the poll settles it', async () => {
    const shop = await fundedShop();
    const simulator = server.services.channels.simulator.server!;
    // The bank settles the transfer after 3 s but its callback is lost (as in the whole file): only a poll can tell.
    expect(simulator.faults.dropCallbacks).toBe(true);
    try {
      const ref = (await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { merchantRef: 'backstop-1' }))).data.transactionRef;
      expect(await server.services.payouts.processDue()).toBe(1);
      const processing = await rowOf(ref);
      expect(processing.status).toBe('Processing');
      expect(processing.next_action_at_ms! - processing.updated_at_ms).toBe(BigInt(pollDelayMs(0, true)));

      // Settled at the bank; a poll 2 s after Processing (a channel without callbacks) would be due now.
      server.clock.advance(5_000);
      expect(await server.services.payouts.processDue()).toBe(0);
      expect((await rowOf(ref)).status).toBe('Processing');

      server.clock.advance(pollDelayMs(0, true));
      expect(await server.services.payouts.processDue()).toBe(1);
      expect((await shop.client.payoutStatus({ transactionRef: ref })).data.status).toBe('Success');
    } finally {
      loseCallbacks();
    }
  });
});

describe('the first submission', () => {

  it('is counted by the claim itself, committed with the lease before the request leaves', async () => {
    const shop = await fundedShop();
    const simulator = server.services.channels.simulator.server!;
    const ref = (await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { merchantRef: 'first-attempt-1' }))).data.transactionRef;
    // The bank holds the submission unanswered: the job's writes before it left can be read now.
    simulator.faults.holdNextRequests = 1;
    try {
      const held = simulator.stats.heldRequests;
      const before = server.services.store.statements();
      const processing = server.services.payouts.processDue();
      for (let i = 0; simulator.stats.heldRequests === held; i += 1) {
        if (i > 600) throw new Error('the payout was never submitted');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const statements = server.services.store.statements() - before;
      const sent = await rowOf(ref);
      expect({ status: sent.status, submitAttempts: sent.submit_attempts, leased: sent.locked_until_ms !== null }).toEqual({ status: 'Initiated', submitAttempts: 1n, leased: true });
      // The claim's read and its one update, with their transaction: 5 on SQLite, 4 on PostgreSQL (the
      // old path's separate unit for the attempt made it 7 on both); a timer of the server's own may add one.
      expect(statements).toBeLessThanOrEqual(5);
      simulator.releaseHeld();
      expect(await processing).toBe(1);
    } finally {
      loseCallbacks();
      simulator.releaseHeld();
    }
    expect((await rowOf(ref)).status).toBe('Processing');
  });
});
