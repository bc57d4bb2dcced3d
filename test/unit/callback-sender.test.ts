// The simulated bank's callback sender on its own: an attempt the receiver never answers is cut off by
// the attempt's timeout and retried, and closing the sender cuts off a delivery in flight at once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { CallbackSender } from '../../src/simulator/callbacks.js';
import { noFaults, SimulatorStats } from '../../src/simulator/faults.js';

/** A receiver that holds the first `held` requests unanswered and answers the rest 200. */
async function receiver(held: number): Promise<{ url: string; arrived: string[]; close(): Promise<void> }> {
  const arrived: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      arrived.push(Buffer.concat(chunks).toString('utf8'));
      if (arrived.length > held) response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    arrived,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const payout = { kind: 'payout', transactionRef: 'tx_sender_1', status: 'SUCCESS', upstreamRef: 'up_1', failureReason: null } as const;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function sender(url: string, attemptTimeoutMs: number): { sender: CallbackSender; stats: SimulatorStats } {
  const stats = new SimulatorStats();
  const errors: unknown[] = [];
  const sender = new CallbackSender({
    callbackUrl: url,
    secret: 'sender-test-secret',
    clock: systemClock,
    faults: noFaults(),
    stats,
    retryDelaysMs: [20, 20],
    attemptTimeoutMs,
    logError: (error) => errors.push(error),
  });
  closers.push(() => sender.close());
  return { sender, stats };
}

const until = async (check: () => boolean): Promise<void> => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('the simulated bank sending a callback', () => {
  it('cuts off an attempt the receiver never answers and delivers on the retry', async () => {
    const bank = await receiver(1);
    closers.push(bank.close);
    const { sender: callbacks, stats } = sender(bank.url, 300);
    callbacks.send(payout);
    await until(() => stats.callbacksDelivered === 1);
    expect(bank.arrived).toHaveLength(2);
    expect(JSON.parse(bank.arrived[1]!)).toMatchObject({ transactionRef: 'tx_sender_1', status: 'SUCCESS' });
    expect(stats.callbackAttempts).toBe(2);
  });

  it('closing cuts off a delivery in flight instead of waiting out its timeout', async () => {
    const bank = await receiver(Number.MAX_SAFE_INTEGER);
    closers.push(bank.close);
    // An attempt would wait ten minutes: the test only ends if close() does not.
    const { sender: callbacks, stats } = sender(bank.url, 600_000);
    callbacks.send(payout);
    await until(() => bank.arrived.length === 1);
    await callbacks.close();
    expect(stats.callbacksDelivered).toBe(0);
    expect(stats.callbackAttempts).toBe(1);
  }, 10_000);
});
