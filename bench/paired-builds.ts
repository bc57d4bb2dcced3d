// Two builds of the service measured at the same time, so that a machine whose speed drifts from one
// minute to the next (the no-op alone has moved by half between runs here) slows both alike. Each build
// runs in a process of its own, from its own checkout: the real service as the tests start it (SQLite,
// the in-process bank simulator over HTTP, a merchant whose SDK client signs with HMAC, which costs
// little beside RSA), takes a burst of payouts from 40 connections and waits until every one is final.
// The answer is each process's CPU per payout over the burst, the service, its bank and the client
// together. The two start together in every round, in alternating order.
//
//   npx tsx bench/paired-builds.ts --a <checkout> --b <checkout> [--rounds 4] [--payouts 3000]
//
// A checkout needs node_modules (a link to this one's will do: `git worktree add /tmp/a <rev> &&
// ln -s "$PWD/node_modules" /tmp/a/`). Two processes of the same build differ by a percent or two
// (docs/benchmarks.md, session 28); a difference that holds in every round is the builds'.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    rounds: { type: 'string' },
    payouts: { type: 'string' },
    // Internal: the process that runs one build's burst.
    burst: { type: 'string' },
  },
});

const CONNECTIONS = 40;
const WARM_UP_PAYOUTS = 500;
const FINAL_POLL_MS = 50;

interface BurstResult {
  readonly cpuUsPerPayout: number;
  readonly wallMs: number;
}

/** In the child: one build's service, a warm-up burst, then the measured one. */
async function burst(checkout: string, payouts: number): Promise<BurstResult> {
  const from = (file: string) => import(pathToFileURL(path.join(checkout, file)).href);
  const { startTestServer } = await from('test/helpers/server.ts');
  const { fund, payoutBody } = await from('test/payouts/helpers.ts');
  const server = await startTestServer({ SIMULATOR_PAYOUT_DELAY_MS: '200', CREDENTIAL_CACHE_MS: '60000', WORKER_IDLE_MS: '200', WORKER_IDLE_MAX_MS: '1000' });
  try {
    const merchant = await server.createMerchant({ keyType: 'HMAC-SHA256' });
    await fund(server, merchant.id, 'IDR', 10n ** 13n);
    const send = async (count: number): Promise<void> => {
      let sent = 0;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (sent < count) {
            sent += 1;
            const answer = await merchant.client.payoutInitiate(payoutBody('IDR', 'TRANSFER'));
            if (!answer.ok) throw new Error(`payout refused: ${JSON.stringify(answer)}`);
          }
        }),
      );
      for (;;) {
        // The checkout's own modules, loaded at run time: typed as any here.
        const open = await server.services.store.db
          .selectFrom('payouts')
          .select(({ fn }: any) => fn.countAll().as('n'))
          .where('status', 'in', ['Initiated', 'Processing'])
          .executeTakeFirstOrThrow();
        if (Number(open.n) === 0) return;
        await new Promise((resolve) => setTimeout(resolve, FINAL_POLL_MS));
      }
    };
    await send(WARM_UP_PAYOUTS);
    const before = process.cpuUsage();
    const startedMs = Date.now();
    await send(payouts);
    const used = process.cpuUsage(before);
    return { cpuUsPerPayout: (used.user + used.system) / payouts, wallMs: Date.now() - startedMs };
  } finally {
    await server.close();
  }
}

/** Runs one build's burst in a process of its own; answers what it measured. */
function runBurst(checkout: string, payouts: number): Promise<BurstResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', process.argv[1]!, '--burst', checkout, '--payouts', String(payouts)], {
    cwd: checkout,
    stdio: ['ignore', 'pipe', 'inherit'],
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
  if (values.burst !== undefined) {
    process.stdout.write(`${JSON.stringify(await burst(path.resolve(values.burst), payouts))}\n`);
    return;
  }
  if (values.a === undefined || values.b === undefined) throw new Error('usage: npx tsx bench/paired-builds.ts --a <checkout> --b <checkout> [--rounds 4] [--payouts 3000]');
  const builds = { a: path.resolve(values.a), b: path.resolve(values.b) };
  const rounds = Number(values.rounds ?? 4);
  console.log(`paired builds: ${payouts} payouts a burst, ${rounds} rounds\n  a = ${builds.a}\n  b = ${builds.b}\n`);
  console.log('round  a µs/payout  b µs/payout  b / a   a wall s  b wall s');
  const ratios: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    // The one launched first gets a head start of a few milliseconds: alternate it.
    const [first, second] = round % 2 === 1 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    const started = { [first]: runBurst(builds[first], payouts), [second]: runBurst(builds[second], payouts) } as Record<'a' | 'b', Promise<BurstResult>>;
    const [a, b] = await Promise.all([started.a, started.b]);
    const ratio = b.cpuUsPerPayout / a.cpuUsPerPayout;
    ratios.push(ratio);
    console.log(
      `${String(round).padStart(5)}  ${a.cpuUsPerPayout.toFixed(0).padStart(11)}  ${b.cpuUsPerPayout.toFixed(0).padStart(11)}  ${ratio.toFixed(3).padStart(5)}` +
        `  ${(a.wallMs / 1000).toFixed(1).padStart(8)}  ${(b.wallMs / 1000).toFixed(1).padStart(8)}`,
    );
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  console.log(`\nb / a: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)}, from ${sorted[0]!.toFixed(3)} to ${sorted.at(-1)!.toFixed(3)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
