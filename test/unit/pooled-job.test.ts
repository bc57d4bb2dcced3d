// The pooled job on its own, with rows as plain numbers: it never claims more rows than it has free
// slots, a row that hangs holds one slot while the rest go through, and a row's failure is reported
// by the next run (where the worker logs it).
import { describe, expect, it } from 'vitest';
import { PooledJob } from '../../src/core/pooled-job.js';

function gate(): { promise: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** A queue of due rows; `claim` hands out at most what it is asked for, and records each request. */
function rows(count: number) {
  const due = Array.from({ length: count }, (_, i) => i);
  const asked: number[] = [];
  return {
    asked,
    claim: async (limit: number) => {
      asked.push(limit);
      return due.splice(0, limit);
    },
  };
}

describe('PooledJob', () => {
  it('claims only for free slots, and a hanging row holds one slot while the others are done', async () => {
    const source = rows(10);
    const hang = gate();
    const done: number[] = [];
    const job = new PooledJob<number>({
      name: 'test',
      idleIntervalMs: 10,
      concurrency: 3,
      claim: source.claim,
      process: async (row) => {
        if (row === 0) await hang.promise;
        done.push(row);
      },
    });
    for (let run = 0; run < 50 && done.length < 9; run += 1) await job.runOnce();
    expect(done.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(Math.max(...source.asked)).toBeLessThanOrEqual(3);
    expect(source.asked[0]).toBe(3);
    hang.open();
    await job.close();
    expect(done).toContain(0);
  });

  it('never promises one free slot to two claims running at once', async () => {
    const source = rows(10);
    const job = new PooledJob<number>({ name: 'test', idleIntervalMs: 10, concurrency: 4, claim: source.claim, process: async () => undefined });
    const counts = await Promise.all([job.runDue(), job.runDue(), job.runDue()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(4);
    expect(source.asked.reduce((a, b) => a + b, 0)).toBe(4);
  });

  it('reports a failed row through the next run, once', async () => {
    const source = rows(1);
    const job = new PooledJob<number>({
      name: 'test',
      idleIntervalMs: 10,
      concurrency: 2,
      claim: source.claim,
      process: async () => {
        throw new Error('row broke');
      },
    });
    expect(await job.runOnce()).toBe(1);
    await job.close();
    await expect(job.runOnce()).rejects.toThrow('row broke');
    expect(await job.runOnce()).toBe(0);
  });

  describe('reserveSlot (a row its caller claims itself)', () => {
    /** Two slots and nothing due: every row it works on is one handed to a reserved slot. */
    const job = (done: number[] = []) =>
      new PooledJob<number>({
        name: 'test',
        idleIntervalMs: 10,
        concurrency: 2,
        claim: rows(0).claim,
        process: async (row) => {
          if (row < 0) throw new Error(`row ${row} broke`);
          done.push(row);
        },
      });

    it('offers no slot until a worker runs the job in this process, nor after close()', async () => {
      const pooled = job();
      expect(pooled.reserveSlot()).toBeNull();
      expect(await pooled.runOnce()).toBe(0);
      const slot = pooled.reserveSlot();
      expect(slot).not.toBeNull();
      slot!.release();
      await pooled.close();
      expect(pooled.reserveSlot()).toBeNull();
    });

    it('keeps a reserved slot from the claims until it is started or released', async () => {
      const asked: number[] = [];
      const done: number[] = [];
      let due: number[] = [];
      const pooled = new PooledJob<number>({
        name: 'test',
        idleIntervalMs: 10,
        concurrency: 2,
        claim: async (limit) => {
          asked.push(limit);
          return due.splice(0, limit);
        },
        process: async (row) => {
          done.push(row);
        },
      });
      await pooled.runOnce();
      const slot = pooled.reserveSlot()!;
      expect(slot).not.toBeNull();
      const second = pooled.reserveSlot()!;
      expect(second).not.toBeNull();
      // Both slots reserved: no third is offered, and a run claims nothing.
      expect(pooled.reserveSlot()).toBeNull();
      due = [1, 2, 3];
      expect(await pooled.runOnce()).toBe(0);
      expect(asked).toEqual([2]);
      second.release();
      // One slot still reserved: the run claims for the other only.
      await pooled.runOnce();
      expect(asked).toEqual([2, 1]);
      slot.start(100);
      await pooled.close();
      expect(done.sort((a, b) => a - b)).toEqual([1, 100]);
      await pooled.runOnce();
      expect(asked).toEqual([2, 1, 2]);
    });

    it('refuses to settle a slot twice, and reports a started row that failed through the next run', async () => {
      const pooled = job();
      await pooled.runOnce();
      const slot = pooled.reserveSlot()!;
      slot.start(-1);
      expect(() => slot.release()).toThrow('settled twice');
      await pooled.close();
      await expect(pooled.runOnce()).rejects.toThrow('row -1 broke');
    });

    it('leaves a row started after close() alone (its lease runs out and a claim takes it over)', async () => {
      const done: number[] = [];
      const pooled = job(done);
      await pooled.runOnce();
      const slot = pooled.reserveSlot()!;
      await pooled.close();
      slot.start(7);
      await pooled.close();
      expect(done).toEqual([]);
    });
  });
});
