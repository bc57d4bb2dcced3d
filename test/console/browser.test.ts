// The console in Debian's Chromium (playwright-core, one browser for the file): an operator's first
// sign-in with password and TOTP enrolment, every operator page with real data at phone and desktop
// width (screenshots in test/console/screenshots/ for a person to look at), a merchant name made of
// markup shown as text with no script run, keyboard use with a visible focus ring, the CSP holding
// (no violation reported), and sign-out. Codes come from the service's own TOTP code path.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { SCREENSHOT_DIR, SIZES, screenshotsAtBothWidths, watchPage } from './screens.js';
import { totpCode } from '../../src/people/totp.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { PASSWORD } from './console-client.js';
import { seedConsoleData, XSS_NAME, type ConsoleData } from './fixtures.js';

const EMAIL = 'browser-admin@ops.example';

describe('the console in a browser', () => {
  let server: TestServer;
  let data: ConsoleData;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({}, { worker: false });
    data = await seedConsoleData(server);
    await server.services.people.createUser({ email: EMAIL, kind: 'operator', role: 'admin', password: PASSWORD }, 'test');
    browser = await launchChromium();
    context = await browser.newContext({ viewport: SIZES.desktop });
    page = await context.newPage();
    // The failed sign-in (401) and the refused form (400) are answered so on purpose; any other error counts.
    watchPage(page, { dialogs, problems, expectedRefusals: /status of 40[01] / });
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const url = (p: string) => `${server.baseUrl}${p}`;

  const screenshots = (name: string): Promise<void> => screenshotsAtBothWidths(page, name);


  it('signs an operator in for the first time: password, then TOTP enrolment, recovery codes, then the console', async () => {
    await page.goto(url('/console'));
    expect(new URL(page.url()).pathname).toBe('/console/login');
    await screenshots('login');
    // Wrong password: the one generic message.
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill('not the right password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').innerText()).toBe('Wrong email, password or code.');

    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/enrol$/);
    expect(await page.getByRole('img', { name: 'QR code of the authenticator key' }).locator('svg').isVisible()).toBe(true);
    await screenshots('enrol');
    const secret = (await page.locator('code.secret').innerText()).replace(/\s+/g, '');
    await page.getByLabel('Code from the app').fill(totpCode(secret, server.clock.nowMs()));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    expect(await page.locator('ol.codes li').count()).toBe(10);
    await screenshots('recovery-codes');
    await page.getByRole('link', { name: 'Continue to the console' }).click();
    await page.waitForURL(/\/console\/overview$/);

    // Sign out, and back in with password and a fresh code.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/login$/);
    server.clock.advance(30_000);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Authenticator code').fill(totpCode(secret, server.clock.nowMs()));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/overview$/);
  });

  it('renders every operator page with real data at phone and desktop width', async () => {
    const pages: Array<[string, string, string]> = [
      ['overview', '/console/overview', 'Stuck payouts'],
      ['merchants', '/console/merchants', 'Asha Textiles'],
      ['merchant', `/console/merchants/${data.shopId}`, '₹50,000.00'],
      ['merchant-new', '/console/merchants/new', 'Create merchant'],
      ['rates', '/console/rates', '88.5'],
      ['ledger-verify', '/console/ledger?run=1', 'The ledger holds every invariant.'],
      ['payouts-stuck', '/console/payouts/stuck', data.stuckRef],
      ['held', '/console/held', data.heldRef],
      ['held-item', `/console/held/${data.heldRef}`, '₦12,500.00'],
      ['webhooks', '/console/webhooks', data.failingUrl],
      ['audit', '/console/audit', 'console.login'],
      ['users', '/console/users', EMAIL],
      ['account', '/console/account', 'Sign out everywhere'],
    ];
    for (const [name, pathname, text] of pages) {
      await page.goto(url(pathname));
      expect(await page.getByText(text, { exact: false }).first().isVisible(), `${pathname} shows ${text}`).toBe(true);
      await screenshots(name);
    }
    // At phone width the tables become cards that fit the screen: nothing scrolls sideways.
    await page.setViewportSize(SIZES.phone);
    await page.goto(url('/console/merchants'));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await page.setViewportSize(SIZES.desktop);
    expect(problems).toEqual([]);
  });

  it('shows a merchant named with markup as text, and no script of it runs', async () => {
    await page.goto(url(`/console/merchants/${data.xssId}`));
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(XSS_NAME);
    await page.goto(url('/console/merchants'));
    expect(await page.getByRole('link', { name: XSS_NAME }).isVisible()).toBe(true);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    await page.waitForTimeout(200);
    expect(dialogs).toEqual([]);
    await screenshots('merchants-with-markup-name');
  });

  it('is usable from the keyboard, with a visible focus ring', async () => {
    await page.goto(url('/console/rates'));
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    // Tab to the reference field and check the ring is drawn (an outline wider than nothing).
    await page.getByLabel('Reference (local currency per USDT)').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineWidth);
    expect(parseFloat(outline)).toBeGreaterThanOrEqual(2);
    // A form submitted with the keyboard: errors come back field by field and focusable.
    await page.getByLabel('Reference (local currency per USDT)').fill('abc');
    await page.getByLabel('Deposit spread (bps)').fill('99999');
    await page.keyboard.press('Enter');
    await page.locator('#f-depositSpreadBps-error').waitFor();
    expect(await page.getByLabel('Deposit spread (bps)').getAttribute('aria-invalid')).toBe('true');
    await screenshots('rates-errors');
  });

  it('disables a merchant through the confirm step, and signs out everywhere', async () => {
    await page.goto(url(`/console/merchants/${data.shopId}`));
    await page.getByRole('button', { name: 'Disable merchant' }).click();
    await screenshots('confirm-disable');
    await page.getByRole('button', { name: 'Disable merchant' }).click();
    await page.waitForURL(new RegExp(`/console/merchants/${data.shopId}$`));
    expect(await page.getByRole('status').innerText()).toContain('is disabled');
    expect((await server.services.merchants.get(data.shopId)).status).toBe('disabled');

    await page.goto(url('/console/account'));
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL(/\/console\/login$/);
    await page.goto(url('/console/merchants'));
    expect(new URL(page.url()).pathname).toBe('/console/login');
    expect(problems).toEqual([]);
  });
});
