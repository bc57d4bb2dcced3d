// The background runner (core/worker.ts): a job that found nothing waits its interval, unless it says
// it may have work again sooner (Job.wakeEarly), and stop() never waits for an interval to run out.
import { afterEach, describe, expect, it } from 'vitest';
import { Worker, type Job } from '../../src/core/worker.js';

const quiet = { error: () => undefined };
const HOUR_MS = 3_600_000;
let worker: Worker | null = null;
afterEach(async () => worker?.stop());

/** A job that never finds work; resolves `ran(n)` when it has run n times. */
function idleJob(extra: Partial<Job> = {}) {
  let runs = 0;
  const waiting = new Map<number, () => void>();
  const job: Job = {
    name: 'idle',
    idleIntervalMs: HOUR_MS,
    runOnce: async () => {
      runs++;
      waiting.get(runs)?.();
      return 0;
    },
    ...extra,
  };
  const ran = (n: number): Promise<void> => (runs >= n ? Promise.resolve() : new Promise((resolve) => waiting.set(n, resolve)));
  return { job, ran, runs: () => runs };
}

describe('Worker', () => {
  it('runs an idle job again as soon as its wakeEarly promise resolves, not after the interval', async () => {
    let release: () => void = () => undefined;
    const { job, ran } = idleJob({ wakeEarly: () => new Promise<void>((resolve) => (release = resolve)) });
    worker = new Worker([job], quiet);
    worker.start();
    await ran(1);
    release();
    await ran(2); // with an hour's interval, only the early wake gets here
  });

  it('waits the interval when wakeEarly answers null, and stop() ends the wait', async () => {
    const { job, ran, runs } = idleJob({ wakeEarly: () => null });
    worker = new Worker([job], quiet);
    worker.start();
    await ran(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs()).toBe(1);
    await worker.stop();
    worker = null;
    expect(runs()).toBe(1);
  });
});
