// CPU accounting over a measured window, from /proc (Linux): how much CPU the measured server, the reference
// server and the load generator used, and how much went to anything else on the machine. The cases share
// two cores with the load generator, so a busy neighbour (a test run, a compiler) skews every figure; the
// bench says so instead of printing a silently wrong ratio.
import fs from 'node:fs';
import os from 'node:os';

/** /proc reports process times in USER_HZ ticks, which Linux fixes at 100 per second for user space. */
const TICK_MS = 10;

/** CPU milliseconds (user + system) a process has used so far; null when it is gone. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name (which may contain spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

function machineCpuMs(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const t = cpu.times;
    busy += t.user + t.nice + t.sys + t.irq;
    total += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return { busy, total };
}

export interface CpuSnapshot {
  readonly atMs: number;
  readonly machine: { busy: number; total: number };
  readonly processes: Record<string, number | null>;
  /** CPU ms per PostgreSQL server process (the database is part of what a PostgreSQL run measures). */
  readonly postgres: Map<number, number>;
}

/** Every process whose command name is `postgres` (the postmaster, its backends and helpers). */
function postgresCpuMs(): Map<number, number> {
  const out = new Map<number, number>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(entry), (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
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
}

export function snapshot(pids: Record<string, number>): CpuSnapshot {
  const processes: Record<string, number | null> = {};
  for (const [name, pid] of Object.entries(pids)) processes[name] = processCpuMs(pid);
  return { atMs: performance.now(), machine: machineCpuMs(), processes, postgres: postgresCpuMs() };
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
  };
}
