// GroupBatch's linger: after a large batch the next waits for company; after a small one, or when
// full, it does not. Orders of events decide each case, never a measured time.
import { describe, expect, it } from 'vitest';
import { GroupBatch, type Linger } from '../../src/core/group-batch.js';

/** A batch that records the items of each run and answers each item with itself. */
function recorder(maxPerBatch: number, linger?: Linger) {
  const runs: string[][] = [];
  const batch = new GroupBatch<string, string>(maxPerBatch, async (items) => {
    runs.push([...items]);
    return items;
  }, linger);
  return { batch, runs };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Adds `item` on a later turn of the event loop, after anything already due at this turn's end. */
const addOnNextTurn = (batch: GroupBatch<string, string>, item: string): Promise<string> =>
  new Promise((resolve, reject) => setImmediate(() => batch.add(item).then(resolve, reject)));

describe('GroupBatch', () => {
  it('writes what arrived together in one run, and answers each item its own outcome', async () => {
    const { batch, runs } = recorder(64);
    await expect(Promise.all(['a', 'b', 'c'].map((item) => batch.add(item)))).resolves.toEqual(['a', 'b', 'c']);
    expect(runs).toEqual([['a', 'b', 'c']]);
  });

  it('without a linger, an item that comes a turn later goes in the next run', async () => {
    const { batch, runs } = recorder(64);
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((item) => batch.add(item)));
    await Promise.all([batch.add('x'), addOnNextTurn(batch, 'y')]);
    expect(runs).toEqual([['a', 'b', 'c', 'd', 'e'], ['x'], ['y']]);
  });

  it('after a busy batch the next one waits for items that come on later turns', async () => {
    const { batch, runs } = recorder(64, { lingerMs: 200, busyAt: 4 });
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((item) => batch.add(item)));
    await Promise.all([batch.add('x'), addOnNextTurn(batch, 'y'), nextTurn().then(() => addOnNextTurn(batch, 'z'))]);
    expect(runs).toEqual([['a', 'b', 'c', 'd', 'e'], ['x', 'y', 'z']]);
  });

  it('after a small batch nothing lingers', async () => {
    const { batch, runs } = recorder(64, { lingerMs: 60_000, busyAt: 4 });
    await Promise.all(['a', 'b'].map((item) => batch.add(item)));
    // A linger of a minute would time the test out if this waited.
    await Promise.all([batch.add('x'), addOnNextTurn(batch, 'y')]);
    expect(runs).toEqual([['a', 'b'], ['x'], ['y']]);
  });

  it('a batch that fills up while it lingers goes at once', async () => {
    const { batch, runs } = recorder(3, { lingerMs: 60_000, busyAt: 3 });
    await Promise.all(['a', 'b', 'c'].map((item) => batch.add(item)));
    const lingering = batch.add('x');
    await nextTurn();
    expect(runs).toHaveLength(1);
    await Promise.all([lingering, batch.add('y'), batch.add('z')]);
    expect(runs).toEqual([['a', 'b', 'c'], ['x', 'y', 'z']]);
  });

  it('items beyond a full batch go in the next run, and a failed run fails only its own items', async () => {
    let calls = 0;
    const batch = new GroupBatch<string, string>(2, async (items) => {
      calls += 1;
      if (calls === 1) throw new Error('disk full');
      return items;
    });
    const outcomes = await Promise.allSettled(['a', 'b', 'c'].map((item) => batch.add(item)));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect((outcomes[2] as PromiseFulfilledResult<string>).value).toBe('c');
  });
});
