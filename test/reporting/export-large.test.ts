// A 100,000-row payments export: seeded in bulk with SQL (outside HTTP, every column as the schema
// wants it), written by the export job page by page with the process's heap staying bounded, and
// interrupted half way as a crash would leave it (a page in the file its progress never recorded):
// a fresh job instance takes the report over and the finished file has every row exactly once.
import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_LEASE_MS } from '../../src/reporting/export-job.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';

const ROWS = 100_000;
const BASE_MS = Date.UTC(2026, 0, 1);
/**
 * What the export may keep alive on the heap between steps (measured after a full garbage collection):
 * a page of 1,000 rows is a few hundred KiB; the file's text alone would be about 18 MiB, its rows as
 * objects well over 100 MiB.
 */
const RETAINED_HEAP_LIMIT_BYTES = 12 * 1024 * 1024;

/** A full collection on demand, without starting vitest with --expose-gc. */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

function retainedHeap(gc: () => void): number {
  gc();
  return process.memoryUsage().heapUsed;
}

let server: TestServer;
let merchant: TestMerchant;

/** 100,000 failed payments (no background job touches them), one millisecond apart, in one statement. */
async function seedPayments(merchantId: string): Promise<void> {
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
    FROM n`.execute(server.services.store.db);
}

beforeAll(async () => {
  // No worker: the test runs the export job's steps itself, so it can stop one half way.
  server = await startTestServer({}, { worker: false });
  merchant = await server.createMerchant();
  await seedPayments(merchant.id);
}, 120_000);
afterAll(async () => server.close());

describe('a 100,000-row export', () => {
  it('streams with a bounded heap and survives a crash half way with every row exactly once', async () => {
    const created = await merchant.client.reportCreate({ type: 'payments', from: '2026-01-01', to: '2026-01-02' });
    expect(created.status).toBe(200);
    const reportId = created.data.reportId;
    const file = `${server.database.dataDir}/reports/${reportId}.csv`;

    // The first process: five pages of 1,000 rows per step, two steps, then it "dies".
    const first = server.services.reporting.exportJob(50, { pagesPerRun: 5 });
    expect(await first.runOnce()).toBe(1);
    expect(await first.runOnce()).toBe(1);
    const half = await merchant.client.reportStatus(reportId);
    expect(half.data).toMatchObject({ status: 'Running', rowCount: 10_000 });
    // What a crash between writing a page and recording it leaves: rows the progress does not know of.
    fs.appendFileSync(file, 'seed-1099999,orphan,half,written\r\n'.repeat(700));

    // Another process takes over once the first one's lease ran out.
    server.clock.advance(EXPORT_LEASE_MS + 1000);
    const second = server.services.reporting.exportJob(50, { pagesPerRun: 10 });
    // The job runs in this process (the test server is in-process), so the heap it keeps is measured
    // here: after every step (10,000 rows), what survives a full collection stays near the start.
    const gc = collector();
    const heapBefore = retainedHeap(gc);
    let retainedPeak = 0;
    for (let step = 0; step < 50; step += 1) {
      await second.runOnce();
      retainedPeak = Math.max(retainedPeak, retainedHeap(gc) - heapBefore);
      if ((await merchant.client.reportStatus(reportId)).data.status === 'Ready') break;
    }
    const done = await merchant.client.reportStatus(reportId);
    expect(done.data).toMatchObject({ status: 'Ready', rowCount: ROWS });
    expect(retainedPeak).toBeLessThan(RETAINED_HEAP_LIMIT_BYTES);

    const lines = fs.readFileSync(file, 'utf8').split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]!.startsWith('transactionRef,merchantRef,')).toBe(true);
    const refs = lines.slice(1).map((line) => line.slice(0, line.indexOf(',')));
    expect(refs).toHaveLength(ROWS);
    expect(new Set(refs).size).toBe(ROWS);
    // Newest first: seed-1100000 down to seed-1000001.
    expect(refs[0]).toBe('seed-1100000');
    expect(refs[ROWS - 1]).toBe('seed-1000001');
    expect(lines[1]).toContain(',INR,NATIVE,Failed,2000.00,0.00,20.00,UPSTREAM_REJECTED,Seed Payer,');

    // The download streams the same bytes (the connection closed after it, so the server's close need not wait it out).
    const link = new URL(done.data.downloadUrl!);
    const response = await fetch(`${server.baseUrl}${link.pathname}${link.search}`, { headers: { connection: 'close' } });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(fs.statSync(file).size);
    expect((await response.arrayBuffer()).byteLength).toBe(fs.statSync(file).size);
  }, 180_000);
});
