// The operator's command line for reconciliation (run in-process over the test server's services,
// with the flags as the usage lines print them) and the daily job fetching yesterday's statement from
// the simulated bank once the clock has moved on a day.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_COMMANDS } from '../../src/cli/all-commands.js';
import { parseArgs } from '../../src/cli/args.js';
import { DAY_MS } from '../../src/core/days.js';
import { dailyReconciliationJob } from '../../src/reconciliation/daily-job.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { paidPayment } from '../payments/api-helpers.js';
import { editLine, simulatorStatement, today, todayStartMs } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RECONCILIATION_DAILY: 'false' });
});
afterAll(async () => server?.close());

async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const args = parseArgs(argv);
  const command = CLI_COMMANDS.find((c) => c.name === args.positional.slice(0, 2).join(' '));
  if (!command) throw new Error(`no command ${argv.join(' ')}`);
  const out: string[] = [];
  const err: string[] = [];
  const code = await command.run(args, server.services, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

describe('reconciliation: CLI', () => {
  it('imports a file, lists runs and unresolved lines, and resolves one with a reason', async () => {
    const shop = await server.createMerchant();
    const ref = await paidPayment(shop, 'INR', 'NATIVE');
    const csv = editLine(await simulatorStatement(server), ref, 'collection', (f) => [...f.slice(0, 5), 'FAILED', f[6]!]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recon-'));
    const file = path.join(dir, `bank-${today(server)}.csv`);
    fs.writeFileSync(file, csv);

    const imported = await cli('recon', 'import', '--connector', 'simulator', '--file', file, '--json');
    expect(imported.code).toBe(0);
    const { run, replayed } = JSON.parse(imported.out[0]!);
    expect(replayed).toBe(false);
    expect(run).toMatchObject({ connector: 'simulator', day: today(server), fileName: path.basename(file) });
    expect(run.actor).toMatch(/^cli:/);

    const again = await cli('recon', 'import', '--connector', 'simulator', '--file', file);
    expect(again.out[0]).toContain(`Imported before: ${run.id}`);

    const runs = await cli('recon', 'runs', '--connector', 'simulator');
    expect(runs.out.some((l) => l.startsWith(run.id) && l.includes('status_mismatch 1'))).toBe(true);

    const lines = await cli('recon', 'lines', '--run', run.id, '--unresolved', '--json');
    const mismatch = JSON.parse(lines.out[0]!).items.find((l: any) => l.transactionRef === ref);
    expect(mismatch).toMatchObject({ outcome: 'status_mismatch', theirs: { status: 'FAILED' }, ours: { status: 'Success' } });

    const text = await cli('recon', 'lines', '--run', run.id, '--outcome', 'status_mismatch');
    expect(text.out.find((l) => l.startsWith(mismatch.id))).toContain('status_mismatch');

    const resolved = await cli('recon', 'resolve', '--line', mismatch.id, '--reason', 'bank corrected its file on the phone');
    expect(resolved.out[0]).toContain('Resolved:');
    expect(resolved.out[0]).toContain('bank corrected its file on the phone');
    const after = JSON.parse((await cli('recon', 'lines', '--run', run.id, '--unresolved', '--json')).out[0]!).items;
    expect(after.map((l: any) => l.id)).not.toContain(mismatch.id);
    const audit = (await server.admin('GET', '/audit?action=reconciliation.resolve&limit=200')).body.data.items.find((e: any) => e.target === mismatch.id);
    expect(audit.actor).toMatch(/^cli:/);

    await expect(cli('recon', 'resolve', '--line', mismatch.id)).rejects.toThrow(/--reason/);
    await expect(cli('recon', 'lines', '--run', run.id, '--outcome', 'odd')).rejects.toThrow(/--outcome/);
    fs.writeFileSync(path.join(dir, 'nodate.csv'), csv);
    await expect(cli('recon', 'import', '--connector', 'simulator', '--file', path.join(dir, 'nodate.csv'))).rejects.toThrow(/--day/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('reconciliation: the daily job', () => {
  it("fetches yesterday's statement from the simulated bank once, after the configured hour", async () => {
    const shop = await server.createMerchant();
    const ref = await paidPayment(shop, 'NGN', 'TRANSFER');
    const day = today(server);
    const job = dailyReconciliationJob(server.services.reconciliation, { clock: server.clock, hourUtc: 0, log: { error: () => undefined } });

    // Still the same day: yesterday is another day, whose (empty) statement is fetched; ours is not yet.
    await job.runOnce();
    // A day later (one hour past midnight, after hourUtc 0): the day of our payment is yesterday.
    const target = todayStartMs(server) + DAY_MS + 3_600_000;
    server.clock.advance(target - server.clock.nowMs());
    await job.runOnce();
    expect(await job.runOnce()).toBe(0);

    const runs = (await server.admin('GET', '/reconciliation/runs?connector=simulator&limit=200')).body.data.items.filter((r: any) => r.source === 'fetch' && r.day === day);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ actor: 'scheduler', fileName: `simulator-${day}.csv` });
    const lines = (await server.admin('GET', `/reconciliation/runs/${runs[0].id}/lines?limit=200`)).body.data.items;
    expect(lines.find((l: any) => l.transactionRef === ref)).toMatchObject({ outcome: 'matched' });

    // The same day again through the API or the CLI: the fetched run, nothing new.
    const again = await server.admin('POST', '/reconciliation/fetches', { connector: 'simulator', day });
    expect(again.body.data).toMatchObject({ replayed: true, run: { id: runs[0].id } });
    const viaCli = await cli('recon', 'fetch', '--connector', 'simulator', '--day', day, '--json');
    expect(JSON.parse(viaCli.out[0]!).run.id).toBe(runs[0].id);
    expect((await server.admin('POST', '/reconciliation/fetches', { connector: 'nobody', day })).status).toBe(404);
  });

  it('runs in the worker when RECONCILIATION_DAILY is on', async () => {
    const own = await startTestServer({ RECONCILIATION_DAILY: 'true', RECONCILIATION_HOUR_UTC: '0' });
    try {
      const yesterday = new Date(todayStartMs(own) - DAY_MS).toISOString().slice(0, 10);
      const deadline = Date.now() + 15_000;
      let runs: any[] = [];
      while (runs.length === 0 && Date.now() < deadline) {
        runs = (await own.admin('GET', '/reconciliation/runs?connector=simulator')).body.data.items.filter((r: any) => r.source === 'fetch' && r.day === yesterday);
        if (runs.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ actor: 'scheduler', lines: 0 });
    } finally {
      await own.close();
    }
  });

  it('waits for the configured hour', async () => {
    const job = dailyReconciliationJob(server.services.reconciliation, { clock: { nowMs: () => todayStartMs(server) + 3_600_000 }, hourUtc: 5, log: { error: () => undefined } });
    expect(await job.runOnce()).toBe(0);
  });
});
