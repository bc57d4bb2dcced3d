// The service as a real process: a 100,000-row export is under way when the process is killed
// (SIGKILL, nothing flushed or recorded on the way out); a new process resumes it and the finished
// file has every row exactly once. The resident set of both processes, read from /proc while they
// export, stays within the service's 300 MiB budget.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentClient } from '../../sdk/src/index.js';
import { MIGRATIONS } from '../../src/migrations.js';
import { openStore, type Store } from '../../src/store/db.js';
import { freePort } from '../helpers/ports.js';
import { TEST_ADMIN_TOKEN, TEST_SECRET_KEY } from '../helpers/server.js';
import { allocateTestDatabase, type TestDatabase } from '../helpers/store.js';

const ROOT = path.resolve(__dirname, '../..');
const ROWS = 100_000;
const BASE_MS = Date.UTC(2026, 0, 1);
const RSS_BUDGET_BYTES = 300 * 1024 * 1024;

let database: TestDatabase;
let store: Store;
let port: number;
let child: ChildProcess | null = null;
let rssPeakBytes = 0;

function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function startService(): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: database.dataDir,
    SQLITE_FILE: 'test.sqlite',
    DATABASE_URL: database.databaseUrl ?? '',
    DATABASE_SCHEMA: database.databaseSchema ?? '',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    SECRET_KEY: TEST_SECRET_KEY,
    SEED_SANDBOX_MERCHANT: 'false',
    WORKER_IDLE_MS: '50',
  };
  const started = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env, stdio: 'ignore' });
  for (let i = 0; i < 300; i += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return started;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('service did not start');
}

async function kill(process_: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => process_.once('exit', resolve));
  process_.kill('SIGKILL');
  await exited;
}

beforeAll(async () => {
  database = allocateTestDatabase();
  port = await freePort();
  child = await startService();
  store = await openStore(
    { databaseUrl: database.databaseUrl, databaseSchema: database.databaseSchema, sqliteFile: path.join(database.dataDir, 'test.sqlite') },
    MIGRATIONS,
  );
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) await kill(child);
  await store?.close();
  await database?.drop();
});

async function createMerchant(): Promise<{ client: PaymentClient; merchantId: string }> {
  const response = await fetch(`http://127.0.0.1:${port}/admin/merchants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Restart Shop', keyType: 'HMAC-SHA256' }),
  });
  const body = await response.json();
  expect(response.status).toBe(200);
  const merchantId: string = body.data.merchant.id;
  return { merchantId, client: new PaymentClient({ baseUrl: `http://127.0.0.1:${port}`, merchantId, key: { type: 'HMAC-SHA256', secret: body.data.key.secret } }) };
}

async function seed(merchantId: string): Promise<void> {
  const ref = sql.raw(`'seed-' || (1000000 + n.i)`);
  await sql`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${sql.lit(ROWS)})
    INSERT INTO payments (
      transaction_ref, merchant_id, merchant_ref, request_hash, method, currency, amount_minor, fee_minor,
      paid_amount_minor, status, failure_reason, payer_name, payer_email, payer_phone, redirect_url,
      checkout_token_hash, checkout_token_enc, channel, collection_state, collection_attempts,
      collection_next_at_ms, refund_attempts, created_at_ms, updated_at_ms, expires_at_ms, completed_at_ms)
    SELECT ${ref}, ${merchantId}, ${ref}, 'seed', 'NATIVE', 'INR', 100000 + n.i, 2000, NULL, 'Failed', 'UPSTREAM_REJECTED',
      'Seed Payer', 'seed@example.com', '919812345678', 'https://shop.example.com/return',
      'hash-' || n.i, 'sealed', 'simulator', 'failed', 0, 0, 0,
      ${sql.lit(BASE_MS)} + n.i, ${sql.lit(BASE_MS)} + n.i, ${sql.lit(BASE_MS + 1_800_000)} + n.i, ${sql.lit(BASE_MS)} + n.i
    FROM n`.execute(store.db);
}

/** Polls the report while sampling the service's RSS; resolves when `done` holds. */
async function watch(client: PaymentClient, reportId: string, pid: number, done: (rows: number, status: string) => boolean): Promise<{ rows: number; status: string }> {
  for (let i = 0; i < 2_000; i += 1) {
    rssPeakBytes = Math.max(rssPeakBytes, rssOf(pid));
    const answer = await client.reportStatus(reportId);
    if (done(answer.data.rowCount, answer.data.status)) return { rows: answer.data.rowCount, status: answer.data.status };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('report did not get there');
}

describe('an export across a killed process', () => {
  it('resumes in a new process and writes every row exactly once, within the memory budget', async () => {
    const { client, merchantId } = await createMerchant();
    await seed(merchantId);
    const created = await client.reportCreate({ type: 'payments', from: '2026-01-01', to: '2026-01-02' });
    expect(created.status).toBe(200);
    const reportId = created.data.reportId;

    const half = await watch(client, reportId, child!.pid!, (rows) => rows >= 20_000);
    expect(half.status).toBe('Running');
    expect(half.rows).toBeLessThan(ROWS);
    await kill(child!);

    // What waiting out the dead process's lease would do, without the wait.
    await store.db.updateTable('reports').set({ lease_until_ms: 0n }).where('id', '=', reportId).execute();
    child = await startService();
    const finished = await watch(client, reportId, child.pid!, (_rows, status) => status !== 'Running' && status !== 'Pending');
    expect(finished).toEqual({ rows: ROWS, status: 'Ready' });
    expect(rssPeakBytes).toBeGreaterThan(0);
    expect(rssPeakBytes).toBeLessThan(RSS_BUDGET_BYTES);

    const status = await client.reportStatus(reportId);
    const link = new URL(status.data.downloadUrl!);
    const response = await fetch(`http://127.0.0.1:${port}${link.pathname}${link.search}`, { headers: { connection: 'close' } });
    expect(response.status).toBe(200);
    const lines = (await response.text()).split('\r\n');
    expect(lines.pop()).toBe('');
    const refs = lines.slice(1).map((line) => line.slice(0, line.indexOf(',')));
    expect(refs).toHaveLength(ROWS);
    expect(new Set(refs).size).toBe(ROWS);
    expect(refs[0]).toBe('seed-1100000');
    expect(refs[ROWS - 1]).toBe('seed-1000001');
  }, 240_000);
});
