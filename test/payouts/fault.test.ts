// The fault test of issue 5 (PostgreSQL only): hundreds of concurrent payouts for a few merchants,
// paid by two worker PROCESSES sharing one schema and one separately started bank simulator, with
// injected 500s, answers later than the channel's deadline (the bank still executes), magic
// accounts, and a SIGKILL of one worker mid-batch. Afterwards: no payout transferred twice, every
// payout final, no balance negative, the ledger verifies, and every final status has its event.
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/simulator/server.js';
import { startTestServer, TEST_ADMIN_TOKEN, TEST_SECRET_KEY, type TestMerchant, type TestServer } from '../helpers/server.js';
import { usingPostgres } from '../helpers/store.js';
import { pause } from '../payments/api-helpers.js';
import { fund, payoutBody } from './helpers.js';

const SIM_KEY = 'simk_fault_test_key';
const SIM_SECRET = 'sims_fault_test_secret';
const MERCHANTS = 4;
const PAYOUTS = 240;
const CHANNEL_TIMEOUT_MS = 500;

let simulator: SimulatorHandle | undefined;
let server: TestServer | undefined;
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await server?.close();
  await simulator?.close();
});

async function startWorker(server: TestServer, simulatorUrl: string, name: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/payouts/fixtures/payout-worker.ts'], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATA_DIR: server.database.dataDir,
      DATABASE_URL: server.database.databaseUrl ?? '',
      DATABASE_SCHEMA: server.database.databaseSchema ?? '',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SECRET_KEY: TEST_SECRET_KEY,
      SIMULATOR_URL: simulatorUrl,
      SIMULATOR_KEY: SIM_KEY,
      SIMULATOR_CALLBACK_SECRET: SIM_SECRET,
      SIMULATOR_TIMEOUT_MS: String(CHANNEL_TIMEOUT_MS),
      WORKER_IDLE_MS: '20',
      PAYOUT_TEST_LEASE_MS: '2000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for await (const line of readline.createInterface({ input: child.stdout! })) {
    if (line === 'ready') return child;
  }
  throw new Error(`worker ${name} did not start: ${stderr}`);
}

describe.skipIf(!usingPostgres())('payout fault test (two worker processes, PostgreSQL)', () => {
  it('pays every payout at most once through 500s, late answers and a SIGKILLed worker', async () => {
    simulator = await startSimulator({
      apiKey: SIM_KEY,
      callbackSecret: SIM_SECRET,
      callbackUrl: 'http://127.0.0.1:9/unused',
      payoutDelayMs: 300,
      timeoutHoldMs: CHANNEL_TIMEOUT_MS + 700,
      keepProcessAlive: false,
    });
    server = await startTestServer(
      { SIMULATOR_URL: simulator.url, SIMULATOR_KEY: SIM_KEY, SIMULATOR_CALLBACK_SECRET: SIM_SECRET, SIMULATOR_TIMEOUT_MS: String(CHANNEL_TIMEOUT_MS) },
      { worker: false },
    );
    simulator.setCallbackUrl(`${server.baseUrl}/v1/callbacks/simulator`);
    const sim = simulator;
    const srv = server;

    const merchants: TestMerchant[] = [];
    for (let i = 0; i < MERCHANTS; i += 1) {
      const merchant = await srv.createMerchant();
      // Room for about 50 of the 60 payouts each merchant is sent: some are refused 422.
      await fund(srv, merchant.id, 'INR', 50n * 205_00n);
      merchants.push(merchant);
    }

    const workerA = await startWorker(srv, sim.url, 'A');
    await startWorker(srv, sim.url, 'B');

    // Faults while the burst lands: a run of 500s, then answers later than the channel waits.
    sim.faults.failNextRequests = 25;
    const endings = ['', '', '', '', '', '', '0001', '0003'];
    const sends = Array.from({ length: PAYOUTS }, (_, i) => {
      const merchant = merchants[i % MERCHANTS]!;
      const ending = endings[i % endings.length]!;
      const account = ending === '' ? `5010${String(i).padStart(6, '0')}9` : `501000123${ending}`;
      return merchant.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 200, account }));
    });
    const killer = (async () => {
      // Once the workers are busy: answers later than the channel waits, then a worker dies mid-batch.
      const busy = Date.now() + 30_000;
      while (sim.stats.payoutSubmissions < 40 && Date.now() < busy) await pause(10);
      sim.faults.latencyMs = CHANNEL_TIMEOUT_MS + 200;
      await pause(300);
      workerA.kill('SIGKILL');
      await pause(600);
      sim.faults.latencyMs = 0;
      sim.faults.failNextRequests += 10;
    })();
    const answers = await Promise.all(sends);
    await killer;
    expect(answers.every((a) => a.status === 200 || (a.status === 422 && a.message === 'INSUFFICIENT_BALANCE'))).toBe(true);
    const accepted = answers.filter((a) => a.status === 200).map((a) => a.data.transactionRef);
    expect(accepted.length).toBeGreaterThan(PAYOUTS / 2);
    expect(workerA.signalCode ?? (await new Promise((resolve) => workerA.once('exit', (_c, s) => resolve(s))))).toBe('SIGKILL');

    // Everything becomes final with worker B alone.
    const db = srv.services.store.db;
    const deadline = Date.now() + 90_000;
    for (;;) {
      const open = await db.selectFrom('payouts').select('transaction_ref').where('status', 'in', ['Initiated', 'Processing']).execute();
      if (open.length === 0) break;
      if (Date.now() > deadline) throw new Error(`${open.length} payouts still open`);
      await pause(250);
    }

    const rows = await db.selectFrom('payouts').selectAll().execute();
    expect(rows).toHaveLength(accepted.length);
    // The faults really happened: 500s answered, and payouts whose outcome was unknown were asked about.
    expect(sim.stats.faultedRequests).toBeGreaterThanOrEqual(35);
    expect(rows.filter((r) => r.query_attempts > 0n || r.submit_attempts > 1n).length).toBeGreaterThan(0);
    if (process.env.PAYOUT_FAULT_DEBUG) {
      console.log(JSON.stringify({ accepted: accepted.length, sim: sim.stats.toJSON(), retried: rows.filter((r) => r.submit_attempts > 1n).length, queried: rows.filter((r) => r.query_attempts > 0n).length }));
    }
    for (const row of rows) {
      expect(sim.stats.transfersFor(row.transaction_ref), row.transaction_ref).toBeLessThanOrEqual(1);
      if (row.status === 'Success') expect(sim.stats.transfersFor(row.transaction_ref)).toBe(1);
    }
    expect(rows.filter((r) => r.account.endsWith('0001')).every((r) => r.status === 'Failed' && r.failure_reason === 'INVALID_ACCOUNT')).toBe(true);
    expect(rows.filter((r) => r.account.endsWith('0003')).every((r) => r.status === 'Success')).toBe(true);

    for (const merchant of merchants) {
      const b = await srv.services.ledger.balances(merchant.id, 'INR');
      for (const value of [b.available, b.pending, b.held, b.credit, b.security]) expect(value >= 0n).toBe(true);
      expect(b.held).toBe(0n);
      const paid = rows.filter((r) => r.merchant_id === merchant.id && r.status === 'Success').length;
      expect(b.available).toBe(50n * 205_00n - BigInt(paid) * 205_00n);
    }
    expect(await srv.services.ledger.verify()).toEqual([]);

    const events = await db.selectFrom('webhook_events').select(['resource_ref', 'type']).where('resource_kind', '=', 'payout').execute();
    const byRef = new Map<string, string[]>();
    for (const e of events) byRef.set(e.resource_ref, [...(byRef.get(e.resource_ref) ?? []), e.type]);
    for (const row of rows) {
      expect(byRef.get(row.transaction_ref), row.transaction_ref).toEqual([row.status === 'Success' ? 'payout.succeeded' : 'payout.failed']);
    }
  }, 150_000);
});
