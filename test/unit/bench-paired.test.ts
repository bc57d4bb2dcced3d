// The bench's alternating windows for the million repeats: one side's windows combine into one
// measurement whose rate, CPU and latency percentiles are over all of them (the tail is the worst
// window's only where a case timed itself and left no histogram to merge).
import { describe, expect, it } from 'vitest';
import { combineLoads, machineAroundNotes, needsAnotherRound, noopAround, PAIRED_MAX_ROUNDS, PAIRED_ROUNDS, spreadOf, spreadText, windowRates } from '../../bench/paired.js';
import type { LoadResult } from '../../bench/load.js';
import { latencyOf, newLatencyHistogram } from '../../bench/latency.js';

function window(requests: number, seconds: number, p99: number, serviceMs: number, foreignShare: number, non200: Record<string, number> = {}): LoadResult {
  const non200Count = Object.values(non200).reduce((a, b) => a + b, 0);
  return {
    requests,
    seconds,
    rps: requests / seconds,
    latencyMs: { p50: p99 / 4, p90: p99 / 2, p99, max: p99 * 2, mean: p99 / 3 },
    histogram: null,
    non200: non200Count,
    non200ByReason: non200,
    warmupNon200ByReason: {},
    firstNon200: non200Count ? Object.keys(non200)[0]! : null,
    networkErrors: 0,
    firstNetworkError: null,
    requestsSent: requests,
    poolSize: requests * 2,
    exhausted: false,
    cpu: { processMs: { service: serviceMs, postgres: 10 }, foreignShare, busyShare: 0.9, stealShare: 0, ioStallMs: 0 },
    counted: requests * 3,
    loadGcMs: requests / 1000,
  };
}

describe('bench paired windows', () => {
  it('adds requests, seconds and CPU; without histograms weights p50 by requests and keeps the worst p99', () => {
    const combined = combineLoads([window(5000, 5, 20, 4000, 0.02, { '429 RATE_LIMITED': 2 }), window(3000, 5, 35, 3000, 0.1, { '429 RATE_LIMITED': 1, '500 X': 1 })]);
    expect(combined.requests).toBe(8000);
    expect(combined.seconds).toBe(10);
    expect(combined.rps).toBe(800);
    expect(combined.latencyMs.p99).toBe(35);
    expect(combined.latencyMs.max).toBe(70);
    expect(combined.latencyMs.p50).toBeCloseTo((5 * 5000 + 8.75 * 3000) / 8000, 10);
    expect(combined.non200ByReason).toEqual({ '429 RATE_LIMITED': 3, '500 X': 1 });
    expect(combined.non200).toBe(4);
    expect(combined.cpu?.processMs).toEqual({ service: 7000, postgres: 20 });
    expect(combined.loadGcMs).toBe(8);
    expect(combined.cpu?.foreignShare).toBeCloseTo(0.06, 10);
    expect(combined.counted).toBe(24000);
  });

  it('answers a single window as it is, refuses none, and names the windows in the order run', () => {
    const only = window(1000, 5, 10, 900, 0);
    expect(combineLoads([only])).toBe(only);
    expect(() => combineLoads([])).toThrow();
    expect(windowRates([window(5100, 5, 1, 1, 0), window(5000, 5, 12.5, 1, 0)], [window(4950, 5, 2, 1, 0), window(5200, 5, 1, 1, 0)])).toBe(
      'A 1,020 / B 990 / A 1,000 / B 1,040 req/s, p99 A 1.00 / B 2.00 / A 12.50 / B 1.00 ms',
    );
  });

  it('divides a case by the no-op windows around it: their requests over their seconds, and the no-op server\'s CPU a request', () => {
    const noopWindow = (requests: number, seconds: number, noopMs: number): LoadResult => ({
      ...window(requests, seconds, 4, 0, 0),
      cpu: { processMs: { noop: noopMs, service: 5 }, foreignShare: 0, busyShare: 0.5, stealShare: 0, ioStallMs: 0 },
    });
    // 60,000 in 2 s before and 40,000 in 2 s after: 25,000 a second (the machine slowed down during the case).
    expect(noopAround(noopWindow(60_000, 2, 1500), noopWindow(40_000, 2, 1500))).toEqual({ rps: 25_000, cpuUsPerRequest: 30 });
    // Windows of different lengths weigh by their seconds (the mean of the two rates would be 25,000).
    expect(noopAround(noopWindow(30_000, 1, 600), noopWindow(60_000, 3, 1200)).rps).toBe(22_500);
    expect(noopAround(noopWindow(10, 1, 1), { ...noopWindow(10, 1, 1), cpu: null }).cpuUsPerRequest).toBeNull();
  });

  it('notes the no-op around a case judged by a rate of its own, and scales that rate to the reference machine by the no-op CPU', () => {
    const noopWindow = (requests: number, seconds: number, noopMs: number): LoadResult => ({
      ...window(requests, seconds, 4, 0, 0),
      cpu: { processMs: { noop: noopMs, service: 5 }, foreignShare: 0, busyShare: 0.5, stealShare: 0, ioStallMs: 0 },
    });
    // 40,000 no-op requests before at 1,600 ms (40 µs each), 20,000 after at 1,000 ms (50 µs): 2,600 ms / 60,000 = 43.3 µs around.
    const notes = machineAroundNotes(noopWindow(40_000, 2, 1600), noopWindow(20_000, 2, 1000), { rps: 31_000, cpuUsPerRequest: 29 }, { rate: 1_800, unit: 'deliveries/s' }, 25);
    expect(notes).toEqual([
      "the no-op route around the case: 20,000 req/s (40 µs of server CPU a request) before, 10,000 req/s (50 µs of server CPU a request) after; the run's first no-op: 31,000 req/s (29 µs of server CPU a request)",
      "at the speed of contract section 13's reference machine (a no-op at 25 µs of server CPU) the 1,800 deliveries/s would be about 3,120 (scaled by the no-op's 43 µs around the case; an estimate, not the verdict)",
    ]);
    // No rate of its own (an INFO case), or no CPU figures: the first note alone.
    expect(machineAroundNotes(noopWindow(40_000, 2, 1600), noopWindow(20_000, 2, 1000), null, null, 25)).toEqual([notes[0]!.split(';')[0]]);
    const unmeasured = { ...noopWindow(10, 1, 1), cpu: null };
    expect(machineAroundNotes(unmeasured, unmeasured, null, { rate: 100, unit: 'rows/s' }, 25)).toEqual(['the no-op route around the case: 10 req/s before, 10 req/s after']);
  });

  it('has no CPU figure or statement count when a window had none', () => {
    expect(combineLoads([window(10, 1, 1, 1, 0), { ...window(10, 1, 1, 1, 0), cpu: null }]).cpu).toBeNull();
    expect(combineLoads([window(10, 1, 1, 1, 0), { ...window(10, 1, 1, 1, 0), counted: null }]).counted).toBeNull();
  });

  it('takes the percentiles of every request of the windows together when each kept its histogram', () => {
    // Window 1: 1,000 answers in 1 ms. Window 2: 985 in 1 ms and 15 in 30 ms, 1.5 % slow, so its own p99 is
    // 30 ms; of the 2,000 answers together 0.75 % are slow, so their p99 is 1 ms and their max 30 ms.
    const measured = (fast: number, slow: number): LoadResult => {
      const histogram = newLatencyHistogram();
      for (let i = 0; i < fast; i++) histogram.record(1_000);
      for (let i = 0; i < slow; i++) histogram.record(30_000);
      return { ...window(fast + slow, 5, 0, 100, 0), latencyMs: latencyOf(histogram), histogram };
    };
    const [first, second] = [measured(1000, 0), measured(985, 15)];
    expect(second.latencyMs.p99).toBeCloseTo(30, 1);
    const combined = combineLoads([first, second]);
    expect(combined.requests).toBe(2000);
    expect(combined.histogram?.count).toBe(2000);
    expect(combined.latencyMs.p50).toBeCloseTo(1, 2);
    expect(combined.latencyMs.p99).toBeCloseTo(1, 2);
    expect(combined.latencyMs.max).toBeCloseTo(30, 1);
    expect(combined.latencyMs.mean).toBeCloseTo((1985 * 1 + 15 * 30) / 2000, 2);
    // The windows themselves are left as they were.
    expect(first.histogram?.count).toBe(1000);
    expect(second.histogram?.count).toBe(1000);
    // With a third window of 25 slow answers among 1,000, 40 of 3,000 are slow (1.3 %): the p99 is 30 ms.
    expect(combineLoads([first, second, measured(975, 25)]).latencyMs.p99).toBeCloseTo(30, 1);
  });

  it('measures two rounds, then more only while a side spreads past the tolerance, up to the most', () => {
    const at = (...rates: number[]): LoadResult[] => rates.map((rate) => window(rate * 5, 5, 10, 100, 0));
    expect(spreadOf(at(1000))).toBe(0);
    expect(spreadOf(at(1000, 1100))).toBeCloseTo(0.1, 10);
    expect(spreadOf(at(1288, 1019, 1100))).toBeCloseTo(1288 / 1019 - 1, 10);
    expect(spreadText(spreadOf(at(1000, 1264)))).toBe('26 %');
    expect(PAIRED_ROUNDS).toBe(2);
    expect(PAIRED_MAX_ROUNDS).toBe(4);
    // Fewer than two rounds: always another, however steady.
    expect(needsAnotherRound([], [], 0.1)).toBe(true);
    expect(needsAnotherRound(at(1000), at(1000), 0.1)).toBe(true);
    // Two steady rounds are enough, whether the repeat is within 10 % of its base or far below it:
    // the rule looks at each side's spread, never at how the sides compare.
    expect(needsAnotherRound(at(1000, 1050), at(990, 1000), 0.1)).toBe(false);
    expect(needsAnotherRound(at(1000, 1050), at(500, 520), 0.1)).toBe(false);
    // Either side spread by more than 10 %: another round, whatever the verdict would be.
    expect(needsAnotherRound(at(1019, 1288), at(840, 1161), 0.1)).toBe(true);
    expect(needsAnotherRound(at(1000, 1010), at(1200, 1000), 0.1)).toBe(true);
    expect(needsAnotherRound(at(1000, 1200, 1100), at(1000, 1010, 1005), 0.1)).toBe(true);
    // Never past the most.
    expect(needsAnotherRound(at(1000, 1500, 800, 1200), at(700, 1300, 900, 1000), 0.1)).toBe(false);
  });
});
