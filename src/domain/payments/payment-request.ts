// What a payment request must satisfy beyond its schema: currency and method from the catalog, the
// amount (two decimals, the merchant's bounds), method-specific payer details and the URLs. The
// field patterns live here too, so the route schema and these rules quote one source.
import crypto from 'node:crypto';
import { AppError, validationError } from '../../core/errors.js';
import { type AmountBounds, requireMethod, type MethodSpec } from '../methods.js';
import { formatMinor, isCurrency, toMinor, type Currency, type Minor } from '../../core/money.js';

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

/** Hosts a sandbox merchant may use over plain http (a developer's own machine). */
const SANDBOX_HTTP_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Payer phone rules of the methods that push a prompt to the payer's phone: the number must be one
 * the wallet can reach. Given with or without the country code, digits only.
 */
const WALLET_PHONE_RULES: Readonly<Record<string, { readonly pattern: RegExp; readonly problem: string }>> = {
  'EGP:WALLET': { pattern: /^(?:0|20)1[0125][0-9]{8}$/, problem: 'must be an Egyptian mobile number (01xxxxxxxxx or 201xxxxxxxxx)' },
  'IDR:OVO': { pattern: /^(?:0|62)8[0-9]{7,11}$/, problem: 'must be an Indonesian mobile number (08... or 628...)' },
  'IDR:DANA': { pattern: /^(?:0|62)8[0-9]{7,11}$/, problem: 'must be an Indonesian mobile number (08... or 628...)' },
};

/** A create request as the schema let it through. */
export interface InitiateRequest {
  readonly merchantRef: string;
  readonly method: string;
  readonly currency: string;
  readonly amount: number;
  readonly name: string;
  readonly email: string;
  readonly phone: string;
  readonly redirectUrl: string;
  readonly webhookUrl?: string;
}

/** A create request that passed every rule, in the service's own units. */
export interface PaymentDraft {
  readonly merchantRef: string;
  readonly currency: Currency;
  readonly method: MethodSpec;
  readonly amountMinor: Minor;
  readonly payerName: string;
  readonly payerEmail: string;
  readonly payerPhone: string;
  readonly redirectUrl: string;
  readonly webhookUrl: string | null;
}

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
export function checkUrl(field: string, value: string, mode: 'sandbox' | 'live'): string {
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

export function checkPayerPhone(currency: Currency, method: string, phone: string): string {
  const rule = WALLET_PHONE_RULES[`${currency}:${method}`];
  if (rule && !rule.pattern.test(phone)) throw validationError('phone', rule.problem);
  return phone;
}

/** The method entry for a currency that is already known to be offered. */
export function requirePayinMethod(currency: Currency, method: string): MethodSpec {
  return requireMethod(currency, 'payin', method);
}

/** The webhook module's verdict on a webhook URL (scheme, credentials, private addresses), or null when fine. */
export type WebhookUrlCheck = (raw: string) => string | null;

/**
 * Webhook URLs follow the webhook module's rules when it is wired in (the operator decides about
 * http and private hosts), so a URL accepted here is one the dispatcher will deliver to.
 */
function checkWebhookUrl(value: string, mode: 'sandbox' | 'live', check: WebhookUrlCheck | undefined): string {
  if (!check) return checkUrl('webhookUrl', value, mode);
  const problem = check(value);
  if (problem !== null) throw validationError('webhookUrl', problem);
  return value;
}

/** Applies every rule after currency and method are known; `bounds` are the merchant's for that method. */
export function buildDraft(
  request: InitiateRequest,
  currency: Currency,
  method: MethodSpec,
  bounds: AmountBounds,
  mode: 'sandbox' | 'live',
  webhookUrlCheck?: WebhookUrlCheck,
): PaymentDraft {
  const amountMinor = checkAmount(request.amount, bounds);
  return {
    merchantRef: request.merchantRef,
    currency,
    method,
    amountMinor,
    payerName: request.name,
    payerEmail: request.email,
    payerPhone: checkPayerPhone(currency, method.method, request.phone),
    redirectUrl: checkUrl('redirectUrl', request.redirectUrl, mode),
    webhookUrl: request.webhookUrl === undefined ? null : checkWebhookUrl(request.webhookUrl, mode, webhookUrlCheck),
  };
}

/**
 * sha256 of the request in canonical form: field order fixed and the amount in minor units, so
 * `100` and `100.00`, or reordered keys, are the same body.
 */
export function requestHash(draft: PaymentDraft): string {
  const canonical = JSON.stringify([
    draft.merchantRef,
    draft.currency,
    draft.method.method,
    draft.amountMinor.toString(),
    draft.payerName,
    draft.payerEmail,
    draft.payerPhone,
    draft.redirectUrl,
    draft.webhookUrl,
  ]);
  return crypto.createHash('sha256').update(canonical).digest('hex');
}
