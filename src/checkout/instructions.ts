// The "how to pay" part of the checkout page, one template per kind of collection instructions.
// Every value comes from the channel or the merchant and goes through `html`, which escapes it.
import type { CollectionInstructions } from '../connectors/channel.js';
import type { CheckoutView } from '../domain/payments/checkout-view.js';
import { formatAmount, groupDigits, maskPhone, plainAmount } from './format.js';
import { html, type SafeHtml } from './html.js';
import { FAWRY_STEPS, VA_STEPS, type PayingChannel } from './paying-steps.js';

export interface InstructionsInput {
  readonly view: CheckoutView;
  readonly instructions: CollectionInstructions;
  /** The QR of `instructions.qrPayload`, rendered by the caller (UPI and QRIS). */
  readonly qr: SafeHtml | null;
}

function copyButton(value: string, what: string): SafeHtml {
  return html`<button type="button" class="copy" data-copy="${value}" aria-label="Copy ${what}">Copy</button>`;
}

function detail(label: string, value: SafeHtml | string, extra: SafeHtml | null = null): SafeHtml {
  return html`<div class="detail"><dt>${label}</dt><dd><span class="detail-value">${value}</span>${extra}</dd></div>`;
}

function exactAmount(view: CheckoutView): SafeHtml {
  return detail(
    'Amount (exact)',
    html`<span class="mono">${formatAmount(view.amount, view.currency)}</span>`,
    copyButton(plainAmount(view.amount, view.currency), 'amount'),
  );
}

function qrFigure(qr: SafeHtml | null, label: string, caption: string): SafeHtml {
  if (!qr) return html``;
  return html`<figure class="qr">
      <div class="qr-code" role="img" aria-label="${label}">${qr}</div>
      <figcaption>${caption}</figcaption>
    </figure>`;
}

function payingChannels(channels: readonly PayingChannel[]): SafeHtml {
  return html`<div class="steps">
      ${channels.map(
        (channel, index) => html`<details${index === 0 ? html` open` : ''}>
          <summary>${channel.title}</summary>
          <ol>${channel.steps.map((step) => html`<li>${step}</li>`)}</ol>
        </details>`,
      )}
    </div>`;
}

/** A provider's own page (an https link only): where a QR image or a wallet checkout lives. */
const providerPage = (url: string | undefined): string | null => (url?.startsWith('https://') ? url : null);

function upi({ view, instructions, qr }: InstructionsInput): SafeHtml {
  const intent = instructions.intentUrl?.startsWith('upi://') ? instructions.intentUrl : null;
  // Some providers answer only a hosted picture of the QR, not its UPI string: link to it rather than
  // encode a web address into a QR that no UPI app could pay.
  const hostedQr = providerPage(instructions.qrPayload);
  return html`<div class="method method-upi">
      <h2>Pay with UPI</h2>
      ${intent ? html`<a class="button primary upi-intent" href="${intent}">Open UPI app</a>` : ''}
      ${hostedQr
        ? html`<a class="button upi-hosted-qr" href="${hostedQr}" rel="noopener noreferrer" target="_blank">Show the UPI QR code</a>
            <p class="hint">It opens the QR code on the payment provider’s page: scan it with any UPI app on another phone.</p>`
        : qrFigure(qr, 'UPI QR code for this payment', 'Scan with any UPI app: Google Pay, PhonePe, Paytm, BHIM or your bank’s app.')}
      <p class="hint">Check that your app shows ${formatAmount(view.amount, view.currency)} before you enter your UPI PIN.</p>
    </div>`;
}

function virtualAccount({ view, instructions }: InstructionsInput): SafeHtml {
  const account = instructions.accountNumber ?? '';
  const steps = VA_STEPS[view.method];
  const lead =
    view.currency === 'NGN'
      ? 'Transfer exactly the amount below to this account from your bank app, internet banking or USSD. The account is for this payment only.'
      : 'Pay the virtual account number below at an ATM, in mobile banking or in internet banking. The number is for this payment only.';
  return html`<div class="method method-va">
      <h2>${view.currency === 'NGN' ? 'Pay by bank transfer' : html`Pay to a ${view.method} virtual account`}</h2>
      <p class="lead">${lead}</p>
      <dl class="details">
        ${detail('Bank', instructions.bankName ?? view.method)}
        ${detail('Account number', html`<span class="mono big">${groupDigits(account)}</span>`, copyButton(account, 'account number'))}
        ${instructions.accountName ? detail('Account name', instructions.accountName) : ''}
        ${exactAmount(view)}
      </dl>
      <p class="warning">Send the exact amount in one payment. A different amount may be delayed or returned.</p>
      ${steps ? html`<h3>How to pay</h3>${payingChannels(steps)}` : ''}
    </div>`;
}

function qris({ qr }: InstructionsInput): SafeHtml {
  return html`<div class="method method-qris">
      <h2>Pay with QRIS</h2>
      ${qrFigure(qr, 'QRIS code for this payment', 'Scan with any QRIS app: GoPay, OVO, DANA, ShopeePay, LinkAja or your mobile banking app.')}
    </div>`;
}

function walletPrompt({ view, instructions }: InstructionsInput): SafeHtml {
  const phone = instructions.walletPhone ? maskPhone(instructions.walletPhone) : null;
  // Wallets that confirm on their own page (DANA) give a checkout link; the others send a prompt.
  const walletPage = providerPage(instructions.intentUrl);
  return html`<div class="method method-wallet">
      <h2>Confirm in your ${view.method} app</h2>
      <p class="lead">Open your ${view.method} app and confirm the payment of ${formatAmount(view.amount, view.currency)}.</p>
      ${walletPage ? html`<a class="button primary wallet-checkout" href="${walletPage}" rel="noopener noreferrer">Continue in ${view.method}</a>` : ''}
      ${phone ? html`<p>We sent the payment prompt to <span class="mono">${phone}</span>.</p>` : ''}
      <p class="hint">Keep this page open: it updates by itself once you confirm.</p>
    </div>`;
}

function mobileWallet({ view, instructions }: InstructionsInput): SafeHtml {
  const phone = instructions.walletPhone ? maskPhone(instructions.walletPhone) : null;
  return html`<div class="method method-wallet">
      <h2>Confirm on your phone</h2>
      <p class="lead">A payment request for ${formatAmount(view.amount, view.currency)} was sent to your mobile wallet${phone ? html` <span class="mono">${phone}</span>` : ''}.</p>
      <p>Approve it in your wallet app (Vodafone Cash, Orange Cash, Etisalat Cash, WE Pay) or in the prompt on your phone, and enter your wallet PIN.</p>
      <p class="hint">Keep this page open: it updates by itself once you confirm.</p>
    </div>`;
}

function fawry({ view, instructions }: InstructionsInput): SafeHtml {
  const code = instructions.referenceCode ?? '';
  return html`<div class="method method-fawry">
      <h2>Pay with Fawry</h2>
      <p class="lead">Pay with this reference number at any Fawry outlet or in the myFawry app.</p>
      <dl class="details">
        ${detail('Fawry reference number', html`<span class="mono big">${code}</span>`, copyButton(code, 'reference number'))}
        ${exactAmount(view)}
      </dl>
      <h3>How to pay</h3>
      ${payingChannels(FAWRY_STEPS)}
    </div>`;
}

const TEMPLATES: Readonly<Record<CollectionInstructions['kind'], (input: InstructionsInput) => SafeHtml>> = {
  UPI: upi,
  VIRTUAL_ACCOUNT: virtualAccount,
  QRIS: qris,
  EWALLET: walletPrompt,
  MOBILE_WALLET: mobileWallet,
  FAWRY: fawry,
};

export function renderInstructions(input: InstructionsInput): SafeHtml {
  const template = TEMPLATES[input.instructions.kind];
  if (!template) throw new Error(`no checkout template for instructions of kind ${String(input.instructions.kind)}`);
  return template(input);
}

export const needsQr = (instructions: CollectionInstructions): boolean =>
  (instructions.kind === 'UPI' || instructions.kind === 'QRIS') && Boolean(instructions.qrPayload) && !instructions.qrPayload!.startsWith('https://');
