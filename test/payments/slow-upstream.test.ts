// One slow channel answer holds up one payment's collection, not the collection job: while the bank
// holds a createCollection request (the simulator's holdNextRequests switch, released by the test),
// payments of this and other merchants created meanwhile get their collections from the running worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { initiateBody, pause } from './api-helpers.js';

let server: TestServer;

beforeAll(async () => {
  // The channel waits a minute, so the held request outlasts the test unless the test releases it.
  server = await startTestServer({ SIMULATOR_TIMEOUT_MS: '20000' });
});
afterAll(async () => {
  server.services.channels.simulator.server!.releaseHeld();
  await server.close();
});

const simulator = () => server.services.channels.simulator.server!;
const collectionState = async (ref: string) =>
  (await server.services.store.db.selectFrom('payments').select('collection_state').where('transaction_ref', '=', ref).executeTakeFirstOrThrow())
    .collection_state;

async function initiate(merchant: TestMerchant): Promise<string> {
  const answer = await merchant.client.paymentInitiate(initiateBody('IDR', 'QRIS'));
  if (!answer.ok) throw new Error(`payment/initiate: ${answer.message}`);
  return answer.data.transactionRef;
}

async function waitUntil(what: string, check: () => Promise<boolean> | boolean, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting: ${what}`);
    await pause(50);
  }
}

describe('a slow channel answer holds one slot of the collection job', () => {
  it('payments created while a collection request is held get their collections meanwhile', async () => {
    const slowShop = await server.createMerchant();
    const otherShop = await server.createMerchant();
    simulator().faults.holdNextRequests = 1;
    const slow = await initiate(slowShop);
    await waitUntil('the bank holds the first collection request', () => simulator().stats.heldRequests === 1);

    const others = [await initiate(otherShop), await initiate(slowShop), await initiate(otherShop)];
    for (const ref of others) await waitUntil(`collection of ${ref}`, async () => (await collectionState(ref)) === 'ready');
    expect(await collectionState(slow)).toBe('requested');

    simulator().releaseHeld();
    await waitUntil('collection of the held payment', async () => (await collectionState(slow)) === 'ready');
  }, 120_000);
});
