// A payout taken while the submission job runs in the same process goes upstream straight from its
// intake: the row is written with the job's lease and its first submission counted, as the job's claim
// would write them, and is sent once committed. Driven by hand (no background worker): the job counts
// as running here after one run of its own, and no claim runs after the intake unless the test asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { dropNextSlot, watchNextReservation } from '../helpers/pooled-job.js';
import { fund, payoutBody, payoutRow, stats, until } from './helpers.js';
import { PAYOUT_LEASE_MS } from '../../src/domain/payouts/payout-limits.js';
import { pause } from '../payments/api-helpers.js';

let server: TestServer;
let shop: TestMerchant;
beforeAll(async () => {
  server = await startTestServer({}, { worker: false });
  shop = await server.createMerchant();
  await fund(server, shop.id, 'INR', 1_000_000n);
});
afterAll(async () => {
  expect(await server.services.ledger.verify()).toEqual([]);
  await server.close();
});

const job = () => server.services.payouts.jobs.submissions;
const rowOf = (ref: string) => payoutRow(server, ref);

async function submittedOnce(ref: string): Promise<void> {
  for (let i = 0; i < 300 && stats(server).submissionsFor(ref) === 0; i += 1) await pause(20);
  expect(stats(server).submissionsFor(ref)).toBe(1);
}

describe('payouts handed to the submission job by their intake', () => {
  it('leaves the payout to the claims while the job does not run in this process', async () => {
    const ref = (await shop.client.payoutInitiate(payoutBody('INR', 'UPI'))).data.transactionRef;
    const row = await rowOf(ref);
    expect(row.status).toBe('Initiated');
    expect(row.submit_attempts).toBe(0n);
    expect(row.locked_until_ms).toBeNull();
    expect(stats(server).submissionsFor(ref)).toBe(0);
    expect(await server.services.payouts.processDue()).toBe(1);
    expect(stats(server).submissionsFor(ref)).toBe(1);
    await until(shop, ref, ['Success']);
  });

  it('sends a payout once its intake committed, with no claim after it', async () => {
    // The job has run here once (nothing was due), so this process submits what it takes in.
    expect(await job().runOnce()).toBe(0);
    const ref = (await shop.client.payoutInitiate(payoutBody('INR', 'UPI'))).data.transactionRef;
    await submittedOnce(ref);
    const done = await until(shop, ref, ['Success']);
    expect(done.status).toBe('Success');
    expect(stats(server).transfersFor(ref)).toBe(1);
    expect((await rowOf(ref)).submit_attempts).toBe(1n);
  });

  it('gives the slot back when nothing new was written: refusals and repeats leave every slot free', async () => {
    const body = payoutBody('INR', 'UPI');
    const first = (await shop.client.payoutInitiate(body)).data.transactionRef;
    await submittedOnce(first);
    // More refusals and repeats than the job has slots: a slot kept by any of them would be lost.
    for (let i = 0; i < 20; i += 1) {
      const repeat = await shop.client.payoutInitiate(body);
      expect(repeat.data.transactionRef).toBe(first);
      const short = await shop.client.payoutInitiate(payoutBody('INR', 'UPI', { amount: 20_000 }));
      expect(short.code).toBe('422');
    }
    await until(shop, first, ['Success']);
    expect(stats(server).submissionsFor(first)).toBe(1);
    const ref = (await shop.client.payoutInitiate(payoutBody('INR', 'UPI'))).data.transactionRef;
    await submittedOnce(ref);
    await until(shop, ref, ['Success']);
  });

  it('an intake that used half its lease leaves the payout to the claims, which ask the bank first', async () => {
    const reservation = watchNextReservation(job());
    const answer = shop.client.payoutInitiate(payoutBody('INR', 'UPI'));
    // The lease is set as the slot is reserved, before the row is written: half of it passes first.
    await reservation.reserved;
    server.clock.advance(PAYOUT_LEASE_MS / 2 + 1);
    const ref = (await answer).data.transactionRef;
    reservation.restore();
    const row = await rowOf(ref);
    expect(row.submit_attempts).toBe(1n);
    expect(row.locked_until_ms).not.toBeNull();
    server.clock.advance(PAYOUT_LEASE_MS);
    // Had the intake sent it too, the claim's question would find it and not send again.
    expect(await server.services.payouts.processDue()).toBe(1);
    await until(shop, ref, ['Success']);
    expect(stats(server).submissionsFor(ref)).toBe(1);
    expect((await rowOf(ref)).submit_attempts).toBe(2n);
  });

  it('a crash between the commit and the send: the lease runs out, the job asks the bank and submits once', async () => {
    // The process "dies" after the intake committed the leased row, before the slot started it.
    const reserve = dropNextSlot(job());
    const ref = (await shop.client.payoutInitiate(payoutBody('INR', 'UPI'))).data.transactionRef;
    expect(reserve).toHaveBeenCalledTimes(1);
    reserve.mockRestore();
    const row = await rowOf(ref);
    expect(row.status).toBe('Initiated');
    expect(row.submit_attempts).toBe(1n);
    // The job's lease, taken when the request was checked, a moment before the row's time.
    const lease = row.locked_until_ms! - row.created_at_ms;
    expect(lease).toBeLessThanOrEqual(BigInt(PAYOUT_LEASE_MS));
    expect(lease).toBeGreaterThan(BigInt(PAYOUT_LEASE_MS - 5_000));
    // While the lease holds, no claim touches it.
    expect(await server.services.payouts.processDue()).toBe(0);
    expect(stats(server).submissionsFor(ref)).toBe(0);
    server.clock.advance(PAYOUT_LEASE_MS + 1);
    // Its first submission is on record, so the claim asks the bank first; the bank does not know it.
    expect(await server.services.payouts.processDue()).toBe(1);
    expect(stats(server).submissionsFor(ref)).toBe(1);
    await until(shop, ref, ['Success']);
    expect(stats(server).transfersFor(ref)).toBe(1);
    expect((await rowOf(ref)).submit_attempts).toBe(2n);
  });

  it('never hands over a payout that waits for approval', async () => {
    await server.services.payouts.setApprovalSetting(shop.id, { thresholdAmount: { INR: 500 } }, 'test');
    const ref = (await shop.client.payoutInitiate(payoutBody('INR', 'UPI', { amount: 1_000 }))).data.transactionRef;
    const row = await rowOf(ref);
    expect(row.status).toBe('PendingApproval');
    expect(row.submit_attempts).toBe(0n);
    expect(row.locked_until_ms).toBeNull();
    await server.services.payouts.setApprovalSetting(shop.id, { thresholdAmount: null }, 'test');
    // The slot it did not use is free: the next payout is handed over.
    const next = (await shop.client.payoutInitiate(payoutBody('INR', 'UPI'))).data.transactionRef;
    await submittedOnce(next);
    expect(stats(server).submissionsFor(ref)).toBe(0);
  });
});
