// One slow upstream answer holds up one payout, not the payout job: while the bank holds the answer
// to a submission (account ending 0003, held until the test releases it), payouts of this and other
// merchants that fall due meanwhile are submitted and processed by the running worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { pause } from '../payments/api-helpers.js';
import { pollDelayMs } from '../../src/domain/payouts/payout-limits.js';
import { faults, FINAL, fund, magicAccount, payoutBody, payoutRow, stats, until } from './helpers.js';

let server: TestServer;
let slowShop: TestMerchant;
let otherShop: TestMerchant;

beforeAll(async () => {
  // The channel waits a minute, so the held answer outlasts the test unless the test releases it.
  server = await startTestServer({ SIMULATOR_TIMEOUT_MS: '20000' });
  slowShop = await server.createMerchant();
  otherShop = await server.createMerchant();
  await fund(server, slowShop.id, 'INR', 1_000_000_00n);
  await fund(server, otherShop.id, 'INR', 1_000_000_00n);
});
afterAll(async () => {
  server.services.channels.simulator.server!.releaseHeld();
  await server.close();
});

const rowOf = (ref: string) => payoutRow(server, ref);

async function initiate(merchant: TestMerchant, account?: string): Promise<string> {
  const answer = await merchant.client.payoutInitiate(payoutBody('INR', 'BANK', account === undefined ? {} : { account }));
  if (!answer.ok) throw new Error(`payout/initiate: ${answer.message}`);
  return answer.data.transactionRef;
}

describe('a slow upstream answer holds one slot of the payout job', () => {
  it('payouts due while a submission waits for its answer are submitted and processed meanwhile', async () => {
    // Without callbacks the slow payout can only learn its fate from the answer the bank holds back.
    faults(server).dropCallbacks = true;
    const slow = await initiate(slowShop, magicAccount('INR', 'BANK', '0003'));
    // The bank has the submission and holds its answer: the worker's call is in flight.
    for (let i = 0; stats(server).submissionsFor(slow) === 0; i += 1) {
      if (i > 600) throw new Error('the slow payout was never submitted');
      await pause(50);
    }

    const others = [await initiate(otherShop), await initiate(otherShop), await initiate(slowShop), await initiate(otherShop)];
    for (const ref of others) {
      const owner = others.indexOf(ref) === 2 ? slowShop : otherShop;
      await until(owner, ref, ['Processing', ...FINAL], 30_000);
      expect(stats(server).submissionsFor(ref)).toBe(1);
    }

    // Still in flight: not answered, still leased by the worker that sent it, never sent twice.
    const held = await rowOf(slow);
    expect({ status: held.status, submitAttempts: held.submit_attempts, leased: held.locked_until_ms !== null }).toEqual({
      status: 'Initiated',
      submitAttempts: 1n,
      leased: true,
    });
    expect(stats(server).submissionsFor(slow)).toBe(1);

    server.services.channels.simulator.server!.releaseHeld();
    faults(server).dropCallbacks = false;
    // Its callback was dropped while the answer was held: the backstop poll, 30 s after Processing, settles it.
    if ((await until(slowShop, slow, ['Processing', ...FINAL], 30_000)).status === 'Processing') server.clock.advance(pollDelayMs(0, true));
    expect((await until(slowShop, slow, ['Success'], 30_000)).status).toBe('Success');
    expect(stats(server).submissionsFor(slow)).toBe(1);
    expect(stats(server).transfersFor(slow)).toBe(1);
  }, 120_000);
});
