// The webhook outbox records a batch of results in parts whose sizes are powers of two (queue.ts
// partsOf), so its two multi-row statements come in a handful of sizes, each compiled once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partsOf } from '../../src/webhooks/queue.js';

describe("the outbox's result parts", () => {
  it('cuts 200 into 128, 64 and 8, and 600 into 256, 256, 64, 16 and 8', () => {
    expect(partsOf(Array.from({ length: 200 }, (_, i) => i)).map((p) => p.length)).toEqual([128, 64, 8]);
    expect(partsOf(Array.from({ length: 600 }, (_, i) => i)).map((p) => p.length)).toEqual([256, 256, 64, 16, 8]);
    expect(partsOf([])).toEqual([]);
  });

  it('keeps every item once, in order, in parts of a power of two up to 256', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 1200 }), (items) => {
        const parts = partsOf(items);
        expect(parts.flat()).toEqual(items);
        for (const part of parts) {
          expect(part.length).toBeLessThanOrEqual(256);
          expect(Number.isInteger(Math.log2(part.length))).toBe(true);
        }
        // Never more than the 256s plus one part per bit of the rest.
        expect(parts.length).toBeLessThanOrEqual(Math.floor(items.length / 256) + 8);
      }),
    );
  });
});
