// Step 1 of a payout's life: what a payout request must satisfy beyond its schema (contract
// section 2) and the rules every request shares (request-rules.ts): the method from the payout
// catalog, bankCode and account per currency and method. The route schema quotes these patterns.
import { ifscBankKnown, isKnownBankCode, isValidIfsc } from '../banks/index.js';
import { AppError, validationError } from '../../core/errors.js';
import { requireMethod, type AmountBounds, type MethodSpec } from '../methods.js';
import type { Currency, Minor } from '../../core/money.js';
import { canonicalRequestHash, checkAmount, checkWebhookUrl, type MerchantMode, type WebhookUrlCheck } from '../request-rules.js';

/** A UPI virtual payment address: handle@provider. */
export const VPA_PATTERN = /^[a-zA-Z0-9._-]{2,256}@[a-zA-Z]{2,64}$/;
/** An Egyptian mobile number as the wallets take it: 11 digits, 010/011/012/015. */
export const EGP_WALLET_PATTERN = /^01[0125]\d{8}$/;
/** Bank account numbers: digits only (INR 9 to 18, IDR 5 to 20, EGP 8 to 29), NGN NUBAN 10 digits. */
const ACCOUNT_RULES: Readonly<Record<string, { readonly pattern: RegExp; readonly problem: string }>> = {
  'INR:BANK': { pattern: /^\d{9,18}$/, problem: 'must be the bank account number, 9 to 18 digits' },
  'INR:UPI': { pattern: VPA_PATTERN, problem: 'must be a UPI VPA such as name@bank' },
  'NGN:BANK': { pattern: /^\d{10}$/, problem: 'must be a 10-digit NUBAN account number' },
  'IDR:TRANSFER': { pattern: /^\d{5,20}$/, problem: 'must be the account or e-wallet number, 5 to 20 digits' },
  'EGP:BANK': { pattern: /^\d{8,29}$/, problem: 'must be the bank account number, 8 to 29 digits' },
  'EGP:WALLET': { pattern: EGP_WALLET_PATTERN, problem: 'must be an 11-digit Egyptian mobile number (010, 011, 012 or 015)' },
};
/** Methods whose beneficiary is identified by `account` alone: bankCode must be omitted. */
const NO_BANK_CODE = new Set(['INR:UPI', 'EGP:WALLET']);
export const ACCOUNT_MAX_LENGTH = 320;
export const BANK_CODE_MAX_LENGTH = 16;

/** A payout request as the schema let it through. */
export interface PayoutInitiateRequest {
  readonly merchantRef: string;
  readonly currency: string;
  readonly method: string;
  readonly amount: number;
  readonly bankCode?: string;
  readonly name: string;
  readonly account: string;
  readonly phone: string;
  readonly email: string;
  readonly webhookUrl?: string;
  /** Resolve the account's holder first and refuse ACCOUNT_NAME_MISMATCH when it is not `name`. */
  readonly nameCheck?: boolean;
}

/** A payout request that passed every rule, in the service's own units. */
export interface PayoutDraft {
  readonly merchantRef: string;
  readonly currency: Currency;
  readonly method: MethodSpec;
  readonly amountMinor: Minor;
  readonly bankCode: string | null;
  readonly name: string;
  readonly account: string;
  readonly phone: string;
  readonly email: string;
  readonly webhookUrl: string | null;
  readonly nameCheck: boolean;
}

/**
 * NGN payouts are BANK (NIP) in the catalog; the original interface's samples call them TRANSFER,
 * so TRANSFER is accepted as the same method for NGN.
 */
export function requirePayoutMethod(currency: Currency, method: string): MethodSpec {
  if (currency === 'NGN' && method === 'TRANSFER') return requireMethod(currency, 'payout', 'BANK');
  return requireMethod(currency, 'payout', method);
}

/** The method name a payout's answers and webhooks show: NGN BANK answers TRANSFER as the interface sample does. */
export const displayMethod = (currency: string, method: string): string => (currency === 'NGN' && method === 'BANK' ? 'TRANSFER' : method);

/** bankCode as the currency and method want it (an IFSC, a listed code, or none); null when it must be omitted. */
export function checkBankCode(currency: Currency, method: string, bankCode: string | undefined, upstreamCodes: ReadonlySet<string> | null): string | null {
  const key = `${currency}:${method}`;
  if (NO_BANK_CODE.has(key)) {
    if (bankCode !== undefined) throw validationError('bankCode', `must be omitted for ${currency} ${method} payouts (the account identifies the beneficiary)`);
    return null;
  }
  if (bankCode === undefined || bankCode === '') throw validationError('bankCode', 'is required');
  if (currency === 'INR') {
    if (!isValidIfsc(bankCode)) {
      throw new AppError('INVALID_BANK_CODE', `bankCode ${bankCode} is not an IFSC (4 letters, 0, 6 letters or digits).`, [
        { field: 'bankCode', problem: 'must be the 11-character IFSC of the beneficiary branch' },
      ]);
    }
    if (!ifscBankKnown(bankCode)) {
      throw new AppError('INVALID_BANK_CODE', `The bank of IFSC ${bankCode} is not in the INR bank code list.`, [
        { field: 'bankCode', problem: 'IFSC bank prefix is not in the list of payout/bankCode' },
      ]);
    }
    return bankCode;
  }
  if (!isKnownBankCode(currency, bankCode) && !upstreamCodes?.has(bankCode)) {
    throw new AppError('INVALID_BANK_CODE', `bankCode ${bankCode} is not in the ${currency} bank code list.`, [
      { field: 'bankCode', problem: 'must be a code from payout/bankCode for this currency' },
    ]);
  }
  return bankCode;
}

/** The account in the shape the currency and method want (digits, NUBAN, VPA, mobile number). */
export function checkAccount(currency: Currency, method: string, account: string): string {
  const rule = ACCOUNT_RULES[`${currency}:${method}`];
  if (rule && !rule.pattern.test(account)) throw validationError('account', rule.problem);
  return account;
}

/** Applies every rule after currency and method are known; `bounds` are the merchant's for that method. */
export function buildPayoutDraft(
  request: PayoutInitiateRequest,
  currency: Currency,
  method: MethodSpec,
  bounds: AmountBounds,
  mode: MerchantMode,
  webhookUrlCheck?: WebhookUrlCheck,
  /** Live: the codes the routed connector lists (payout/bankCode answers them), accepted beside the service's own. */
  upstreamCodes: ReadonlySet<string> | null = null,
): PayoutDraft {
  const amountMinor = checkAmount(request.amount, bounds);
  const bankCode = checkBankCode(currency, method.method, request.bankCode, upstreamCodes);
  const webhookUrl = checkWebhookUrl(request.webhookUrl, mode, webhookUrlCheck);
  return {
    merchantRef: request.merchantRef,
    currency,
    method,
    amountMinor,
    bankCode,
    name: request.name,
    account: checkAccount(currency, method.method, request.account),
    phone: request.phone,
    email: request.email,
    webhookUrl,
    nameCheck: request.nameCheck === true,
  };
}

/**
 * The request's identity for idempotency (amount in minor units, NGN TRANSFER = BANK). A name check
 * is part of it (so the same merchantRef with and without one is another body); `nameCheck: false`
 * is the same request as no nameCheck, and hashes as every payout did before name checks existed.
 */
export function payoutRequestHash(draft: PayoutDraft): string {
  const fields = [
    'payout',
    draft.merchantRef,
    draft.currency,
    draft.method.method,
    draft.amountMinor.toString(),
    draft.bankCode,
    draft.name,
    draft.account,
    draft.phone,
    draft.email,
    draft.webhookUrl,
  ];
  return canonicalRequestHash(draft.nameCheck ? [...fields, 'nameCheck'] : fields);
}

/** The last 4 characters of an account, for logs: full account numbers are never logged. */
export const maskAccount = (account: string): string => (account.length <= 4 ? '****' : `****${account.slice(-4)}`);
