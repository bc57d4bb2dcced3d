// The Reconciliation and Exports pages in Debian's Chromium: each at phone and desktop width with real
// data (screenshots in test/console/screenshots/ for a person to look at), nothing scrolling sideways
// at phone width, and no script error or CSP violation. The users sign in over HTTP (console-client)
// and the browser takes their session cookie, since the sign-in pages have their own browser test.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { SCREENSHOT_DIR, SIZES } from './screens.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { paidPayment } from '../payments/api-helpers.js';
import { addLine, simulatorStatement, today } from '../reconciliation/helpers.js';
import { ConsoleClient, createAndEnrol } from './console-client.js';


describe('reconciliation and exports pages in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let admin: ConsoleClient;
  let owner: ConsoleClient;
  let runId: string;
  let lineId: string;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ RECONCILIATION_DAILY: 'false' }, { worker: false });
    const shop = await server.createMerchant();
    await paidPayment(shop, 'NGN', 'TRANSFER');
    const csv = addLine(await simulatorStatement(server), `SIMX-UNKNOWN-9,,collection,NGN,5000,PAID,${new Date(server.clock.nowMs()).toISOString()}`);
    const run = (await server.services.reconciliation.importStatement({ connector: 'simulator', day: today(server), content: csv, actor: 'test' })).run;
    runId = run.id;
    lineId = (await server.services.reconciliation.listLines(run.id, { unresolved: true })).items[0]!.id;
    await server.services.reporting.createReport(shop.id, { type: 'payments', from: '2000-01-01', to: '2100-01-01' });
    await server.services.reporting.exportJob(50).runOnce();
    await server.services.reporting.createReport(shop.id, { type: 'statement', from: '2000-01-01', to: '2100-01-01', currency: 'NGN' });
    admin = new ConsoleClient(server);
    await createAndEnrol(server, admin, { email: 'admin@ops.example', kind: 'operator', role: 'admin' });
    owner = new ConsoleClient(server);
    await createAndEnrol(server, owner, { email: 'owner@shop.example', kind: 'merchant', role: 'owner', merchantId: shop.id });
    browser = await launchChromium();
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function pageAs(client: ConsoleClient): Promise<Page> {
    const context = await browser.newContext({ viewport: SIZES.desktop });
    await context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, url: server.baseUrl })));
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return page;
  }

  async function shoot(page: Page, name: string, pathname: string, text: string): Promise<void> {
    await page.goto(`${server.baseUrl}${pathname}`);
    expect(await page.getByText(text, { exact: false }).first().isVisible(), `${pathname} shows ${text}`).toBe(true);
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${size}.png`), fullPage: true });
      if (size === 'phone') {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${pathname} fits a phone`).toBeLessThanOrEqual(1);
      }
    }
  }

  it('renders each new page at phone and desktop width', async () => {
    const operator = await pageAs(admin);
    await shoot(operator, 'reconciliation', '/console/reconciliation', `simulator ${today(server)}`);
    await shoot(operator, 'reconciliation-run', `/console/reconciliation/runs/${encodeURIComponent(runId)}`, 'SIMX-UNKNOWN-9');
    await shoot(operator, 'reconciliation-line', `/console/reconciliation/lines/${encodeURIComponent(lineId)}`, 'Resolve line');
    await shoot(operator, 'reconciliation-import', '/console/reconciliation/import', 'Fetch and compare');
    const merchant = await pageAs(owner);
    await shoot(merchant, 'merchant-exports', '/console/merchant/reports', 'Download CSV');
    expect(problems).toEqual([]);
  });
});
