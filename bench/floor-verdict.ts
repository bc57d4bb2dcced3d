// Whether a missed line of contract section 13 is the service's to close or out of reach on this
// machine: each service case names its bare floor (a server on the same parts doing only what the
// contract requires of that request, measured in the same run). A half the floor misses too (its
// throughput or its p99) no arrangement of the service can meet here; one the floor meets, it can.
import type { CaseTarget } from './cases.js';
import { sharedTheMachine } from './cpu.js';
import type { CaseResult } from './report.js';

export const OUT_OF_REACH = 'OUT OF REACH';

/** The floor cases' names; each does no more than the service cases that name it as their floor. */
export const FLOORS = {
  /** Signature, one-time record, a balance from memory: less than any signed read (balance, bank codes, status). */
  signedRead: 'signed read floor (bare)',
  /** A signed read that also reads a keyset page of 50 rows from the store and writes their records (bench/list-floor.ts). */
  listPage: 'list page floor (bare)',
  payment: 'payment floor (bare)',
  payoutHot: 'payout floor, hot merchant (bare)',
  /** The same bare payout over every merchant of the run in turn (both key types), for the spread payout line. */
  payoutSpread: 'payout floor, spread (bare)',
} as const;

/** The two halves of a target a window can miss. */
export interface Halves {
  readonly rate: boolean;
  readonly p99: boolean;
}

/** Which halves of `target` a window misses: the one rule of the verdicts (report.ts) and of the floors'. */
export function missedHalves(target: CaseTarget, ratio: number, p99Ms: number): Halves {
  return { rate: ratio < target.ratio, p99: !(p99Ms <= target.p99Ms) };
}

/** Every answer in the window a 200, no request lost, no check after it failed. */
export function answeredCleanly(result: CaseResult): boolean {
  const load = result.load;
  return load !== null && load.non200 === 0 && load.networkErrors === 0 && !result.notes.some((note) => note.startsWith('check failed'));
}

/** A case whose figures can say what is out of reach: answered cleanly, not empty, its window not loaded by other processes. */
function fit(result: CaseResult): boolean {
  const load = result.load;
  return load !== null && load.requests > 0 && answeredCleanly(result) && !sharedTheMachine(load.cpu);
}

const halvesText = (halves: Halves): string =>
  [halves.rate ? 'throughput' : null, halves.p99 ? 'p99' : null].filter((h) => h !== null).join(' and ');

/**
 * The service case's verdict with its floor's figures beside it: OUT OF REACH when it missed only
 * halves its floor (judged against the service case's own target) missed too in the same run, else
 * as it was, with a note either way. A case without a floor in this run keeps its verdict.
 */
export function judgedByFloor(result: CaseResult, floor: CaseResult | undefined): CaseResult {
  const { target, ratio, load } = result;
  if (result.verdict !== 'MISS' || !target || ratio === null || !load || !floor?.load || floor.ratio === null) return result;
  if (!fit(result) || !fit(floor)) return result;
  const missed = missedHalves(target, ratio, load.latencyMs.p99);
  const floorMissed = missedHalves(target, floor.ratio, floor.load.latencyMs.p99);
  const figures =
    `floor: ${floor.name} made ${floor.ratio.toFixed(2)} × with p99 ${floor.load.latencyMs.p99.toFixed(1)} ms in this run ` +
    `(target ≥ ${target.ratio} ×, p99 ≤ ${target.p99Ms} ms)`;
  const outOfReach = (!missed.rate || floorMissed.rate) && (!missed.p99 || floorMissed.p99);
  if (outOfReach) {
    return {
      ...result,
      verdict: OUT_OF_REACH,
      notes: [...result.notes, `${figures}: it misses the ${halvesText(missed)} too, so no server on these parts meets it on this machine`],
    };
  }
  const closable = { rate: missed.rate && !floorMissed.rate, p99: missed.p99 && !floorMissed.p99 };
  return { ...result, notes: [...result.notes, `${figures}: it meets the ${halvesText(closable)}, so that gap is the service's own`] };
}

/** Every case of a store's run judged by its floor (`floorOf` names it), the floors looked up among the same results. */
export function judgeByFloors(results: readonly CaseResult[], floorOf: (name: string) => string | undefined): CaseResult[] {
  return results.map((result) => {
    const floorName = floorOf(result.name);
    return floorName === undefined ? result : judgedByFloor(result, results.find((r) => r.name === floorName));
  });
}

/** One line counting the run's verdicts, so the state of section 13 reads at a glance. */
export function verdictCounts(results: readonly CaseResult[]): string {
  const counts = new Map<string, number>();
  for (const result of results) {
    if (result.verdict === 'REFERENCE' || result.verdict === 'INFO') continue;
    counts.set(result.verdict, (counts.get(result.verdict) ?? 0) + 1);
  }
  const order = ['PASS', OUT_OF_REACH, 'MISS', 'ERROR'];
  return order
    .filter((verdict) => counts.has(verdict))
    .map((verdict) => `${counts.get(verdict)} ${verdict}`)
    .join(', ');
}
