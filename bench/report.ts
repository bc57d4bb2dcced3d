// Results of one store's run: the shape written to bench/results/latest-<store>.json and the table printed.
import fs from 'node:fs';
import path from 'node:path';
import type { CaseTarget } from './cases.js';
import { missedHalves, verdictCounts } from './floor-verdict.js';
import { slicesNote } from './latency-slices.js';
import type { LoadResult } from './load.js';
import { REPO_ROOT, type StoreKind } from './service.js';

export const RESULTS_DIR = path.join(REPO_ROOT, 'bench', 'results');
export const MEMORY_TARGET_MIB = 300;

export interface CaseResult {
  readonly name: string;
  readonly description: string;
  readonly target: CaseTarget | null;
  readonly load: LoadResult | null;
  /** Throughput over the no-op route's in this run. */
  readonly ratio: number | null;
  /**
   * INFO: a measurement without a contract target (e.g. the in-process ledger burst). OUT OF REACH: a
   * miss that its bare floor in the same run (or, for webhooks, the printed arithmetic) misses too
   * (bench/floor-verdict.ts).
   */
  readonly verdict: 'PASS' | 'MISS' | 'OUT OF REACH' | 'REFERENCE' | 'INFO' | 'ERROR';
  /** Overrides the table's target column (cases measured in their own unit, e.g. deliveries/s). */
  readonly targetLabel?: string;
  /** Why a case missed or anything odd about it (errors, a list that ran out, failed checks). */
  readonly notes: string[];
  /** Seconds spent pre-signing this case's requests (not part of the measurement). */
  readonly signSeconds: number;
  /** CPU time the server under load spent per answered request in the window (user + system, all threads). */
  readonly serverCpuUsPerRequest: number | null;
  /** PostgreSQL runs: CPU time of the PostgreSQL server processes per answered request. */
  readonly databaseCpuUsPerRequest: number | null;
  /** Statements the service ran on its database per request over the window (background work included); on PostgreSQL, round trips. */
  readonly statementsPerRequest: number | null;
  /**
   * The no-op's server CPU per request over this case's: the throughput ratio a CPU-bound server would show.
   * Much steadier than `ratio` when other processes load the machine; a diagnostic, not the verdict.
   */
  readonly cpuRatio: number | null;
}

export interface StoreResult {
  readonly store: StoreKind;
  readonly date: string;
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly node: string; readonly platform: string };
  readonly settings: { readonly connections: number; readonly warmupSeconds: number; readonly durationSeconds: number; readonly pipelining: 1; readonly profiled: boolean };
  readonly merchants: { readonly count: number; readonly keyTypes: Record<string, number> };
  readonly cases: CaseResult[];
  readonly memory: { readonly rssMiB: number | null; readonly peakMiB: number | null; readonly targetMiB: number; readonly verdict: 'PASS' | 'MISS' | 'UNKNOWN' };
  readonly totalSeconds: number;
}

/** The no-op's server CPU per request on the machine contract section 13's targets were set on. */
export const CONTRACT_NOOP_CPU_US = 25;

/**
 * How this machine compares with the contract's reference machine, from the no-op route measured in
 * the run: what its targets mean here. A note, never a verdict; the verdicts use the figures as measured.
 */
export function machineNotes(noopCpuUsPerRequest: number | null): string[] {
  if (noopCpuUsPerRequest === null || !(noopCpuUsPerRequest > 0)) return [];
  const factor = noopCpuUsPerRequest / CONTRACT_NOOP_CPU_US;
  return [
    `machine: a no-op request costs ${noopCpuUsPerRequest.toFixed(0)} µs of server CPU here, ${factor.toFixed(1)} × the ` +
      `${CONTRACT_NOOP_CPU_US} µs of contract section 13's reference machine; a CPU-bound request's latency scales about as much`,
  ];
}

export function verdictOf(target: CaseTarget | null, load: LoadResult, ratio: number): { verdict: CaseResult['verdict']; notes: string[] } {
  const notes: string[] = [];
  if (load.non200 > 0) {
    const reasons = Object.entries(load.non200ByReason).map(([reason, n]) => `${n} × ${reason}`).join(', ');
    notes.push(`WARNING: ${load.non200} non-200 answers (${reasons})`);
    if (load.non200ByReason['401 SIGNATURE_REUSED']) notes.push('SIGNATURE_REUSED: the pre-signed list repeated a signature (harness bug)');
  }
  if (load.networkErrors > 0) notes.push(`WARNING: ${load.networkErrors} requests got no HTTP answer (first: ${load.firstNetworkError})`);
  if (load.requests === 0) notes.push('no request completed in the measured window');
  if (!target) return { verdict: 'REFERENCE', notes };
  const missed = missedHalves(target, ratio, load.latencyMs.p99);
  if (missed.rate) notes.push(`throughput ${ratio.toFixed(2)} × no-op < ${target.ratio}`);
  if (missed.p99) {
    notes.push(`p99 ${load.latencyMs.p99.toFixed(1)} ms > ${target.p99Ms} ms`);
    const where = load.slices ? slicesNote(load.slices, target.p99Ms) : null;
    if (where !== null) notes.push(where);
  }
  const pass = load.requests > 0 && load.non200 === 0 && load.networkErrors === 0 && !missed.rate && !missed.p99;
  return { verdict: pass ? 'PASS' : 'MISS', notes };
}

const fmtInt = (n: number): string => Math.round(n).toLocaleString('en-US');
const fmtMs = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : '-');

function pad(cells: string[], widths: number[], rightAlign: boolean[]): string {
  return cells.map((cell, i) => (rightAlign[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd();
}

export function formatTable(result: StoreResult): string {
  const header = ['case', 'req/s', 'p50 ms', 'p99 ms', 'non-200', 'CPU µs/req', 'ratio', 'cpu ratio', 'target', 'result'];
  const right = [false, true, true, true, true, true, true, true, false, false];
  const rows = result.cases.map((c) => [
    c.name,
    c.load ? fmtInt(c.load.rps) : '-',
    c.load ? fmtMs(c.load.latencyMs.p50) : '-',
    c.load ? fmtMs(c.load.latencyMs.p99) : '-',
    c.load ? String(c.load.non200 + c.load.networkErrors) : '-',
    c.serverCpuUsPerRequest === null
      ? '-'
      : c.serverCpuUsPerRequest.toFixed(0) + (c.databaseCpuUsPerRequest === null ? '' : `+${c.databaseCpuUsPerRequest.toFixed(0)} db`),
    c.ratio === null ? '-' : c.ratio.toFixed(2),
    c.cpuRatio === null ? '-' : c.cpuRatio.toFixed(2),
    c.targetLabel ?? (c.target ? `${c.target.ratio > 0 ? `≥${c.target.ratio}×, ` : ''}p99≤${c.target.p99Ms}ms` : 'reference'),
    c.verdict === 'REFERENCE' ? '' : c.verdict,
  ]);
  const m = result.memory;
  rows.push([
    'service RSS',
    m.rssMiB === null ? '-' : `${m.rssMiB.toFixed(0)} MiB`,
    '',
    '',
    '',
    '',
    '',
    '',
    `<${m.targetMiB} MiB (peak ${m.peakMiB === null ? '?' : m.peakMiB.toFixed(0)})`,
    m.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const lines = [pad(header, widths, right), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map((r) => pad(r, widths, right))];
  lines.push('', `verdicts: ${verdictCounts(result.cases) || 'none'}; memory ${m.verdict}`);
  const notes = result.cases.flatMap((c) => c.notes.map((note) => `  ${c.name}: ${note}`));
  if (result.settings.profiled) notes.unshift('  (profiled run: the service ran under the V8 profiler, figures are a little low)');
  return [...lines, ...(notes.length ? ['', 'notes:', ...notes] : [])].join('\n');
}

export function writeResult(result: StoreResult): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `latest-${result.store}.json`);
  // A window's latency histogram is a native object: its figures are in latencyMs already.
  fs.writeFileSync(file, JSON.stringify(result, (key, value: unknown) => (key === 'histogram' ? undefined : value), 2) + '\n');
  return file;
}

/** The previous run's throughput per case for this store (sizes the pre-signed lists), if any. */
export function previousRates(store: StoreKind): Map<string, number> {
  const rates = new Map<string, number>();
  try {
    const previous = JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, `latest-${store}.json`), 'utf8')) as StoreResult;
    for (const c of previous.cases) {
      // A case that answered errors may have been fast for the wrong reason; don't size from it.
      if (c.load && c.load.non200 === 0 && c.load.rps > 0) rates.set(c.name, c.load.rps);
    }
  } catch {
    // first run, or an unreadable file: fall back to the cases' expectedRatio
  }
  return rates;
}
