// The bench's pre-signed list sizes (bench/list-size.ts): a list that ran out early is followed by one
// sized for the rate it showed, even when it ran out before the window opened.
import { describe, expect, it } from 'vitest';
import { listSize, retryRate } from '../../bench/list-size.js';

const settings = { warmupSeconds: 1, durationSeconds: 5, connections: 50, maxRequests: 400_000 };

describe('bench list sizes', () => {
  it('signs warm-up and window at the expected rate with a margin, at least 1,000 and at most the cap', () => {
    expect(listSize(settings, 10_000)).toBe(Math.ceil(10_000 * 6 * 1.3) + 200);
    expect(listSize(settings, 0)).toBe(1000);
    expect(listSize({ ...settings, maxRequests: 50_000 }, 10_000)).toBe(50_000);
  });

  it('sizes the second list by the window rate or twice the expectation, whichever is larger', () => {
    expect(retryRate(9_000, 2.5, 3_000, 24_000, 1)).toBe(9_000);
    expect(retryRate(4_000, 2.5, 3_000, 24_000, 1)).toBe(6_000);
  });

  it('a list used up in the warm-up gets one sized by what the warm-up took, not 1,000 again', () => {
    // `--case @1M` without its base case: nothing expected, 1,000 requests gone before the window opened.
    const rate = retryRate(0, 0, 0, 1000, 1);
    expect(rate).toBe(1000);
    expect(listSize(settings, rate)).toBeGreaterThan(1000 * 6);
    expect(retryRate(0, 0, 0, 1000, 0.5)).toBe(2000);
  });
});
