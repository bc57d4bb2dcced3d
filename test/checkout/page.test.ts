// The hosted checkout page without a browser: what it renders per method, that no merchant- or
// channel-supplied string can inject markup, the security headers, 404s and the sandbox action's CSRF guard.
import { beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { CollectionInstructions } from '../../src/connectors/channel.js';
import { ManualClock } from '../../src/core/clock.js';
import { escapeHtml } from '../../src/checkout/html.js';
import { formatAmount, maskPhone, returnUrl } from '../../src/checkout/format.js';
import { CONTENT_SECURITY_POLICY } from '../../src/checkout/security.js';
import {
  HOSTILE,
  InMemoryCheckoutSource,
  METHOD_CASES,
  NOW_MS,
  PUBLIC_BASE_URL,
  buildCheckoutApp,
  makeView,
} from './fixtures.js';

const EXPECTED_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; require-trusted-types-for 'script'";

const ALLOWED_TAGS = new Set([
  'html', 'head', 'meta', 'title', 'link', 'script', 'body', 'main', 'header', 'footer', 'section', 'div', 'p',
  'strong', 'span', 'h1', 'h2', 'h3', 'a', 'time', 'dl', 'dt', 'dd', 'button', 'figure', 'figcaption', 'details',
  'summary', 'ol', 'li', 'svg', 'path', 'circle', 'rect',
]);
const ALLOWED_ATTRIBUTES = new Set([
  'lang', 'charset', 'name', 'content', 'rel', 'href', 'src', 'defer', 'class', 'id', 'role', 'hidden', 'type',
  'aria-label', 'aria-hidden', 'aria-live', 'aria-labelledby', 'datetime', 'open', 'viewbox', 'xmlns',
  'shape-rendering', 'fill', 'stroke', 'd', 'cx', 'cy', 'r', 'x', 'y', 'width', 'height', 'rx',
  'data-state', 'data-status', 'data-status-url', 'data-sandbox-url', 'data-expires-in-ms', 'data-result',
  'data-copy', 'data-sandbox-outcome',
]);

interface Tag {
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
}

/** Every start tag with its attributes. Sound here because escaped values never contain < > or ". */
function tagsOf(page: string): Tag[] {
  const tags: Tag[] = [];
  for (const match of page.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const attributes = new Map<string, string>();
    for (const attribute of match[2]!.matchAll(/\s+([^\s=>/]+)(?:="([^"]*)")?/g)) {
      attributes.set(attribute[1]!.toLowerCase(), attribute[2] ?? '');
    }
    tags.push({ name: match[1]!.toLowerCase(), attributes });
  }
  return tags;
}

const decodeAttribute = (value: string): string =>
  value.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))).replace(/&quot;/g, '"').replace(/&amp;/g, '&');

/** The page is made only of known tags and attributes, scripts are external, and links go nowhere dangerous. */
function expectNoInjection(page: string): void {
  // Any raw '<' that does not open a known tag, a closing tag, a comment-free doctype is injected markup.
  const stray = page.replace(/<!doctype html>/i, '').replace(/<\/?[a-zA-Z][^<>]*>/g, '');
  expect(stray).not.toContain('<');
  expect(stray).not.toContain('>');
  const tags = tagsOf(page);
  for (const tag of tags) {
    expect(ALLOWED_TAGS, `tag <${tag.name}>`).toContain(tag.name);
    for (const name of tag.attributes.keys()) expect(ALLOWED_ATTRIBUTES, `attribute ${name} on <${tag.name}>`).toContain(name);
    for (const name of ['href', 'src']) {
      const value = tag.attributes.get(name);
      if (value !== undefined) expect(decodeAttribute(value)).toMatch(/^(\/checkout\/|https?:\/\/|upi:\/\/|data:,$)/);
    }
  }
  const scripts = tags.filter((tag) => tag.name === 'script');
  expect(scripts).toHaveLength(1);
  expect(scripts[0]!.attributes.get('src')).toMatch(/^\/checkout\/assets\/checkout\.js\?v&#61;[0-9a-f]{16}$/);
  expect(page.match(/<script/gi)).toHaveLength(1);
  expect(page).not.toMatch(/<style|\sstyle=/i);
  expect(page).not.toMatch(/\son[a-z]+\s*=/i);
}

function withHostile(instructions: CollectionInstructions, hostile: string): CollectionInstructions {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(instructions)) {
    if (key === 'kind' || typeof value !== 'string') continue;
    // The intent link keeps its upi:// prefix so the attribute context is exercised, not just the filter.
    fields[key] = key === 'intentUrl' ? `upi://pay?pn=${hostile}` : key === 'qrPayload' ? value + hostile : hostile;
  }
  return { ...instructions, ...fields, walletPhone: instructions.walletPhone ? `0812${hostile}` : undefined };
}

describe('the checkout page', () => {
  let source: InMemoryCheckoutSource;
  let clock: ManualClock;
  let app: FastifyInstance;

  beforeEach(async () => {
    source = new InMemoryCheckoutSource();
    clock = new ManualClock(NOW_MS);
    app = await buildCheckoutApp(source, clock);
  });

  const page = async (token: string) => app.inject({ method: 'GET', url: `/checkout/${token}` });

  describe('escapes every merchant- and channel-supplied string', () => {
    for (const methodCase of METHOD_CASES) {
      it(`for ${methodCase.name}`, async () => {
        for (const [index, hostile] of HOSTILE.entries()) {
          const token = `tok-${index}`;
          source.views.set(
            token,
            makeView({
              merchantName: hostile,
              redirectUrl: hostile,
              currency: methodCase.currency,
              method: methodCase.method,
              amount: methodCase.amount,
              instructions: withHostile(methodCase.instructions, hostile),
            }),
          );
          const response = await page(token);
          expect(response.statusCode).toBe(200);
          expectNoInjection(response.body);
          expect(response.body).toContain(`Pay <strong>${escapeHtml(hostile)}</strong>`);
        }
      });
    }

    it('also on result pages, with hostile redirect URLs that look like http', async () => {
      for (const status of ['Success', 'Failed', 'Expired', 'Refund'] as const) {
        source.views.set(status, makeView({ status, merchantName: HOSTILE[1]!, redirectUrl: `https://shop.example.com/?q="><script>alert(1)</script>` }));
        const response = await page(status);
        expectNoInjection(response.body);
      }
    });

    it('escapes quotes, angle brackets, ampersands, backticks and equals signs', () => {
      expect(escapeHtml(`<a href="x" onclick='y'>&\`=`)).toBe('&lt;a href&#61;&quot;x&quot; onclick&#61;&#39;y&#39;&gt;&amp;&#96;&#61;');
    });
  });

  describe('shows what the payer needs per method', () => {
    const render = async (index: number) => {
      const methodCase = METHOD_CASES[index]!;
      source.views.set('t', makeView({ currency: methodCase.currency, method: methodCase.method, amount: methodCase.amount, instructions: methodCase.instructions }));
      return (await page('t')).body;
    };

    it('INR UPI: a server-rendered QR and the upi:// intent link', async () => {
      const body = await render(0);
      expect(body).toContain('₹1,000.50');
      expect(body).toMatch(/<div class="qr-code" role="img" aria-label="UPI QR code for this payment"><svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(body).toContain('<a class="button primary upi-intent" href="upi://pay?pa&#61;shop@okbank');
    });

    it('INR UPI: no intent link unless it is a upi:// URL', async () => {
      source.views.set('t', makeView({ instructions: { kind: 'UPI', qrPayload: 'upi://pay?pa=a@b', intentUrl: 'javascript:alert(1)' } }));
      const body = (await page('t')).body;
      expect(body).not.toContain('upi-intent');
      expect(body).not.toContain('javascript:');
    });

    it('INR UPI with only a hosted QR picture (https): a link to it, never a QR that encodes a web address', async () => {
      source.views.set('t', makeView({ instructions: { kind: 'UPI', qrPayload: 'https://rzp.io/i/AbC123' } }));
      const body = (await page('t')).body;
      expect(body).toContain('<a class="button upi-hosted-qr" href="https://rzp.io/i/AbC123"');
      expect(body).not.toContain('class="qr-code"');
    });

    it('IDR DANA: a button to the wallet’s own checkout (https only)', async () => {
      source.views.set('t', makeView({ currency: 'IDR', method: 'DANA', amount: 50000, instructions: { kind: 'EWALLET', intentUrl: 'https://m.dana.id/pay?ref=1' } }));
      expect((await page('t')).body).toContain('<a class="button primary wallet-checkout" href="https://m.dana.id/pay?ref&#61;1" rel="noopener noreferrer">Continue in DANA</a>');
      source.views.set('t', makeView({ currency: 'IDR', method: 'DANA', amount: 50000, instructions: { kind: 'EWALLET', intentUrl: 'javascript:alert(1)' } }));
      expect((await page('t')).body).not.toContain('wallet-checkout');
    });

    it('NGN transfer: bank, account number, account name and the exact amount, with copy buttons', async () => {
      const body = await render(1);
      expect(body).toContain('Wema Bank');
      expect(body).toContain('<span class="mono big">9912345678</span>');
      expect(body).toContain('data-copy="9912345678"');
      expect(body).toContain('Shop Checkout');
      expect(body).toContain('₦25,000.00');
      expect(body).toContain('data-copy="25000.00"');
    });

    it('IDR virtual accounts: the number and paying steps for ATM, mobile and internet banking of that bank', async () => {
      const body = await render(2);
      expect(body).toContain('8808 1234 5678 9012');
      expect(body).toContain('Rp 150.000');
      expect(body).toContain('<summary>BNI ATM</summary>');
      expect(body).toContain('<summary>BNI Mobile Banking</summary>');
      expect(body).toContain('<summary>BNI Internet Banking</summary>');
      for (const method of ['BRI', 'MANDIRI', 'PERMATA']) {
        source.views.set(method, makeView({ currency: 'IDR', method, amount: 10000, instructions: { kind: 'VIRTUAL_ACCOUNT', accountNumber: '1234567890' } }));
        expect((await page(method)).body.match(/<details/g)).toHaveLength(3);
      }
    });

    it('IDR QRIS: the QR of the payload', async () => {
      expect(await render(3)).toMatch(/aria-label="QRIS code for this payment"><svg /);
    });

    it('IDR e-wallet: confirm in the app, prompt sent to a masked phone', async () => {
      const body = await render(4);
      expect(body).toContain('Confirm in your OVO app');
      expect(body).toContain('081••••••890');
      expect(body).not.toContain('081234567890');
    });

    it('EGP Fawry: the reference code and how to pay at a kiosk or in myFawry', async () => {
      const body = await render(5);
      expect(body).toContain('9876543210');
      expect(body).toContain('EGP 350.75');
      expect(body).toContain('At a Fawry outlet');
      expect(body).toContain('In the myFawry app');
    });

    it('EGP wallet: confirm on the phone', async () => {
      const body = await render(6);
      expect(body).toContain('Confirm on your phone');
      expect(body).toContain('010•••••678');
    });

    it('no instructions yet: a preparing state that polls, without sandbox buttons', async () => {
      source.views.set('t', makeView({ instructions: null }));
      const body = (await page('t')).body;
      expect(body).toContain('Preparing your payment details…');
      expect(body).toContain('data-state="preparing"');
      expect(body).not.toContain('data-sandbox-outcome');
      const status = await app.inject({ url: '/checkout/t/status' });
      expect(status.json()).toMatchObject({ status: 'Pending', instructions: null, final: false });
    });

    it('sandbox payments get the banner and Pay/Decline buttons; live payments get neither', async () => {
      source.views.set('sandbox', makeView({ sandbox: true }));
      source.views.set('live', makeView({ sandbox: false }));
      const sandbox = (await page('sandbox')).body;
      expect(sandbox).toContain('class="sandbox-banner"');
      expect(sandbox).toContain('data-sandbox-outcome="Success">Pay</button>');
      expect(sandbox).toContain('data-sandbox-outcome="Failed">Decline</button>');
      const live = (await page('live')).body;
      expect(live).not.toContain('sandbox-banner');
      expect(live).not.toContain('data-sandbox-outcome');
    });
  });

  describe('final and expired payments', () => {
    it('a page loaded after expiry shows that the payment expired, even before the service marks it', async () => {
      source.views.set('t', makeView({ status: 'Pending' }));
      clock.advance(30 * 60_000);
      const body = (await page('t')).body;
      expect(body).toMatch(/<section class="result result-expired" data-result="Expired">/);
      expect(body).not.toContain('id="pending"');
      expect(body).toContain('status&#61;Expired');
      const status = (await app.inject({ url: '/checkout/t/status' })).json();
      expect(status).toMatchObject({ status: 'Expired', final: true, instructions: null, expiresInMs: 0 });
    });

    it('a failed payment shows the failure and links back with the status appended', async () => {
      source.views.set('t', makeView({ status: 'Failed', failureReason: 'UPSTREAM_REJECTED' }));
      const body = (await page('t')).body;
      expect(body).toMatch(/<section class="result result-failed" data-result="Failed">\s*<div class="result-icon">/);
      expect(body).toContain('Payment failed');
      const status = (await app.inject({ url: '/checkout/t/status' })).json();
      const back = new URL(status.returnUrl);
      expect(back.origin + back.pathname).toBe('https://shop.example.com/return');
      expect(Object.fromEntries(back.searchParams)).toEqual({ order: '42', transactionRef: makeView().transactionRef, status: 'Failed' });
      expect(status.failureReason).toBe('UPSTREAM_REJECTED');
    });

    it('never offers a non-http(s) redirect target', async () => {
      for (const redirectUrl of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,<script>alert(1)</script>', '//evil.example', 'not a url']) {
        source.views.set('t', makeView({ status: 'Success', redirectUrl }));
        const body = (await page('t')).body;
        expect(body).not.toContain('return-link');
        const status = (await app.inject({ url: '/checkout/t/status' })).json();
        expect(status).toMatchObject({ redirectUrl: null, returnUrl: null });
      }
      expect(returnUrl('https://user:pw@shop.example.com/', 'r', 'Success')).toBeNull();
    });
  });

  describe('headers', () => {
    it('sends the strict CSP and the other security headers on every checkout response', async () => {
      source.views.set('t', makeView());
      const responses = [
        await page('t'),
        await page('unknown'),
        await app.inject({ url: '/checkout/t/status' }),
        await app.inject({ url: '/checkout/unknown/status' }),
        await app.inject({ method: 'POST', url: '/checkout/t/sandbox', payload: { outcome: 'Success' } }),
        await app.inject({ url: '/checkout/assets/checkout.js' }),
        await app.inject({ url: '/checkout/assets/checkout.css' }),
        await app.inject({ url: '/checkout/t/no/such/thing' }),
      ];
      for (const response of responses) {
        expect(response.headers['content-security-policy']).toBe(EXPECTED_CSP);
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['referrer-policy']).toBe('no-referrer');
        expect(response.headers['x-frame-options']).toBe('DENY');
      }
      expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|\*/);
    });

    it('never lets HTML or status JSON be cached; assets are long-cached with their content type', async () => {
      source.views.set('t', makeView());
      expect((await page('t')).headers['cache-control']).toBe('no-store');
      expect((await page('t')).headers['content-type']).toBe('text/html; charset=utf-8');
      const status = await app.inject({ url: '/checkout/t/status' });
      expect(status.headers['cache-control']).toBe('no-store');
      expect(status.headers['content-type']).toMatch(/^application\/json/);
      const script = await app.inject({ url: '/checkout/assets/checkout.js' });
      expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const style = await app.inject({ url: '/checkout/assets/checkout.css' });
      expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(style.body).toContain('.checkout');
    });
  });

  describe('unknown tokens', () => {
    it('answer 404 with a page that says nothing more', async () => {
      for (const token of ['unknown', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'has%20space', 'a'.repeat(90)]) {
        const response = await page(token);
        expect(response.statusCode).toBe(404);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.body).toContain('Payment link not found');
        expect(response.body).not.toContain(token.slice(0, 20));
        expect(response.body, 'the 404 page needs no script').not.toMatch(/<script/i);
      }
      const status = await app.inject({ url: '/checkout/unknown/status' });
      expect(status.statusCode).toBe(404);
      expect(status.json()).toMatchObject({ code: '404', message: 'NOT_FOUND' });
    });
  });

  describe('when the payment service fails', () => {
    it('the page answers an HTML error page and the JSON routes the envelope, neither revealing the cause', async () => {
      const broken = await buildCheckoutApp({
        viewByToken: async () => {
          throw new Error('connection to db-primary:5432 refused');
        },
        sandboxCompleteByToken: async () => {
          throw new Error('unreachable');
        },
      });
      const response = await broken.inject({ url: '/checkout/t' });
      expect(response.statusCode).toBe(500);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toBe(EXPECTED_CSP);
      expect(response.body).toContain('Checkout unavailable');
      expect(response.body).not.toContain('db-primary');
      const status = await broken.inject({ url: '/checkout/t/status' });
      expect(status.statusCode).toBe(500);
      expect(status.json()).toMatchObject({ code: '500', message: 'INTERNAL_ERROR' });
      expect(status.body).not.toContain('db-primary');
    });
  });

  describe('the sandbox action', () => {
    const post = (headers: Record<string, string>, payload: unknown = { outcome: 'Success' }, token = 't') =>
      app.inject({ method: 'POST', url: `/checkout/${token}/sandbox`, headers, payload: payload as object });

    beforeEach(() => {
      source.views.set('t', makeView());
    });

    it('requires the page script header: a cross-site form cannot set it', async () => {
      const response = await post({});
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: 'FORBIDDEN' });
      const form = await app.inject({
        method: 'POST',
        url: '/checkout/t/sandbox',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
        payload: 'outcome=Success',
      });
      expect(form.statusCode).toBe(403);
      expect(source.completions).toEqual([]);
    });

    it('refuses another origin even with the header', async () => {
      expect((await post({ 'x-checkout-action': '1', origin: 'https://evil.example' })).statusCode).toBe(403);
      expect((await post({ 'x-checkout-action': '1', 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
      expect((await post({ 'x-checkout-action': '1', 'sec-fetch-site': 'same-site' })).statusCode).toBe(403);
      expect((await post({ 'x-checkout-action': '1', origin: 'null' })).statusCode).toBe(403);
      expect(source.completions).toEqual([]);
    });

    it('completes the payment from the page itself and answers its new status', async () => {
      const response = await post({ 'x-checkout-action': '1', origin: PUBLIC_BASE_URL, 'sec-fetch-site': 'same-origin' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'Success', final: true });
      expect(new URL(response.json().returnUrl).searchParams.get('status')).toBe('Success');
      expect(source.completions).toEqual([{ token: 't', outcome: 'Success' }]);
    });

    it('accepts the Origin of the host the page was served from', async () => {
      const response = await post({ 'x-checkout-action': '1', origin: 'http://127.0.0.1:4000', host: '127.0.0.1:4000' }, { outcome: 'Failed' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'Failed' });
    });

    it('refuses bad outcomes, live payments, final payments and unknown tokens', async () => {
      const headers = { 'x-checkout-action': '1', origin: PUBLIC_BASE_URL };
      expect((await post(headers, { outcome: 'Refund' })).statusCode).toBe(400);
      expect((await post(headers, { outcome: 'Success', extra: 1 })).statusCode).toBe(400);
      source.views.set('live', makeView({ sandbox: false }));
      expect((await post(headers, undefined, 'live')).statusCode).toBe(403);
      source.views.set('done', makeView({ status: 'Success' }));
      expect((await post(headers, undefined, 'done')).statusCode).toBe(409);
      expect((await post(headers, undefined, 'unknown')).statusCode).toBe(404);
      expect(source.completions).toEqual([]);
    });
  });
});

describe('formatting', () => {
  it('writes each currency the way its payers read it', () => {
    expect(formatAmount(1000.5, 'INR')).toBe('₹1,000.50');
    expect(formatAmount(100000, 'INR')).toBe('₹1,00,000.00');
    expect(formatAmount(5000, 'NGN')).toBe('₦5,000.00');
    expect(formatAmount(150000, 'IDR')).toBe('Rp 150.000');
    expect(formatAmount(10000.5, 'IDR')).toBe('Rp 10.000,50');
    expect(formatAmount(1000.5, 'EGP')).toBe('EGP 1,000.50');
  });

  it('masks phone numbers down to a recognisable head and tail', () => {
    expect(maskPhone('081234567890')).toBe('081••••••890');
    expect(maskPhone('+6281234567890')).toBe('+628•••••••890');
    expect(maskPhone('12345')).toBe('•••••');
  });
});

