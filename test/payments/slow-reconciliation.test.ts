// One slow channel answer holds up one payment's reconciliation, not the reconciliation and expiry
// jobs: while the bank holds a query (the simulator's holdNextRequests switch, released by the test),
// other pending payments are reconciled and other due payments expire; the held one is finished
// once, after its answer comes. The business clock is manual, so which payment is due when is exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from '../../src/core/worker.js';
import { findByRef } from '../../src/domain/payments/repository.js';
import { eventually, paymentRequest, startPaymentHarness, type PaymentHarness } from './harness.js';

const MINUTE_MS = 60_000;
const SECOND_MS = 1_000;

let h: PaymentHarness;
let worker: Worker | null = null;
beforeAll(async () => {
  // The held query outlasts the test unless the test releases it.
  h = await startPaymentHarness({ channelTimeoutMs: 60_000 });
});
afterAll(async () => {
  h.simulator.releaseHeld();
  await worker?.stop();
  await h.payments.closeJobs();
  await h.close();
});

const row = async (ref: string) => (await findByRef(h.db, ref))!;

async function readyPayments(count: number): Promise<string[]> {
  const merchant = await h.createMerchant();
  const refs: string[] = [];
  for (let i = 0; i < count; i += 1) refs.push((await h.payments.initiate(merchant, paymentRequest('IDR', 'QRIS'))).transactionRef);
  while ((await h.payments.requestDueCollections()) > 0);
  for (const ref of refs) expect((await row(ref)).collection_state).toBe('ready');
  return refs;
}

describe('a slow channel answer holds one slot of the reconciliation and expiry jobs', () => {
  it('reconciles and expires other payments while one query is held, and finishes the held one once', async () => {
    const start = h.clock.nowMs();
    const expiring = await readyPayments(2);
    h.clock.set(start + 27 * MINUTE_MS + 30 * SECOND_MS);
    // Their overdue reconciliation now: the next one falls on their expiry at start + 30 min.
    while ((await h.jobs.reconciliation.runDue()) > 0);
    for (const ref of expiring) expect(Number((await row(ref)).reconcile_at_ms)).toBe(start + 30 * MINUTE_MS);
    const held = (await readyPayments(1))[0]!;
    h.clock.set(start + 28 * MINUTE_MS);
    const others = await readyPayments(2);

    // Only the held payment is due: its reconciliation query is the one the bank holds.
    h.clock.set(start + 29 * MINUTE_MS + 30 * SECOND_MS);
    h.simulator.faults.holdNextRequests = 1;
    worker = new Worker([h.jobs.reconciliation, h.jobs.expiry], { error: () => undefined });
    worker.start();
    await eventually(async () => h.simulator.stats.heldRequests === 1, 10_000);
    const requestsWhileHeld = h.simulator.stats.requests;

    // Within the held payment's lease, the others become due for reconciliation and expiry.
    h.clock.set(start + 30 * MINUTE_MS);
    // Reconciled two minutes after they were made: asked again two minutes later.
    for (const ref of others) {
      await eventually(async () => Number((await row(ref)).reconcile_at_ms) === start + 32 * MINUTE_MS, 10_000);
      expect((await row(ref)).status).toBe('Pending');
    }
    for (const ref of expiring) await eventually(async () => (await row(ref)).status === 'Expired', 10_000);
    // Their claims set the times above before the queries left: wait for the four queries themselves
    // (two reconciliations, two last words at expiry).
    await eventually(async () => h.simulator.stats.requests >= requestsWhileHeld + 4, 10_000);
    const leased = await row(held);
    expect(leased.status).toBe('Pending');
    // Its claim at start + 29.5 min, two minutes after it was made, set its next time two minutes on,
    // which is also what keeps every other worker off it while its query is held.
    const nextMs = start + 31 * MINUTE_MS + 30 * SECOND_MS;
    expect(Number(leased.reconcile_at_ms)).toBe(nextMs);

    const requestsBeforeRelease = h.simulator.stats.requests;
    h.simulator.releaseHeld();
    await worker.stop();
    worker = null;
    // Waits for the held payment's answer to be handled: reconciled once, and the answer (still
    // pending) left the time its claim set.
    await h.jobs.reconciliation.close();
    expect(Number((await row(held)).reconcile_at_ms)).toBe(nextMs);
    expect((await row(held)).status).toBe('Pending');
    expect(h.simulator.stats.heldRequests).toBe(1);
    expect(h.simulator.stats.requests).toBe(requestsBeforeRelease);
  }, 60_000);

  it('expires other due payments while the last word on one is held, and expires the held one once', async () => {
    // Payments of the test before are past expiry by now and leave first.
    h.clock.advance(60 * MINUTE_MS);
    while ((await h.jobs.expiry.runDue()) > 0);
    const start = h.clock.nowMs();
    const [held] = await readyPayments(1);
    h.clock.set(start + 30 * SECOND_MS);
    const others = await readyPayments(2);
    h.clock.set(start + 28 * MINUTE_MS);
    // Their overdue reconciliation now: the next one falls on their expiry.
    while ((await h.jobs.reconciliation.runDue()) > 0);

    // Only the held payment is past expiry: its last-word query is the one the bank holds.
    h.clock.set(start + 30 * MINUTE_MS);
    const heldBefore = h.simulator.stats.heldRequests;
    h.simulator.faults.holdNextRequests = 1;
    worker = new Worker([h.jobs.expiry], { error: () => undefined });
    worker.start();
    await eventually(async () => h.simulator.stats.heldRequests === heldBefore + 1, 10_000);

    // Within the held payment's lease, the others expire.
    h.clock.set(start + 30 * MINUTE_MS + 30 * SECOND_MS);
    for (const ref of others) await eventually(async () => (await row(ref)).status === 'Expired', 10_000);
    expect((await row(held!)).status).toBe('Pending');

    const requestsBeforeRelease = h.simulator.stats.requests;
    h.simulator.releaseHeld();
    await eventually(async () => (await row(held!)).status === 'Expired', 10_000);
    await worker.stop();
    worker = null;
    expect((await h.events(held!)).map((event) => event.type)).toEqual(['payment.expired']);
    expect(h.simulator.stats.requests).toBe(requestsBeforeRelease);
  }, 60_000);
});
