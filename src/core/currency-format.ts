// How each currency is written for people: in its own locale's grouping and symbol. Shared by the
// checkout (amounts a payer must type) and the console (balances, fees, limits). Pure functions.
import { formatMinor, type Minor } from './money.js';

export interface CurrencyStyle {
  readonly locale: string;
  readonly display: 'narrowSymbol' | 'symbol' | 'code';
}

/**
 * ₹1,00,000.00 (Indian grouping), ₦100,000.00, Rp 100.000 and EGP 1,000.50: en-EG rather than ar-EG,
 * because the console and the checkout are written in English and ar-EG would switch to Arabic-Indic
 * digits in the middle of English text.
 */
export const CURRENCY_STYLES: Readonly<Record<string, CurrencyStyle>> = {
  INR: { locale: 'en-IN', display: 'narrowSymbol' },
  NGN: { locale: 'en-NG', display: 'narrowSymbol' },
  IDR: { locale: 'id-ID', display: 'symbol' },
  EGP: { locale: 'en-EG', display: 'code' },
};

const formatters = new Map<string, Intl.NumberFormat>();

function formatterOf(currency: string, fractionDigits: number): Intl.NumberFormat | null {
  const style = CURRENCY_STYLES[currency];
  if (!style) return null;
  const key = `${currency}:${fractionDigits}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(style.locale, {
      style: 'currency',
      currency,
      currencyDisplay: style.display,
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * Minor units in the currency's own formatting. The amount goes to Intl as its exact decimal string
 * (Intl formats strings as decimals, not doubles), so no float ever touches it, however large.
 * Rupiah drops ",00" when there is no fraction, as Indonesians write it.
 */
export function formatMoney(amountMinor: Minor, currency: string): string {
  const decimal = formatMinor(amountMinor);
  const fractionDigits = currency === 'IDR' && decimal.endsWith('.00') ? 0 : 2;
  const formatter = formatterOf(currency, fractionDigits);
  if (!formatter) return `${currency} ${decimal}`;
  // Intl accepts decimal strings at run time (exact); the lib typing only names numbers and bigints.
  return formatter.format(decimal as unknown as number).replace(/\u00a0/g, ' ');
}
