// Child processes for the benchmark: the real service (`node --import tsx src/main.ts`) on a fresh
// SQLite directory or PostgreSQL schema, and the no-op Fastify reference server. Each runs in its own
// process so the load generator (this process) never shares an event loop with what it measures.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { MerchantKey } from '../sdk/src/signing.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_PG_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const BENCH_ADMIN_TOKEN = `adm_bench_${crypto.randomBytes(12).toString('hex')}`;
const BENCH_SECRET_KEY = crypto.randomBytes(32).toString('base64');

export type StoreKind = 'sqlite' | 'postgres';

/** What still has to be undone if the bench is interrupted: running children, temp dirs, schemas. */
const pendingCleanups = new Set<() => Promise<void>>();

/** Stops every child this module started and removes their data; for SIGINT/SIGTERM handlers. */
export async function cleanupAll(): Promise<void> {
  const all = [...pendingCleanups];
  pendingCleanups.clear();
  await Promise.all(all.map((cleanup) => cleanup().catch(() => undefined)));
}

/** Last resort (a second Ctrl-C): SIGKILL every child still running, synchronously. */
const children = new Set<ChildProcess>();
export function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export interface RunningProcess {
  readonly name: string;
  readonly pid: number;
  readonly baseUrl: string;
  readonly logFile: string;
  /** Resident set now and at its peak (VmRSS / VmHWM of /proc/<pid>/status), in MiB. */
  memory(): { rssMiB: number; peakMiB: number } | null;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export interface RunningService extends RunningProcess {
  readonly store: StoreKind;
  readonly adminToken: string;
  /** The bank simulator, in its own process as a real upstream would be (the service reaches it at SIMULATOR_URL). */
  readonly simulator: RunningProcess;
  /** The service's SQLite file, or its PostgreSQL schema. */
  readonly database: { readonly sqliteFile: string | null; readonly pgSchema: string | null };
  /** Removes the data directory and, for PostgreSQL, drops the schema. Call after stop(). */
  cleanup(): Promise<void>;
}

/** A port that was free a moment ago (the child binds it right after). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function readProcStatus(pid: number): { rssMiB: number; peakMiB: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Waits until `url` answers 200, failing early (with the log's tail) when the process ends first. */
export async function waitForHttp(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`process exited (${child.exitCode ?? child.signalCode}) before ${url} answered; log tail:\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(1000) });
      if (response.status === 200) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${lastError}); log tail:\n${tail(logFile)}`);
}

/** Extra node/V8 flags for the service and simulator, for experiments (e.g. `--max-semi-space-size=8`). */
const SERVICE_NODE_FLAGS: string[] = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);

/** Where the bench compiles the service (scripts/build.mjs), apart from `npm start`'s dist/. */
const BUILD_DIR = path.join(REPO_ROOT, 'bench', 'results', 'build');
let built = false;

/**
 * The bench runs the service as `npm start` does: compiled to JavaScript, not through tsx's loader,
 * which would add about 40 MiB to the resident set the bench holds against its 300 MiB budget.
 * Compiled once per bench run, from the working tree.
 */
function compiledScript(script: string): string {
  if (!built) {
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs'), BUILD_DIR], { stdio: 'inherit' });
    built = true;
  }
  return path.join(BUILD_DIR, script.replace(/\.ts$/, '.js'));
}

function spawnNode(name: string, script: string, env: Record<string, string>, logFile: string, nodeArgs: string[] = []): ChildProcess {
  const log = fs.openSync(logFile, 'a');
  // `node` itself (not an npm script or a CLI that forks) so the pid we watch is the server. The
  // service and the simulator run compiled, as `npm start` runs; the bench's own no-op server (a
  // file outside src/) through tsx's loader, as before.
  const args = script.startsWith('src/') ? [...SERVICE_NODE_FLAGS, ...nodeArgs, compiledScript(script)] : [...nodeArgs, '--import', 'tsx', script];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  children.add(child);
  child.once('exit', () => children.delete(child));
  child.on('error', (error) => process.stderr.write(`${name}: ${error.message}\n`));
  return child;
}

/** A started server: its pid, memory, and stop() (SIGTERM, then SIGKILL after the grace). */
export function processHandle(name: string, child: ChildProcess, baseUrl: string, logFile: string): RunningProcess {
  return {
    name,
    pid: child.pid!,
    baseUrl,
    logFile,
    memory: () => readProcStatus(child.pid!),
    stop: async (graceMs = 10_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Is PostgreSQL at BENCH_PG_URL answering? */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: BENCH_PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Stands in for autovacuum where the PostgreSQL server runs without it (`autovacuum = off`, as on the
 * bench machine of sessions 6 and 7, which docs/operations.md says production must not do): vacuums and
 * analyzes each table of the given schemas that the autovacuum daemon would have between the cases, by
 * its default thresholds (`autovacuumWork`), and answers whether it did. Without it the dead rows of a
 * long run (one-time signatures pruned, payments expired, payouts finished) piled up until every claim
 * and index scan walked hundreds of thousands of them (session 7: a payout cost the database 77 – 199 ms
 * of CPU). Only where the daemon would: analyzing a table while it is still empty (as every case's
 * quiet start did until session 17) records it as empty, and each connection then plans its prepared
 * statements on it, a primary-key lookup included, as a scan of the whole table, and keeps those plans
 * while the case fills it (docs/benchmarks.md, session 17).
 */
export async function vacuumWithoutAutovacuum(schemas: readonly string[]): Promise<boolean> {
  if (schemas.length === 0) return false;
  const client = new pg.Client({ connectionString: BENCH_PG_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const setting = await client.query<{ autovacuum: string }>('SHOW autovacuum');
    if (setting.rows[0]?.autovacuum !== 'off') return false;
    const tables = await client.query<TableActivity>(
      `SELECT s.schemaname, s.relname, greatest(c.reltuples, 0)::float8 AS reltuples, s.n_dead_tup::float8 AS n_dead_tup,
              s.n_ins_since_vacuum::float8 AS n_ins_since_vacuum, s.n_mod_since_analyze::float8 AS n_mod_since_analyze
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
       WHERE s.schemaname = ANY($1::text[]) ORDER BY s.schemaname, s.relname`,
      [schemas],
    );
    for (const table of tables.rows) {
      const work = autovacuumWork(table);
      if (work !== null) await client.query(`${work} "${table.schemaname}"."${table.relname}"`);
    }
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

interface TableActivity {
  readonly schemaname: string;
  readonly relname: string;
  /** pg_class.reltuples, 0 for a table never analyzed. */
  readonly reltuples: number;
  readonly n_dead_tup: number;
  readonly n_ins_since_vacuum: number;
  readonly n_mod_since_analyze: number;
}

/**
 * What the autovacuum daemon would run on a table, by PostgreSQL's default settings: VACUUM past 50 +
 * 20 % dead rows or 1,000 + 20 % rows inserted since the last vacuum, ANALYZE past 50 + 10 % rows
 * changed since the last analyze; null when neither.
 */
export function autovacuumWork(table: Pick<TableActivity, 'reltuples' | 'n_dead_tup' | 'n_ins_since_vacuum' | 'n_mod_since_analyze'>): string | null {
  const vacuum = table.n_dead_tup > 50 + 0.2 * table.reltuples || table.n_ins_since_vacuum > 1000 + 0.2 * table.reltuples;
  const analyze = table.n_mod_since_analyze > 50 + 0.1 * table.reltuples;
  if (vacuum && analyze) return 'VACUUM (ANALYZE)';
  if (vacuum) return 'VACUUM';
  return analyze ? 'ANALYZE' : null;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_PG_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * The bank simulator (src/simulator/main.ts) in its own process, its callbacks aimed at the service's
 * port: run inside the service, its request handling and payout timers would be counted as the
 * service's CPU, which a real upstream never is.
 */
async function startSimulatorProcess(dataDir: string, servicePort: number): Promise<{ handle: RunningProcess; env: Record<string, string>; key: string; callbackSecret: string }> {
  const port = await freePort();
  const key = `sim_bench_${crypto.randomBytes(8).toString('hex')}`;
  const callbackSecret = crypto.randomBytes(16).toString('hex');
  const logFile = path.join(dataDir, 'simulator.log');
  const child = spawnNode(
    'simulator',
    'src/simulator/main.ts',
    {
      SIM_HOST: '127.0.0.1',
      SIM_PORT: String(port),
      SIM_KEY: key,
      SIM_CALLBACK_SECRET: callbackSecret,
      SIM_CALLBACK_URL: `http://127.0.0.1:${servicePort}/v1/callbacks/simulator`,
      // Its request log would only fill the disk and cost the simulator CPU.
      SIM_LOGGER: 'false',
    },
    logFile,
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const handle = processHandle('simulator', child, baseUrl, logFile);
  try {
    await waitForTcp(port, child, logFile, 30_000);
  } catch (error) {
    await handle.stop(1000);
    throw error;
  }
  return { handle, env: { SIMULATOR_URL: baseUrl, SIMULATOR_KEY: key, SIMULATOR_CALLBACK_SECRET: callbackSecret }, key, callbackSecret };
}

/** Waits until something accepts connections on the loopback port (the simulator has no health route). */
async function waitForTcp(port: number, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`simulator exited (${child.exitCode ?? child.signalCode}) before listening; log tail:\n${tail(logFile)}`);
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`simulator not listening on ${port} after ${timeoutMs} ms; log tail:\n${tail(logFile)}`);
}

/**
 * Starts the service on a fresh database and waits until /readyz answers 200. `nodeArgs` go before the
 * script (e.g. `--cpu-prof`); `extraEnv` overrides any setting.
 */
export async function startService(store: StoreKind, options: { extraEnv?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<RunningService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-'));
  const logFile = path.join(dataDir, 'service.log');
  const schema = store === 'postgres' ? `bench_${crypto.randomBytes(6).toString('hex')}` : null;
  const port = await freePort();
  const simulator = await startSimulatorProcess(dataDir, port);
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SEED_SANDBOX_MERCHANT: 'false',
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    SECRET_KEY: BENCH_SECRET_KEY,
    RATE_LIMIT_PER_SECOND: '1000000',
    // The webhook case delivers to a receiver in the bench process (bench/cases-money.ts).
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    WEBHOOK_ALLOW_HTTP: 'true',
    DATABASE_URL: store === 'postgres' ? BENCH_PG_URL : '',
    DATABASE_SCHEMA: schema ?? '',
    ...simulator.env,
    ...options.extraEnv,
  };
  const child = spawnNode('service', 'src/main.ts', env, logFile, options.nodeArgs);
  const baseUrl = `http://127.0.0.1:${port}`;
  const base = processHandle(`service (${store})`, child, baseUrl, logFile);
  const cleanup = async (): Promise<void> => {
    if (schema) await dropSchema(schema).catch((error) => process.stderr.write(`could not drop schema ${schema}: ${String(error)}\n`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const emergency = async (): Promise<void> => {
    await base.stop(1000);
    await simulator.handle.stop(1000);
    await cleanup();
  };
  pendingCleanups.add(emergency);
  try {
    await waitForHttp(`${baseUrl}/readyz`, child, logFile, 60_000);
  } catch (error) {
    pendingCleanups.delete(emergency);
    await emergency();
    throw error;
  }
  return {
    ...base,
    // The simulator outlives the service's shutdown (which may still finish payouts with it), then stops.
    stop: async (graceMs?: number) => {
      await base.stop(graceMs);
      await simulator.handle.stop(graceMs);
    },
    store,
    adminToken: BENCH_ADMIN_TOKEN,
    simulator: simulator.handle,
    database: { sqliteFile: store === 'sqlite' ? path.join(dataDir, 'paygate.sqlite') : null, pgSchema: schema },
    cleanup: async () => {
      pendingCleanups.delete(emergency);
      await cleanup();
    },
  };
}

/** Starts bench/noop-server.ts and waits for its /healthz. */
export const startNoopServer = (): Promise<BenchServer> => startBenchServer('noop', 'bench/noop-server.ts', () => ({}));

/**
 * Starts bench/floor-server.ts (the bare signed read) for `merchants`, on its own SQLite file or its own
 * PostgreSQL schema (dropped at clean-up; `schema`), and waits for its /healthz. It also gets a bank
 * simulator of its own, calling back to it, for the bare payout and payment (bench/payout-floor.ts,
 * bench/payment-floor.ts): `simulator`.
 */
export async function startFloorServer(
  store: StoreKind,
  merchants: readonly { id: string; key: MerchantKey }[],
  nodeArgs: string[] = [],
): Promise<BenchServer & { readonly simulator: RunningProcess; readonly schema: string | null }> {
  const schema = store === 'postgres' ? `bench_floor_${crypto.randomBytes(6).toString('hex')}` : null;
  const port = await freePort();
  const simulatorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-floor-bank-'));
  const simulator = await startSimulatorProcess(simulatorDir, port).catch((error: unknown) => {
    fs.rmSync(simulatorDir, { recursive: true, force: true });
    throw error;
  });
  const stopSimulator = async (): Promise<void> => {
    await simulator.handle.stop(1000);
    fs.rmSync(simulatorDir, { recursive: true, force: true });
  };
  const bank = {
    FLOOR_SIM_URL: simulator.env.SIMULATOR_URL!,
    FLOOR_SIM_KEY: simulator.key,
    FLOOR_SIM_SECRET: simulator.callbackSecret,
  };
  let server: BenchServer;
  try {
    server = await startBenchServer(
      'floor',
      'bench/floor-server.ts',
      (dir): Record<string, string> => {
        const keysFile = path.join(dir, 'keys.json');
        fs.writeFileSync(keysFile, JSON.stringify(merchants.map((m) => ({ id: m.id, key: m.key }))), { mode: 0o600 });
        if (schema !== null) return { FLOOR_KEYS: keysFile, FLOOR_PG_URL: BENCH_PG_URL, FLOOR_PG_SCHEMA: schema, ...bank };
        return { FLOOR_KEYS: keysFile, FLOOR_SQLITE: path.join(dir, 'floor.sqlite'), ...bank };
      },
      nodeArgs,
      port,
    );
  } catch (error) {
    await stopSimulator();
    throw error;
  }
  return {
    ...server,
    schema,
    simulator: simulator.handle,
    // As the service's: the bank outlives the floor, then stops.
    stop: async (graceMs?: number) => {
      await server.stop(graceMs);
      await simulator.handle.stop(graceMs);
    },
    cleanup: async () => {
      await server.cleanup();
      await stopSimulator();
      if (schema) await dropSchema(schema).catch((error) => process.stderr.write(`could not drop schema ${schema}: ${String(error)}\n`));
    },
  };
}

export type BenchServer = RunningProcess & { cleanup(): Promise<void> };

/** One of the bench's own servers (a file under bench/) in a directory of its own; `env` may write files there. */
async function startBenchServer(name: string, script: string, env: (dir: string) => Record<string, string>, nodeArgs: string[] = [], fixedPort?: number): Promise<BenchServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `paygate-bench-${name}-`));
  const logFile = path.join(dir, `${name}.log`);
  const port = fixedPort ?? (await freePort());
  const child = spawnNode(name, script, { ...env(dir), PORT: String(port) }, logFile, nodeArgs);
  const baseUrl = `http://127.0.0.1:${port}`;
  const handle = processHandle(name, child, baseUrl, logFile);
  const removeDir = async (): Promise<void> => fs.rmSync(dir, { recursive: true, force: true });
  const emergency = async (): Promise<void> => {
    await handle.stop(1000);
    await removeDir();
  };
  pendingCleanups.add(emergency);
  try {
    await waitForHttp(`${baseUrl}/healthz`, child, logFile, 30_000);
  } catch (error) {
    pendingCleanups.delete(emergency);
    await emergency();
    throw error;
  }
  return {
    ...handle,
    cleanup: async () => {
      pendingCleanups.delete(emergency);
      await removeDir();
    },
  };
}
