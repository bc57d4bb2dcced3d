// GroupBatch (src/core/group-batch.ts): items that arrive together share one run; patient items
// (background work) alone wait for company up to the linger, and any impatient item or a full batch
// starts the run at once with them.
import { describe, expect, it } from 'vitest';
import { GroupBatch } from '../../src/core/group-batch.js';

const HOUR_MS = 3_600_000;

/** A batch whose runs are recorded; each item answers itself doubled. */
function recorded(maxPerBatch: number, lingerMs: number): { batch: GroupBatch<number, number>; runs: number[][] } {
  const runs: number[][] = [];
  const batch = new GroupBatch<number, number>(
    maxPerBatch,
    async (items) => {
      runs.push([...items]);
      return items.map((n) => n * 2);
    },
    { lingerMs },
  );
  return { batch, runs };
}

/** Lets every immediate and promise queued so far run, several times over. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('GroupBatch', () => {
  it('runs the items that arrive together as one batch, answering each its own outcome', async () => {
    const { batch, runs } = recorded(10, 0);
    expect(await Promise.all([1, 2, 3].map((n) => batch.add(n)))).toEqual([2, 4, 6]);
    expect(runs).toEqual([[1, 2, 3]]);
  });

  it('holds patient items until an impatient one arrives, then runs them all together in order', async () => {
    const { batch, runs } = recorded(10, HOUR_MS);
    const patient = [1, 2, 3].map((n) => batch.add(n, true));
    await settle();
    expect(runs).toEqual([]);
    const urgent = batch.add(4);
    expect(await Promise.all([...patient, urgent])).toEqual([2, 4, 6, 8]);
    expect(runs).toEqual([[1, 2, 3, 4]]);
  });

  it('runs a full batch of patient items without waiting out the linger', async () => {
    const { batch, runs } = recorded(3, HOUR_MS);
    expect(await Promise.all([1, 2, 3].map((n) => batch.add(n, true)))).toEqual([2, 4, 6]);
    expect(runs).toEqual([[1, 2, 3]]);
  });

  it('runs patient items alone once the linger is over', async () => {
    const { batch, runs } = recorded(10, 1);
    expect(await Promise.all([5, 6].map((n) => batch.add(n, true)))).toEqual([10, 12]);
    expect(runs).toEqual([[5, 6]]);
  });

  it('takes patient items left over from a full batch into the next run an impatient item starts', async () => {
    const { batch, runs } = recorded(2, HOUR_MS);
    const first = [1, 2, 3].map((n) => batch.add(n, true));
    await Promise.all(first.slice(0, 2));
    await settle();
    expect(runs).toEqual([[1, 2]]);
    expect(await Promise.all([first[2]!, batch.add(9)])).toEqual([6, 18]);
    expect(runs).toEqual([[1, 2], [3, 9]]);
  });

  it('fails every item of a batch whose run rejects, and runs the next batch as usual', async () => {
    let fail = true;
    const batch = new GroupBatch<number, number>(10, async (items) => {
      if (fail) throw new Error('store down');
      return items.map((n) => n + 1);
    });
    const answers = await Promise.allSettled([batch.add(1), batch.add(2)]);
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await batch.add(3)).toBe(4);
  });
});
