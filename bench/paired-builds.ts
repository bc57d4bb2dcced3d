// Two builds of the service measured at the same time, so that a machine whose speed drifts from one
// minute to the next (the no-op alone has moved by half between runs here) slows both alike. Each build
// runs in a process of its own, from its own checkout: the real service as the tests start it (SQLite,
// the in-process bank simulator over HTTP, a merchant whose SDK client signs with HMAC, which costs
// little beside RSA), takes a burst of payouts from 40 connections and waits until every one is final.
// The answer is each process's CPU per payout over the burst, the service, its bank and the client
// together. The two start together in every round, in alternating order.
//
//   npx tsx bench/paired-builds.ts --a <checkout> --b <checkout> [--rounds 4] [--payouts 3000] [--kind payouts|payments|reads]
//
// `--kind payments` sends payment/initiate instead (INR, NATIVE) and waits until every payment's
// collection is ready: intake, the collection job's claim and the channel's answer. `--kind reads`
// sends signed account/balance reads (session 40): the signature check, the one-time record's group
// commit and the ledger read, with nothing left to wait for afterwards. With
// TEST_STORE=postgres each build's services run on a schema of their own, and the CPU of the
// PostgreSQL backends serving that build (told apart by their application_name) is counted too.
//
// A checkout needs node_modules (a link to this one's will do: `git worktree add /tmp/a <rev> &&
// ln -s "$PWD/node_modules" /tmp/a/`). Two processes of the same build differ by a percent or two
// (docs/benchmarks.md, session 28); a difference that holds in every round is the builds'.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { processCpuMs } from './cpu.js';
import { whitespaceSuffix } from './signing.js';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    rounds: { type: 'string' },
    payouts: { type: 'string' },
    kind: { type: 'string' },
    // Internal: the process that runs one build's burst.
    burst: { type: 'string' },
  },
});

const CONNECTIONS = 40;
const WARM_UP_PAYOUTS = 500;
const FINAL_POLL_MS = 50;

type Kind = 'payouts' | 'payments' | 'reads';
const KINDS: readonly Kind[] = ['payouts', 'payments', 'reads'];

interface BurstResult {
  /** The child's CPU (service, bank, client) per request, and on PostgreSQL its backends' CPU per request. */
  readonly cpuUsPerPayout: number;
  readonly dbCpuUsPerPayout: number | null;
  readonly wallMs: number;
}

/** CPU (ms) the PostgreSQL backends serving `applicationName` have used so far, by pid. */
async function backendCpuMs(db: any, applicationName: string): Promise<Map<number, number>> {
  const { sql } = await import('kysely');
  const rows = await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE application_name = ${applicationName}`.execute(db);
  const used = new Map<number, number>();
  for (const { pid } of rows.rows) {
    const ms = processCpuMs(pid);
    // null: the backend ended between the two reads.
    if (ms !== null) used.set(pid, ms);
  }
  return used;
}

const sumSince = (after: Map<number, number>, before: Map<number, number>): number =>
  [...after].reduce((total, [pid, us]) => total + us - (before.get(pid) ?? 0), 0);

/** In the child: one build's service, a warm-up burst, then the measured one. */
async function burst(checkout: string, payouts: number, kind: Kind): Promise<BurstResult> {
  const from = (file: string) => import(pathToFileURL(path.join(checkout, file)).href);
  const { startTestServer } = await from('test/helpers/server.ts');
  const { fund, payoutBody } = await from('test/payouts/helpers.ts');
  const { initiateBody } = await from('test/payments/api-helpers.ts');
  const server = await startTestServer({ SIMULATOR_PAYOUT_DELAY_MS: '200', CREDENTIAL_CACHE_MS: '60000', WORKER_IDLE_MS: '200', WORKER_IDLE_MAX_MS: '1000' });
  const applicationName = process.env.PAIRED_APPLICATION_NAME;
  try {
    const merchant = await server.createMerchant({ keyType: 'HMAC-SHA256' });
    await fund(server, merchant.id, 'IDR', 10n ** 13n);
    let reads = 0;
    const request = (): Promise<{ ok: boolean }> =>
      kind === 'payments'
        ? merchant.client.paymentInitiate(initiateBody('INR', 'NATIVE'))
        : kind === 'reads'
          ? // Each read its own body (JSON whitespace after it), so each is a first use of its Signature:
            // the same body within one second would carry the same one and take the repeats' path.
            merchant.client.request('account/balance', `${JSON.stringify({ currency: 'IDR' })}${whitespaceSuffix(reads++)}`)
          : merchant.client.payoutInitiate(payoutBody('IDR', 'TRANSFER'));
    // The checkout's own modules, loaded at run time: typed as any here.
    const unfinished = async (): Promise<number> => {
      if (kind === 'reads') return 0;
      const db = server.services.store.db;
      const query =
        kind === 'payments'
          ? db.selectFrom('payments').where('collection_state', '=', 'requested')
          : db.selectFrom('payouts').where('status', 'in', ['Initiated', 'Processing']);
      const open = await query.select(({ fn }: any) => fn.countAll().as('n')).executeTakeFirstOrThrow();
      return Number(open.n);
    };
    const send = async (count: number): Promise<void> => {
      let sent = 0;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (sent < count) {
            sent += 1;
            const answer = await request();
            if (!answer.ok) throw new Error(`${kind} refused: ${JSON.stringify(answer)}`);
          }
        }),
      );
      while ((await unfinished()) > 0) await new Promise((resolve) => setTimeout(resolve, FINAL_POLL_MS));
    };
    await send(WARM_UP_PAYOUTS);
    const db = server.services.store.db;
    const backendsBefore = applicationName ? await backendCpuMs(db, applicationName) : null;
    const before = process.cpuUsage();
    const startedMs = Date.now();
    await send(payouts);
    const used = process.cpuUsage(before);
    const wallMs = Date.now() - startedMs;
    const dbCpuUsPerPayout = backendsBefore && applicationName ? (sumSince(await backendCpuMs(db, applicationName), backendsBefore) * 1000) / payouts : null;
    return { cpuUsPerPayout: (used.user + used.system) / payouts, dbCpuUsPerPayout, wallMs };
  } finally {
    await server.close();
  }
}

/** Runs one build's burst in a process of its own; answers what it measured. */
function runBurst(checkout: string, payouts: number, kind: Kind, label: 'a' | 'b'): Promise<BurstResult> {
  // On PostgreSQL each build's connections carry a name of their own, so their backends can be told apart.
  const applicationName = `paired-${label}-${process.pid}`;
  const pgUrl = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');
  pgUrl.searchParams.set('application_name', applicationName);
  const child = spawn(process.execPath, ['--import', 'tsx', process.argv[1]!, '--burst', checkout, '--payouts', String(payouts), '--kind', kind], {
    cwd: checkout,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, TEST_DATABASE_URL: pgUrl.toString(), PAIRED_APPLICATION_NAME: process.env.TEST_STORE === 'postgres' ? applicationName : '' },
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const line = out.split('\n').find((text) => text.startsWith('{"cpuUsPerPayout"'));
      if (code !== 0 || line === undefined) reject(new Error(`the burst of ${checkout} failed (exit ${code}):\n${out.slice(-2000)}`));
      else resolve(JSON.parse(line) as BurstResult);
    });
  });
}

async function main(): Promise<void> {
  const payouts = Number(values.payouts ?? 3000);
  const kind = (values.kind ?? 'payouts') as Kind;
  if (!KINDS.includes(kind)) throw new Error(`--kind is one of ${KINDS.join(', ')}`);
  if (values.burst !== undefined) {
    process.stdout.write(`${JSON.stringify(await burst(path.resolve(values.burst), payouts, kind))}\n`);
    return;
  }
  if (values.a === undefined || values.b === undefined) throw new Error('usage: npx tsx bench/paired-builds.ts --a <checkout> --b <checkout> [--rounds 4] [--payouts 3000]');
  const builds = { a: path.resolve(values.a), b: path.resolve(values.b) };
  const rounds = Number(values.rounds ?? 4);
  const unit = kind === 'payments' ? 'payment' : kind === 'reads' ? 'read' : 'payout';
  console.log(`paired builds: ${payouts} ${kind} a burst, ${rounds} rounds, ${process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite'}\n  a = ${builds.a}\n  b = ${builds.b}\n`);
  console.log(`round  a µs/${unit}  b µs/${unit}  b / a   a db µs  b db µs  db b / a  a wall s  b wall s`);
  const ratios: number[] = [];
  const dbRatios: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    // The one launched first gets a head start of a few milliseconds: alternate it.
    const [first, second] = round % 2 === 1 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    const started = { [first]: runBurst(builds[first], payouts, kind, first), [second]: runBurst(builds[second], payouts, kind, second) } as Record<'a' | 'b', Promise<BurstResult>>;
    const [a, b] = await Promise.all([started.a, started.b]);
    const ratio = b.cpuUsPerPayout / a.cpuUsPerPayout;
    ratios.push(ratio);
    const db = (r: BurstResult): string => (r.dbCpuUsPerPayout === null ? '-' : r.dbCpuUsPerPayout.toFixed(0)).padStart(7);
    const dbRatio = a.dbCpuUsPerPayout && b.dbCpuUsPerPayout ? (b.dbCpuUsPerPayout / a.dbCpuUsPerPayout).toFixed(3) : '-';
    if (a.dbCpuUsPerPayout && b.dbCpuUsPerPayout) dbRatios.push(b.dbCpuUsPerPayout / a.dbCpuUsPerPayout);
    console.log(
      `${String(round).padStart(5)}  ${a.cpuUsPerPayout.toFixed(0).padStart(11)}  ${b.cpuUsPerPayout.toFixed(0).padStart(11)}  ${ratio.toFixed(3).padStart(5)}` +
        `  ${db(a)}  ${db(b)}  ${dbRatio.padStart(8)}  ${(a.wallMs / 1000).toFixed(1).padStart(8)}  ${(b.wallMs / 1000).toFixed(1).padStart(8)}`,
    );
  }
  const spread = (values: number[]): string => {
    const sorted = [...values].sort((x, y) => x - y);
    return `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)}, from ${sorted[0]!.toFixed(3)} to ${sorted.at(-1)!.toFixed(3)}`;
  };
  console.log(`\nb / a: ${spread(ratios)}`);
  if (dbRatios.length > 0) console.log(`PostgreSQL backends, b / a: ${spread(dbRatios)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
