// The merchant pages in Debian's Chromium (playwright-core, one browser for the file): a merchant
// owner turns on TOTP and signs in with password and code, every merchant page renders real data at
// phone and desktop width (screenshots in test/console/screenshots/merchant-*.png for a person to look
// at) with no CSP violation and nothing scrolling sideways on a phone, a refund and a webhook secret
// rotation are clicked through their confirm steps, and a payer name and email made of markup show as
// text with no dialog.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { SCREENSHOT_DIR, SIZES, screenshotsAtBothWidths, watchPage } from './screens.js';
import { totpCode } from '../../src/people/totp.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { PASSWORD } from './console-client.js';
import { seedMerchantData, XSS_EMAIL, XSS_NAME, type MerchantData } from './merchant-fixtures.js';

const EMAIL = 'browser-owner@shop.example';
const M = '/console/merchant';

describe('the merchant pages in a browser', () => {
  let server: TestServer;
  let data: MerchantData;
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({}, { worker: false });
    data = await seedMerchantData(server);
    await server.services.people.createUser({ email: EMAIL, kind: 'merchant', role: 'owner', merchantId: data.shop.id, password: PASSWORD }, 'test');
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: SIZES.desktop });
    page = await context.newPage();
    // Refusals the tests ask for (401 sign-in, 400 form, 422 refund) are answered so on purpose.
    watchPage(page, { dialogs, problems, expectedRefusals: /status of 4(00|01|22) / });
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const url = (p: string) => `${server.baseUrl}${p}`;

  const screenshots = (name: string): Promise<void> => screenshotsAtBothWidths(page, `merchant-${name}`);


  async function signIn(code: string): Promise<void> {
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    if (code) await page.getByLabel('Authenticator code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('turns on TOTP for a merchant owner, then signs in with the password and a code', async () => {
    await page.goto(url('/console'));
    await signIn('');
    await page.waitForURL(new RegExp(`${M}/home$`));
    await page.goto(url('/console/enrol'));
    const secret = (await page.locator('code.secret').innerText()).replace(/\s+/g, '');
    await page.getByLabel('Code from the app').fill(totpCode(secret, server.clock.nowMs()));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    expect(await page.locator('ol.codes li').count()).toBe(10);
    await page.getByRole('link', { name: 'Continue to the console' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/login$/);

    server.clock.advance(30_000);
    await signIn('');
    expect(await page.getByRole('alert').innerText()).toBe('Wrong email, password or code.');
    await signIn(totpCode(secret, server.clock.nowMs()));
    await page.waitForURL(new RegExp(`${M}/home$`));
    await screenshots('login-done-home');
  });

  it('renders every merchant page with real data at phone and desktop width', async () => {
    const pages: Array<[string, string, string]> = [
      ['home', `${M}/home`, 'Volume per day, last 30 days'],
      ['payments', `${M}/payments`, 'Asha Rao'],
      ['payments-filtered', `${M}/payments?status=Failed&currency=INR`, data.failedRef],
      ['payment', `${M}/payments/${data.paidRef}`, 'Ledger postings'],
      ['payouts', `${M}/payouts`, data.payoutRef],
      ['payout', `${M}/payouts/${data.payoutRef}`, 'payout_reserve'],
      ['statement', `${M}/statement`, 'Balance after'],
      ['webhooks', `${M}/webhooks`, 'payment.succeeded'],
      ['webhook', `${M}/webhooks/${data.eventId}`, 'Body as sent'],
      ['developers', `${M}/developers`, 'Rotate webhook secret'],
      ['team', `${M}/team`, EMAIL],
      ['audit', `${M}/audit`, 'console.totp_enrol'],
    ];
    for (const [name, pathname, text] of pages) {
      const response = await page.goto(url(pathname));
      expect(response!.status(), pathname).toBe(200);
      expect(await page.getByText(text, { exact: false }).first().isVisible(), `${pathname} shows ${text}`).toBe(true);
      await screenshots(name);
    }
    expect(await page.locator('figure.chart svg').count()).toBe(0); // the audit page has none
    await page.goto(url(`${M}/home`));
    expect(await page.locator('figure.day-chart svg rect').count()).toBeGreaterThanOrEqual(30);
    expect(await page.getByRole('img', { name: /Success rate per method/ }).first().isVisible()).toBe(true);
    // At phone width nothing scrolls sideways: tables become cards, charts scale down.
    await page.setViewportSize(SIZES.phone);
    for (const pathname of [`${M}/home`, `${M}/payments`, `${M}/payments/${data.paidRef}`, `${M}/developers`]) {
      await page.goto(url(pathname));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, pathname).toBeLessThanOrEqual(1);
    }
    await page.setViewportSize(SIZES.desktop);
    expect(problems).toEqual([]);
  });

  it('shows a payer name and email made of markup as text, and no script of theirs runs', async () => {
    await page.goto(url(`${M}/payments/${data.xssRef}`));
    expect(await page.getByText(XSS_NAME, { exact: true }).first().isVisible()).toBe(true);
    expect(await page.getByText(XSS_EMAIL, { exact: true }).first().isVisible()).toBe(true);
    await page.goto(url(`${M}/payments?q=${data.xssRef}`));
    expect(await page.getByText(XSS_NAME, { exact: true }).first().isVisible()).toBe(true);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.locator('main script').count()).toBe(0);
    await page.waitForTimeout(200);
    expect(dialogs).toEqual([]);
    await screenshots('payments-with-markup-payer');
  });

  it('refunds a payment and rotates the webhook secret through their confirm steps', async () => {
    await page.goto(url(`${M}/payments/${data.paidRef}`));
    await page.getByRole('button', { name: 'Refund this payment' }).click();
    await screenshots('confirm-refund');
    await page.getByRole('button', { name: 'Yes, refund' }).click();
    await page.waitForURL(new RegExp(`${M}/payments/${data.paidRef}$`));
    expect(await page.getByRole('status').first().innerText()).toContain('Refund made.');
    const row = await server.services.store.db.selectFrom('payments').select('status').where('transaction_ref', '=', data.paidRef).executeTakeFirstOrThrow();
    expect(row.status).toBe('Refund');

    const before = await server.services.merchants.webhookSecret(data.shop.id);
    await page.goto(url(`${M}/developers`));
    await page.getByRole('button', { name: 'Rotate webhook secret' }).click();
    await page.getByRole('button', { name: 'Yes, rotate' }).click();
    const shown = await page.locator('.once code.secret').innerText();
    expect(shown).toMatch(/^whsec_/);
    expect(shown).not.toBe(before);
    expect(await server.services.merchants.webhookSecret(data.shop.id)).toBe(shown);
    await screenshots('secret-shown-once');
    expect(problems).toEqual([]);
  });
});
