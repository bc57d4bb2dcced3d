// What a payment request must satisfy beyond its schema and the rules every request shares
// (request-rules.ts): the method from the pay-in catalog, the payer's phone for wallet methods and
// the redirect URL.
import { validationError } from '../../core/errors.js';
import { type AmountBounds, requireMethod, type MethodSpec } from '../methods.js';
import type { Currency, Minor } from '../../core/money.js';
import { canonicalRequestHash, checkAmount, checkUrl, checkWebhookUrl, type MerchantMode, type WebhookUrlCheck } from '../request-rules.js';

/**
 * Payer phone rules of the methods that reach the payer's phone (a wallet prompt; Fawry's reference
 * by SMS): the number must be one the method can reach. Given with or without the country code, digits only.
 */
const EGYPTIAN_MOBILE = { pattern: /^(?:0|20)1[0125][0-9]{8}$/, problem: 'must be an Egyptian mobile number (01xxxxxxxxx or 201xxxxxxxxx)' };
const WALLET_PHONE_RULES: Readonly<Record<string, { readonly pattern: RegExp; readonly problem: string }>> = {
  'EGP:WALLET': EGYPTIAN_MOBILE,
  'EGP:FAWRY': EGYPTIAN_MOBILE,
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

export function checkPayerPhone(currency: Currency, method: string, phone: string): string {
  const rule = WALLET_PHONE_RULES[`${currency}:${method}`];
  if (rule && !rule.pattern.test(phone)) throw validationError('phone', rule.problem);
  return phone;
}

/** The method entry for a currency that is already known to be offered. */
export function requirePayinMethod(currency: Currency, method: string): MethodSpec {
  return requireMethod(currency, 'payin', method);
}

/** Applies every rule after currency and method are known; `bounds` are the merchant's for that method. */
export function buildDraft(
  request: InitiateRequest,
  currency: Currency,
  method: MethodSpec,
  bounds: AmountBounds,
  mode: MerchantMode,
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
    webhookUrl: checkWebhookUrl(request.webhookUrl, mode, webhookUrlCheck),
  };
}

/** The request's identity for idempotency: a repeated merchantRef is "the same request" when this matches. */
export function requestHash(draft: PaymentDraft): string {
  return canonicalRequestHash([
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
}
