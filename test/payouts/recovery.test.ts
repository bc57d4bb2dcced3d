// The at-most-once rule (contract section 5) under crashes, driven step by step: the payout job
// runs by hand (no background worker), and a "crash" is a row left claimed with submit_attempts
// raised whose lease then runs out. The job must ask the upstream before it ever sends again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamUnavailableError } from '../../src/connectors/channel.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { fund, payoutBody, payoutRow, stats } from './helpers.js';
import { PAYOUT_LEASE_MS } from '../../src/domain/payouts/payout-limits.js';
import { payoutSubmission } from '../../src/domain/payouts/submission-job.js';

let server: TestServer;
let shop: TestMerchant;
beforeAll(async () => {
  server = await startTestServer({}, { worker: false });
  shop = await server.createMerchant();
  await fund(server, shop.id, 'INR', 100_000_00n);
});
afterAll(async () => {
  expect(await server.services.ledger.verify()).toEqual([]);
  await server.close();
});

const db = () => server.services.store.db;
const rowOf = (ref: string) => payoutRow(server, ref);

/** Leaves the payout as a worker that crashed right after committing its submission attempt. */
async function crashAfterClaim(ref: string): Promise<void> {
  const nowMs = server.clock.nowMs();
  await db()
    .updateTable('payouts')
    .set({ submit_attempts: 1n, locked_until_ms: BigInt(nowMs + PAYOUT_LEASE_MS) })
    .where('transaction_ref', '=', ref)
    .execute();
}

async function runJobUntil(ref: string, statuses: string[], rounds = 40): Promise<void> {
  for (let i = 0; i < rounds; i += 1) {
    await server.services.payouts.processDue();
    if (statuses.includes((await rowOf(ref)).status)) return;
    server.clock.advance(2_500);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`payout ${ref} is ${(await rowOf(ref)).status}`);
}

describe('payout job recovery', () => {
  it('crash after the request left: the lease runs out, the job asks, finds the transfer and never resends', async () => {
    const created = await shop.client.payoutInitiate(payoutBody('INR', 'BANK'));
    const ref = created.data.transactionRef;
    const row = await rowOf(ref);
    await crashAfterClaim(ref);
    // The crashed worker's request did reach the bank. Its answer is lost with the worker anyway, so a
    // slow answer (a timeout on a loaded machine) is part of the scenario, not a failure of the test.
    await server.services.channels.simulator.channel
      .submitPayout(payoutSubmission(row))
      .catch((error: unknown) => {
        if (!(error instanceof UpstreamUnavailableError)) throw error;
      });
    // While the lease holds, nobody touches it.
    expect(await server.services.payouts.processDue()).toBe(0);
    server.clock.advance(PAYOUT_LEASE_MS + 1);
    await runJobUntil(ref, ['Success']);
    expect(stats(server).submissionsFor(ref)).toBe(1);
    expect(stats(server).transfersFor(ref)).toBe(1);
  });

  it('crash before the request left: the bank does not know it, so it is submitted once', async () => {
    const created = await shop.client.payoutInitiate(payoutBody('INR', 'UPI'));
    const ref = created.data.transactionRef;
    await crashAfterClaim(ref);
    server.clock.advance(PAYOUT_LEASE_MS + 1);
    await runJobUntil(ref, ['Success']);
    expect(stats(server).submissionsFor(ref)).toBe(1);
    expect(stats(server).transfersFor(ref)).toBe(1);
    expect((await rowOf(ref)).submit_attempts).toBe(2n);
  });

  it('two job runs racing over the same due payouts submit each once', async () => {
    const refs: string[] = [];
    for (let i = 0; i < 8; i += 1) refs.push((await shop.client.payoutInitiate(payoutBody('INR', 'UPI', { amount: 150 }))).data.transactionRef);
    const counts = await Promise.all([1, 2, 3].map(() => server.services.payouts.processDue()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(8);
    for (const ref of refs) expect(stats(server).submissionsFor(ref)).toBe(1);
    for (const ref of refs) await runJobUntil(ref, ['Success']);
    for (const ref of refs) expect(stats(server).transfersFor(ref)).toBe(1);
  });
});
