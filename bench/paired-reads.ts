// Two builds of the service answering signed account/balance reads at the same time, each a compiled
// service in a process of its own on SQLite (its bank simulator in the same process, as `npm start` runs
// it), each loaded from this process by the bench's own load generator with the same connections. On a
// machine whose speed drifts by half from one minute to the next, runs minutes apart cannot show a
// change of a few percent; side by side, both see the same machine. The answer per build: the event
// loop's CPU a read (the service's main thread, which bounds its rate), the whole process's CPU a read,
// its rate and p99. Each round starts both services afresh, on empty databases, and which starts (and is
// loaded) first alternates; the rounds must come in pairs. docs/benchmarks.md (session 42) gives what a
// build measured against itself reads.
//
//   node scripts/build.mjs bench/results/build     # in each checkout: a build inside it, for its node_modules
//   npx tsx bench/paired-reads.ts --a <checkout a>/bench/results/build --b <checkout b>/bench/results/build \
//     [--rounds 6] [--connections 25] [--seconds 4] [--merchants 10]
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createContext } from './context.js';
import { processCpuMs, threadCpuMs } from './cpu.js';
import { runLoad, type PreparedRequest } from './load.js';
import { freePort, processHandle, waitForHttp, type RunningProcess } from './service.js';
import { RequestSigner, type BenchMerchant } from './signing.js';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    rounds: { type: 'string', default: '6' },
    connections: { type: 'string', default: '25' },
    seconds: { type: 'string', default: '4' },
    merchants: { type: 'string', default: '10' },
  },
});

const rounds = Number(values.rounds);
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const merchantCount = Number(values.merchants);
const WARM_UP_MS = 1000;
/** Reads signed per build and round: enough for 20,000 a second through warm-up and window. */
const readsPerRound = Math.ceil(20_000 * (seconds + WARM_UP_MS / 1000));
const ADMIN_TOKEN = `adm_pair_${crypto.randomBytes(8).toString('hex')}`;
const SECRET_KEY = crypto.randomBytes(32).toString('base64');
const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 15_000;

interface Build {
  readonly label: string;
  readonly server: RunningProcess;
  readonly dataDir: string;
  readonly merchants: readonly BenchMerchant[];
}

/** Ends the service (SIGTERM, then SIGKILL after STOP_GRACE_MS) and removes its data and log. */
async function stop(server: RunningProcess, dataDir: string): Promise<void> {
  await server.stop(STOP_GRACE_MS);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** Starts the build's service on a fresh SQLite directory and creates its merchants (RSA and HMAC keys in turn). */
async function start(label: string, mainScript: string, signer: RequestSigner): Promise<Build> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `paygate-pair-${label}-`));
  const logFile = path.join(dataDir, 'service.log');
  const port = await freePort();
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATABASE_SCHEMA', 'SIMULATOR_URL', 'NODE_OPTIONS', 'BENCH_NODE_FLAGS']) delete env[name];
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [mainScript], {
    cwd: path.dirname(path.dirname(mainScript)),
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_SANDBOX_MERCHANT: 'false', ADMIN_TOKEN, SECRET_KEY, RATE_LIMIT_PER_SECOND: '1000000' },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = processHandle(`build ${label}`, child, baseUrl, logFile);
  try {
    await waitForHttp(`${baseUrl}/readyz`, child, logFile, START_TIMEOUT_MS);
    // The bench's own merchant creation: RSA-SHA512 and HMAC-SHA256 keys in turn, each key registered with the signer.
    const context = createContext({ store: 'sqlite', baseUrl, servicePid: server.pid, database: { sqliteFile: null, pgSchema: null }, adminToken: ADMIN_TOKEN, signer });
    return { label, server, dataDir, merchants: await context.createMerchants(merchantCount, { namePrefix: `Pair ${label}` }) };
  } catch (error) {
    await stop(server, dataDir);
    throw error;
  }
}

/** A round's reads for `build`, each a first use of its Signature. */
function signReads(build: Build, signer: RequestSigner): Promise<PreparedRequest[]> {
  const templates = Array.from({ length: readsPerRound }, (_, i) => ({ merchant: build.merchants[i % build.merchants.length]!, path: 'account/balance', body: { currency: 'INR' } }));
  return signer.sign(templates);
}

interface Figures {
  readonly rps: number;
  readonly p99Ms: number;
  /** CPU µs a read: the event loop's thread, and the whole process (threads that ended included). */
  readonly loopUs: number;
  readonly allUs: number;
}

async function measure(build: Build, requests: readonly PreparedRequest[], delayMs: number): Promise<Figures> {
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const pid = build.server.pid;
  const at = { loop: [0, 0], all: [0, 0] };
  const load = await runLoad({
    origin: build.server.baseUrl,
    requests,
    connections,
    warmupMs: WARM_UP_MS,
    durationMs: seconds * 1000,
    onWindowStart: () => {
      at.loop[0] = threadCpuMs(pid, pid) ?? NaN;
      at.all[0] = processCpuMs(pid) ?? NaN;
    },
    onWindowEnd: () => {
      at.loop[1] = threadCpuMs(pid, pid) ?? NaN;
      at.all[1] = processCpuMs(pid) ?? NaN;
    },
  });
  if (load.non200 > 0 || load.networkErrors > 0) throw new Error(`build ${build.label}: ${load.non200} answers not 200, ${load.networkErrors} network errors`);
  if (load.exhausted) throw new Error(`build ${build.label}: its ${readsPerRound} reads ran out inside the window; use fewer --seconds`);
  if (load.requests === 0) throw new Error(`build ${build.label}: no read answered in the window`);
  const perRead = (ms: number): number => (ms * 1000) / load.requests;
  return { rps: load.rps, p99Ms: load.latencyMs.p99, loopUs: perRead(at.loop[1]! - at.loop[0]!), allUs: perRead(at.all[1]! - at.all[0]!) };
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function mainScriptOf(dir: string | undefined, option: string): string {
  if (!dir) throw new Error(`usage: --a <build dir> --b <build dir> (missing --${option})`);
  const script = path.resolve(dir, 'src/main.js');
  if (!fs.existsSync(script)) throw new Error(`--${option}: no ${script}; build it with \`node scripts/build.mjs <dir>\` in its checkout`);
  return script;
}

async function main(): Promise<void> {
  const scripts = { a: mainScriptOf(values.a, 'a'), b: mainScriptOf(values.b, 'b') };
  if (!(rounds >= 2 && rounds % 2 === 0)) throw new Error('--rounds must be an even number, at least 2: each order runs as often');
  if (!(connections >= 1 && seconds >= 1 && merchantCount >= 1)) throw new Error('--connections, --seconds and --merchants must be at least 1');
  console.log(`a: ${scripts.a}\nb: ${scripts.b}`);
  const signer = RequestSigner.start();
  const ratios = { rps: [] as number[], loop: [] as number[], all: [] as number[] };
  const byOrder: Record<'a first' | 'b first', number[]> = { 'a first': [], 'b first': [] };
  try {
    for (let round = 1; round <= rounds; round++) {
      // Kept alive across rounds, a build against itself favoured the one started second by 5 %.
      const order = round % 2 === 1 ? (['a', 'b'] as const) : (['b', 'a'] as const);
      const builds: Partial<Record<'a' | 'b', Build>> = {};
      try {
        for (const label of order) builds[label] = await start(label, scripts[label], signer);
        const a = builds.a!;
        const b = builds.b!;
        const reads = { a: await signReads(a, signer), b: await signReads(b, signer) };
        // Both loads run together; the one started first starts 20 ms ahead, so neither order always leads.
        const [fa, fb] = await Promise.all([measure(a, reads.a, order[0] === 'a' ? 0 : 20), measure(b, reads.b, order[0] === 'b' ? 0 : 20)]);
        ratios.rps.push(fb.rps / fa.rps);
        ratios.loop.push(fb.loopUs / fa.loopUs);
        ratios.all.push(fb.allUs / fa.allUs);
        byOrder[`${order[0]} first`].push(fb.loopUs / fa.loopUs);
        const line = (f: Figures): string => `${Math.round(f.rps)} req/s, p99 ${f.p99Ms.toFixed(1)} ms, loop ${f.loopUs.toFixed(0)} µs, all ${f.allUs.toFixed(0)} µs`;
        console.log(`round ${round} (${order[0]} first): a ${line(fa)} | b ${line(fb)}`);
      } finally {
        await Promise.allSettled(Object.values(builds).map((build) => stop(build.server, build.dataDir)));
      }
    }
    console.log(
      `median b/a: rate ${median(ratios.rps).toFixed(3)}, event loop CPU a read ${median(ratios.loop).toFixed(3)} ` +
        `(a first ${median(byOrder['a first']).toFixed(3)}, b first ${median(byOrder['b first']).toFixed(3)}), whole process ${median(ratios.all).toFixed(3)}`,
    );
  } finally {
    await signer.close();
  }
}

await main();
