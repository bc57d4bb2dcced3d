// CSV exports through the API: report/create and report/status, the background job writing each type,
// the signed download link (and its forged or expired variants), and the file's deletion at expiry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentRecord, PayoutRecord } from '../../sdk/src/index.js';
import { initiateBody, paidPayment } from '../payments/api-helpers.js';
import { fund, payoutBody, until } from '../payouts/helpers.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { allPages, decimal, parseCsv } from './helpers.js';

let server: TestServer;
let merchant: TestMerchant;
let other: TestMerchant;
const RANGE = { from: '2000-01-01', to: '2100-01-01' };
const FORMULA_NAME = '=HYPERLINK("http://evil.example","click"), Ltd';

beforeAll(async () => {
  server = await startTestServer();
  merchant = await server.createMerchant();
  other = await server.createMerchant();
  await fund(server, merchant.id, 'INR', 500_000n);
  await paidPayment(merchant, 'INR', 'NATIVE');
  await paidPayment(merchant, 'INR', 'NATIVE', { name: FORMULA_NAME });
  expect((await merchant.client.paymentInitiate(initiateBody('IDR', 'QRIS', { name: '+62 Toko "Maju", Jaya' }))).status).toBe(200);
  const payout = await merchant.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 1234.5 }));
  await until(merchant, payout.data.transactionRef, ['Success']);
  await server.services.ledger.settlePending();
}, 60_000);
afterAll(async () => server.close());

/** Asks for a report and waits until the job made it Ready; returns the status answer. */
async function readyReport(who: TestMerchant, body: Record<string, unknown>): Promise<any> {
  const created = await who.client.request<any>('report/create', body);
  expect(created.status, JSON.stringify(created.data)).toBe(200);
  for (let i = 0; i < 200; i += 1) {
    const status = await who.client.request<any>('report/status', { reportId: created.data.reportId });
    if (status.data.status === 'Ready') return status.data;
    expect(['Pending', 'Running']).toContain(status.data.status);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('report not ready');
}

/** Fetches a download link against the test server (the link carries the configured public base URL). */
async function download(url: string): Promise<Response> {
  const link = new URL(url);
  return fetch(`${server.baseUrl}${link.pathname}${link.search}`);
}

async function csvOf(report: any): Promise<string[][]> {
  const response = await download(report.downloadUrl);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
  expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${report.type}-${report.reportId}.csv"`);
  return parseCsv(await response.text());
}

describe('report exports', () => {
  it('writes the payments CSV: the records of payment/list, amounts exact, formulas disarmed', async () => {
    const report = await readyReport(merchant, { type: 'payments', ...RANGE });
    const [header, ...rows] = await csvOf(report);
    expect(header).toEqual(['transactionRef', 'merchantRef', 'createdAt', 'updatedAt', 'completedAt', 'currency', 'method', 'status', 'amount', 'paidAmount', 'fee', 'failureReason', 'name', 'email', 'phone']);
    const listed = await allPages<PaymentRecord>(merchant.client, 'payment/list', {});
    expect(report.rowCount).toBe(listed.length);
    expect(rows.map((r) => r[0])).toEqual(listed.map((p) => p.transactionRef));
    for (const [i, p] of listed.entries()) {
      const row = rows[i]!;
      expect(row.slice(1, 11)).toEqual([p.merchantRef, p.createdAt, p.updatedAt, p.completedAt ?? '', p.currency, p.method, p.status, decimal(p.amount), decimal(p.paidAmount), decimal(p.fee)]);
      expect(row[12]).toBe(p.name.startsWith('=') || p.name.startsWith('+') ? `'${p.name}` : p.name);
    }
    expect(rows.map((r) => r[12])).toContain(`'${FORMULA_NAME}`);
    expect(rows.map((r) => r[12])).toContain(`'+62 Toko "Maju", Jaya`);
    expect(rows.find((r) => r[5] === 'INR')![8]).toBe('1500.50');
  });

  it('writes the payouts CSV, narrowed to a currency', async () => {
    const report = await readyReport(merchant, { type: 'payouts', ...RANGE, currency: 'INR' });
    const [header, ...rows] = await csvOf(report);
    expect(header![0]).toBe('transactionRef');
    const listed = await allPages<PayoutRecord>(merchant.client, 'payout/list', { currency: 'INR' });
    expect(rows.map((r) => [r[0], r[7], r[8], r[9]])).toEqual(listed.map((p) => [p.transactionRef, p.status, decimal(p.amount), decimal(p.fee)]));
    expect(rows[0]![8]).toBe('1234.50');
    const idr = await readyReport(merchant, { type: 'payouts', ...RANGE, currency: 'IDR' });
    expect(idr.rowCount).toBe(0);
    expect(await csvOf(idr)).toHaveLength(1);
  });

  it('writes the statement and settlements CSVs as the API answers them', async () => {
    const statement = await readyReport(merchant, { type: 'statement', ...RANGE, currency: 'INR' });
    const [, ...lines] = await csvOf(statement);
    const api = await allPages<any>(merchant.client, 'account/statement', { currency: 'INR', ...RANGE });
    expect(lines).toEqual(
      api.map((l) => [l.createdAt, l.entryId, l.type, l.bucket, decimal(l.amount), decimal(l.fee), decimal(l.balanceAfter), l.paymentRef ?? '', l.payoutRef ?? '']),
    );
    expect(lines.some((l) => l[4]!.startsWith('-'))).toBe(true);
    const from = new Date(server.clock.nowMs() - 40 * 86_400_000).toISOString().slice(0, 10);
    const settlements = await readyReport(merchant, { type: 'settlements', from, to: '2100-01-01', currency: 'INR' });
    const [header, ...days] = await csvOf(settlements);
    expect(header).toEqual(['date', 'currency', 'collected', 'refunded', 'paidOut', 'fees', 'settled', 'net']);
    const answer = await merchant.client.settlements({ currency: 'INR', from, to: new Date(server.clock.nowMs() + 86_400_000).toISOString().slice(0, 10) });
    expect(days).toEqual(answer.data.days.map((d) => [d.date, d.currency, decimal(d.collected), decimal(d.refunded), decimal(d.paidOut), decimal(d.fees), decimal(d.settled), decimal(d.net)]));
  });

  it('answers a repeated request with the same report and refuses bad requests', async () => {
    const first = await merchant.client.reportCreate({ type: 'payments', ...RANGE });
    const again = await merchant.client.reportCreate({ type: 'payments', ...RANGE });
    expect(again.data.reportId).toBe(first.data.reportId);
    const bad = [
      { type: 'statement', ...RANGE },
      { type: 'settlements', ...RANGE },
      { type: 'payments', from: '2026-02-01', to: '2026-01-01' },
      { type: 'payments', from: '2026-01-01' },
      { type: 'ledger', ...RANGE },
      { type: 'payments', ...RANGE, status: 'Success' },
    ];
    for (const body of bad) {
      const answer = await merchant.client.request<any>('report/create', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.code).toBe('400');
    }
  });

  it("keeps a report to its merchant: another merchant's id is 404, like an unknown one", async () => {
    const report = await readyReport(merchant, { type: 'payouts', ...RANGE });
    for (const [who, reportId] of [[other, report.reportId], [merchant, '0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b']] as const) {
      const answer = await who.client.request<any>('report/status', { reportId });
      expect(answer.status).toBe(404);
      expect(answer.message).toBe('NOT_FOUND');
    }
    expect((await other.client.request<any>('report/create', { type: 'payments', ...RANGE })).data.reportId).not.toBe(report.reportId);
  });

  it('refuses forged and expired download links with 404', async () => {
    const report = await readyReport(merchant, { type: 'payments', ...RANGE });
    const url = new URL(report.downloadUrl);
    const sig = url.searchParams.get('sig')!;
    const expires = url.searchParams.get('expires')!;
    const variants = [
      `${url.pathname}?expires=${expires}&sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
      `${url.pathname}?expires=${Number(expires) + 3600}&sig=${sig}`,
      `${url.pathname.replace(report.reportId, '0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b')}?expires=${expires}&sig=${sig}`,
      `${url.pathname}?expires=${expires}`,
      `${url.pathname}`,
    ];
    for (const variant of variants) {
      const response = await fetch(`${server.baseUrl}${variant}`);
      expect(response.status, variant).toBe(404);
      const body = await response.json();
      expect(body.code).toBe('404');
      expect(JSON.stringify(body)).not.toContain(merchant.id);
    }
    expect((await download(report.downloadUrl)).status).toBe(200);
    expect(Date.parse(report.downloadUrlExpiresAt) - server.clock.nowMs()).toBeLessThanOrEqual(15 * 60 * 1000);
    server.clock.advance(16 * 60 * 1000);
    expect((await download(report.downloadUrl)).status).toBe(404);
    const fresh = await merchant.client.request<any>('report/status', { reportId: report.reportId });
    expect((await download(fresh.data.downloadUrl)).status).toBe(200);
  });

  it('deletes the file once the report expires; the report then answers Expired', async () => {
    const report = await readyReport(merchant, { type: 'statement', ...RANGE, currency: 'INR' });
    server.clock.advance(25 * 60 * 60 * 1000);
    let status: any;
    for (let i = 0; i < 100; i += 1) {
      status = (await merchant.client.request<any>('report/status', { reportId: report.reportId })).data;
      if (status.status === 'Expired') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status.status).toBe('Expired');
    expect(status.downloadUrl).toBeUndefined();
    const fs = await import('node:fs');
    expect(fs.existsSync(`${server.database.dataDir}/reports/${report.reportId}.csv`)).toBe(false);
  });
});
