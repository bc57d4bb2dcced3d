// Issue 15's export limit: a CSV export of 1,000,000 payments finishes with the service's resident
// memory under its 300 MiB budget. One merchant of its own gets a million expired payments seeded
// straight into the store (outside any timed window, as the million repeats are), then asks for
// the export through the signed API, waits for it, and downloads the file as a merchant would,
// counting its lines as they stream. The service's VmRSS is sampled every 200 ms throughout.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { BenchCase, CustomMeasurement } from './cases.js';
import type { BenchContext } from './context.js';
import { MILLION, seedPayments } from './cases-million.js';

const RSS_BUDGET_MIB = 300;
const SAMPLE_EVERY_MS = 200;
const POLL_EVERY_MS = 1000;
const EXPORT_DEADLINE_MS = 15 * 60_000;

function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/** Streams the download and counts its lines (never holds the file). */
async function countLines(url: string): Promise<{ status: number; lines: number; bytes: number }> {
  const response = await fetch(url);
  let lines = 0;
  let bytes = 0;
  if (response.body) {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 0x0a) lines += 1;
    }
  }
  return { status: response.status, lines, bytes };
}

async function waitForReady(ctx: BenchContext, merchant: Parameters<BenchContext['call']>[0], reportId: string): Promise<any> {
  const deadline = performance.now() + EXPORT_DEADLINE_MS;
  for (;;) {
    const status = await ctx.call(merchant, 'report/status', { reportId });
    const data = status.body?.data;
    if (status.status !== 200) throw new Error(`report/status answered ${status.status} ${JSON.stringify(status.body)}`);
    if (data.status === 'Ready' || data.status === 'Failed') return data;
    if (performance.now() > deadline) throw new Error(`the export was still ${data.status} after ${EXPORT_DEADLINE_MS / 60_000} min`);
    await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
  }
}

export const EXPORT_CASE: BenchCase = {
  name: 'report export 1,000,000 payments',
  description:
    `One merchant with ${MILLION.toLocaleString('en-US')} payments (seeded in bulk, not timed) asks report/create for its payments CSV, ` +
    'waits on report/status and downloads the file; the service\'s resident memory is sampled throughout.',
  target: null,
  server: 'service',
  expectedRatio: 0,
  async custom(ctx): Promise<CustomMeasurement> {
    const [merchant] = await ctx.createMerchants(1, { namePrefix: 'Export Merchant' });
    await seedPayments(ctx, {
      merchantIds: [merchant!.id],
      count: MILLION,
      refPrefix: '01900000-0000-7000-9000-',
      merchantRefPrefix: 'export-',
      withEvents: false,
      hashPrefix: 'e',
    });
    const before = memoryMiB(ctx.servicePid);
    let maxRss = before.rss;
    const sampler = setInterval(() => {
      maxRss = Math.max(maxRss, memoryMiB(ctx.servicePid).rss);
    }, SAMPLE_EVERY_MS);
    try {
      const started = performance.now();
      const from = new Date(Date.now() - 40 * 24 * 3600_000).toISOString();
      const to = new Date(Date.now() + 3600_000).toISOString();
      const created = await ctx.call(merchant!, 'report/create', { type: 'payments', from, to });
      if (created.status !== 200) throw new Error(`report/create answered ${created.status} ${JSON.stringify(created.body)}`);
      const report = await waitForReady(ctx, merchant!, created.body.data.reportId);
      const written = (performance.now() - started) / 1000;
      const problems: string[] = [];
      if (report.status !== 'Ready') problems.push(`the export ended ${report.status} (${report.failureReason ?? 'no reason'})`);
      const download = report.downloadUrl ? await countLines(report.downloadUrl) : { status: 0, lines: 0, bytes: 0 };
      const after = memoryMiB(ctx.servicePid);
      maxRss = Math.max(maxRss, after.rss);
      if (report.rowCount !== MILLION) problems.push(`rowCount ${report.rowCount}, expected ${MILLION}`);
      if (download.status !== 200 || download.lines !== MILLION + 1) problems.push(`download answered ${download.status} with ${download.lines} lines, expected ${MILLION + 1}`);
      if (maxRss >= RSS_BUDGET_MIB) problems.push(`resident memory reached ${maxRss.toFixed(0)} MiB (budget ${RSS_BUDGET_MIB})`);
      return {
        operations: report.rowCount ?? 0,
        seconds: written,
        unit: 'rows/s',
        latencyMs: null,
        // No rate target: the verdict is the checks (every row, once, under the memory budget).
        minPerSecond: 0,
        targetLabel: `RSS < ${RSS_BUDGET_MIB} MiB`,
        problems,
        notes: [
          `written in ${written.toFixed(1)} s; file ${(download.bytes / 1_048_576).toFixed(0)} MiB, downloaded and counted`,
          `service RSS ${before.rss.toFixed(0)} MiB before, at most ${maxRss.toFixed(0)} MiB during (sampled every ${SAMPLE_EVERY_MS} ms), peak of the whole run so far ${after.peak.toFixed(0)} MiB`,
        ],
      };
    } finally {
      clearInterval(sampler);
    }
  },
};
