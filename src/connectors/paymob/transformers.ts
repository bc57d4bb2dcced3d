// Paymob Payouts (disbursement) wire format as this connector speaks it, and the pure mapping between
// it and our types: the issuer a payout goes through, Paymob's bank codes, amounts as EGP decimals,
// the UUID we give Paymob as `client_reference_id`, and every documented status and error code.
import { createHash } from 'node:crypto';
import type { Minor } from '../../core/money.js';
import { UpstreamRefusedError, type PayoutState, type PayoutSubmission, type UpstreamPayoutStatus } from '../channel.js';

// ---- Wire types (https://payouts.paymobsolutions.com/docs/) -------------------------------------

/** Answer of `POST {ENV}/o/token/` (generate and refresh). */
export interface TokenAnswer {
  readonly access_token: string;
  readonly refresh_token: string;
  /** Seconds; the documentation types it as a string and its sample sends a number. */
  readonly expires_in: number | string;
  readonly scope: string;
  readonly token_type: string;
}

/** The OAuth2 refusal of the token endpoint, e.g. `invalid_grant`. */
export interface TokenError {
  readonly error: string;
  readonly error_description?: string;
}

export type PaymobIssuer = 'vodafone' | 'etisalat' | 'orange' | 'bank_wallet' | 'bank_card';

/** Body of `POST {ENV}/disburse/` (instant cash-in); `amount` is written as a JSON number by serializeInstantCashin. */
export interface InstantCashinBody {
  readonly issuer: PaymobIssuer;
  /** EGP with at most two decimals, e.g. "53.99"; sent as a JSON number literal. */
  readonly amount: string;
  readonly msisdn?: string;
  readonly bank_card_number?: string;
  readonly bank_transaction_type?: 'cash_transfer';
  readonly bank_code?: string;
  readonly full_name?: string;
  readonly client_reference_id: string;
}

/** One disbursement as instant cash-in and the transaction inquiry answer it. */
export interface DisbursementAnswer {
  readonly transaction_id?: string;
  readonly issuer?: string;
  readonly msisdn?: string | null;
  readonly amount?: number | string;
  readonly disbursement_status?: string;
  readonly status_code?: string | number;
  readonly status_description?: unknown;
  readonly client_reference_id?: string | null;
  readonly created_at?: string;
  readonly updated_at?: string;
}

/** Answer of `GET {ENV}/transaction/inquire/` (paginated like every list of that API). */
export interface InquiryAnswer {
  readonly count: number;
  readonly next: string | null;
  readonly previous: string | null;
  readonly results: readonly DisbursementAnswer[];
}

/** Body of the transaction inquiry: ids to look up, and whether they are bank (card/account) transactions. */
export interface InquiryBody {
  readonly transactions_ids_list: readonly string[];
  readonly bank_transactions: boolean;
}

// ---- Statuses and codes -----------------------------------------------------------------------

/** Every documented `disbursement_status`, onto our payout states. */
export const DISBURSEMENT_STATUS: Readonly<Record<string, UpstreamPayoutStatus>> = {
  successful: 'SUCCESS',
  success: 'SUCCESS',
  pending: 'PROCESSING',
  failed: 'FAILED',
  // Aman cash pick-ups can be cancelled; we never send Aman, but a cancelled payout is final and unpaid.
  cancelled: 'FAILED',
};

/**
 * Documented `status_code` values that say why a disbursement failed, onto our failure reasons.
 * 618/4055: the msisdn holds no wallet of that issuer (not a wallet holder / invalid msisdn);
 * 000102/000105/000108: the bank refused the account or card; 6005: our Paymob budget is short;
 * 583/604/6061/6065: a transaction or daily limit; 403/1056/4056: our agent or PIN was refused.
 */
export const STATUS_CODE_REASON: Readonly<Record<string, string>> = {
  '618': 'INVALID_ACCOUNT',
  '4055': 'INVALID_ACCOUNT',
  '000102': 'INVALID_ACCOUNT',
  '000105': 'INVALID_ACCOUNT',
  '000108': 'INVALID_ACCOUNT',
  '6005': 'INSUFFICIENT_FUNDS_UPSTREAM',
  '583': 'AMOUNT_LIMIT_EXCEEDED',
  '604': 'AMOUNT_LIMIT_EXCEEDED',
  '6061': 'AMOUNT_LIMIT_EXCEEDED',
  '6065': 'AMOUNT_LIMIT_EXCEEDED',
  '403': 'UPSTREAM_REJECTED',
  '1056': 'UPSTREAM_REJECTED',
  '4056': 'UPSTREAM_REJECTED',
  '400': 'UPSTREAM_REJECTED',
  '501': 'UPSTREAM_REJECTED',
};

/** Codes the documentation gives bank transactions still on their way through the bank (status stays pending). */
export const BANK_PENDING_CODES: readonly string[] = ['8000', '8111', '8222', '8333'];

export const reasonForCode = (code: string | null): string => (code !== null && STATUS_CODE_REASON[code]) || 'UPSTREAM_REJECTED';

// ---- Destinations -----------------------------------------------------------------------------

/**
 * Egyptian mobile prefixes of the wallet issuers Paymob lists. 015 (WE) is a real prefix but Paymob's
 * issuer list has no WE wallet, so such a number is refused unless the payout names `bank_wallet`.
 */
export const PREFIX_ISSUER: Readonly<Record<string, PaymobIssuer>> = {
  '010': 'vodafone',
  '011': 'etisalat',
  '012': 'orange',
};

/** Wallet issuers a WALLET payout may name in `bankCode` (case-insensitive, as Paymob reads them). */
const WALLET_ISSUERS: readonly PaymobIssuer[] = ['vodafone', 'etisalat', 'orange', 'bank_wallet'];

/**
 * Our 4-digit EGP bank codes (src/domain/banks/egp.ts) onto the case-sensitive bank codes of Paymob's
 * instant cash-in bank list. A bank Paymob does not list (Citibank Egypt) has no entry and is refused.
 */
export const EGP_BANK_TO_PAYMOB: Readonly<Record<string, string>> = {
  '1001': 'NBE', // National Bank of Egypt
  '1002': 'MISR', // Banque Misr
  '1003': 'BDC', // Banque du Caire
  '1004': 'PDAC', // Agricultural Bank of Egypt
  '1005': 'IDB', // Industrial Development Bank
  '1006': 'EALB', // Egyptian Arab Land Bank
  '1007': 'EDBE', // Export Development Bank of Egypt
  '1008': 'UB', // The United Bank
  '1009': 'NSB', // Nasser Social Bank
  '1010': 'HDB', // Housing and Development Bank
  '1101': 'CIB', // Commercial International Bank
  '1102': 'SCB', // Suez Canal Bank
  '1103': 'FAIB', // Faisal Islamic Bank of Egypt
  '1104': 'EGB', // Egyptian Gulf Bank
  '1105': 'MIDB', // MIDBank
  '1106': 'AAIB', // Arab African International Bank
  '1107': 'AIB', // Arab Investment Bank
  '1108': 'ARIB', // Arab International Bank
  '1109': 'SAIB', // Société Arabe Internationale de Banque
  '1110': 'ABRK', // Al Baraka Bank Egypt
  '1201': 'QNB', // QNB Alahli
  '1202': 'BOA', // Bank of Alexandria
  '1203': 'HSBC', // HSBC Bank Egypt
  '1204': 'CAE', // Crédit Agricole Egypt
  '1205': 'ENBD', // Emirates NBD Egypt
  '1206': 'ADIB', // Abu Dhabi Islamic Bank Egypt
  '1207': 'ADCB', // Abu Dhabi Commercial Bank Egypt
  '1208': 'FAB', // First Abu Dhabi Bank Misr
  '1209': 'MASH', // Mashreq Bank Egypt
  '1210': 'ARAB', // Arab Bank Egypt
  '1211': 'BBE', // Attijariwafa Bank Egypt
  '1212': 'AUB', // Ahli United Bank Egypt
  '1213': 'ABK', // Al Ahli Bank of Kuwait Egypt
  '1214': 'NBK', // National Bank of Kuwait Egypt
  '1215': 'ABC', // Arab Banking Corporation Egypt
};

const MSISDN_PATTERN = /^01\d{9}$/;
const BANK_ACCOUNT_PATTERN = /^[A-Za-z0-9]{6,34}$/;

const refuse = (reason: string, message: string): UpstreamRefusedError => new UpstreamRefusedError(reason, `paymob: ${message}`);

/** The wallet issuer of a WALLET payout: the one named in bankCode, else the one its number's prefix belongs to. */
export function walletIssuer(account: string, bankCode: string | null): PaymobIssuer {
  if (!MSISDN_PATTERN.test(account)) throw refuse('INVALID_ACCOUNT', 'a wallet account is an 11-digit mobile number starting with 01');
  if (bankCode !== null && bankCode !== '') {
    const named = bankCode.toLowerCase() as PaymobIssuer;
    if (!WALLET_ISSUERS.includes(named)) throw refuse('UPSTREAM_REJECTED', `no Paymob wallet issuer is called ${bankCode}`);
    return named;
  }
  const issuer = PREFIX_ISSUER[account.slice(0, 3)];
  if (issuer === undefined) throw refuse('UPSTREAM_REJECTED', `Paymob lists no wallet issuer for numbers starting ${account.slice(0, 3)}`);
  return issuer;
}

/** Paymob's code for our EGP bank code; a refusal when Paymob's list has no such bank. */
export function paymobBankCode(bankCode: string | null): string {
  const code = bankCode === null ? undefined : EGP_BANK_TO_PAYMOB[bankCode];
  if (code === undefined) throw refuse('UPSTREAM_REJECTED', `bank ${bankCode ?? '(none)'} is not in Paymob's bank list`);
  return code;
}

// ---- Amounts and references -------------------------------------------------------------------

/** Minor units as an EGP decimal with two places ("1234.05"), by integer arithmetic only. */
export function toEgpDecimal(amountMinor: Minor): string {
  if (amountMinor <= 0n) throw refuse('UPSTREAM_REJECTED', 'the amount must be positive');
  const whole = amountMinor / 100n;
  const cents = (amountMinor % 100n).toString().padStart(2, '0');
  return `${whole}.${cents}`;
}

/**
 * The `client_reference_id` we give Paymob for our transactionRef. Paymob wants a UUID4, so ours is
 * derived: the first 16 bytes of SHA-256 over the reference, with the version (4) and variant bits
 * set. The same transactionRef always gives the same UUID, so the payout can be found by it later.
 */
export function clientReferenceId(transactionRef: string): string {
  const bytes = createHash('sha256').update(`paygate-payout:${transactionRef}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Our submission as an instant cash-in body; a refusal before anything is sent when it cannot be one. */
export function toInstantCashinBody(submission: PayoutSubmission): InstantCashinBody {
  if (submission.currency !== 'EGP') throw refuse('UPSTREAM_REJECTED', `serves EGP payouts only, not ${submission.currency}`);
  const amount = toEgpDecimal(submission.amountMinor);
  const client_reference_id = clientReferenceId(submission.transactionRef);
  if (submission.method === 'WALLET') {
    return { issuer: walletIssuer(submission.account, submission.bankCode), amount, msisdn: submission.account, client_reference_id };
  }
  if (submission.method === 'BANK') {
    const bank_code = paymobBankCode(submission.bankCode);
    if (!BANK_ACCOUNT_PATTERN.test(submission.account)) throw refuse('INVALID_ACCOUNT', 'a bank account is 6 to 34 letters or digits (account number or IBAN)');
    return {
      issuer: 'bank_card',
      amount,
      bank_card_number: submission.account,
      // Bank accounts and debit cards travel as cash transfers in Paymob's list of transaction types.
      bank_transaction_type: 'cash_transfer',
      bank_code,
      full_name: submission.name,
      client_reference_id,
    };
  }
  throw refuse('UPSTREAM_REJECTED', `serves WALLET and BANK payouts only, not ${submission.method}`);
}

/** The JSON text of the body, with `amount` written as the number literal Paymob expects (no float ever made). */
export function serializeInstantCashin(body: InstantCashinBody): string {
  const { amount, ...rest } = body;
  if (!/^\d+\.\d{2}$/.test(amount)) throw new RangeError('amount is not a two-decimal string');
  return `{"amount":${amount},${JSON.stringify(rest).slice(1)}`;
}

/** Is this body a bank (card/account) transaction? Paymob keeps those apart in its inquiry. */
export const isBankBody = (body: InstantCashinBody): boolean => body.issuer === 'bank_card';

const codeOf = (answer: DisbursementAnswer): string | null =>
  answer.status_code === undefined || answer.status_code === null ? null : String(answer.status_code);

/** A disbursement (cash-in or inquiry answer) as our payout state; an undocumented status stays PROCESSING. */
export function toPayoutState(answer: DisbursementAnswer): PayoutState {
  const status = DISBURSEMENT_STATUS[(answer.disbursement_status ?? '').toLowerCase()] ?? 'PROCESSING';
  return {
    status,
    ...(answer.transaction_id ? { upstreamRef: answer.transaction_id } : {}),
    ...(status === 'FAILED' ? { failureReason: reasonForCode(codeOf(answer)) } : {}),
  };
}

export { codeOf as statusCodeOf };

/** A readable account of Paymob's `status_description`, which is a string or a field-to-messages object. */
export function describeStatus(description: unknown): string {
  if (typeof description === 'string') return description;
  if (description === null || description === undefined) return '';
  try {
    return JSON.stringify(description);
  } catch {
    return String(description);
  }
}
