// `npm run bench`: measures the service against the contract's performance targets (section 13).
//
//   npm run bench                          SQLite, then PostgreSQL (skipped with a note if unreachable)
//   npm run bench -- --store postgres      one store (or BENCH_STORE=sqlite|postgres|all)
//   npm run bench -- --case bankCode       only cases whose name contains the text (the no-op always runs)
//   npm run bench -- --duration 10 --warmup 2 --connections 50 --merchants 20
//
// For each store: start the service in its own process on a fresh database, create merchants through the
// operator API, then per case pre-sign the requests, warm up, measure, and compare with the target as a
// ratio to the no-op Fastify route (bench/noop-server.ts, its own process) measured in the same run.
// Prints a table and writes bench/results/latest-<store>.json. See docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CASES, NOOP_CASE, type BenchCase } from './cases.js';
import { EXPORT_CASE } from './cases-export.js';
import { BASELINE_PAYMENTS, ensureSeeded, MILLION, MILLION_TOLERANCE, millionCases } from './cases-million.js';
import { createContext, type BenchContext } from './context.js';
import { FOREIGN_CPU_WARNING, measureUnshared, SHARED_WINDOW_RETAKES, sharedTheMachine, snapshot, untilOutsideLoadPasses, usageBetween } from './cpu.js';
import { runLoad, type LoadResult, type PreparedRequest } from './load.js';
import { combineLoads, machineAroundNotes, needsAnotherRound, noopAround, PAIRED_ROUNDS, spreadOf, spreadText, windowRates, type NoopFigures } from './paired.js';
import { summariseProfile, type Profile } from './profile-summary.js';
import { InspectorProfiler } from './profiler.js';
import { holdReconciler } from './leftovers.js';
import { answeredCleanly, judgeByFloors, OUT_OF_REACH } from './floor-verdict.js';
import { CONTRACT_NOOP_CPU_US, formatTable, machineNotes, MEMORY_TARGET_MIB, RESULTS_DIR, previousRates, verdictOf, writeResult, type CaseResult, type StoreResult } from './report.js';
import { cleanupAll, freePort, killAll, postgresReachable, startFloorServer, startNoopServer, startService, vacuumWithoutAutovacuum, type BenchServer, type RunningProcess, type RunningService, type StoreKind } from './service.js';
import { apiPath, RequestSigner, type RequestTemplate } from './signing.js';
import { listSize, retryRate } from './list-size.js';

interface Settings {
  readonly stores: StoreKind[];
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  readonly merchantCount: number;
  readonly caseFilters: string[];
  readonly maxRequests: number;
  readonly profile: boolean;
  /** Run the million-payment repeats (`--no-million` leaves them out, for a quicker look). */
  readonly million: boolean;
}

const USAGE = `usage: npm run bench -- [--store sqlite|postgres|all] [--case <text>]... [--duration <s>] [--warmup <s>]
                          [--connections <n>] [--merchants <n>] [--max-requests <n>] [--profile] [--no-million]`;

function readSettings(): Settings {
  const { values } = parseArgs({
    options: {
      store: { type: 'string' },
      case: { type: 'string', multiple: true },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      merchants: { type: 'string' },
      'max-requests': { type: 'string' },
      profile: { type: 'boolean' },
      'no-million': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const number = (raw: string | undefined, fallback: number, name: string, min: number): number => {
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min) throw new Error(`--${name} must be a number ≥ ${min}, got "${raw}"`);
    return value;
  };
  const store = values.store ?? process.env.BENCH_STORE ?? 'all';
  if (!['sqlite', 'postgres', 'all'].includes(store)) throw new Error(`--store must be sqlite, postgres or all, got "${store}"`);
  return {
    stores: store === 'all' ? ['sqlite', 'postgres'] : [store as StoreKind],
    durationSeconds: number(values.duration, 5, 'duration', 1),
    warmupSeconds: number(values.warmup, 1, 'warmup', 0),
    connections: Math.round(number(values.connections, 50, 'connections', 1)),
    merchantCount: Math.round(number(values.merchants, 20, 'merchants', 1)),
    caseFilters: (values.case ?? []).flatMap((c) => c.split(',')).map((c) => c.trim().toLowerCase()).filter(Boolean),
    maxRequests: Math.round(number(values['max-requests'], 400_000, 'max-requests', 1000)),
    profile: values.profile ?? false,
    million: !(values['no-million'] ?? false),
  };
}

const PROFILE_DIR = path.join(RESULTS_DIR, 'profiles');

/**
 * Every case of a run: the cases, then each again with a million payments stored (bench/cases-million.ts),
 * then a million-row CSV export under the memory budget (bench/cases-export.ts).
 */
const ALL_CASES: readonly BenchCase[] = [...CASES, ...millionCases(CASES), EXPORT_CASE];

/**
 * A case repeated under other conditions (`baseline`): PASS when its throughput is within
 * MILLION_TOLERANCE of the base case's in this run; its own ratio and p99 are still shown.
 */
function againstBaseline(found: CaseResult, base: CaseResult | undefined, diagnostic = false): CaseResult {
  const result = { ...found, diagnostic };
  if (!result.load || result.verdict === 'ERROR') return result;
  if (!base?.load) return { ...result, verdict: 'INFO', targetLabel: 'within 10 % (no base figure in this run)' };
  const share = result.load.rps / base.load.rps;
  const within = share >= 1 - MILLION_TOLERANCE;
  const healthy = answeredCleanly(result);
  const notes = [
    ...result.notes.filter((n) => !n.startsWith('throughput ') && !n.startsWith('p99 ')),
    `${Math.round(share * 100)} % of ${base.name}'s ${Math.round(base.load.rps).toLocaleString('en-US')} req/s` +
      ` (its own target ${result.verdict === 'PASS' ? 'met' : 'not met'})` +
      // CPU per request is the steadier comparison on a shared machine.
      (result.serverCpuUsPerRequest && base.serverCpuUsPerRequest
        ? `; server CPU ${Math.round(result.serverCpuUsPerRequest)} µs/req, ${Math.round((100 * result.serverCpuUsPerRequest) / base.serverCpuUsPerRequest)} % of the base's`
        : ''),
  ];
  return {
    ...result,
    notes,
    targetLabel: `≥${Math.round((1 - MILLION_TOLERANCE) * 100)}% of ${Math.round(base.load.rps).toLocaleString('en-US')}`,
    verdict: result.diagnostic ? 'INFO' : within && healthy ? 'PASS' : 'MISS',
  };
}

/**
 * Before each case: wait until the service, the simulator and PostgreSQL are idle, so background work
 * an earlier case left (payouts completing at the simulator, their callbacks, webhooks, settlement)
 * does not run under the next window. In session 6, `payment/list, 4 connections` measured 3,326 µs of
 * service CPU a page while the simulator still spent 338 µs a request on the payout cases' tail.
 */
const SETTLE = { sampleMs: 500, quietShare: 0.05, maxMs: 60_000 } as const;

let vacuumNoted = false;

async function settle(servers: Servers, caseName: string, pgSchemas: readonly (string | null)[] = []): Promise<void> {
  const started = performance.now();
  if (await vacuumWithoutAutovacuum(pgSchemas.filter((schema) => schema !== null))) {
    if (!vacuumNoted) log(`  PostgreSQL runs with autovacuum off: each quiet start vacuums and analyzes the bench tables that autovacuum would have, by its default thresholds`);
    vacuumNoted = true;
  }
  const quiet = await untilQuiet(servers, started);
  if (!quiet.quiet) {
    log(`  ${caseName}: background work still ran after ${SETTLE.maxMs / 1000} s (${Math.round(quiet.lastBusyMs)} ms of CPU in the last ${SETTLE.sampleMs} ms); measuring anyway`);
  } else if (quiet.waitedMs > 2 * SETTLE.sampleMs) {
    log(`  ${caseName}: waited ${(quiet.waitedMs / 1000).toFixed(1)} s for the earlier cases' background work to finish`);
  }
}

/**
 * The no-op route's windows around each case with a ratio target (session 40): one just before the
 * case and one after it, each once the machine is quiet. On this shared machine the no-op's own rate
 * moved by a quarter between windows seconds apart and by half over a run, so a ratio to the run's first
 * no-op, minutes earlier, carried that drift; the two windows beside the case share its minute. A custom
 * case that asks for them (BenchCase.noopAround: webhook dispatch, session 44) gets them too, for its notes.
 */
const NEAR_NOOP = { warmupSeconds: 0.5, durationSeconds: 2 } as const;

/** A case judged by its ratio to the no-op route, measured by the harness (not a custom case). */
const bracketed = (benchCase: BenchCase): boolean => benchCase.target !== null && benchCase.server !== 'noop' && !benchCase.custom;

/** Above this many ms of a window with some task waiting on I/O, the case's notes say so. */
const IO_STALL_NOTE_MS = 100;

/** The processes whose CPU each window reports by name (the rest counts as other processes). */
function watchedPids(servers: Servers): Record<string, number> {
  return {
    service: servers.service.pid,
    noop: servers.noop.pid,
    simulator: servers.simulator.pid,
    ...(servers.floor ? { floor: servers.floor.pid } : {}),
    ...(servers.floorSimulator ? { 'floor simulator': servers.floorSimulator.pid } : {}),
  };
}

/** Waits until the service, the simulator, the floor and its bank, and PostgreSQL use under SETTLE.quietShare of a sample (at most SETTLE.maxMs). */
async function untilQuiet(servers: Servers, started: number): Promise<{ quiet: boolean; waitedMs: number; lastBusyMs: number }> {
  const { noop: _noop, ...pids } = watchedPids(servers);
  for (;;) {
    const before = snapshot(pids);
    await new Promise((resolve) => setTimeout(resolve, SETTLE.sampleMs));
    const used = usageBetween(before, snapshot(pids)).processMs;
    const busyMs = Object.values(used).reduce((sum, ms) => sum + (ms ?? 0), 0);
    const waitedMs = performance.now() - started;
    if (busyMs < SETTLE.quietShare * SETTLE.sampleMs) return { quiet: true, waitedMs, lastBusyMs: busyMs };
    if (waitedMs > SETTLE.maxMs) return { quiet: false, waitedMs, lastBusyMs: busyMs };
  }
}

/**
 * A write case's cost once its background work is done (BenchCase.allIn): the CPU the service, the
 * simulator and PostgreSQL used from the warm-up's first request until they went quiet after the load,
 * per 200 answer of warm-up and window together. The window's own figure counts only the background
 * work that happened to run inside it, so a build that put work off past the window would look cheaper
 * there and not here.
 */
async function allInNote(servers: Servers, load: LoadResult, store: StoreKind, server: BenchCase['server']): Promise<string | null> {
  if (!load.fromStart || load.fromStart.answered200 === 0) return null;
  const started = performance.now();
  const quiet = await untilQuiet(servers, started);
  const floor = server === 'floor';
  const used = usageBetween(load.fromStart.before, snapshot(watchedPids(servers))).processMs;
  const per = (ms: number | undefined): string => (((ms ?? 0) * 1000) / load.fromStart!.answered200).toFixed(0);
  return (
    `all-in: ${per(floor ? used.floor : used.service)} µs of the ${floor ? 'floor server' : 'service'}'s CPU per request` +
    (store === 'postgres' ? ` + PostgreSQL ${per(used.postgres)} µs` : '') +
    `, simulator ${per(floor ? used['floor simulator'] : used.simulator)} µs, over the ${load.fromStart.answered200.toLocaleString('en-US')} answered in warm-up and window, ` +
    `counted until the background work ${quiet.quiet ? `went quiet ${(quiet.waitedMs / 1000).toFixed(1)} s after the load` : `still ran ${(quiet.waitedMs / 1000).toFixed(0)} s after the load`}`
  );
}


const log = (line: string): void => void process.stdout.write(`${line}\n`);

/** The no-op gets requests of the signed requests' shape (headers included), unsigned and repeatable. */
function unsignedRequests(templates: RequestTemplate[]): PreparedRequest[] {
  const fakeSignature = Buffer.alloc(256, 7).toString('base64');
  const timestamp = String(Math.floor(Date.now() / 1000));
  return templates.map((t) => ({
    path: apiPath(t.path),
    body: typeof t.body === 'string' ? t.body : JSON.stringify(t.body),
    headers: { 'Content-Type': 'application/json', MerchantID: t.merchant.id, Timestamp: timestamp, Signature: fakeSignature },
  }));
}

interface Servers {
  readonly service: RunningProcess;
  readonly noop: RunningProcess;
  /** The bare signed read (bench/floor-server.ts); on the run's service only, not on the million twins. */
  readonly floor?: RunningProcess;
  /** The bank simulator's own process: watched so its CPU is neither the service's nor "other processes". */
  readonly simulator: RunningProcess;
  /** The floor's own bank simulator, which the bare payout submits to. */
  readonly floorSimulator?: RunningProcess;
}

/** One scrape of the service's /metrics: an unlabelled metric's value by name, NaN when it is absent. */
async function scrapeMetrics(baseUrl: string, names: readonly string[]): Promise<(name: string) => number> {
  const text = await (await fetch(`${baseUrl}/metrics?${names.map((name) => `name[]=${name}`).join('&')}`)).text();
  return (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
}

/**
 * The statements the service has run on its database (its /metrics); null when unreadable. Read at
 * the window's opening, while the load runs: only that metric is asked for, since the whole page
 * (its backlogs counted in the database, every histogram's text) held the service's event loop for
 * 5 ms or more, and every request in flight with it (session 46: the first 100 ms of an
 * account/balance window at a mean of 36 ms, against 7.5 for the window's median slice).
 */
async function statementCount(baseUrl: string): Promise<number | null> {
  try {
    const value = (await scrapeMetrics(baseUrl, ['paygate_db_statements_total']))('paygate_db_statements_total');
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

/** The service's V8 heap from its /metrics: tells heap growth apart from memory held outside it. */
async function heapFigures(baseUrl: string): Promise<string> {
  try {
    // The total comes first: prom-client reads the process's memory once, in the total's collection, and
    // sets the used and external figures from it, so asked for before it they would show the last read.
    const metric = await scrapeMetrics(baseUrl, ['nodejs_heap_size_total_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_external_memory_bytes']);
    const mib = (name: string): string => {
      const value = metric(name);
      return Number.isFinite(value) ? (value / 2 ** 20).toFixed(0) : '?';
    };
    return `V8 heap ${mib('nodejs_heap_size_used_bytes')} used of ${mib('nodejs_heap_size_total_bytes')} MiB, external ${mib('nodejs_external_memory_bytes')} MiB`;
  } catch {
    return 'heap figures unavailable';
  }
}

/** Saves a window's profile as bench/results/profiles/<store>-<case>.cpuprofile and prints its summary. */
function saveProfile(profile: Profile, store: StoreKind, caseName: string): void {
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
  const file = path.join(PROFILE_DIR, `${store}-${caseName.replace(/[^A-Za-z0-9]+/g, '-')}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  log(`\n${summariseProfile(profile, `CPU profile of the service, measured window (${file})`, 20)}\n`);
}

/**
 * Pre-signs for the expected rate and measures; if the list runs out early in the window (the service is
 * faster than expected), signs again for the rate just seen and measures once more. Indexes continue across
 * attempts, so a case's requests stay distinct (e.g. fresh merchantRefs).
 */
async function measureSigned(
  benchCase: BenchCase,
  requestAt: (i: number) => RequestTemplate,
  settings: Settings,
  signer: RequestSigner,
  expectedRps: number,
  measure: (requests: PreparedRequest[]) => Promise<LoadResult>,
  startIndex = 0,
): Promise<{ load: LoadResult; signSeconds: number; nextIndex: number }> {
  let next = startIndex;
  let expected = expectedRps;
  let signSeconds = 0;
  for (let attempt = 1; ; attempt++) {
    const count = listSize(settings, expected);
    const templates = Array.from({ length: count }, (_, i) => requestAt(next + i));
    next += count;
    const signStart = Date.now();
    const requests = await signer.sign(templates);
    const seconds = (Date.now() - signStart) / 1000;
    signSeconds += seconds;
    const rsa = templates.filter((t) => t.merchant.keyType === 'RSA-SHA512').length;
    log(`  ${benchCase.name}: pre-signed ${count.toLocaleString('en-US')} requests (${Math.round((100 * rsa) / count)} % RSA-SHA512) in ${seconds.toFixed(1)} s`);
    const load = await measure(requests);
    if (!load.exhausted || load.seconds >= 0.6 * settings.durationSeconds || attempt >= 2) return { load, signSeconds, nextIndex: next };
    log(`  ${benchCase.name}: the list ran out ${load.seconds.toFixed(1)} s into the window (${Math.round(load.rps)} req/s); measuring again`);
    expected = retryRate(load.rps, load.seconds, expected, count, settings.warmupSeconds);
  }
}

/**
 * Why a throughput or latency target was missed, in figures: the service is one Node process, so
 * its rate is at most one core's second divided by its CPU per request; and with closed-loop
 * connections the mean latency is connections / rate (Little's law), so a p99 budget is out of reach
 * while the rate is. docs/benchmarks.md ("What is out of reach") gives the breakdown behind them.
 */
function reachNotes(
  target: BenchCase['target'],
  load: LoadResult,
  noop: NoopFigures | null,
  serverCpuUsPerRequest: number | null,
  connections: number,
  server: BenchCase['server'],
): string[] {
  if (!target || !noop?.rps || !serverCpuUsPerRequest || load.rps <= 0) return [];
  const notes: string[] = [];
  const neededRps = target.ratio * noop.rps;
  if (target.ratio > 0 && load.rps < neededRps) {
    const budgetUs = 1e6 / neededRps;
    const ceilingRps = 1e6 / serverCpuUsPerRequest;
    notes.push(
      `reach: ${target.ratio} × no-op is ${Math.round(neededRps).toLocaleString('en-US')} req/s, at most ${budgetUs.toFixed(0)} µs of the ` +
        `${server === 'floor' ? 'floor server' : 'service'}'s CPU per request; it spends ${serverCpuUsPerRequest.toFixed(0)} µs (${(serverCpuUsPerRequest / budgetUs).toFixed(1)} × the budget), ` +
        `so one process cannot pass ${Math.round(ceilingRps).toLocaleString('en-US')} req/s on a core of its own`,
    );
  }
  const queueMs = (connections / load.rps) * 1000;
  if (load.latencyMs.p99 > target.p99Ms && queueMs > target.p99Ms / 2) {
    notes.push(`reach: ${connections} closed-loop connections at ${Math.round(load.rps).toLocaleString('en-US')} req/s wait ${queueMs.toFixed(1)} ms on average (connections / rate)`);
  }
  return notes;
}

/** What the table and the JSON say about one measured case. */
function describe(
  benchCase: BenchCase,
  store: StoreKind,
  load: LoadResult,
  signSeconds: number,
  noop: NoopFigures | null,
  problems: string[],
  connections: number,
): CaseResult {
  const ratio = benchCase.target === null ? 1 : noop?.rps ? load.rps / noop.rps : 0;
  const { verdict, notes } = verdictOf(benchCase.target, load, ratio);
  const perRequest = (ms: number | undefined): number | null => (ms !== undefined && load.requests > 0 ? (ms * 1000) / load.requests : null);
  const serverCpuUsPerRequest = perRequest(load.cpu?.processMs[benchCase.server]);
  const databaseCpuUsPerRequest = store === 'postgres' && benchCase.server !== 'noop' ? perRequest(load.cpu?.processMs.postgres) : null;
  const simulatorCpuUsPerRequest =
    benchCase.server === 'service' ? perRequest(load.cpu?.processMs.simulator) : benchCase.server === 'floor' ? perRequest(load.cpu?.processMs['floor simulator']) : null;
  const statementsPerRequest = load.counted !== null && load.requests > 0 ? load.counted / load.requests : null;
  if (load.cpu && load.cpu.foreignShare > FOREIGN_CPU_WARNING) {
    notes.push(
      `WARNING: other processes used ${Math.round(load.cpu.foreignShare * 100)} % of the machine's CPU during the window; ` +
        'this figure (and every ratio to it) is unreliable: re-run on a quiet machine',
    );
  }
  if (load.cpu && load.cpu.stealShare > FOREIGN_CPU_WARNING) {
    notes.push(
      `WARNING: the hypervisor gave ${Math.round(load.cpu.stealShare * 100)} % of the machine's CPU to other guests during the window (steal); ` +
        'this figure (and every ratio to it) is unreliable: re-run on a quiet machine',
    );
  }
  if (load.cpu?.ioStallMs && load.cpu.ioStallMs > IO_STALL_NOTE_MS) {
    notes.push(`some task on the machine waited on I/O for ${Math.round(load.cpu.ioStallMs)} ms of the window (pressure stall information): slow fsyncs lengthen the tail`);
  }
  if (load.exhausted) {
    notes.push(
      `the ${load.poolSize.toLocaleString('en-US')} pre-signed requests ran out after ${load.seconds.toFixed(1)} s of the window ` +
        '(the rate is still right over that window; the next run sizes its list from this one)',
    );
  }
  const warmupErrors = Object.entries(load.warmupNon200ByReason);
  if (warmupErrors.length) notes.push(`warm-up non-200: ${warmupErrors.map(([r, n]) => `${n} × ${r}`).join(', ')}`);
  if (load.firstNon200) notes.push(`first non-200: ${load.firstNon200}`);
  notes.push(...problems.map((problem) => `check failed: ${problem}`));
  notes.push(...reachNotes(benchCase.target, load, noop, serverCpuUsPerRequest, connections, benchCase.server));
  log(
    `  ${benchCase.name}: ${Math.round(load.rps).toLocaleString('en-US')} req/s, p50 ${load.latencyMs.p50.toFixed(2)} ms, ` +
      `p99 ${load.latencyMs.p99.toFixed(2)} ms, non-200 ${load.non200}, server CPU ${serverCpuUsPerRequest?.toFixed(0) ?? '?'} µs/req` +
      (databaseCpuUsPerRequest === null ? ', ' : ` + PostgreSQL ${databaseCpuUsPerRequest.toFixed(0)} µs/req, `) +
      (simulatorCpuUsPerRequest ? `simulator ${simulatorCpuUsPerRequest.toFixed(0)} µs/req, ` : '') +
      (statementsPerRequest === null ? '' : `${statementsPerRequest.toFixed(2)} statements/req, `) +
      `other processes ${load.cpu ? Math.round(load.cpu.foreignShare * 100) : '?'} % CPU, ` +
      (load.cpu && load.cpu.stealShare >= 0.01 ? `steal ${Math.round(load.cpu.stealShare * 100)} %, ` : '') +
      (load.cpu?.ioStallMs ? `I/O stall ${Math.round(load.cpu.ioStallMs)} ms, ` : '') +
      `load generator in GC ${load.loadGcMs.toFixed(0)} ms`,
  );
  return {
    name: benchCase.name,
    description: benchCase.description,
    target: benchCase.target,
    load,
    ratio: benchCase.target === null ? null : ratio,
    verdict: benchCase.diagnostic ? 'INFO' : problems.length > 0 && verdict === 'PASS' ? 'MISS' : verdict,
    notes,
    signSeconds,
    serverCpuUsPerRequest,
    databaseCpuUsPerRequest,
    statementsPerRequest,
    cpuRatio: benchCase.target !== null && noop?.cpuUsPerRequest && serverCpuUsPerRequest ? noop.cpuUsPerRequest / serverCpuUsPerRequest : null,
  };
}

/** A case that measures on its own (its own unit, its own target or none); see CustomMeasurement. */
async function runCustom(
  benchCase: BenchCase,
  ctx: BenchContext,
  settings: Settings,
  profiler: InspectorProfiler | null,
  noop: NoopFigures | null = null,
  /** The no-op's windows right before and after the case (NEAR_NOOP): what the machine did in its minutes. */
  noopWindow?: () => Promise<LoadResult>,
): Promise<CaseResult> {
  const noopBefore = noopWindow ? await noopWindow() : null;
  let profiling = false;
  const window = profiler
    ? {
        start: () => {
          profiling = true;
          void profiler.start().catch(() => undefined);
        },
        stop: async () => {
          if (!profiling) return;
          profiling = false;
          saveProfile(await profiler.stop(), ctx.store, benchCase.name);
        },
      }
    : undefined;
  const m = await benchCase.custom!(ctx, { durationSeconds: settings.durationSeconds, warmupSeconds: settings.warmupSeconds, connections: settings.connections, window });
  await window?.stop();
  const problems = [...m.problems, ...(benchCase.verify ? await benchCase.verify(ctx) : [])];
  const rate = m.seconds > 0 ? m.operations / m.seconds : 0;
  const latency = m.latencyMs ?? { p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN };
  const load: LoadResult = {
    requests: m.operations,
    seconds: m.seconds,
    rps: rate,
    latencyMs: latency,
    histogram: null,
    non200: 0,
    non200ByReason: {},
    warmupNon200ByReason: {},
    firstNon200: null,
    networkErrors: 0,
    firstNetworkError: null,
    requestsSent: m.operations,
    poolSize: m.operations,
    exhausted: false,
    cpu: null,
    counted: null,
    loadGcMs: 0,
  };
  const notes = [...m.notes];
  if (m.minPerSecond !== null && rate < m.minPerSecond) notes.push(`${Math.round(rate).toLocaleString('en-US')} ${m.unit} < ${m.minPerSecond.toLocaleString('en-US')}`);
  if (noopBefore && noopWindow) {
    const noopAfter = await noopWindow();
    notes.push(...machineAroundNotes(noopBefore, noopAfter, noop, m.minPerSecond !== null && m.minPerSecond > 0 ? { rate, unit: m.unit } : null, CONTRACT_NOOP_CPU_US));
    if (sharedTheMachine(noopBefore.cpu) || sharedTheMachine(noopAfter.cpu)) {
      notes.push(`WARNING: other processes or the hypervisor took over ${Math.round(FOREIGN_CPU_WARNING * 100)} % of the machine during a no-op window around the case; the figures scaled by it are unreliable`);
    }
  }
  notes.push(...problems.map((problem) => `check failed: ${problem}`));
  const met = m.minPerSecond === null ? null : rate >= m.minPerSecond && problems.length === 0;
  const outOfReach = met === false && problems.length === 0 && m.outOfReach ? m.outOfReach : null;
  if (outOfReach) notes.push(`out of reach: ${outOfReach}`);
  log(
    `  ${benchCase.name}: ${Math.round(rate).toLocaleString('en-US')} ${m.unit} (${m.operations} in ${m.seconds.toFixed(2)} s)` +
      (m.latencyMs ? `, p50 ${latency.p50.toFixed(2)} ms, p99 ${latency.p99.toFixed(2)} ms` : '') +
      (problems.length ? `, ${problems.length} failed checks` : ''),
  );
  return {
    name: benchCase.name,
    description: benchCase.description,
    target: null,
    targetLabel: m.targetLabel,
    load,
    ratio: null,
    verdict: met === null ? (problems.length ? 'MISS' : 'INFO') : met ? 'PASS' : outOfReach ? OUT_OF_REACH : 'MISS',
    notes,
    signSeconds: 0,
    serverCpuUsPerRequest: null,
    databaseCpuUsPerRequest: null,
    statementsPerRequest: null,
    cpuRatio: null,
  };
}

/** Where a case's load goes: the service (and its simulator) of the run, or of the million twin. */
interface Target {
  readonly ctx: BenchContext;
  readonly servers: Servers;
  readonly profiler: InspectorProfiler | null;
}

/** A prepared case's request generator and the index of its next unused request (requests are signed once each). */
interface Prepared {
  readonly requestAt: (i: number) => RequestTemplate;
  nextIndex: number;
}

function serverOf(servers: Servers, benchCase: BenchCase): RunningProcess {
  const server = servers[benchCase.server];
  if (server === undefined) throw new Error(`${benchCase.name}: no ${benchCase.server} server here`);
  return server;
}

/** One window of a prepared case: pre-signs from `prepared.nextIndex` on, measures, advances the index. */
async function measureWindow(
  benchCase: BenchCase,
  prepared: Prepared,
  target: Target,
  settings: Settings,
  signer: RequestSigner,
  expectedRps: number,
  /** Measured just before the load starts, after the pre-signing (the no-op's window before the case). */
  beforeLoad?: () => Promise<LoadResult>,
): Promise<{ load: LoadResult; signSeconds: number; noopBefore: LoadResult | null }> {
  const { servers, profiler, ctx } = target;
  let noopBefore: LoadResult | null = null;
  const measure = async (requests: PreparedRequest[]): Promise<LoadResult> => {
    if (beforeLoad) noopBefore = await beforeLoad();
    const result = await runLoad({
      origin: serverOf(servers, benchCase).baseUrl,
      watch: watchedPids(servers),
      requests,
      connections: benchCase.connections ?? settings.connections,
      warmupMs: settings.warmupSeconds * 1000,
      durationMs: settings.durationSeconds * 1000,
      cycle: benchCase.server === 'noop',
      count: benchCase.server === 'service' ? () => statementCount(servers.service.baseUrl) : undefined,
      onWindowStart: profiler ? () => void profiler.start().catch(() => undefined) : undefined,
    });
    if (profiler) saveProfile(await profiler.stop(), ctx.store, benchCase.name);
    return result;
  };
  if (benchCase.server === 'noop') {
    return { load: await measure(unsignedRequests(Array.from({ length: 1000 }, (_, i) => prepared.requestAt(i)))), signSeconds: 0, noopBefore };
  }
  const { load, signSeconds, nextIndex } = await measureSigned(benchCase, prepared.requestAt, settings, signer, expectedRps, measure, prepared.nextIndex);
  prepared.nextIndex = nextIndex;
  return { load, signSeconds, noopBefore };
}

function errorResult(benchCase: BenchCase, error: unknown): CaseResult {
  const message = error instanceof Error ? error.message : String(error);
  log(`  ${benchCase.name}: ERROR ${message}`);
  return {
    name: benchCase.name,
    description: benchCase.description,
    target: benchCase.target,
    load: null,
    ratio: null,
    verdict: 'ERROR',
    notes: [message],
    signSeconds: 0,
    serverCpuUsPerRequest: null,
    databaseCpuUsPerRequest: null,
    statementsPerRequest: null,
    cpuRatio: null,
  };
}

/** Runs the case's clean-up (BenchCase.finish) and says what it did; a failure is noted, not fatal. */
async function finish(benchCase: BenchCase, ctx: BenchContext, side = ''): Promise<void> {
  if (!benchCase.finish) return;
  const started = performance.now();
  try {
    const ended = await benchCase.finish(ctx);
    log(`  ${benchCase.name}${side}: clean-up ended ${ended.toLocaleString('en-US')} records the case left pending, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    log(`  ${benchCase.name}${side}: clean-up failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Prepares and measures one case in one window; answers its result and, for a prepared case, where its requests stand. */
async function runCase(
  benchCase: BenchCase,
  target: Target,
  settings: Settings,
  signer: RequestSigner,
  expectedRps: number,
  noop: NoopFigures | null,
  /**
   * Measures one of the no-op's windows around the case (NEAR_NOOP): the one before right before its
   * load, the one after once the case is done. The ratio then divides by those two, and `noop` (the
   * run's first) is only quoted in the notes.
   */
  noopWindow?: () => Promise<LoadResult>,
): Promise<{ result: CaseResult; prepared: Prepared | null }> {
  try {
    if (benchCase.custom) return { result: await runCustom(benchCase, target.ctx, settings, target.profiler, noop, noopWindow), prepared: null };
    if (!benchCase.prepare) throw new Error('a case needs prepare or custom');
    const prepared: Prepared = { requestAt: await benchCase.prepare(target.ctx), nextIndex: 0 };
    // Pre-signing (in measureWindow) comes first: the no-op's window before goes right before the case's.
    // A window that other processes took over FOREIGN_CPU_WARNING of says nothing of the service (nor of a
    // floor, whose verdict it would void): it is measured again once the bench's own processes are quiet
    // and the outside load has passed (or 30 s went by). The given-up windows' writes stay in the store.
    const { window, givenUp } = await measureUnshared(
      () => measureWindow(benchCase, prepared, target, settings, signer, expectedRps, noopWindow),
      async (shared, retake) => {
        log(`  ${benchCase.name}: ${shared}; measuring the window again (${retake} of ${SHARED_WINDOW_RETAKES})`);
        await settle(target.servers, benchCase.name, [target.ctx.database.pgSchema]);
        const outside = await untilOutsideLoadPasses(watchedPids(target.servers));
        log(`  ${benchCase.name}: ${outside.passed ? 'the outside load passed' : 'the outside load went on'} after ${(outside.waitedMs / 1000).toFixed(1)} s`);
      },
    );
    const { load, signSeconds, noopBefore } = window;
    const problems = benchCase.verify ? await benchCase.verify(target.ctx) : [];
    const allIn = benchCase.allIn ? await allInNote(target.servers, load, target.ctx.store, benchCase.server) : null;
    await finish(benchCase, target.ctx);
    const windowsAround = noopBefore && noopWindow ? { before: noopBefore, after: await noopWindow() } : null;
    const divisor = windowsAround ? noopAround(windowsAround.before, windowsAround.after) : noop;
    const result = describe(benchCase, target.ctx.store, load, signSeconds, divisor, problems, benchCase.connections ?? settings.connections);
    if (windowsAround) {
      const rate = (figure: number): string => Math.round(figure).toLocaleString('en-US');
      result.notes.push(
        `ratio to the no-op route around the case: ${rate(windowsAround.before.rps)} req/s before, ${rate(windowsAround.after.rps)} after` +
          ` (load generator in GC ${windowsAround.before.loadGcMs.toFixed(0)} and ${windowsAround.after.loadGcMs.toFixed(0)} ms)` +
          (noop ? `; the run's first no-op: ${rate(noop.rps)}, ratio to it ${(load.rps / noop.rps).toFixed(2)} ×` : ''),
      );
      // The divisor's windows are checked as the case's own is (describe): a busy machine makes the ratio unreliable.
      if (sharedTheMachine(windowsAround.before.cpu) || sharedTheMachine(windowsAround.after.cpu)) {
        result.notes.push(`WARNING: other processes or the hypervisor took over ${Math.round(FOREIGN_CPU_WARNING * 100)} % of the machine during a no-op window around the case; its ratio is unreliable: re-run on a quiet machine`);
      }
    }
    if (allIn !== null) result.notes.push(allIn);
    for (const shared of givenUp) result.notes.push(`an earlier window was measured again: ${shared}`);
    return { result, prepared };
  } catch (error) {
    return { result: errorResult(benchCase, error), prepared: null };
  }
}

/** A twin service for the million comparison: its process, where its load goes, and the base cases prepared on it. */
interface Twin {
  readonly service: RunningService;
  readonly target: Target;
  readonly prepared: Map<string, Prepared>;
}

/**
 * A million repeat (bench/paired.ts): its base case on the twin holding 10,000 payments (A) and the
 * repeat on the twin holding the million (B), in alternating windows, each after the machine settled.
 * Answers the repeat's result judged against A's windows of the same minutes.
 */
async function runPaired(
  repeat: BenchCase,
  baseCase: BenchCase,
  earlier: CaseResult | undefined,
  a: Twin,
  b: Twin,
  settings: Settings,
  signer: RequestSigner,
  noop: NoopFigures | null,
  /** The base case's expected rate (expectedOf), for when it did not run on the run's service (`--case @1M`). */
  baseExpectedRps: number,
): Promise<CaseResult> {
  try {
    let onA = a.prepared.get(baseCase.name);
    if (!onA) {
      onA = { requestAt: await baseCase.prepare!(a.target.ctx), nextIndex: 0 };
      a.prepared.set(baseCase.name, onA);
    }
    const onB: Prepared = { requestAt: await repeat.prepare!(b.target.ctx), nextIndex: 0 };
    // Sizes the pre-signed lists: the base case's rate on the run's service, then the fastest window so far.
    let expected = earlier?.load?.rps ?? baseExpectedRps;
    const windows = { a: [] as LoadResult[], b: [] as LoadResult[] };
    let signSeconds = 0;
    const windowOn = async (twin: Twin, benchCase: BenchCase, prepared: Prepared, side: 'a' | 'b'): Promise<void> => {
      const schemas = [a.target.ctx.database.pgSchema, b.target.ctx.database.pgSchema];
      // What the windows before left pending is retired first, on both twins, as it is between cases:
      // two minutes after a window the service's reconciler asks the bank about each payment it made,
      // and a repeat that needs a third or fourth round measured it under that wave (session 44: a
      // PostgreSQL payment/initiate @1M window fell from 4,157 to 1,608 req/s, both twins still busy
      // after the settle's 60 s).
      if (windows.a.length > 0) {
        await finish(baseCase, a.target.ctx, ' (A)');
        await finish(repeat, b.target.ctx, ' (B)');
      }
      await settle(a.target.servers, `${repeat.name} (A)`, schemas);
      await settle(b.target.servers, `${repeat.name} (B)`);
      // The payments a case's set-up made and its windows read (payment/status) stay Pending, so no
      // finish retires them; once their collections are done, their reconciliation is held off instead.
      await Promise.all([holdReconciler(a.target.ctx.database), holdReconciler(b.target.ctx.database)]);
      const measured = await measureWindow(benchCase, prepared, twin.target, settings, signer, expected);
      windows[side].push(measured.load);
      signSeconds += measured.signSeconds;
      expected = Math.max(expected, measured.load.rps);
    };
    while (needsAnotherRound(windows.a, windows.b, MILLION_TOLERANCE)) {
      await windowOn(a, baseCase, onA, 'a');
      await windowOn(b, repeat, onB, 'b');
    }
    const connections = repeat.connections ?? settings.connections;
    const problems = repeat.verify ? await repeat.verify(b.target.ctx) : [];
    await finish(baseCase, a.target.ctx, ' (A)');
    await finish(repeat, b.target.ctx, ' (B)');
    const found = describe(repeat, b.target.ctx.store, combineLoads(windows.b), signSeconds, noop, problems, connections);
    const atBaseline = describe(
      { ...baseCase, name: `${baseCase.name} @10k` },
      a.target.ctx.store,
      combineLoads(windows.a),
      0,
      noop,
      [],
      connections,
    );
    const judged = againstBaseline(found, atBaseline, repeat.diagnostic);
    return {
      ...judged,
      notes: [
        ...judged.notes,
        `windows in turn (A: ${BASELINE_PAYMENTS.toLocaleString('en-US')} payments stored, B: ${MILLION.toLocaleString('en-US')}): ${windowRates(windows.a, windows.b)}` +
          (earlier?.load ? `; ${baseCase.name} measured ${Math.round(earlier.load.rps).toLocaleString('en-US')} req/s on the run's service` : '') +
          (windows.a.length > PAIRED_ROUNDS ? `; ${windows.a.length} rounds, as the machine drifted (window spread A ${spreadText(spreadOf(windows.a))} / B ${spreadText(spreadOf(windows.b))})` : ''),
      ],
    };
  } catch (error) {
    return errorResult(repeat, error);
  }
}

/** Stops and removes both twins; answers their memory figures, read just before. */
async function stopTwins(twins: { small: Twin; big: Twin }): Promise<({ rssMiB: number; peakMiB: number } | null)[]> {
  const memories = [twins.small.service.memory(), twins.big.service.memory()];
  for (const twin of [twins.small, twins.big]) {
    await twin.service.stop();
    await twin.service.cleanup();
  }
  return memories;
}

/** Starts a twin service with merchants of its own like the run's, and seeds `payments` into it now (the million waits for its own case). */
async function startTwin(label: string, store: StoreKind, settings: Settings, signer: RequestSigner, noop: RunningProcess): Promise<Twin> {
  const service = await startService(store);
  const ctx = createContext({ store, baseUrl: service.baseUrl, servicePid: service.pid, database: service.database, adminToken: service.adminToken, signer });
  ctx.setMerchants(await ctx.createMerchants(settings.merchantCount));
  log(`  twin service ${label} pid ${service.pid} at ${service.baseUrl}; ${ctx.merchants.length} merchants`);
  return { service, target: { ctx, servers: { service, noop, simulator: service.simulator }, profiler: null }, prepared: new Map() };
}

async function runStore(store: StoreKind, settings: Settings, signer: RequestSigner, noop: RunningProcess): Promise<StoreResult> {
  const started = Date.now();
  log(`\n=== ${store}: starting the service`);
  const inspectPort = settings.profile ? await freePort() : 0;
  const service = await startService(store, { nodeArgs: settings.profile ? [`--inspect=127.0.0.1:${inspectPort}`] : [] });
  const profiler = settings.profile ? await InspectorProfiler.connect(inspectPort) : null;
  let twins: { small: Twin; big: Twin } | null = null;
  const twinPeaks: ({ rssMiB: number; peakMiB: number } | null)[] = [];
  let floor: Awaited<ReturnType<typeof startFloorServer>> | null = null;
  let floorProfiler: InspectorProfiler | null = null;
  try {
    const ctx = createContext({
      store,
      baseUrl: service.baseUrl,
      servicePid: service.pid,
      database: service.database,
      adminToken: service.adminToken,
      signer,
    });
    ctx.setMerchants(await ctx.createMerchants(settings.merchantCount));
    const keyTypes: Record<string, number> = {};
    for (const m of ctx.merchants) keyTypes[m.keyType] = (keyTypes[m.keyType] ?? 0) + 1;
    log(`  service pid ${service.pid} at ${service.baseUrl}; ${ctx.merchants.length} merchants (${Object.entries(keyTypes).map(([t, n]) => `${n} ${t}`).join(', ')})`);

    const previous = previousRates(store);
    const selected = (settings.million ? ALL_CASES : CASES).filter(
      (c) => (c.stores === undefined || c.stores.includes(store)) && (settings.caseFilters.length === 0 || settings.caseFilters.some((f) => c.name.toLowerCase().includes(f))),
    );
    if (selected.some((c) => c.server === 'floor')) {
      const floorInspectPort = settings.profile ? await freePort() : 0;
      floor = await startFloorServer(store, ctx.merchants, settings.profile ? [`--inspect=127.0.0.1:${floorInspectPort}`] : []);
      floorProfiler = settings.profile ? await InspectorProfiler.connect(floorInspectPort) : null;
    }
    const servers: Servers = { service, noop, simulator: service.simulator, ...(floor ? { floor, floorSimulator: floor.simulator } : {}) };
    const main: Target = { ctx, servers, profiler };
    const { result: reference } = await runCase(NOOP_CASE, main, settings, signer, 0, null);
    reference.notes.push(...machineNotes(reference.serverCpuUsPerRequest));
    const noopRps = reference.load?.rps || null;
    const noopFigures = noopRps ? { rps: noopRps, cpuUsPerRequest: reference.serverCpuUsPerRequest } : null;
    const results: CaseResult[] = [reference];
    const expectedOf = (benchCase: BenchCase): number =>
      // The larger of the last run's rate (a quiet machine, a faster build) and the case's own guess.
      Math.max(previous.get(benchCase.name) ?? 0, (noopRps ?? 10_000) * benchCase.expectedRatio);
    const noopPrepared: Prepared = { requestAt: await NOOP_CASE.prepare!(ctx), nextIndex: 0 };
    /** A short no-op window once the machine is quiet (NEAR_NOOP), unprofiled and unprinted. */
    const nearNoop = async (): Promise<LoadResult> => {
      await settle(servers, NOOP_CASE.name, [ctx.database.pgSchema]);
      return (await measureWindow(NOOP_CASE, noopPrepared, { ...main, profiler: null }, { ...settings, ...NEAR_NOOP }, signer, 0)).load;
    };
    const runOnMain = async (benchCase: BenchCase): Promise<CaseResult> => {
      await settle(servers, benchCase.name, [ctx.database.pgSchema]);
      // A floor case's profile is the floor server's, not the service's.
      const target = benchCase.server === 'floor' ? { ...main, profiler: floorProfiler } : main;
      // A custom case may ask for the no-op's windows around it too (webhook dispatch): its target is a
      // rate of its own, not a ratio, so they only show what the machine did in its minutes.
      const around = bracketed(benchCase) || benchCase.noopAround === true;
      return (await runCase(benchCase, target, settings, signer, expectedOf(benchCase), noopFigures, around ? nearNoop : undefined)).result;
    };
    for (const benchCase of selected) {
      let result: CaseResult;
      let ran: RunningService = service;
      if (!benchCase.onTwin) {
        // The twins' work is done once a later case runs on the run's service: stop them, so their
        // backlog (collections and payouts of their windows) does not run under its window.
        if (twins) twinPeaks.push(...(await stopTwins(twins)));
        twins = null;
        result = await runOnMain(benchCase);
      } else {
        if (!twins) {
          const small = await startTwin(`A (${BASELINE_PAYMENTS.toLocaleString('en-US')} payments)`, store, settings, signer, noop);
          twins = { small, big: await startTwin(`B (${MILLION.toLocaleString('en-US')} payments)`, store, settings, signer, noop) };
          await ensureSeeded(small.target.ctx, BASELINE_PAYMENTS);
        }
        ran = twins.big.service;
        const baseCase = benchCase.baseline ? CASES.find((c) => c.name === benchCase.baseline) : undefined;
        if (benchCase.baseline && !baseCase?.prepare) {
          result = errorResult(benchCase, new Error(`no base case ${benchCase.baseline} to compare with`));
        } else if (baseCase) {
          const earlier = results.find((r) => r.name === baseCase.name);
          result = await runPaired(benchCase, baseCase, earlier, twins.small, twins.big, settings, signer, noopFigures, expectedOf(baseCase));
        } else {
          await settle(twins.big.target.servers, benchCase.name, [twins.big.target.ctx.database.pgSchema]);
          result = (await runCase(benchCase, twins.big.target, settings, signer, expectedOf(benchCase), noopFigures)).result;
        }
      }
      // Which case raised the resident set: the peak is the process's high-water mark so far.
      // The floor server is not the service: the budget is the service's, so its figures are not shown as such.
      const after = benchCase.server === 'floor' ? null : ran.memory();
      if (after) log(`  ${benchCase.name}: ${ran === service ? 'service' : 'twin B'} RSS ${after.rssMiB.toFixed(0)} MiB after it (${await heapFigures(ran.baseUrl)}), peak so far ${after.peakMiB.toFixed(0)} MiB`);
      results.push(result);
    }

    // The budget holds for each service: the run's and both twins.
    const memories = [service.memory(), ...twinPeaks, ...(twins ? await stopTwins(twins) : [])].filter((m) => m !== null);
    twins = null;
    const memory = memories.length ? { rssMiB: Math.max(...memories.map((m) => m.rssMiB)), peakMiB: Math.max(...memories.map((m) => m.peakMiB)) } : null;
    // A miss its floor misses too is out of reach here; the million repeats are judged by their base instead.
    const floorOf = (name: string): string | undefined => {
      const benchCase = selected.find((c) => c.name === name);
      return benchCase?.baseline === undefined ? benchCase?.floor : undefined;
    };
    const result: StoreResult = {
      store,
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '?', node: process.version, platform: `${os.type()} ${os.release()}` },
      settings: { connections: settings.connections, warmupSeconds: settings.warmupSeconds, durationSeconds: settings.durationSeconds, pipelining: 1, profiled: settings.profile },
      merchants: { count: ctx.merchants.length, keyTypes },
      cases: judgeByFloors(results, floorOf),
      memory: {
        rssMiB: memory?.rssMiB ?? null,
        peakMiB: memory?.peakMiB ?? null,
        targetMiB: MEMORY_TARGET_MIB,
        verdict: memory === null ? 'UNKNOWN' : memory.peakMiB < MEMORY_TARGET_MIB ? 'PASS' : 'MISS',
      },
      totalSeconds: (Date.now() - started) / 1000,
    };
    return result;
  } finally {
    profiler?.close();
    floorProfiler?.close();
    if (floor) {
      await floor.stop();
      await floor.cleanup();
    }
    await service.stop();
    await service.cleanup();
    if (twins) await stopTwins(twins);
  }
}

/** Kilobytes of file data in memory not yet written to disk (Dirty + Writeback of /proc/meminfo), or null. */
function unwrittenKb(): number | null {
  try {
    const info = fs.readFileSync('/proc/meminfo', 'utf8');
    const kb = (name: string): number => Number(info.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
    return kb('Dirty') + kb('Writeback');
  } catch {
    return null;
  }
}

/**
 * Writes the page cache's dirty data out before a store's service starts. One store's run leaves up to
 * gigabytes of it (a million-payment database, a 200 MiB export); the kernel writes it back about 30 s
 * later, which would be during the next store's first windows, where it lengthens every fsync.
 */
function flushDirtyPages(store: string): void {
  const before = unwrittenKb();
  const started = performance.now();
  spawnSync('sync', { stdio: 'ignore' });
  if (before !== null && before > 64 * 1024) {
    log(`  ${store}: wrote ${Math.round(before / 1024)} MiB of unwritten file data to disk first (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
}

async function main(): Promise<void> {
  const settings = readSettings();
  const startedAt = Date.now();
  log(
    `paygate bench: ${settings.connections} connections, no pipelining, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s per case; ` +
      `${os.cpus().length} CPUs, Node ${process.version}`,
  );
  const signer = RequestSigner.start();
  const noop = await startNoopServer();
  const summaries: string[] = [];
  let failed = false;
  try {
    for (const store of settings.stores) {
      if (store === 'postgres' && !(await postgresReachable())) {
        const note = `PostgreSQL is not reachable at ${process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'}: skipped.`;
        log(`\n=== postgres: ${note}`);
        summaries.push(`=== postgres: ${note}`);
        continue;
      }
      flushDirtyPages(store);
      try {
        const result = await runStore(store, settings, signer, noop);
        const file = writeResult(result);
        const table = formatTable(result);
        log(`\n${table}\n(written to ${file})`);
        summaries.push(`=== ${store} (${result.date}, ${result.totalSeconds.toFixed(0)} s)\n${table}`);
      } catch (error) {
        failed = true;
        const message = error instanceof Error ? error.message : String(error);
        log(`\n=== ${store}: FAILED: ${message}`);
        summaries.push(`=== ${store}: FAILED: ${message}`);
      }
    }
  } finally {
    await noop.stop();
    await noop.cleanup();
    await signer.close();
  }
  if (settings.stores.length > 1) log(`\n\n##### summary\n\n${summaries.join('\n\n')}`);
  log(`\nbench finished in ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
  // A missed target is a finding, not a failure of the harness; only a run that could not happen exits non-zero.
  process.exitCode = failed ? 1 : 0;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) {
      killAll();
      process.exit(130);
    }
    interrupted = true;
    process.stdout.write(`\n${signal}: stopping the servers and removing their data (again to kill them at once)\n`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
