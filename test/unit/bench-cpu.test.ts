// The bench's CPU accounting reads /proc: a burst of this process's own work is counted as its own and as
// busy machine time, never as another process's, and steal and I/O stall are shares and durations.
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { measureUnshared, postgresCpuMs, postgresCpuMsByScan, processCpuMs, sharedTheMachine, sharedWindowText, snapshot, usageBetween, type CpuUsage } from '../../bench/cpu.js';
import { TEST_PG_URL } from '../helpers/store.js';

/** Spins until this process has used `ms` of CPU (not of the clock: a loaded machine only makes it longer). */
function spin(ms: number): void {
  const start = process.cpuUsage();
  const usedMs = (): number => {
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
  while (usedMs() < ms) Math.sqrt(Math.random());
}

describe('bench CPU accounting', () => {
  it('counts a busy window as the watched process and the machine busy, with steal and stall within bounds', () => {
    const before = snapshot({ bench: process.pid });
    spin(300);
    const usage = usageBetween(before, snapshot({ bench: process.pid }));
    // /proc counts 10 ms ticks, and the test runner's other threads add to this process's time.
    expect(usage.processMs.bench).toBeGreaterThanOrEqual(280);
    expect(usage.busyShare).toBeGreaterThan(0);
    expect(usage.busyShare).toBeLessThanOrEqual(1);
    expect(usage.foreignShare).toBeLessThanOrEqual(usage.busyShare);
    expect(usage.stealShare).toBeGreaterThanOrEqual(0);
    expect(usage.stealShare).toBeLessThan(1);
    if (usage.ioStallMs !== null) expect(usage.ioStallMs).toBeGreaterThanOrEqual(0);
  });

  // bench/run.ts measures a case's window again while this says the window was taken over.
  it('calls a window shared above 10 % of other processes or of steal, and says which took it', () => {
    const usage = (foreignShare: number, stealShare: number): CpuUsage => ({ processMs: {}, foreignShare, stealShare, busyShare: 1, ioStallMs: null });
    expect(sharedTheMachine(null)).toBe(false);
    expect(sharedTheMachine(usage(0.1, 0.1))).toBe(false);
    expect(sharedTheMachine(usage(0.52, 0))).toBe(true);
    expect(sharedTheMachine(usage(0.02, 0.11))).toBe(true);
    expect(sharedWindowText(usage(0.52, 0.03), 2655.4, 38.04)).toBe("other processes 52 % of the machine's CPU in a window of 2,655 req/s, p99 38.0 ms");
    expect(sharedWindowText(usage(0.31, 0.2), 900, 9)).toBe("other processes 31 % and steal 20 % of the machine's CPU in a window of 900 req/s, p99 9.0 ms");
  });

  it('measures a shared window again, each time with fresh requests, at most twice, and answers the last window', async () => {
    const usage = (foreignShare: number): CpuUsage => ({ processMs: {}, foreignShare, stealShare: 0, busyShare: 1, ioStallMs: null });
    const run = async (foreignShares: number[]) => {
      let nextIndex = 0;
      const waits: string[] = [];
      const windows = foreignShares.map((share, i) => ({ load: { cpu: usage(share), rps: 1000 + i, latencyMs: { p99: 5 } } }));
      const outcome = await measureUnshared(
        async () => ({ ...windows[nextIndex]!, firstRequest: (nextIndex++) * 100 }),
        async (shared, retake) => void waits.push(`${retake}: ${shared}`),
      );
      return { ...outcome, waits, measured: nextIndex };
    };
    const quiet = await run([0.02]);
    expect({ measured: quiet.measured, givenUp: quiet.givenUp, rps: quiet.window.load.rps }).toEqual({ measured: 1, givenUp: [], rps: 1000 });
    const once = await run([0.52, 0.03]);
    expect({ measured: once.measured, rps: once.window.load.rps, firstRequest: once.window.firstRequest }).toEqual({ measured: 2, rps: 1001, firstRequest: 100 });
    expect(once.waits).toEqual(["1: other processes 52 % of the machine's CPU in a window of 1,000 req/s, p99 5.0 ms"]);
    expect(once.givenUp).toHaveLength(1);
    const always = await run([0.4, 0.4, 0.4, 0.4]);
    expect({ measured: always.measured, givenUp: always.givenUp.length, rps: always.window.load.rps }).toEqual({ measured: 3, givenUp: 2, rps: 1002 });
  });

  // At each window's opening the load generator reads PostgreSQL's CPU while every request is in flight:
  // from the postmaster's children instead of every process's stat file.
  it("finds PostgreSQL's processes through the postmaster's children, the same ones a scan of every process finds", async () => {
    const sameAsScan = (): boolean => {
      const listed = [...postgresCpuMs().keys()].sort();
      const scanned = [...postgresCpuMsByScan().cpu.keys()].sort();
      return JSON.stringify(listed) === JSON.stringify(scanned);
    };
    const client = new pg.Client({ connectionString: TEST_PG_URL });
    try {
      await client.connect();
    } catch {
      return; // no PostgreSQL on this machine: nothing to find
    }
    try {
      const backend = Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
      const scan = postgresCpuMsByScan();
      expect(scan.cpu.has(backend)).toBe(true);
      expect(scan.postmasters.length).toBeGreaterThan(0);
      expect(scan.postmasters).not.toContain(backend);
      postgresCpuMs(); // finds the postmasters
      const listed = postgresCpuMs();
      expect(listed.has(backend)).toBe(true);
      expect(listed.get(backend)).toBe(processCpuMs(backend));
      // A connection opened after the postmasters were found is one of their children too.
      const later = new pg.Client({ connectionString: TEST_PG_URL });
      await later.connect();
      try {
        const laterBackend = Number((await later.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
        expect(postgresCpuMs().has(laterBackend)).toBe(true);
      } finally {
        await later.end();
      }
      // Other test files open and close connections meanwhile: the two lists agree on one of a few tries.
      let agreed = false;
      for (let attempt = 0; attempt < 20 && !agreed; attempt++) agreed = sameAsScan();
      expect(agreed).toBe(true);
    } finally {
      await client.end();
    }
  });
});
