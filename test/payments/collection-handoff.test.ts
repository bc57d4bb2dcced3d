// A payment taken while the collection job runs in the same process has its collection asked for
// straight from its intake: the row is written with the job's lease and its first attempt counted, as
// the job's claim would write them, and the channel is asked once the row is committed, with no claim
// (and no wait for the job's next run) in between. Driven by hand (no background worker): the job
// counts as running here after one run of its own, so the first test must run before the second.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { dropNextSlot, watchNextReservation } from '../helpers/pooled-job.js';
import { collectionReady, initiateBody, jobsOf, pause } from './api-helpers.js';
import { CLAIM_LEASE_MS, collectionRetryDelayMs } from '../../src/domain/payments/payment-limits.js';
import { PaymentIntakeBatch } from '../../src/domain/payments/intake-batch.js';
import { UpstreamUnavailableError, type Channel } from '../../src/connectors/channel.js';

let server: TestServer;
let shop: TestMerchant;
let channel: Channel;
/** transactionRef → how many times the channel was asked for its collection. */
const asks = new Map<string, number>();

beforeAll(async () => {
  server = await startTestServer({}, { worker: false });
  shop = await server.createMerchant();
  channel = server.services.channels.byName('simulator');
  const real = channel.createCollection.bind(channel);
  vi.spyOn(channel, 'createCollection').mockImplementation((request) => {
    asks.set(request.transactionRef, (asks.get(request.transactionRef) ?? 0) + 1);
    return real(request);
  });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server.close();
});

const job = () => jobsOf(server).collections;

async function rowOf(ref: string) {
  return server.services.store.db.selectFrom('payments').selectAll().where('transaction_ref', '=', ref).executeTakeFirstOrThrow();
}

async function initiate(overrides: Parameters<typeof initiateBody>[2] = {}): Promise<string> {
  const answer = await shop.client.paymentInitiate(initiateBody('INR', 'NATIVE', overrides));
  expect(answer.code).toBe('200');
  return answer.data.transactionRef;
}

/** Waits (without running the job) until the payment's collection is ready. */
async function readyWithoutClaims(ref: string): Promise<void> {
  for (let i = 0; i < 300 && (await rowOf(ref)).collection_state !== 'ready'; i += 1) await pause(20);
  expect((await rowOf(ref)).collection_state).toBe('ready');
}

describe('collections handed to the collection job by the payment intake', () => {
  it('leaves the collection to the claims while the job does not run in this process', async () => {
    const ref = await initiate();
    const row = await rowOf(ref);
    expect(row.collection_state).toBe('requested');
    expect(row.collection_attempts).toBe(0n);
    expect(row.collection_lease_until_ms).toBeNull();
    await pause(100);
    expect(asks.get(ref)).toBeUndefined();
    await collectionReady(server, ref);
    expect(asks.get(ref)).toBe(1);
    expect((await rowOf(ref)).collection_attempts).toBe(1n);
  });

  it('asks the channel once the intake committed, with no claim after it', async () => {
    // The job has run here once (nothing was due), so this process asks for what it takes in.
    expect(await job().runOnce()).toBe(0);
    const answer = await shop.client.paymentInitiate(initiateBody('INR', 'NATIVE'));
    const ref = answer.data.transactionRef;
    await readyWithoutClaims(ref);
    expect(asks.get(ref)).toBe(1);
    const row = await rowOf(ref);
    // One attempt, the intake's: a claim would have counted a second.
    expect(row.collection_attempts).toBe(1n);
    expect(row.collection_json).not.toBeNull();
    expect(row.upstream_ref).not.toBeNull();
    // The checkout page shows the payer where to pay.
    const page = await fetch(`${server.baseUrl}${new URL(answer.data.checkoutUrl).pathname}`);
    expect(page.status).toBe(200);
    const instructions = JSON.parse(row.collection_json!) as { kind: string; intentUrl: string };
    expect(instructions.kind).toBe('UPI');
    expect(await page.text()).toContain('aria-label="UPI QR code for this payment"');
  });

  it('gives the slot back when nothing new was written: repeats, conflicts and failed inserts leave every slot free', async () => {
    const body = initiateBody('INR', 'NATIVE');
    const first = (await shop.client.paymentInitiate(body)).data.transactionRef;
    await readyWithoutClaims(first);
    // More repeats and conflicting reuses of the merchantRef than the job has slots: a slot kept by any would be lost.
    for (let i = 0; i < 20; i += 1) {
      const repeat = await shop.client.paymentInitiate(body);
      expect(repeat.data.transactionRef).toBe(first);
      const conflict = await shop.client.paymentInitiate({ ...body, amount: body.amount + 1 });
      expect(conflict.message).toBe('DUPLICATE_MERCHANT_REF');
    }
    expect(asks.get(first)).toBe(1);
    // Inserts that fail (the store refusing the statement): each request answers 500, and gives its slot back.
    const failing = vi.spyOn(PaymentIntakeBatch.prototype, 'insertIfNew').mockRejectedValue(new Error('disk I/O error'));
    try {
      for (let i = 0; i < 20; i += 1) expect((await shop.client.paymentInitiate(initiateBody('INR', 'NATIVE'))).code).toBe('500');
    } finally {
      failing.mockRestore();
    }
    const refs = await Promise.all(Array.from({ length: 16 }, () => initiate()));
    for (const ref of refs) await readyWithoutClaims(ref);
    for (const ref of refs) expect(asks.get(ref)).toBe(1);
    for (const ref of refs) expect((await rowOf(ref)).collection_attempts).toBe(1n);
  });

  it('an intake that used half its lease leaves the collection to the claims', async () => {
    const reservation = watchNextReservation(job());
    let ref: string;
    try {
      const answer = shop.client.paymentInitiate(initiateBody('INR', 'NATIVE'));
      // The lease is set as the slot is reserved, before the row is written: half of it passes first.
      await reservation.reserved;
      server.clock.advance(CLAIM_LEASE_MS / 2 + 1);
      ref = (await answer).data.transactionRef;
    } finally {
      reservation.restore();
    }
    const row = await rowOf(ref);
    expect(row.collection_attempts).toBe(1n);
    expect(row.collection_lease_until_ms).not.toBeNull();
    await pause(100);
    expect(asks.get(ref)).toBeUndefined();
    // While the lease holds, no claim takes it; once it ran out, the claim asks.
    expect(await server.services.payments.requestDueCollections()).toBe(0);
    server.clock.advance(CLAIM_LEASE_MS);
    expect(await server.services.payments.requestDueCollections()).toBe(1);
    expect(asks.get(ref)).toBe(1);
    expect((await rowOf(ref)).collection_state).toBe('ready');
    expect((await rowOf(ref)).collection_attempts).toBe(2n);
  });

  it('a crash between the commit and the ask: the lease runs out and the job asks once', async () => {
    // The process "dies" after the intake committed the leased row, before the slot started it.
    const reserve = dropNextSlot(job());
    let ref: string;
    try {
      ref = await initiate();
      expect(reserve).toHaveBeenCalledTimes(1);
    } finally {
      reserve.mockRestore();
    }
    const row = await rowOf(ref);
    expect(row.collection_state).toBe('requested');
    expect(row.collection_attempts).toBe(1n);
    expect(row.collection_lease_until_ms! - row.created_at_ms).toBe(BigInt(CLAIM_LEASE_MS));
    expect(await server.services.payments.requestDueCollections()).toBe(0);
    expect(asks.get(ref)).toBeUndefined();
    server.clock.advance(CLAIM_LEASE_MS + 1);
    expect(await server.services.payments.requestDueCollections()).toBe(1);
    expect(asks.get(ref)).toBe(1);
    expect((await rowOf(ref)).collection_state).toBe('ready');
    expect((await rowOf(ref)).collection_attempts).toBe(2n);
  });

  it('a channel that does not answer: the handed-over collection is retried by the claims after its backoff', async () => {
    const ask = vi.mocked(channel.createCollection);
    const real = ask.getMockImplementation()!;
    ask.mockImplementationOnce(async (request) => {
      asks.set(request.transactionRef, (asks.get(request.transactionRef) ?? 0) + 1);
      throw new UpstreamUnavailableError('the channel timed out');
    });
    const ref = await initiate();
    for (let i = 0; i < 300 && (await rowOf(ref)).collection_lease_until_ms !== null; i += 1) await pause(20);
    const row = await rowOf(ref);
    expect(asks.get(ref)).toBe(1);
    expect(row.collection_state).toBe('requested');
    // The lease given back, due again after the first attempt's backoff (the intake's attempt counted once, not twice).
    expect(row.collection_lease_until_ms).toBeNull();
    const wait = Number(row.collection_next_at_ms - row.created_at_ms);
    expect(wait).toBeGreaterThanOrEqual(collectionRetryDelayMs(1));
    expect(wait).toBeLessThan(collectionRetryDelayMs(2));
    ask.mockImplementation(real);
    server.clock.advance(Number(row.collection_next_at_ms - row.created_at_ms) + 1);
    expect(await server.services.payments.requestDueCollections()).toBe(1);
    expect(asks.get(ref)).toBe(2);
    expect((await rowOf(ref)).collection_state).toBe('ready');
  });
});
