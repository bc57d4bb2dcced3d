// The hosted checkout page: layout, payment summary, countdown, result panels and sandbox controls.
// Everything is server-rendered through `html` (which escapes every value); the page's only script
// and stylesheet are static files, so the Content-Security-Policy can forbid anything inline.
import type { CheckoutView, PaymentStatus } from '../domain/payments/checkout-view.js';
import { formatAmount } from './format.js';
import { html, type SafeHtml } from './html.js';
import { renderInstructions } from './instructions.js';
import { statusBody } from './state.js';

/** The versioned URLs of the page's static files (the version lets them be cached for a year). */
export interface PageAssets {
  readonly scriptUrl: string;
  readonly styleUrl: string;
}

export interface CheckoutPageInput {
  readonly view: CheckoutView;
  readonly nowMs: number;
  readonly assets: PageAssets;
  /** Where the page's script polls and posts; built by the routes from the token. */
  readonly statusUrl: string;
  readonly sandboxUrl: string;
  readonly qr: SafeHtml | null;
}

type FinalStatus = Exclude<PaymentStatus, 'Pending'>;

const RESULTS: Readonly<Record<FinalStatus, { title: string; message: (merchant: string) => string }>> = {
  Success: {
    title: 'Payment received',
    message: (merchant) => `Thank you. ${merchant} has been told that you paid.`,
  },
  Failed: {
    title: 'Payment failed',
    message: () => 'Your bank or wallet declined the payment, and no money was taken. You can go back and try again.',
  },
  Expired: {
    title: 'Payment expired',
    message: (merchant) =>
      `The time to pay has run out. Go back to ${merchant} to start a new payment. If you paid anyway, keep your receipt and contact ${merchant} with the reference above: a late payment is not lost.`,
  },
  Refund: {
    title: 'Payment refunded',
    message: () => 'This payment was refunded to you.',
  },
};

const ICONS: Readonly<Record<FinalStatus, SafeHtml>> = {
  Success: html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 12.5l4.5 4.5L19 7.5" /></svg>`,
  Failed: html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 7l10 10M17 7L7 17" /></svg>`,
  Expired: html`<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="8" /><path d="M12 8v4.5l3 2" /></svg>`,
  Refund: html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M9 7L5 11l4 4M5 11h9a5 5 0 010 10h-2" /></svg>`,
};

const LOCK = html`<svg class="lock" viewBox="0 0 24 24" aria-hidden="true"><rect x="5" y="10.5" width="14" height="10" rx="2" /><path d="M8 10.5V7.5a4 4 0 018 0v3" /></svg>`;

function documentShell(title: string, assets: PageAssets, body: SafeHtml, withScript: boolean): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light">
<link rel="icon" href="data:,">
<title>${title}</title>
<link rel="stylesheet" href="${assets.styleUrl}">
${withScript ? html`<script src="${assets.scriptUrl}" defer></script>` : ''}
</head>
<body>
${body}
<footer class="footer">${LOCK}<span>Secure checkout</span></footer>
</body>
</html>
`;
}

/** One panel per final status; the script reveals the one the payment reaches. */
function resultPanels(view: CheckoutView, shown: PaymentStatus, returnUrl: string | null, redirectUrl: string | null): SafeHtml {
  const panels = (Object.keys(RESULTS) as FinalStatus[]).map((status) => {
    const result = RESULTS[status];
    const href = status === shown ? returnUrl : redirectUrl;
    return html`<section class="result result-${status.toLowerCase()}" data-result="${status}"${status === shown ? '' : html` hidden`}>
      <div class="result-icon">${ICONS[status]}</div>
      <h2>${result.title}</h2>
      <p>${result.message(view.merchantName)}</p>
      <p class="redirect-notice" hidden>Taking you back to ${view.merchantName}…</p>
      ${href ? html`<a class="button primary return-link" href="${href}">Return to ${view.merchantName}</a>` : ''}
    </section>`;
  });
  return html`<div class="results" role="status" aria-live="polite">${panels}</div>`;
}

function countdown(expiresInMs: number, expiresAt: string): SafeHtml {
  const totalSeconds = Math.ceil(expiresInMs / 1000);
  const text = `${String(Math.floor(totalSeconds / 60)).padStart(2, '0')}:${String(totalSeconds % 60).padStart(2, '0')}`;
  return html`<p class="timer" id="timer">
      <span>Time left to pay</span>
      <time class="countdown" id="countdown" datetime="${expiresAt}" role="timer" aria-live="off">${text}</time>
    </p>`;
}

function preparing(): SafeHtml {
  return html`<div class="preparing" id="preparing">
      <span class="spinner" aria-hidden="true"></span>
      <p><strong>Preparing your payment details…</strong></p>
      <p class="hint">This usually takes a few seconds. The page updates by itself.</p>
    </div>`;
}

function sandboxControls(): SafeHtml {
  return html`<section class="sandbox-controls" aria-labelledby="sandbox-title">
      <h2 id="sandbox-title">Sandbox test controls</h2>
      <p>Act as the payer’s bank: no real money moves.</p>
      <div class="sandbox-buttons">
        <button type="button" class="button primary" data-sandbox-outcome="Success">Pay</button>
        <button type="button" class="button danger" data-sandbox-outcome="Failed">Decline</button>
      </div>
      <p class="sandbox-error" role="alert" hidden></p>
    </section>`;
}

export function renderCheckoutPage(input: CheckoutPageInput): string {
  const { view, nowMs, assets } = input;
  const body = statusBody(view, nowMs);
  const amount = formatAmount(view.amount, view.currency);
  const state = body.final ? 'final' : view.instructions ? 'ready' : 'preparing';
  const main = html`${view.sandbox ? html`<div class="sandbox-banner" role="note"><strong>Sandbox</strong> Test payment: no real money moves.</div>` : ''}
<main class="checkout" id="checkout" data-state="${state}" data-status="${body.status}"
  data-status-url="${input.statusUrl}" data-sandbox-url="${input.sandboxUrl}" data-expires-in-ms="${body.expiresInMs}">
  <header class="summary">
    <p class="merchant">Pay <strong>${view.merchantName}</strong></p>
    <p class="amount">${amount}</p>
    <p class="reference">Order reference <span class="mono">${view.transactionRef}</span></p>
  </header>
  ${resultPanels(view, body.status, body.returnUrl, body.redirectUrl)}
  ${body.final
    ? ''
    : html`<div class="pending" id="pending">
    ${countdown(body.expiresInMs, view.expiresAt)}
    ${view.instructions ? renderInstructions({ view, instructions: view.instructions, qr: input.qr }) : preparing()}
    ${view.sandbox && view.instructions ? sandboxControls() : ''}
  </div>`}
</main>`;
  return documentShell(`Pay ${view.merchantName} ${amount}`, assets, main, true).value;
}

/** A page for a link that leads nowhere or a service hiccup; it names no payment and no reason. */
export function renderMessagePage(title: string, message: string, assets: PageAssets): string {
  const main = html`<main class="checkout message-page">
  <section class="result result-neutral">
    <h1>${title}</h1>
    <p>${message}</p>
  </section>
</main>`;
  return documentShell(title, assets, main, false).value;
}

export const renderNotFoundPage = (assets: PageAssets): string =>
  renderMessagePage(
    'Payment link not found',
    'This payment link is not valid. Check the link, or go back to the shop and start the payment again.',
    assets,
  );

export const renderUnavailablePage = (assets: PageAssets): string =>
  renderMessagePage('Checkout unavailable', 'We cannot show this payment right now. Please try again in a moment.', assets);
