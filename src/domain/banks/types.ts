/** Where a bank-list entry belongs. Internal only: the bankCode API returns bankCode and bankName. */
export type BankKind = 'bank' | 'regional' | 'ewallet' | 'fintech' | 'mfb';

/** One payout destination in a currency's reference list. */
export interface BankEntry {
  readonly bankCode: string;
  readonly bankName: string;
  readonly kind?: BankKind;
}
