// The hosted checkout end to end in Chromium: a sandbox merchant creates payments through the SDK,
// the payer opens checkoutUrl, sees what their method needs, presses Pay (or Decline, or waits too
// long), lands back on the merchant's redirectUrl with transactionRef and status, and the merchant
// receives a webhook it verifies with its secret. Screenshots go to test-results/screenshots/.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import type { PaymentInitiateRequest, PaymentRecord } from '../../sdk/src/index.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { startMerchantSite, type MerchantSite } from './merchant-site.js';

const SCREENSHOT_DIR = path.resolve('test-results/screenshots');
const SIZES = { phone: { width: 375, height: 667 }, desktop: { width: 1280, height: 800 } } as const;
const EXPIRY_MS = 30 * 60_000;

type Payer = Pick<PaymentInitiateRequest, 'currency' | 'method' | 'amount' | 'name' | 'phone'>;

interface Flow {
  readonly payer: Payer;
  readonly expectedAmount: string;
  /** What the payer must see for this method. */
  assertInstructions(page: Page): Promise<void>;
}

const FLOWS: readonly Flow[] = [
  {
    payer: { currency: 'INR', method: 'NATIVE', amount: 1000.5, name: 'Asha Verma', phone: '9876543210' },
    expectedAmount: '₹1,000.50',
    async assertInstructions(page) {
      await expect.poll(() => page.locator('.qr-code svg').isVisible()).toBe(true);
      expect(await page.getByRole('img', { name: 'UPI QR code for this payment' }).isVisible()).toBe(true);
      const intent = page.getByRole('link', { name: 'Open UPI app' });
      expect(await intent.getAttribute('href')).toMatch(/^upi:\/\/pay\?pa=[^&]+&pn=[^&]+&am=1000\.50&cu=INR/);
    },
  },
  {
    payer: { currency: 'NGN', method: 'TRANSFER', amount: 25000, name: 'Chidi Okafor', phone: '08031234567' },
    expectedAmount: '₦25,000.00',
    async assertInstructions(page) {
      const details = page.locator('.details');
      expect(await details.getByText(/^(Wema|Providus) Bank$/).isVisible()).toBe(true);
      expect(await details.locator('.mono.big').innerText()).toMatch(/^\d{10}$/);
      expect(await details.getByText('Paygate - Chidi Okafor').isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Copy account number' }).getAttribute('data-copy')).toMatch(/^\d{10}$/);
      expect(await page.getByRole('button', { name: 'Copy amount' }).getAttribute('data-copy')).toBe('25000.00');
    },
  },
  {
    payer: { currency: 'IDR', method: 'BNI', amount: 150000, name: 'Budi Santoso', phone: '081234567890' },
    expectedAmount: 'Rp 150.000',
    async assertInstructions(page) {
      expect(await page.locator('.details .mono.big').innerText()).toMatch(/^8808 \d{4} \d{4} \d{4}$/);
      for (const channel of ['BNI ATM', 'BNI Mobile Banking', 'BNI Internet Banking']) {
        expect(await page.locator('summary', { hasText: channel }).isVisible()).toBe(true);
      }
      expect(await page.getByText('Choose Other Menu, then Transfer, then Virtual Account Billing').isVisible()).toBe(true);
    },
  },
  {
    payer: { currency: 'IDR', method: 'QRIS', amount: 75000, name: 'Siti Rahma', phone: '081298765432' },
    expectedAmount: 'Rp 75.000',
    async assertInstructions(page) {
      expect(await page.getByRole('img', { name: 'QRIS code for this payment' }).locator('svg').isVisible()).toBe(true);
      expect(await page.getByText('Scan with any QRIS app').isVisible()).toBe(true);
    },
  },
  {
    payer: { currency: 'EGP', method: 'FAWRY', amount: 350.75, name: 'Omar Hassan', phone: '01012345678' },
    expectedAmount: 'EGP 350.75',
    async assertInstructions(page) {
      expect(await page.locator('.details .mono.big').innerText()).toMatch(/^[1-9]\d{8}$/);
      expect(await page.locator('summary', { hasText: 'At a Fawry outlet' }).isVisible()).toBe(true);
      expect(await page.locator('summary', { hasText: 'In the myFawry app' }).isVisible()).toBe(true);
    },
  },
];

describe('the hosted checkout in a browser', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  let site: MerchantSite;
  let browser: Browser;

  beforeAll(async () => {
    // The merchant's receiver is on loopback over http: the operator allows exactly that.
    server = await startTestServer({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
    site = await startMerchantSite(() => merchant.webhookSecret, () => Math.floor(server.clock.nowMs() / 1000));
    merchant = await server.createMerchant({ mode: 'sandbox' });
    browser = await launchChromium();
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await server?.close();
  });

  async function initiate(payer: Payer): Promise<PaymentRecord & { checkoutUrl: string }> {
    const merchantRef = randomUUID();
    const created = await merchant.client.paymentInitiate({
      ...payer,
      merchantRef,
      email: 'payer@example.com',
      redirectUrl: `${site.returnUrl}?order=${merchantRef}`,
      webhookUrl: site.webhookUrl,
    });
    expect(created.status, JSON.stringify(created.data)).toBe(200);
    expect(created.data.checkoutUrl).toMatch(/\/checkout\/[A-Za-z0-9_-]+$/);
    return created.data as PaymentRecord & { checkoutUrl: string };
  }

  /** The checkout page as this test server serves it (the configured public base URL is not listening). */
  const pageUrl = (checkoutUrl: string): string => server.baseUrl + new URL(checkoutUrl).pathname;

  interface Session {
    readonly context: BrowserContext;
    readonly page: Page;
    /** Console errors and CSP violations on the checkout pages. */
    readonly problems: string[];
  }

  async function openCheckout(checkoutUrl: string): Promise<Session> {
    const context = await browser.newContext({ viewport: SIZES.phone });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && page.url().startsWith(server.baseUrl)) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const response = await page.goto(pageUrl(checkoutUrl));
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    // Fresh payments show "preparing" until the simulator's collection is there; the page reloads itself.
    await page.locator('#checkout[data-state="ready"]').waitFor({ timeout: 15_000 });
    return { context, page, problems };
  }

  async function screenshots(page: Page, name: string): Promise<void> {
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${size}.png`), fullPage: true });
    }
    await page.setViewportSize(SIZES.phone);
  }

  async function expectReturned(page: Page, transactionRef: string, merchantRef: string, status: string): Promise<void> {
    await page.waitForURL((url) => url.href.startsWith(site.returnUrl), { timeout: 10_000 });
    const landed = new URL(page.url());
    expect(Object.fromEntries(landed.searchParams)).toEqual({ order: merchantRef, transactionRef, status });
    expect(await page.getByRole('heading', { name: 'Back at the shop' }).isVisible()).toBe(true);
  }

  for (const flow of FLOWS) {
    const name = `${flow.payer.currency}-${flow.payer.method}`;
    it(`${name}: shows the instructions, Pay returns the payer with status=Success and the merchant gets payment.succeeded`, async () => {
      const payment = await initiate(flow.payer);
      const { context, page, problems } = await openCheckout(payment.checkoutUrl);
      try {
        expect(await page.locator('.amount').innerText()).toBe(flow.expectedAmount);
        expect(await page.locator('.merchant strong').innerText()).toBe('Test Merchant');
        expect(await page.locator('.sandbox-banner').isVisible()).toBe(true);
        expect(await page.locator('#countdown').innerText()).toMatch(/^(29|30):\d{2}$/);
        await flow.assertInstructions(page);
        await screenshots(page, name);

        await page.getByRole('button', { name: 'Pay', exact: true }).click();
        await page.locator('[data-result="Success"]').waitFor({ state: 'visible' });
        expect(await page.getByRole('heading', { name: 'Payment received' }).isVisible()).toBe(true);
        expect(await page.getByRole('link', { name: 'Return to Test Merchant' }).getAttribute('href')).toContain('status=Success');
        if (name === 'INR-NATIVE') await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-success-phone.png`), fullPage: true });
        expect(problems).toEqual([]);

        await expectReturned(page, payment.transactionRef, payment.merchantRef, 'Success');
        const event = await site.waitForEvent(payment.transactionRef, 'payment.succeeded');
        expect(event.status).toBe('Success');
      } finally {
        await context.close();
      }
    });
  }

  it('EGP-WALLET: Decline shows the failure, returns with status=Failed and the merchant gets payment.failed', async () => {
    const payment = await initiate({ currency: 'EGP', method: 'WALLET', amount: 120, name: 'Mona Adel', phone: '01012345678' });
    const { context, page, problems } = await openCheckout(payment.checkoutUrl);
    try {
      expect(await page.getByRole('heading', { name: 'Confirm on your phone' }).isVisible()).toBe(true);
      expect(await page.getByText('010•••••678').isVisible()).toBe(true);
      await screenshots(page, 'EGP-WALLET');

      await page.getByRole('button', { name: 'Decline' }).click();
      await page.locator('[data-result="Failed"]').waitFor({ state: 'visible' });
      expect(await page.getByRole('heading', { name: 'Payment failed' }).isVisible()).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'EGP-WALLET-failed-phone.png'), fullPage: true });
      expect(problems).toEqual([]);

      await expectReturned(page, payment.transactionRef, payment.merchantRef, 'Failed');
      expect((await site.waitForEvent(payment.transactionRef, 'payment.failed')).status).toBe('Failed');
    } finally {
      await context.close();
    }
  });

  it('an open page whose time runs out shows the expiry and returns with status=Expired; reloading still shows it', async () => {
    // Last in this file: it moves the service's clock past every payment's 30 minutes.
    const payment = await initiate({ currency: 'IDR', method: 'MANDIRI', amount: 20000, name: 'Dewi Lestari', phone: '081311112222' });
    const { context, page, problems } = await openCheckout(payment.checkoutUrl);
    try {
      server.clock.advance(EXPIRY_MS + 1_000);
      await page.locator('[data-result="Expired"]').waitFor({ state: 'visible', timeout: 10_000 });
      expect(await page.getByRole('heading', { name: 'Payment expired' }).isVisible()).toBe(true);
      expect(await page.locator('#pending').isVisible()).toBe(false);
      await expectReturned(page, payment.transactionRef, payment.merchantRef, 'Expired');
      expect((await site.waitForEvent(payment.transactionRef, 'payment.expired')).status).toBe('Expired');

      const reloaded = await page.goto(pageUrl(payment.checkoutUrl));
      expect(reloaded?.status()).toBe(200);
      expect(await page.getByRole('heading', { name: 'Payment expired' }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Pay', exact: true }).count()).toBe(0);
      await screenshots(page, 'IDR-MANDIRI-expired');
      expect(problems).toEqual([]);
      expect(site.rejected).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('an unknown checkout link is a plain 404 page', async () => {
    const context = await browser.newContext({ viewport: SIZES.phone });
    try {
      const page = await context.newPage();
      const response = await page.goto(`${server.baseUrl}/checkout/${'x'.repeat(43)}`);
      expect(response?.status()).toBe(404);
      expect(await page.getByRole('heading', { name: 'Payment link not found' }).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
