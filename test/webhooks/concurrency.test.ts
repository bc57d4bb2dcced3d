import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/migrations.js';
import { openStore } from '../../src/store/db.js';
import { Worker } from '../../src/core/worker.js';
import { DEFAULT_LEASE_MS } from '../../src/webhooks/dispatcher.js';
import { eventRow, openBench, Receiver, type Bench } from './helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const projectRoot = path.resolve(here, '../..');
const fixture = path.join(here, 'fixtures', 'enqueue-then-wait.ts');

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function statusCounts(bench: Bench): Promise<Record<string, number>> {
  const rows = await bench.store.db.selectFrom('webhook_events').select('status').execute();
  const counts: Record<string, number> = {};
  for (const { status } of rows) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('webhook dispatch with several workers and crashes', () => {
  let bench: Bench;
  let receiver: Receiver;
  beforeEach(async () => {
    bench = await openBench();
    receiver = await new Receiver().listen();
  });
  afterEach(async () => {
    await receiver.close();
    await bench.close();
  });

  it('two dispatchers on separate connections never send one event twice', async () => {
    const merchant = await bench.createMerchant({ payment: receiver.url });
    const eventCount = 150;
    for (let i = 0; i < eventCount; i++) await bench.enqueue({ merchantId: merchant.id });
    receiver.behaviour = () => ({ status: 200, delayMs: Math.floor(Math.random() * 5) });

    const second = await openStore(bench.store.location, MIGRATIONS);
    try {
      const a = bench.dispatcher({ concurrency: 8 });
      const b = bench.dispatcher({ store: second, concurrency: 8 });
      const [sentByA, sentByB] = await Promise.all([a.dispatchDue(), b.dispatchDue()]);
      expect(sentByA + sentByB).toBe(eventCount);
      expect(sentByA).toBeGreaterThan(0);
      expect(sentByB).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
    expect(receiver.hits).toHaveLength(eventCount);
    expect(new Set(receiver.hits.map((h) => h.eventId)).size).toBe(eventCount);
    expect(receiver.maxConcurrentPerEvent).toBe(1);
    expect(await statusCounts(bench)).toEqual({ delivered: eventCount });
  });

  it('a claim keeps other dispatchers away until its lease runs out', async () => {
    const merchant = await bench.createMerchant({ payment: receiver.url });
    const eventId = await bench.enqueue({ merchantId: merchant.id });
    receiver.behaviour = () => 'hang';
    const stuck = bench.dispatcher({ timeoutMs: 2_000, leaseMs: 10_000 });
    void stuck.runOnce();
    await waitFor(() => receiver.hits.length === 1, 5_000);

    receiver.behaviour = () => ({ status: 200 });
    const other = bench.dispatcher();
    expect(await other.dispatchDue()).toBe(0);
    bench.clock.advance(10_001);
    expect(await other.dispatchDue()).toBe(1);
    expect(await eventRow(bench, eventId)).toMatchObject({ status: 'delivered', attempt_count: 1 });
    // The stuck dispatcher's late result finds its lease gone and changes nothing.
    await stuck.close();
    expect(await eventRow(bench, eventId)).toMatchObject({ status: 'delivered', attempt_count: 1, last_error: null });
  });

  it('delivers every committed event after the process that wrote them is killed with SIGKILL', async () => {
    const merchant = await bench.createMerchant({ payment: receiver.url });
    const count = 12;
    const claim = 4;
    receiver.behaviour = () => 'hang';
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fixture, JSON.stringify({ location: bench.store.location, merchantId: merchant.id, count, claim })],
      { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', () => reject(new Error(`fixture exited early: ${stderr}`)));
    });
    const ids = line.replace(/^enqueued /, '').split(',');
    expect(ids).toHaveLength(count);
    // The child has committed every event and has `claim` deliveries open when it dies.
    await waitFor(() => receiver.hits.length === claim, 15_000);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    receiver.behaviour = () => ({ status: 200, body: 'SUCCESS' });
    const fresh = bench.dispatcher();
    bench.clock.set(Date.now());
    expect(await fresh.dispatchDue()).toBe(count - claim);
    expect(await statusCounts(bench)).toEqual({ delivered: count - claim, pending: claim });

    bench.clock.advance(DEFAULT_LEASE_MS + 1);
    expect(await fresh.dispatchDue()).toBe(claim);
    expect(await statusCounts(bench)).toEqual({ delivered: count });
    for (const id of ids) expect(receiver.hitsFor(id).length).toBeGreaterThanOrEqual(1);
  });
});

describe('webhook dispatch after every slot waited on a slow receiver', () => {
  it('goes on as soon as an answer frees a slot, not after the idle interval', async () => {
    const bench = await openBench();
    const receiver = await new Receiver().listen();
    try {
      const merchant = await bench.createMerchant({ payment: receiver.url });
      await bench.enqueue({ merchantId: merchant.id });
      await bench.enqueue({ merchantId: merchant.id });
      // The first delivery holds the only slot for a while; an hour's idle interval would hold the second.
      receiver.behaviour = () => (receiver.hits.length === 1 ? { status: 200, delayMs: 300 } : { status: 200 });
      const dispatcher = bench.dispatcher({ concurrency: 1, idleIntervalMs: 3_600_000 });
      const running = new Worker([dispatcher.job], { error: () => undefined });
      running.start();
      try {
        await waitFor(() => receiver.hits.length === 2, 5_000);
      } finally {
        await running.stop();
        await dispatcher.close();
      }
      expect(new Set(receiver.hits.map((h) => h.eventId)).size).toBe(2);
    } finally {
      await receiver.close();
      await bench.close();
    }
  });
});
