// The simulator's timer queue: a sweep answers exactly the keys due by then, earliest first, and
// leaves the rest for later sweeps, whatever order they were added in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DueQueue } from '../../src/simulator/due-queue.js';

describe('DueQueue', () => {
  it('answers what is due, earliest first, and keeps the rest', () => {
    const queue = new DueQueue();
    queue.add('c', 30);
    queue.add('a', 10);
    queue.add('d', 40);
    queue.add('b', 20);
    expect(queue.takeDue(5)).toEqual([]);
    expect(queue.takeDue(20)).toEqual(['a', 'b']);
    expect(queue.size).toBe(2);
    expect(queue.takeDue(100)).toEqual(['c', 'd']);
    expect(queue.takeDue(100)).toEqual([]);
  });

  it('matches a sorted model over any adds and sweeps', () => {
    const step = fc.oneof(
      fc.record({ add: fc.integer({ min: 0, max: 1_000 }) }),
      fc.record({ sweep: fc.integer({ min: 0, max: 1_000 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const queue = new DueQueue();
        let model: { key: string; atMs: number }[] = [];
        steps.forEach((s, i) => {
          if ('add' in s) {
            queue.add(`k${i}`, s.add);
            model.push({ key: `k${i}`, atMs: s.add });
            return;
          }
          const taken = queue.takeDue(s.sweep);
          const expected = model.filter((e) => e.atMs <= s.sweep);
          model = model.filter((e) => e.atMs > s.sweep);
          // Earliest first; among equal times any order.
          expect([...taken].sort()).toEqual(expected.map((e) => e.key).sort());
          const times = taken.map((key) => expected.find((e) => e.key === key)!.atMs);
          expect(times).toEqual([...times].sort((a, b) => a - b));
          expect(queue.size).toBe(model.length);
        });
      }),
    );
  });
});
