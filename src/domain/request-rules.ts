// The rules pay-in and payout requests share, in the one place both read them: the formats of
// references, names, phones and e-mails, the currency, the amount, URLs, and the webhook URL.
// The route schemas quote the same patterns, so schema and rule cannot disagree.
import crypto from 'node:crypto';
import { AppError, validationError } from '../core/errors.js';
import { formatMinor, isCurrency, toMinor, type Currency, type Minor } from '../core/money.js';
import type { AmountBounds } from './methods.js';

export const MERCHANT_REF_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
export const PHONE_PATTERN = '^[0-9]{6,15}$';
/**
 * Deliberately plain: one @, no spaces, dot-separated domain labels. Mailbox providers decide the
 * rest. Written without overlapping repeats, so matching is linear in the length of the input.
 */
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@.]+(?:\\.[^\\s@.]+)+$';
/** At least one visible character. */
export const NAME_PATTERN = '\\S';
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const URL_MAX_LENGTH = 2048;

export type MerchantMode = 'sandbox' | 'live';

/** Hosts a sandbox merchant may use over plain http (a developer's own machine). */
const SANDBOX_HTTP_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function requireCurrency(value: string): Currency {
  if (!isCurrency(value)) throw new AppError('UNSUPPORTED_CURRENCY', `Currency ${value} is not offered; use INR, EGP, NGN or IDR.`);
  return value;
}

/** Major units with at most two decimals, strictly positive, within the merchant's bounds. */
export function checkAmount(amount: number, bounds: AmountBounds): Minor {
  const amountMinor = toMinor(amount);
  if (amountMinor === null) throw validationError('amount', 'must be a positive number with at most 2 decimals');
  if (amountMinor <= 0n) throw validationError('amount', 'must be greater than 0');
  if (amountMinor < bounds.minMinor || amountMinor > bounds.maxMinor) {
    throw validationError('amount', `must be between ${formatMinor(bounds.minMinor)} and ${formatMinor(bounds.maxMinor)}`);
  }
  return amountMinor;
}

/**
 * An absolute https URL. Plain http is accepted only from sandbox merchants and only for
 * localhost, 127.0.0.1 or [::1], so a developer can point the redirect at their own machine.
 */
export function checkUrl(field: string, value: string, mode: MerchantMode): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw validationError(field, 'must be an absolute URL');
  }
  if (url.username !== '' || url.password !== '') throw validationError(field, 'must not carry credentials');
  if (url.hostname === '') throw validationError(field, 'must name a host');
  if (url.protocol === 'https:') return value;
  if (url.protocol === 'http:' && mode === 'sandbox' && SANDBOX_HTTP_HOSTS.has(url.hostname)) return value;
  throw validationError(field, mode === 'sandbox' ? 'must use https (http only for localhost in sandbox)' : 'must use https');
}

/** The webhook module's verdict on a webhook URL (scheme, credentials, private addresses), or null when fine. */
export type WebhookUrlCheck = (raw: string) => string | null;

/**
 * A request's own webhook URL follows the webhook module's rules when it is wired in (the operator
 * decides about http and private hosts), so a URL accepted here is one the dispatcher delivers to;
 * without it, an https URL as checkUrl wants it.
 */
export function checkWebhookUrl(value: string | undefined, mode: MerchantMode, check: WebhookUrlCheck | undefined): string | null {
  if (value === undefined) return null;
  if (!check) return checkUrl('webhookUrl', value, mode);
  const problem = check(value);
  if (problem !== null) throw validationError('webhookUrl', problem);
  return value;
}

/** A status query: the service's reference or the merchant's, exactly one. */
export type RecordQuery = { readonly transactionRef?: string; readonly merchantRef?: string };

/** Exactly one of the two references, else VALIDATION_FAILED. */
export function oneReference(query: RecordQuery): { transactionRef: string } | { merchantRef: string } {
  const { transactionRef, merchantRef } = query;
  if ((transactionRef === undefined) === (merchantRef === undefined)) {
    throw new AppError('VALIDATION_FAILED', 'Send exactly one of transactionRef and merchantRef.', [
      { field: transactionRef === undefined ? 'transactionRef' : 'merchantRef', problem: 'exactly one of transactionRef and merchantRef is required' },
    ]);
  }
  return transactionRef !== undefined ? { transactionRef } : { merchantRef: merchantRef! };
}

/**
 * sha256 hex of a request in canonical form: the caller lists the fields in a fixed order with the
 * amount in minor units, so `100` and `100.00`, or reordered keys, are the same body.
 */
export function canonicalRequestHash(fields: readonly (string | null)[]): string {
  return crypto.createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}
