// The report commands as an operator runs them: a child process over the service's database; the
// running service's export job writes the file the CLI asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paidPayment } from '../payments/api-helpers.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';

let server: TestServer;
let merchant: TestMerchant;

const cli = (...args: string[]): Promise<CliResult> => runCli(server, args);

beforeAll(async () => {
  server = await startTestServer();
  merchant = await server.createMerchant();
  await paidPayment(merchant, 'INR', 'NATIVE');
}, 60_000);
afterAll(async () => server.close());

describe('report commands', () => {
  it('creates a report for a merchant and shows it ready with a download link', async () => {
    const created = await cli('report', 'create', '--merchant', merchant.id, '--type', 'payments', '--from', '2000-01-01', '--to', '2100-01-01', '--json');
    expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(created.stdout);
    expect(report).toMatchObject({ type: 'payments', status: 'Pending' });
    // The merchant sees the same report through the API.
    const mine = await merchant.client.reportStatus(report.reportId);
    expect(mine.status).toBe(200);
    for (let i = 0; i < 100 && (await merchant.client.reportStatus(report.reportId)).data.status !== 'Ready'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const shown = await cli('report', 'status', '--id', report.reportId, '--json');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ reportId: report.reportId, merchantId: merchant.id, status: 'Ready', rowCount: 1, downloadUrl: expect.stringContaining('/download?expires=') });
    const text = await cli('report', 'status', '--id', report.reportId);
    expect(text.stdout).toContain(`${report.reportId}  payments  Ready  1 rows`);
  }, 60_000);

  it('refuses an unknown type, a statement without currency and an unknown report', async () => {
    const results = await Promise.all([
      cli('report', 'create', '--merchant', merchant.id, '--type', 'ledger', '--from', '2000-01-01', '--to', '2100-01-01'),
      cli('report', 'create', '--merchant', merchant.id, '--type', 'statement', '--from', '2000-01-01', '--to', '2100-01-01'),
      cli('report', 'status', '--id', 'no-such-report'),
    ]);
    for (const result of results) {
      expect(result.code).not.toBe(0);
      expect(result.stderr.length).toBeGreaterThan(0);
    }
  }, 60_000);
});
