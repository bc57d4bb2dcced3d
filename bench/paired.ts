// The million repeats measured in alternating windows. On a shared 2-core host, two identical runs
// minutes apart differ by up to 40 % (session 6), so a repeat measured once, minutes after its base,
// cannot show whether it is within 10 %. Nor is the run's own service a fair base: by then it has
// served every earlier case, and its one-time-signature table and caches are those of a long run.
// So two fresh twin services are started alike and seeded alike, one with 10,000 payments (A) and one
// with the million (B); each repeat runs on B and its base case on A, window by window in turn
// (A, B, A, B), so drift of the machine falls on both sides and the stored payments are the only
// difference between them.
import type { CpuUsage } from './cpu.js';
import { latencyOf, newLatencyHistogram, type LatencyMs } from './latency.js';
import type { LoadResult } from './load.js';

/** Windows per side at the least: A, B, A, B. */
export const PAIRED_ROUNDS = 2;
/**
 * Windows per side at the most. While a side's windows differ from one another by more than the
 * tolerance the repeat is judged with (the same service and case, so the spread is the machine's
 * drift), another round is measured, up to this many: the sums over more windows average the drift
 * out. Whether to go on depends only on that spread, never on the verdict so far, so the extra rounds
 * cannot favour a pass.
 */
export const PAIRED_MAX_ROUNDS = 4;

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

function mergeCounts(counts: readonly Record<string, number>[]): Record<string, number> {
  const merged: Record<string, number> = {};
  for (const count of counts) for (const [key, n] of Object.entries(count)) merged[key] = (merged[key] ?? 0) + n;
  return merged;
}

function combineCpu(loads: readonly LoadResult[]): CpuUsage | null {
  if (loads.some((load) => load.cpu === null)) return null;
  const seconds = sum(loads.map((load) => load.seconds));
  const weighted = (share: (cpu: CpuUsage) => number): number =>
    seconds > 0 ? sum(loads.map((load) => share(load.cpu!) * load.seconds)) / seconds : 0;
  return {
    processMs: mergeCounts(loads.map((load) => load.cpu!.processMs)),
    foreignShare: weighted((cpu) => cpu.foreignShare),
    busyShare: weighted((cpu) => cpu.busyShare),
    stealShare: weighted((cpu) => cpu.stealShare),
    ioStallMs: loads.some((load) => load.cpu!.ioStallMs === null) ? null : sum(loads.map((load) => load.cpu!.ioStallMs!)),
  };
}

/**
 * The latency of all the windows' requests together. Each window keeps its histogram, so the
 * percentiles are those of every request the side answered (the contract's p99 is over requests, not
 * windows). Without histograms (a case that timed itself) percentiles cannot be merged: p50, p90 and
 * the mean are then the windows' request-weighted means and p99 and max the worst window's.
 */
function combineLatency(loads: readonly LoadResult[], requests: number): { latencyMs: LatencyMs; histogram: LoadResult['histogram'] } {
  if (loads.every((load) => load.histogram !== null)) {
    const histogram = newLatencyHistogram();
    for (const load of loads) histogram.add(load.histogram!);
    return { latencyMs: latencyOf(histogram), histogram };
  }
  const weightedMs = (pick: (load: LoadResult) => number): number =>
    requests > 0 ? sum(loads.map((load) => pick(load) * load.requests)) / requests : NaN;
  return {
    latencyMs: {
      p50: weightedMs((load) => load.latencyMs.p50),
      p90: weightedMs((load) => load.latencyMs.p90),
      p99: Math.max(...loads.map((load) => load.latencyMs.p99)),
      max: Math.max(...loads.map((load) => load.latencyMs.max)),
      mean: weightedMs((load) => load.latencyMs.mean),
    },
    histogram: null,
  };
}

/** One side's windows as one measurement: requests, seconds and CPU add up, so the rate and the CPU per request are over all of them. */
export function combineLoads(loads: readonly LoadResult[]): LoadResult {
  if (loads.length === 0) throw new Error('combineLoads: no windows');
  if (loads.length === 1) return loads[0]!;
  const requests = sum(loads.map((load) => load.requests));
  const seconds = sum(loads.map((load) => load.seconds));
  return {
    requests,
    seconds,
    rps: seconds > 0 ? requests / seconds : 0,
    ...combineLatency(loads, requests),
    non200: sum(loads.map((load) => load.non200)),
    non200ByReason: mergeCounts(loads.map((load) => load.non200ByReason)),
    warmupNon200ByReason: mergeCounts(loads.map((load) => load.warmupNon200ByReason)),
    firstNon200: loads.find((load) => load.firstNon200 !== null)?.firstNon200 ?? null,
    networkErrors: sum(loads.map((load) => load.networkErrors)),
    firstNetworkError: loads.find((load) => load.firstNetworkError !== null)?.firstNetworkError ?? null,
    requestsSent: sum(loads.map((load) => load.requestsSent)),
    poolSize: sum(loads.map((load) => load.poolSize)),
    exhausted: loads.some((load) => load.exhausted),
    cpu: combineCpu(loads),
    counted: loads.some((load) => load.counted === null) ? null : sum(loads.map((load) => load.counted!)),
    loadGcMs: sum(loads.map((load) => load.loadGcMs)),
  };
}

/**
 * Each window's rate and p99, in the order run, for the notes:
 * "A 1,020 / B 990 / A 1,101 / B 1,050 req/s, p99 A 9.10 / B 8.75 / A 12.02 / B 9.33 ms".
 */
export function windowRates(base: readonly LoadResult[], repeat: readonly LoadResult[]): string {
  const rates: string[] = [];
  const tails: string[] = [];
  for (let i = 0; i < Math.max(base.length, repeat.length); i++) {
    for (const [side, load] of [['A', base[i]], ['B', repeat[i]]] as const) {
      if (!load) continue;
      rates.push(`${side} ${Math.round(load.rps).toLocaleString('en-US')}`);
      tails.push(`${side} ${load.latencyMs.p99.toFixed(2)}`);
    }
  }
  return `${rates.join(' / ')} req/s, p99 ${tails.join(' / ')} ms`;
}

/** How far one side's windows spread: the fastest window's rate over the slowest's, less one (0 for one window). */
export function spreadOf(loads: readonly LoadResult[]): number {
  if (loads.length < 2) return 0;
  const rates = loads.map((load) => load.rps);
  const slowest = Math.min(...rates);
  return slowest > 0 ? Math.max(...rates) / slowest - 1 : Infinity;
}

/**
 * Whether the alternating windows need another round: fewer than PAIRED_ROUNDS per side, or fewer than
 * PAIRED_MAX_ROUNDS while either side's windows spread by more than `tolerance`.
 */
export function needsAnotherRound(base: readonly LoadResult[], repeat: readonly LoadResult[], tolerance: number): boolean {
  const rounds = Math.min(base.length, repeat.length);
  if (rounds < PAIRED_ROUNDS) return true;
  if (rounds >= PAIRED_MAX_ROUNDS) return false;
  return spreadOf(base) > tolerance || spreadOf(repeat) > tolerance;
}

/** A spread for the notes: "14 %". */
export const spreadText = (spread: number): string => `${Math.round(spread * 100)} %`;

/** The no-op route's figures a case's ratio divides by: its rate, and its server's CPU per request. */
export interface NoopFigures {
  readonly rps: number;
  readonly cpuUsPerRequest: number | null;
}

/** The no-op server's CPU a request in a window (or windows combined), when it was measured. */
const noopCpuUsOf = (load: LoadResult): number | null => {
  const ms = load.cpu?.processMs.noop;
  return ms !== undefined && load.requests > 0 ? (ms * 1000) / load.requests : null;
};

/**
 * The no-op's two windows around a case (bench/run.ts, NEAR_NOOP) as one divisor: their requests over
 * their seconds, so a machine that sped up or slowed down during the case is met halfway.
 */
export function noopAround(before: LoadResult, after: LoadResult): NoopFigures {
  const both = combineLoads([before, after]);
  return { rps: both.rps, cpuUsPerRequest: noopCpuUsOf(both) };
}

/**
 * Notes for a case judged by a rate of its own (webhook dispatch's deliveries a second), not by a ratio:
 * what the no-op route did right before and after it, so a minute in which the machine ran slower than
 * the run's first no-op said is visible, and, when `measured` is given and the windows measured the
 * no-op's CPU, the rate scaled to contract section 13's reference machine (a no-op at
 * `referenceNoopCpuUs`). The scaling holds for a case whose work is CPU on this machine; it is an
 * estimate beside the verdict, which stays the measured rate's.
 */
export function machineAroundNotes(
  before: LoadResult,
  after: LoadResult,
  first: NoopFigures | null,
  measured: { readonly rate: number; readonly unit: string } | null,
  referenceNoopCpuUs: number,
): string[] {
  const count = (figure: number): string => Math.round(figure).toLocaleString('en-US');
  const shown = (rps: number, cpuUs: number | null): string => `${count(rps)} req/s` + (cpuUs === null ? '' : ` (${cpuUs.toFixed(0)} µs of server CPU a request)`);
  const notes = [
    `the no-op route around the case: ${shown(before.rps, noopCpuUsOf(before))} before, ${shown(after.rps, noopCpuUsOf(after))} after` +
      (first ? `; the run's first no-op: ${shown(first.rps, first.cpuUsPerRequest)}` : ''),
  ];
  const around = noopAround(before, after).cpuUsPerRequest;
  if (measured && around !== null && around > 0) {
    notes.push(
      `at the speed of contract section 13's reference machine (a no-op at ${referenceNoopCpuUs} µs of server CPU) the ${count(measured.rate)} ${measured.unit} ` +
        `would be about ${count((measured.rate * around) / referenceNoopCpuUs)} (scaled by the no-op's ${around.toFixed(0)} µs around the case; an estimate, not the verdict)`,
    );
  }
  return notes;
}
