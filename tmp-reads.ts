// In-process CPU per signed read, through app.inject (no sockets), routes alternated.
import { startTestServer } from './test/helpers/server.js';
import { initiateBody } from './test/payments/api-helpers.js';
const server = await startTestServer({ RATE_LIMIT_PER_SECOND: '1000000' }, { worker: false } as any);
const merchants = await Promise.all(Array.from({ length: 20 }, () => server.createMerchant({ keyType: 'HMAC-SHA256', rateLimitPerSecond: 1_000_000 })));
const refs = new Map<string, string>();
for (const m of merchants) refs.set(m.id, (await m.client.paymentInitiate(initiateBody('INR', 'NATIVE'))).data!.transactionRef);
const WS = [' ', '\t', '\r', '\n'];
const suffixes = [''];
for (const a of WS) suffixes.push(a);
for (const a of WS) for (const b of WS) suffixes.push(a + b);
const routes: Record<string, (m: (typeof merchants)[number]) => string> = {
  'payout/bankCode': () => '{"currency":"IDR"}',
  'account/balance': () => '{"currency":"IDR"}',
  'payment/status': (m) => JSON.stringify({ transactionRef: refs.get(m.id) }),
};
const N = Number(process.env.N ?? 20000);
const CONC = 50;
let used = 0; // shared counter for unique signatures per (merchant, body, ts)
function prepare(path: string) {
  const list: { headers: Record<string, string>; body: string }[] = [];
  const now = Math.floor(server.clock.nowMs() / 1000);
  for (let i = 0; i < N; i++) {
    const m = merchants[i % merchants.length]!;
    const k = used + Math.floor(i / merchants.length);
    const ts = now - 200 + (k % 400);
    const suffix = suffixes[Math.floor(k / 400) % suffixes.length]!;
    list.push((m.client as any).signAt(routes[path]!(m) + suffix, ts));
  }
  return list;
}
async function run(path: string): Promise<number> {
  const list = prepare(path);
  let next = 0;
  const before = process.cpuUsage();
  await Promise.all(Array.from({ length: CONC }, async () => {
    while (next < list.length) {
      const r = list[next++]!;
      const res = await server.handle.app.inject({ method: 'POST', url: `/v1/api/${path}`, headers: r.headers, payload: r.body });
      if (res.statusCode !== 200) throw new Error(`${path} ${res.statusCode} ${res.body}`);
    }
  }));
  const u = process.cpuUsage(before);
  return (u.user + u.system) / list.length;
}
const rounds = Number(process.env.ROUNDS ?? 4);
const results: Record<string, number[]> = {};
for (let r = 0; r < rounds; r++) {
  for (const path of Object.keys(routes)) (results[path] ??= []).push(await run(path));
  used += Math.ceil(N / merchants.length);
}
for (const [path, v] of Object.entries(results)) console.log(path.padEnd(18), v.map((x) => x.toFixed(1)).join('  '));
await server.close();
process.exit(0);
