// Bank reference lists for payouts: what POST /v1/api/payout/bankCode returns, and what a payout's
// bankCode is checked against. See docs/bank-codes.md for each currency's code rule.
import { EGP_BANKS } from './egp.js';
import { IDR_BANKS } from './idr.js';
import { INR_BANKS } from './inr.js';
import { NGN_BANKS } from './ngn.js';
import type { BankEntry } from './types.js';

export type { BankEntry, BankKind } from './types.js';
export { EGP_BANKS, IDR_BANKS, INR_BANKS, NGN_BANKS };

/** The payout currencies that have a bank list (the same four as Currency in ../money.ts). */
export type BankCurrency = 'INR' | 'EGP' | 'NGN' | 'IDR';

/** What the bankCode endpoint sends per entry; `kind` stays inside the service. */
export interface PublicBankEntry {
  readonly bankCode: string;
  readonly bankName: string;
}

const LISTS: Readonly<Record<BankCurrency, readonly BankEntry[]>> = {
  INR: INR_BANKS,
  EGP: EGP_BANKS,
  NGN: NGN_BANKS,
  IDR: IDR_BANKS,
};

// Built on first use, then kept: one Set of codes and one API-shaped copy per currency.
const codeSets = new Map<BankCurrency, ReadonlySet<string>>();
const publicLists = new Map<BankCurrency, readonly PublicBankEntry[]>();

function codesOf(currency: BankCurrency): ReadonlySet<string> {
  let codes = codeSets.get(currency);
  if (codes === undefined) {
    codes = new Set(LISTS[currency].map((entry) => entry.bankCode));
    codeSets.set(currency, codes);
  }
  return codes;
}

/** The full reference list for a currency, sorted by bankName. */
export function banksFor(currency: BankCurrency): readonly BankEntry[] {
  return LISTS[currency];
}

/** The list as the bankCode endpoint returns it: `{ bankCode, bankName }` only, frozen. */
export function publicBanksFor(currency: BankCurrency): readonly PublicBankEntry[] {
  let list = publicLists.get(currency);
  if (list === undefined) {
    list = Object.freeze(
      LISTS[currency].map(({ bankCode, bankName }) => Object.freeze({ bankCode, bankName })),
    );
    publicLists.set(currency, list);
  }
  return list;
}

/**
 * Whether `code` is exactly one of the currency's listed codes (exact, case-sensitive match).
 * For INR the list holds 4-letter IFSC prefixes, so a payout's full IFSC is checked with
 * isValidIfsc / ifscBankKnown instead.
 */
export function isKnownBankCode(currency: BankCurrency, code: string): boolean {
  return codesOf(currency).has(code);
}

/** RBI IFSC shape: 4-letter bank prefix, a literal 0, then 6 letters or digits (branch). */
export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;

/** Whether `code` has the shape of an IFSC (uppercase only; no trimming or case folding). */
export function isValidIfsc(code: string): boolean {
  return IFSC_PATTERN.test(code);
}

/** Whether `code` is a well-formed IFSC whose 4-letter prefix is a bank in the INR list. */
export function ifscBankKnown(code: string): boolean {
  return isValidIfsc(code) && codesOf('INR').has(code.slice(0, 4));
}
