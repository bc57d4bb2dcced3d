// Two builds of the service answering signed account/balance reads at the same time, each a compiled
// service in a process of its own (as `npm start` runs it, on SQLite), each loaded from this process by
// the bench's own load generator with the same connections. On a machine whose speed drifts by half
// from one minute to the next, runs minutes apart cannot show a change of a few percent; side by side,
// both see the same machine. The answer per build: the event loop's CPU a read (the service's main
// thread, which bounds its rate), all its threads' CPU a read, its rate and p99. The order in which the
// two loads start alternates from round to round (a build measured against itself reads 1.00 then).
//
//   node scripts/build.mjs bench/results/build-a   # in each checkout: a build inside it, for its node_modules
//   npx tsx bench/paired-reads.ts --a <checkout>/bench/results/build-a --b bench/results/build-b [--rounds 6] [--connections 25]
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runLoad, type LoadResult, type PreparedRequest } from './load.js';
import { freePort } from './service.js';
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

const ADMIN_TOKEN = `adm_pair_${crypto.randomBytes(8).toString('hex')}`;
const SECRET_KEY = crypto.randomBytes(32).toString('base64');
const READS_PER_ROUND = 60_000;
const TICK_MS = 1000 / 100;

interface Build {
  readonly label: string;
  readonly dir: string;
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly dataDir: string;
  merchants: BenchMerchant[];
}

/** CPU ms of one thread (`tid`) of `pid`, or of every thread when `tid` is null. */
function cpuMs(pid: number, tid: number | null): number {
  const tasks = tid === null ? fs.readdirSync(`/proc/${pid}/task`) : [String(tid)];
  let ms = 0;
  for (const task of tasks) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ms += (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    } catch {
      // a thread ended meanwhile
    }
  }
  return ms;
}

async function start(label: string, dir: string, signer: RequestSigner): Promise<Build> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `paygate-pair-${label}-`));
  const port = await freePort();
  const child = spawn(process.execPath, [path.resolve(dir, 'src/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SEED_SANDBOX_MERCHANT: 'false',
      ADMIN_TOKEN,
      SECRET_KEY,
      RATE_LIMIT_PER_SECOND: '1000000',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 100) {
    if (waited > 60_000) throw new Error(`${label}: the service did not start`);
    const ready = await fetch(`${baseUrl}/readyz`).then((r) => r.ok).catch(() => false);
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const build: Build = { label, dir, child, baseUrl, dataDir, merchants: [] };
  for (let i = 0; i < Number(values.merchants); i++) {
    const keyType = i % 2 === 0 ? ('RSA-SHA512' as const) : ('HMAC-SHA256' as const);
    const response = await fetch(`${baseUrl}/admin/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Pair ${i}`, keyType, mode: 'sandbox', rateLimitPerSecond: 1_000_000 }),
    });
    const data = ((await response.json()) as any).data;
    const key = keyType === 'RSA-SHA512' ? { type: keyType, privateKeyPem: String(data.key.privateKeyPem) } : { type: keyType, secret: String(data.key.secret) };
    build.merchants.push({ id: String(data.merchant.id), name: `Pair ${i}`, keyType, key, keyIndex: signer.register(key) });
  }
  return build;
}

interface Figures {
  readonly rps: number;
  readonly p99Ms: number;
  readonly loopUs: number;
  readonly allUs: number;
}

/** A round's reads for `build`, each a first use of its Signature. */
function signReads(build: Build, signer: RequestSigner): Promise<PreparedRequest[]> {
  const templates = Array.from({ length: READS_PER_ROUND }, (_, i) => ({ merchant: build.merchants[i % build.merchants.length]!, path: 'account/balance', body: { currency: 'INR' } }));
  return signer.sign(templates);
}

async function measure(build: Build, requests: readonly PreparedRequest[], delayMs: number): Promise<Figures> {
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const pid = build.child.pid!;
  let loopStart = 0;
  let allStart = 0;
  const load: LoadResult = await runLoad({
    origin: build.baseUrl,
    requests,
    connections: Number(values.connections),
    warmupMs: 1000,
    durationMs: Number(values.seconds) * 1000,
    onWindowStart: () => {
      loopStart = cpuMs(pid, pid);
      allStart = cpuMs(pid, null);
    },
  });
  const loopMs = cpuMs(pid, pid) - loopStart;
  const allMs = cpuMs(pid, null) - allStart;
  if (load.non200 > 0) throw new Error(`${build.label}: ${load.non200} answers were not 200`);
  return { rps: load.rps, p99Ms: load.latencyMs.p99, loopUs: (loopMs * 1000) / load.requests, allUs: (allMs * 1000) / load.requests };
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function stop(build: Build): Promise<void> {
  build.child.kill('SIGTERM');
  await new Promise((resolve) => build.child.once('exit', resolve));
  fs.rmSync(build.dataDir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  if (!values.a || !values.b) throw new Error('usage: --a <build dir> --b <build dir>');
  const signer = RequestSigner.start();
  const ratios = { rps: [] as number[], loop: [] as number[], all: [] as number[] };
  try {
    for (let round = 1; round <= Number(values.rounds); round++) {
      // Each round starts both services afresh, in alternating order, and starts their loads in the
      // same order: a build run against itself favoured the one started second by 5 % when the two
      // services lived through every round (docs/benchmarks.md, session 42).
      const aFirst = round % 2 === 1;
      const firstBuilt = await start(aFirst ? 'a' : 'b', aFirst ? values.a : values.b, signer);
      const secondBuilt = await start(aFirst ? 'b' : 'a', aFirst ? values.b : values.a, signer);
      const [a, b] = aFirst ? [firstBuilt, secondBuilt] : [secondBuilt, firstBuilt];
      try {
        const readsA = await signReads(a, signer);
        const readsB = await signReads(b, signer);
        const [fa, fb] = await Promise.all([measure(a, readsA, aFirst ? 0 : 20), measure(b, readsB, aFirst ? 20 : 0)]);
        ratios.rps.push(fb.rps / fa.rps);
        ratios.loop.push(fb.loopUs / fa.loopUs);
        ratios.all.push(fb.allUs / fa.allUs);
        const line = (f: Figures): string => `${Math.round(f.rps)} req/s, p99 ${f.p99Ms.toFixed(1)} ms, loop ${f.loopUs.toFixed(0)} µs, all ${f.allUs.toFixed(0)} µs`;
        console.log(`round ${round} (${aFirst ? 'a' : 'b'} first): a ${line(fa)} | b ${line(fb)}`);
      } finally {
        await stop(a);
        await stop(b);
      }
    }
    console.log(`median b/a: rate ${median(ratios.rps).toFixed(3)}, loop CPU a read ${median(ratios.loop).toFixed(3)}, all threads ${median(ratios.all).toFixed(3)}`);
  } finally {
    await signer.close();
  }
}

await main();
