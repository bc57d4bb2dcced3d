// The background runner (core/worker.ts): a job that found nothing waits its interval, unless it says
// it may have work again sooner (Job.wakeEarly), and stop() never waits for an interval to run out.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Worker, WorkSignal, type Job } from '../../src/core/worker.js';

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

describe('Worker backoff while idle', () => {
  afterEach(() => void vi.useRealTimers());

  /** A job that records the (fake) time of each run and handles `handles()` rows per run. */
  function timedJob(name: string, idleIntervalMs: number, handles: () => number = () => 0) {
    const runsAt: number[] = [];
    const job: Job = {
      name,
      idleIntervalMs,
      runOnce: async () => {
        runsAt.push(Date.now());
        return handles();
      },
    };
    return { job, runsAt };
  }

  const gaps = (times: readonly number[]): number[] => times.slice(1).map((t, i) => t - times[i]!);

  it('waits twice as long after each empty run, up to maxIdleMs, starting from the job own interval', async () => {
    vi.useFakeTimers({ now: 0 });
    const { job, runsAt } = timedJob('idle', 100);
    worker = new Worker([job], quiet, { maxIdleMs: 800 });
    worker.start();
    await vi.advanceTimersByTimeAsync(100 + 200 + 400 + 800 + 800 + 800);
    expect(gaps(runsAt)).toEqual([100, 200, 400, 800, 800, 800]);
  });

  it('never waits less than the job own interval, whatever maxIdleMs says, and without maxIdleMs never backs off', async () => {
    vi.useFakeTimers({ now: 0 });
    const slow = timedJob('slow', 1000);
    const plain = timedJob('plain', 100);
    worker = new Worker([slow.job], quiet, { maxIdleMs: 50 });
    const second = new Worker([plain.job], quiet);
    worker.start();
    second.start();
    await vi.advanceTimersByTimeAsync(3000);
    await second.stop();
    expect(gaps(slow.runsAt)).toEqual([1000, 1000, 1000]);
    expect(new Set(gaps(plain.runsAt))).toEqual(new Set([100]));
  });

  it('a nudge runs a backing-off job at once and starts its waits over from its own interval', async () => {
    vi.useFakeTimers({ now: 0 });
    const { job, runsAt } = timedJob('idle', 100);
    worker = new Worker([job], quiet, { maxIdleMs: 60_000 });
    worker.start();
    await vi.advanceTimersByTimeAsync(100 + 200 + 400 + 800 + 100); // now in a wait of 1,600 ms, 100 ms into it
    expect(runsAt).toEqual([0, 100, 300, 700, 1500]);
    worker.nudge();
    await vi.advanceTimersByTimeAsync(0);
    expect(runsAt.at(-1)).toBe(1600);
    await vi.advanceTimersByTimeAsync(100 + 200);
    expect(gaps(runsAt.slice(-3))).toEqual([100, 200]);
  });

  it('a nudge does not run a job that waits only its own interval again (no extra queries under load)', async () => {
    vi.useFakeTimers({ now: 0 });
    const { job, runsAt } = timedJob('idle', 100);
    worker = new Worker([job], quiet, { maxIdleMs: 60_000 });
    worker.start();
    await vi.advanceTimersByTimeAsync(50); // the first wait, of the job's own 100 ms
    worker.nudge();
    await vi.advanceTimersByTimeAsync(49);
    expect(runsAt).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runsAt).toEqual([0, 100]);
    // Nudged during that first wait, it starts over: its next wait is its own interval, not 200 ms.
    await vi.advanceTimersByTimeAsync(100);
    expect(runsAt).toEqual([0, 100, 200]);
  });

  it('a job that handled rows wakes the others (its work may be theirs: a paid payment makes a webhook)', async () => {
    vi.useFakeTimers({ now: 0 });
    const waiting = timedJob('dispatch', 100);
    let rows = 0;
    const producer = timedJob('producer', 10_000, () => (rows > 0 ? rows-- : 0));
    worker = new Worker([waiting.job, producer.job], quiet, { maxIdleMs: 60_000 });
    worker.start();
    await vi.advanceTimersByTimeAsync(100 + 200 + 400 + 800 + 10);
    expect(waiting.runsAt).toEqual([0, 100, 300, 700, 1500]);
    rows = 1;
    await vi.advanceTimersByTimeAsync(10_000 - 1510); // the producer's next run finds a row
    expect(producer.runsAt.at(-1)).toBe(10_000);
    expect(waiting.runsAt).toContain(10_000);
  });

  it('wakes on its WorkSignal while it runs, and stops listening when stopped', async () => {
    vi.useFakeTimers({ now: 0 });
    const activity = new WorkSignal();
    const { job, runsAt } = timedJob('idle', 100);
    worker = new Worker([job], quiet, { maxIdleMs: 60_000, activity });
    worker.start();
    await vi.advanceTimersByTimeAsync(100 + 200 + 400 + 50);
    activity.notify();
    await vi.advanceTimersByTimeAsync(0);
    expect(runsAt).toEqual([0, 100, 300, 700, 750]);
    await worker.stop();
    worker = null;
    let heard = 0;
    activity.subscribe(() => heard++);
    activity.notify();
    expect(heard).toBe(1); // the stopped worker's listener is gone; only this one is left
    expect(runsAt).toHaveLength(5);
  });
});
