// The merchant's Exports page over HTTP: an owner and a viewer request a CSV export through the form
// (report/create's schema and service call), the export job writes it, the page then shows its rows and
// the signed download link, which serves the file. Another merchant's report is a 404, operators are
// refused, and a form the schema refuses names its field and stores nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { paidPayment } from '../payments/api-helpers.js';
import { ConsoleClient, createAndEnrol } from './console-client.js';

const PAGE = '/console/merchant/reports';

describe('merchant exports page', () => {
  let server: TestServer;
  let shop: TestMerchant;
  let other: TestMerchant;
  let owner: ConsoleClient;
  let viewer: ConsoleClient;
  let stranger: ConsoleClient;

  const reportCount = async () => Number((await server.services.store.db.selectFrom('reports').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    server = await startTestServer({}, { worker: false });
    shop = await server.createMerchant();
    other = await server.createMerchant();
    await paidPayment(shop, 'INR', 'NATIVE');
    await paidPayment(shop, 'INR', 'NATIVE');
    await paidPayment(other, 'INR', 'NATIVE');
    owner = new ConsoleClient(server);
    await createAndEnrol(server, owner, { email: 'owner@shop.example', kind: 'merchant', role: 'owner', merchantId: shop.id });
    viewer = new ConsoleClient(server);
    await createAndEnrol(server, viewer, { email: 'viewer@shop.example', kind: 'merchant', role: 'viewer', merchantId: shop.id });
    stranger = new ConsoleClient(server);
    await createAndEnrol(server, stranger, { email: 'owner@other.example', kind: 'merchant', role: 'owner', merchantId: other.id });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  /** Requests an export through the page; returns the new report's id (the newest of the merchant). */
  async function requestExport(client: ConsoleClient, fields: Record<string, string>): Promise<string> {
    const posted = await client.submit(PAGE, PAGE, fields);
    expect(posted.status, posted.text).toBe(303);
    expect(posted.location).toBe(PAGE);
    const page = await client.get(PAGE);
    const match = /href="\/console\/merchant\/reports\/([^"]+)"/.exec(page.text);
    return decodeURIComponent(match![1]!);
  }

  async function writeExports(): Promise<void> {
    const job = server.services.reporting.exportJob(50);
    for (let round = 0; round < 20 && (await job.runOnce()) > 0; round += 1);
  }

  /** The download link on a page, fetched from the test server (the link carries the public base URL). */
  async function downloadFrom(pageHtml: string): Promise<Response> {
    const match = /<a class="button small" href="([^"]+)" download>Download CSV<\/a>/.exec(pageHtml);
    expect(match, 'a download link on the page').not.toBeNull();
    const link = new URL(match![1]!.replace(/&amp;/g, '&').replace(/&#61;/g, '='));
    return fetch(`${server.baseUrl}${link.pathname}${link.search}`);
  }

  it('lets the owner and a viewer export, then download the file once the job wrote it', async () => {
    for (const [client, type] of [[owner, 'payments'], [viewer, 'statement']] as const) {
      const id = await requestExport(client, { type, from: '2000-01-01', to: '2100-01-01', currency: 'INR' });
      const waiting = await client.get(`${PAGE}/${encodeURIComponent(id)}`);
      expect(waiting.status).toBe(200);
      expect(waiting.text).toMatch(/badge-warn">Pending</);
      expect(waiting.text).not.toContain('Download CSV');

      await writeExports();
      const status = await server.services.reporting.reportStatus(shop.id, id);
      expect(status.status).toBe('Ready');
      const list = await client.get(PAGE);
      expect(list.text).toMatch(/badge-ok">Ready</);
      expect(list.text).toMatch(new RegExp(`data-label="Rows"[^>]*>${status.rowCount}<`));
      const detail = await client.get(`${PAGE}/${encodeURIComponent(id)}`);
      const file = await downloadFrom(detail.text);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
      const rows = (await file.text()).trimEnd().split('\r\n');
      expect(rows.length - 1).toBe(status.rowCount);
      if (type === 'payments') expect(status.rowCount).toBe(2);
    }
  });

  it('answers 404 for another merchant\'s report, and lists only the merchant\'s own', async () => {
    const mine = await requestExport(owner, { type: 'payouts', from: '2000-01-01', to: '2100-01-01' });
    const seen = await stranger.get(`${PAGE}/${encodeURIComponent(mine)}`);
    expect(seen.status).toBe(404);
    expect(seen.text).not.toContain(mine);
    expect((await stranger.get(PAGE)).text).not.toContain(mine);
    expect((await owner.get(`${PAGE}/no-such-report`)).status).toBe(404);
  });

  it('checks the form with report/create\'s schema and the service\'s rules, storing nothing refused', async () => {
    const before = await reportCount();
    const badRange = await owner.submit(PAGE, PAGE, { type: 'payments', from: 'last week', to: '2100-01-01' });
    expect(badRange.status).toBe(400);
    expect(badRange.text).toMatch(/id="f-from-error"/);
    const noCurrency = await owner.submit(PAGE, PAGE, { type: 'settlements', from: '2026-01-01', to: '2026-02-01' });
    expect(noCurrency.status).toBe(400);
    expect(noCurrency.text).toMatch(/id="f-currency-error"[^>]*>is required for settlements reports/);
    expect(await reportCount()).toBe(before);
  });

  it('is a merchant page: operators are refused, and the menu shows it to every merchant role', async () => {
    const operator = new ConsoleClient(server);
    await createAndEnrol(server, operator, { email: 'admin@ops.example', kind: 'operator', role: 'admin' });
    expect((await operator.get(PAGE)).status).toBe(403);
    for (const client of [owner, viewer]) expect((await client.get(PAGE)).text).toMatch(/<a href="\/console\/merchant\/reports"[^>]*>Exports<\/a>/);
  });
});
