// The bench's floor verdict: a missed line is OUT OF REACH only where its bare floor, in the same run,
// misses the same halves of the same target; what the floor meets stays the service's MISS.
import { describe, expect, it } from 'vitest';
import { judgeByFloors, judgedByFloor, OUT_OF_REACH, verdictCounts } from '../../bench/floor-verdict.js';
import type { LoadResult } from '../../bench/load.js';
import type { CaseResult } from '../../bench/report.js';
import { webhookOutOfReach } from '../../bench/webhook-reach.js';

const HOT = { ratio: 0.1, p99Ms: 50 };

function measured(
  name: string,
  ratio: number,
  p99Ms: number,
  extra: { verdict?: CaseResult['verdict']; non200?: number; notes?: string[]; foreignShare?: number; stealShare?: number } = {},
): CaseResult {
  const load = {
    requests: 5000,
    seconds: 5,
    rps: 1000,
    latencyMs: { p50: p99Ms / 3, p90: p99Ms / 2, p99: p99Ms, max: p99Ms * 2, mean: p99Ms / 3 },
    non200: extra.non200 ?? 0,
    networkErrors: 0,
    cpu: { processMs: {}, foreignShare: extra.foreignShare ?? 0.02, busyShare: 0.9, stealShare: extra.stealShare ?? 0, ioStallMs: 0 },
  } as unknown as LoadResult;
  const pass = ratio >= HOT.ratio && p99Ms <= HOT.p99Ms && (extra.non200 ?? 0) === 0;
  return {
    name,
    description: name,
    target: HOT,
    load,
    ratio,
    verdict: extra.verdict ?? (pass ? 'PASS' : 'MISS'),
    notes: extra.notes ?? [],
    signSeconds: 0,
    serverCpuUsPerRequest: 400,
    databaseCpuUsPerRequest: null,
    statementsPerRequest: null,
    cpuRatio: null,
  };
}

const floorOf = (floor: { ratio: number; p99Ms: number }) => measured('floor (bare)', floor.ratio, floor.p99Ms, { verdict: 'INFO' });

describe('bench floor verdict', () => {
  it('is out of reach when the floor misses every half the service misses', () => {
    const judged = judgedByFloor(measured('hot', 0.06, 90), floorOf({ ratio: 0.09, p99Ms: 70 }));
    expect(judged.verdict).toBe(OUT_OF_REACH);
    expect(judged.notes.at(-1)).toContain('floor (bare) made 0.09 × with p99 70.0 ms');
    expect(judged.notes.at(-1)).toContain('misses the throughput and p99 too');
  });

  it('stays a miss, naming the gap, when the floor meets a half the service misses', () => {
    const rateGap = judgedByFloor(measured('hot', 0.06, 90), floorOf({ ratio: 0.16, p99Ms: 80 }));
    expect(rateGap.verdict).toBe('MISS');
    expect(rateGap.notes.at(-1)).toContain('it meets the throughput, so that gap is the service');
    const both = judgedByFloor(measured('hot', 0.06, 90), floorOf({ ratio: 0.12, p99Ms: 30 }));
    expect(both.verdict).toBe('MISS');
    expect(both.notes.at(-1)).toContain('it meets the throughput and p99');
  });

  it('needs only the halves the service missed to be missed by the floor', () => {
    // The service makes its rate and misses the p99; the floor misses the p99 as well (and its rate is beside the point).
    expect(judgedByFloor(measured('hot', 0.12, 60), floorOf({ ratio: 0.2, p99Ms: 55 })).verdict).toBe(OUT_OF_REACH);
    expect(judgedByFloor(measured('hot', 0.12, 60), floorOf({ ratio: 0.2, p99Ms: 45 })).verdict).toBe('MISS');
  });

  it('never excuses errors, failed checks, a loaded window, a pass or a missing floor', () => {
    const floor = floorOf({ ratio: 0.05, p99Ms: 200 });
    expect(judgedByFloor(measured('hot', 0.06, 90, { non200: 3 }), floor).verdict).toBe('MISS');
    expect(judgedByFloor(measured('hot', 0.06, 90, { notes: ['check failed: a balance went negative'] }), floor).verdict).toBe('MISS');
    expect(judgedByFloor(measured('hot', 0.06, 90), measured('floor (bare)', 0.05, 200, { non200: 1, verdict: 'INFO' })).verdict).toBe('MISS');
    expect(judgedByFloor(measured('hot', 0.06, 90, { foreignShare: 0.3 }), floor).verdict).toBe('MISS');
    expect(judgedByFloor(measured('hot', 0.06, 90), measured('floor (bare)', 0.05, 200, { foreignShare: 0.3, verdict: 'INFO' })).verdict).toBe('MISS');
    expect(judgedByFloor(measured('hot', 0.06, 90, { stealShare: 0.2 }), floor).verdict).toBe('MISS');
    expect(judgedByFloor(measured('hot', 0.06, 90), undefined)).toEqual(measured('hot', 0.06, 90));
    expect(judgedByFloor(measured('hot', 0.2, 20), floor).verdict).toBe('PASS');
  });

  it('looks each floor up among the same run and counts the verdicts', () => {
    const results = [measured('floor (bare)', 0.08, 70, { verdict: 'INFO' }), measured('hot', 0.06, 90), measured('read', 0.05, 12), measured('spread', 0.3, 10)];
    const judged = judgeByFloors(results, (name) => (name === 'hot' ? 'floor (bare)' : name === 'read' ? 'absent floor' : undefined));
    expect(judged.map((r) => r.verdict)).toEqual(['INFO', OUT_OF_REACH, 'MISS', 'PASS']);
    expect(verdictCounts(judged)).toBe(`1 PASS, 1 ${OUT_OF_REACH}, 1 MISS`);
  });
});

describe('bench webhook floor', () => {
  const costs = { targetPerSecond: 2000, cores: 2, serviceUs: 1500, postgresUs: 0 };

  it('is out of reach when the signatures and the receiver alone need more than the cores', () => {
    expect(webhookOutOfReach({ ...costs, signUs: 1002, receiverUs: 60 })).toContain('alone need 2.12 cores for 2,000/s');
  });

  it('leaves the rest of a delivery, however dear, to the service', () => {
    expect(webhookOutOfReach({ ...costs, signUs: 252, receiverUs: 60 })).toBeNull();
  });
});
