// What one one-time signature record costs as the replay table grows: the service's own
// ReplayGuard on a SQLite store migrated as the service's (WAL, synchronous=FULL), filled through
// claim() to each size, then timed over rounds of claims arriving together, as requests do. A busy
// service always holds its replay TTL's worth of records (600 s at 1,000 signed requests a second is
// 600,000), so the cost at size, not on an empty table, is what it pays. The wall time is the event
// loop's: better-sqlite3 runs each statement, and its commit's fsync, on the loop.
//
//   npx tsx bench/signature-claims.ts [--sizes 0,250000,1000000] [--rounds 200] [--together 45]
//
// Only the guard's public claim() is used, so the same file measures any build of it (session 27 ran it
// on the build before 0017_signature_claims as well; docs/benchmarks.md).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { systemClock } from '../src/core/clock.js';
import { ReplayGuard } from '../src/http/replay-guard.js';
import { MIGRATIONS } from '../src/migrations.js';
import { openStore } from '../src/store/db.js';

const { values } = parseArgs({
  options: { sizes: { type: 'string' }, rounds: { type: 'string' }, together: { type: 'string' } },
});
const sizes = (values.sizes ?? '0,250000,1000000').split(',').map(Number);
const rounds = Number(values.rounds ?? 200);
const together = Number(values.together ?? 45);
const TTL_MS = 600_000;
const WINDOW_SECONDS = 300;
const USE = { path: '/v1/api/payout/initiate', changesState: true };
/** Claims the fill sends at once: the guard writes up to 512 a statement. */
const FILL_AT_ONCE = 512;
/** The fill's records are spread over the last ten minutes of Timestamps, as a busy service's are. */
const FILL_SPAN_SECONDS = 600;

async function measure(size: number): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-claims-'));
  const store = await openStore({ databaseUrl: null, databaseSchema: null, sqliteFile: path.join(dir, 'claims.sqlite') }, MIGRATIONS);
  try {
    const guard = new ReplayGuard(store.db, systemClock, TTL_MS, WINDOW_SECONDS);
    const nowSeconds = Math.floor(Date.now() / 1000);
    for (let filled = 0; filled < size; filled += FILL_AT_ONCE) {
      const count = Math.min(FILL_AT_ONCE, size - filled);
      const signedAt = nowSeconds - FILL_SPAN_SECONDS + Math.floor((filled / Math.max(size, 1)) * FILL_SPAN_SECONDS);
      await Promise.all(Array.from({ length: count }, (_, i) => guard.claim(`fill-${filled + i}`, 'mch_bench', signedAt, USE)));
    }
    const cpu = process.cpuUsage();
    const started = performance.now();
    let firsts = 0;
    for (let round = 0; round < rounds; round++) {
      const signedAt = Math.floor(Date.now() / 1000);
      const outcomes = await Promise.all(
        Array.from({ length: together }, () => guard.claim(crypto.randomBytes(32).toString('base64'), 'mch_bench', signedAt, USE)),
      );
      firsts += outcomes.filter((o) => o === 'first').length;
    }
    const wallUs = (performance.now() - started) * 1000;
    const used = process.cpuUsage(cpu);
    const claims = rounds * together;
    if (firsts !== claims) throw new Error(`${claims - firsts} of ${claims} fresh claims were not judged first`);
    return (
      `${size.toLocaleString('en-US').padStart(10)} records: ${(wallUs / claims).toFixed(1).padStart(5)} µs a claim, wall ` +
      `(CPU ${((used.user + used.system) / claims).toFixed(1)} µs, of it system ${(used.system / claims).toFixed(1)}), ${claims.toLocaleString('en-US')} claims ${together} at a time`
    );
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`one-time signature records on SQLite (WAL, synchronous=FULL), ${os.cpus().length} CPUs, Node ${process.version}`);
for (const size of sizes) console.log(await measure(size));
