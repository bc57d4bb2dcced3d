// isoFromMs writes instants itself (src/core/clock.ts); it must match Date#toISOString character for character.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoFromMs } from '../../src/core/clock.js';

const dateWrites = (ms: number): string => new Date(ms).toISOString();

describe('isoFromMs', () => {
  it('matches Date#toISOString at the edges of days, years and its own fast range', () => {
    for (const ms of [0, 1, 999, 1000, 59_999, 86_399_999, 86_400_000, 951_782_400_000, 1_764_000_000_007, 253_402_300_799_999, 253_402_300_800_000, -1, -86_400_001]) {
      expect(isoFromMs(ms)).toBe(dateWrites(ms));
      expect(isoFromMs(BigInt(ms))).toBe(dateWrites(ms));
    }
  });

  it('matches Date#toISOString for any instant, in any order of days', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 253_402_300_799_999 }), fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 })), { minLength: 1, maxLength: 20 }), (instants) => {
        for (const ms of instants) expect(isoFromMs(ms)).toBe(dateWrites(ms));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what Date refuses', () => {
    expect(() => isoFromMs(Number.NaN)).toThrow(RangeError);
    expect(() => isoFromMs(8_640_000_000_000_001)).toThrow(RangeError);
  });
});
