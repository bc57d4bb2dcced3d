// How the checkout page writes amounts, phone numbers and account numbers, and how it builds the
// merchant return URL. Pure functions: the page templates and the status endpoint share them.
import { CURRENCY_STYLES } from '../core/currency-format.js';

/**
 * The exact amount to pay. Rupiah is shown without decimals unless it has some: the payer must
 * transfer exactly this, so a fraction is never rounded away.
 */
export function formatAmount(amount: number, currency: string): string {
  const style = CURRENCY_STYLES[currency];
  if (!style) return `${currency} ${amount.toFixed(2)}`;
  const whole = Number.isInteger(amount);
  const fractionDigits = currency === 'IDR' && whole ? 0 : 2;
  return new Intl.NumberFormat(style.locale, {
    style: 'currency',
    currency,
    currencyDisplay: style.display,
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  })
    .format(amount)
    .replace(/\u00a0/g, ' ');
}

/** The amount as a bank form wants it typed: digits and a dot, no grouping ("1000.50", "150000"). */
export function plainAmount(amount: number, currency: string): string {
  return currency === 'IDR' && Number.isInteger(amount) ? String(amount) : amount.toFixed(2);
}

/** Shows only enough of a phone number for the payer to recognise it: "0812•••••789". */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, '');
  if (digits.length <= 6) return '•'.repeat(digits.length);
  const head = digits.startsWith('+') ? 4 : 3;
  return digits.slice(0, head) + '•'.repeat(digits.length - head - 3) + digits.slice(-3);
}

/** Numbers longer than this (Indonesian VAs have 16 digits) are grouped; a 10-digit NUBAN reads best whole. */
const GROUP_ABOVE_CHARS = 12;

/** Groups a long virtual account number in fours so it can be read aloud and typed without slips. */
export function groupDigits(accountNumber: string): string {
  const compact = accountNumber.replace(/\s+/g, '');
  return compact.length > GROUP_ABOVE_CHARS ? compact.replace(/(.{4})(?=.)/g, '$1 ') : compact;
}

/** The merchant's redirect URL, or null unless it is an absolute http(s) URL (never javascript:, data:, ...). */
export function safeRedirectUrl(redirectUrl: string): URL | null {
  let url: URL;
  try {
    url = new URL(redirectUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  return url;
}

/** Where the payer goes back to once the payment is final: redirectUrl plus transactionRef and status. */
export function returnUrl(redirectUrl: string, transactionRef: string, status: string): string | null {
  const url = safeRedirectUrl(redirectUrl);
  if (!url) return null;
  url.searchParams.set('transactionRef', transactionRef);
  url.searchParams.set('status', status);
  return url.toString();
}
