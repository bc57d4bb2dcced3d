// CPU accounting over a measured window, from /proc (Linux): how much CPU the measured server, the reference
// server and the load generator used, and how much went to anything else on the machine. The cases share
// two cores with the load generator, so a busy neighbour (a test run, a compiler) skews every figure; the
// bench says so instead of printing a silently wrong ratio.
import fs from 'node:fs';
import os from 'node:os';

/** /proc reports process times in USER_HZ ticks, which Linux fixes at 100 per second for user space. */
const TICK_MS = 10;

/** A /proc stat line's fields after the parenthesised command name: [0] state, [1] parent pid, [11] utime, [12] stime. */
const statFields = (stat: string): string[] => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

/** Whether a /proc stat line is a PostgreSQL process's (its command name is `postgres`). */
const isPostgresStat = (stat: string): boolean => stat.includes('(postgres)');

/** CPU milliseconds (user + system) from a stat line's fields (statFields). */
const cpuMsOf = (fields: readonly string[]): number => (Number(fields[11]) + Number(fields[12])) * TICK_MS;

/** CPU milliseconds (user + system) from a /proc stat file; null when its process or thread is gone. */
function statCpuMs(file: string): number | null {
  try {
    // The command name in parentheses may contain spaces: its fields are counted after it.
    return cpuMsOf(statFields(fs.readFileSync(file, 'utf8')));
  } catch {
    return null;
  }
}

/** CPU milliseconds (user + system) a process has used so far, its ended threads included; null when it is gone. */
export const processCpuMs = (pid: number): number | null => statCpuMs(`/proc/${pid}/stat`);

/** CPU milliseconds one thread of a process has used so far (`tid` = `pid`: its main thread, Node's event loop). */
export const threadCpuMs = (pid: number, tid: number): number | null => statCpuMs(`/proc/${pid}/task/${tid}/stat`);

/**
 * The machine's CPU in ms from /proc/stat's first line: busy (user, nice, system, irq, softirq), steal
 * (time the hypervisor gave this VM's virtual CPUs to someone else: neither idle nor ours) and the total
 * of them with idle and iowait. os.cpus() leaves steal out, so a noisy neighbour looked like idle time.
 */
function machineCpuMs(): { busy: number; steal: number; total: number } {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map((v) => Number(v) * TICK_MS);
    const busy = user! + nice! + system! + irq! + softirq!;
    return { busy, steal: steal!, total: busy + steal! + idle! + iowait! };
  } catch {
    let busy = 0;
    let total = 0;
    for (const cpu of os.cpus()) {
      const t = cpu.times;
      busy += t.user + t.nice + t.sys + t.irq;
      total += t.user + t.nice + t.sys + t.irq + t.idle;
    }
    return { busy, steal: 0, total };
  }
}

/** Milliseconds so far in which some task waited on I/O (Linux pressure stall information), or null. */
function ioStallMs(): number | null {
  try {
    const some = fs.readFileSync('/proc/pressure/io', 'utf8').split('\n').find((line) => line.startsWith('some '));
    const total = some?.match(/total=(\d+)/)?.[1];
    return total === undefined ? null : Number(total) / 1000;
  } catch {
    return null;
  }
}

export interface CpuSnapshot {
  readonly atMs: number;
  readonly machine: { busy: number; steal: number; total: number };
  readonly ioStallMs: number | null;
  readonly processes: Record<string, number | null>;
  /** CPU ms per PostgreSQL server process (the database is part of what a PostgreSQL run measures). */
  readonly postgres: Map<number, number>;
}

/**
 * Every process whose command name is `postgres` (the postmaster, its backends and helpers), found by
 * reading every process's stat file: 1.3 – 3 ms for 85 processes on the bench machine, which the load
 * generator spent at each window's opening while it read no answer. postgresCpuMs reads only the
 * postmasters' children once this has found the postmasters.
 */
export function postgresCpuMsByScan(): { cpu: Map<number, number>; postmasters: number[] } {
  const cpu = new Map<number, number>();
  const parents = new Map<number, number>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return { cpu, postmasters: [] };
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!isPostgresStat(stat)) continue;
      const fields = statFields(stat);
      cpu.set(Number(entry), cpuMsOf(fields));
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  // A postmaster is a postgres process whose parent is not one (one per cluster running).
  const postmasters = [...parents].filter(([, parent]) => !parents.has(parent)).map(([pid]) => pid);
  return { cpu, postmasters };
}

/** The postmasters the last scan found (none before the first scan, or when no PostgreSQL runs). */
let knownPostmasters: readonly number[] = [];

/**
 * The postmaster and its children (every backend, helper and worker of a cluster is one), with their
 * CPU, added to `into`; false when the postmaster is gone (or its pid is another process's now) or
 * the kernel does not list children (CONFIG_PROC_CHILDREN).
 */
function clusterCpuMs(postmaster: number, into: Map<number, number>): boolean {
  let stat: string;
  let children: string;
  try {
    stat = fs.readFileSync(`/proc/${postmaster}/stat`, 'utf8');
    children = fs.readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8');
  } catch {
    return false;
  }
  // Its pid taken by another process since the scan (the cluster restarted): scan again.
  if (!isPostgresStat(stat)) return false;
  into.set(postmaster, cpuMsOf(statFields(stat)));
  for (const child of children.split(' ')) {
    if (child.trim() === '') continue;
    const ms = processCpuMs(Number(child));
    if (ms !== null) into.set(Number(child), ms);
  }
  return true;
}

/** CPU ms of every PostgreSQL process: the postmasters' children once a scan found them, the whole scan otherwise. */
export function postgresCpuMs(): Map<number, number> {
  if (knownPostmasters.length > 0) {
    const out = new Map<number, number>();
    if (knownPostmasters.every((postmaster) => clusterCpuMs(postmaster, out))) return out;
  }
  const scan = postgresCpuMsByScan();
  knownPostmasters = scan.postmasters;
  return scan.cpu;
}

/** Above this share of the machine's CPU used by other processes during a window, the figures are flagged. */
export const FOREIGN_CPU_WARNING = 0.1;

export interface CpuUsage {
  /** CPU milliseconds per watched process over the window, plus `postgres` for all PostgreSQL processes. */
  readonly processMs: Record<string, number>;
  /** Share of the machine's CPU capacity (all cores) used by processes not watched (nor PostgreSQL's). */
  readonly foreignShare: number;
  /** Share of the machine's CPU capacity in use at all. */
  readonly busyShare: number;
  /** Share of the machine's CPU capacity the hypervisor gave to other guests (steal). */
  readonly stealShare: number;
  /** Milliseconds of the window in which some task on the machine waited on I/O (PSI), or null where unknown. */
  readonly ioStallMs: number | null;
}

/** Whether other processes or the hypervisor took more than FOREIGN_CPU_WARNING of the machine in a window (no figures: no). */
export const sharedTheMachine = (cpu: CpuUsage | null): boolean =>
  cpu !== null && (cpu.foreignShare > FOREIGN_CPU_WARNING || cpu.stealShare > FOREIGN_CPU_WARNING);

/**
 * How many times a case's window is measured again when sharedTheMachine says another process or the
 * hypervisor took it over (bench/run.ts): the figures of such a window are flagged and void its floor's
 * verdict.
 */
export const SHARED_WINDOW_RETAKES = 2;

/** Before a retake, how long to wait at most for the outside load to pass, sampled each QUIET_SAMPLE_MS. */
export const OUTSIDE_LOAD_WAIT_MS = 30_000;
const QUIET_SAMPLE_MS = 1000;

/** What took the machine in a shared window, with the window's own figures, for the run's log and notes. */
export function sharedWindowText(cpu: CpuUsage, rps: number, p99Ms: number): string {
  const took = [
    cpu.foreignShare > FOREIGN_CPU_WARNING ? `other processes ${Math.round(cpu.foreignShare * 100)} %` : null,
    cpu.stealShare > FOREIGN_CPU_WARNING ? `steal ${Math.round(cpu.stealShare * 100)} %` : null,
  ].filter((part) => part !== null);
  return `${took.join(' and ')} of the machine's CPU in a window of ${Math.round(rps).toLocaleString('en-US')} req/s, p99 ${p99Ms.toFixed(1)} ms`;
}

/** A measured window as the retakes see it: its CPU figures, rate and p99. */
export interface SharedWindowFigures {
  readonly cpu: CpuUsage | null;
  readonly rps: number;
  readonly latencyMs: { readonly p99: number };
}

/**
 * Measures a window and, while it was shared, up to `retakes` times again, each after `beforeRetake`
 * (the bench waits there for its own processes and then the outside load to go quiet). Answers the last
 * window measured and what each window given up saw; `measure` keeps its own place in the case's
 * requests, so every window sends requests of its own.
 */
export async function measureUnshared<W extends { readonly load: SharedWindowFigures }>(
  measure: () => Promise<W>,
  beforeRetake: (shared: string, retake: number) => Promise<void>,
  retakes = SHARED_WINDOW_RETAKES,
): Promise<{ window: W; givenUp: string[] }> {
  let window = await measure();
  const givenUp: string[] = [];
  for (let retake = 1; retake <= retakes && window.load.cpu !== null && sharedTheMachine(window.load.cpu); retake++) {
    const shared = sharedWindowText(window.load.cpu, window.load.rps, window.load.latencyMs.p99);
    givenUp.push(shared);
    await beforeRetake(shared, retake);
    window = await measure();
  }
  return { window, givenUp };
}

/**
 * Waits until a sample of QUIET_SAMPLE_MS shows other processes (those not in `pids`, nor this one, nor
 * PostgreSQL's) and steal under FOREIGN_CPU_WARNING, at most OUTSIDE_LOAD_WAIT_MS; answers how long it
 * waited and whether the load passed.
 */
export async function untilOutsideLoadPasses(pids: Record<string, number>, maxMs = OUTSIDE_LOAD_WAIT_MS): Promise<{ passed: boolean; waitedMs: number }> {
  const watched = { ...pids, bench: process.pid };
  const started = performance.now();
  for (;;) {
    const before = snapshot(watched);
    await new Promise((resolve) => setTimeout(resolve, QUIET_SAMPLE_MS));
    const waitedMs = performance.now() - started;
    if (!sharedTheMachine(usageBetween(before, snapshot(watched)))) return { passed: true, waitedMs };
    if (waitedMs >= maxMs) return { passed: false, waitedMs };
  }
}

export function snapshot(pids: Record<string, number>): CpuSnapshot {
  const processes: Record<string, number | null> = {};
  for (const [name, pid] of Object.entries(pids)) processes[name] = processCpuMs(pid);
  return { atMs: performance.now(), machine: machineCpuMs(), ioStallMs: ioStallMs(), processes, postgres: postgresCpuMs() };
}

export function usageBetween(before: CpuSnapshot, after: CpuSnapshot): CpuUsage {
  const processMs: Record<string, number> = {};
  let watched = 0;
  for (const name of Object.keys(before.processes)) {
    const a = before.processes[name];
    const b = after.processes[name];
    if (a === null || b === null || a === undefined || b === undefined) continue;
    processMs[name] = b - a;
    watched += b - a;
  }
  // PostgreSQL's processes: a backend that started inside the window counts from zero.
  let postgres = 0;
  for (const [pid, ms] of after.postgres) postgres += ms - (before.postgres.get(pid) ?? 0);
  processMs.postgres = postgres;
  watched += postgres;
  const busy = after.machine.busy - before.machine.busy;
  const total = after.machine.total - before.machine.total;
  return {
    processMs,
    foreignShare: total > 0 ? Math.max(0, busy - watched) / total : 0,
    busyShare: total > 0 ? busy / total : 0,
    stealShare: total > 0 ? (after.machine.steal - before.machine.steal) / total : 0,
    ioStallMs: before.ioStallMs === null || after.ioStallMs === null ? null : after.ioStallMs - before.ioStallMs,
  };
}
