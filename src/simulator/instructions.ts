// What each simulated method asks the payer to do: UPI intents, Nigerian one-time virtual accounts,
// Indonesian bank VAs, QRIS, e-wallet prompts, Fawry codes; plus which methods the "bank" offers.
import { formatMinor, type Currency, type Minor } from '../core/money.js';
import type { InstructionsBody } from './protocol.js';
import { qrisPayload } from './qris.js';

/** Pay-in methods per currency (contract section 2). */
export const COLLECTION_METHODS: Readonly<Record<Currency, readonly string[]>> = {
  INR: ['NATIVE'],
  NGN: ['TRANSFER'],
  IDR: ['BNI', 'BRI', 'MANDIRI', 'PERMATA', 'QRIS', 'OVO', 'DANA'],
  EGP: ['FAWRY', 'WALLET'],
};

/** Payout methods per currency (contract section 2; NGN answers to BANK and TRANSFER). */
export const PAYOUT_METHODS: Readonly<Record<Currency, readonly string[]>> = {
  INR: ['BANK', 'UPI'],
  NGN: ['BANK', 'TRANSFER'],
  IDR: ['TRANSFER'],
  EGP: ['WALLET', 'BANK'],
};

/** The contract's "upstream refund? yes" rows; every other method is refused by the bank. */
const REFUNDABLE = new Set(['INR:NATIVE', 'IDR:QRIS', 'IDR:OVO', 'IDR:DANA', 'EGP:WALLET']);

export const supportsRefund = (currency: Currency, method: string): boolean => REFUNDABLE.has(`${currency}:${method}`);

/** Returns `n` random decimal digits. */
export type DigitSource = (n: number) => string;

export interface InstructionInput {
  readonly transactionRef: string;
  readonly upstreamRef: string;
  readonly merchantId: string;
  readonly currency: Currency;
  readonly method: string;
  readonly amountMinor: Minor;
  readonly payerName: string;
  readonly payerPhone: string;
}

const PAYEE_NAME = 'Paygate Sandbox';
const ACCOUNT_NAME_MAX = 40;

const accountName = (payerName: string): string => `Paygate - ${payerName}`.slice(0, ACCOUNT_NAME_MAX);

/** Lowercase letters, digits, dot, dash, underscore: what a VPA's handle may hold. */
const vpaHandle = (merchantId: string): string => `paygate.${merchantId.toLowerCase().replace(/[^a-z0-9._-]/g, '')}`;

const upiParam = (value: string): string => encodeURIComponent(value).replace(/%40/g, '@');

function upi(input: InstructionInput): InstructionsBody {
  const params = [
    ['pa', `${vpaHandle(input.merchantId)}@simbank`],
    ['pn', PAYEE_NAME],
    ['am', formatMinor(input.amountMinor)],
    ['cu', 'INR'],
    // UPI caps `tr` at 35 characters; the UUID without dashes is 32.
    ['tr', input.transactionRef.replace(/-/g, '')],
  ];
  const intent = `upi://pay?${params.map(([key, value]) => `${key}=${upiParam(value!)}`).join('&')}`;
  return { kind: 'UPI', qrPayload: intent, intentUrl: intent };
}

/** CBN NUBAN: 3-digit bank code + 9-digit serial, check digit with weights 3,7,3 repeated. */
export function nubanCheckDigit(bankCode: string, serial: string): string {
  const weights = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];
  const digits = `${bankCode}${serial}`;
  if (!/^\d{12}$/.test(digits)) throw new RangeError('NUBAN needs a 3-digit bank code and a 9-digit serial');
  const sum = [...digits].reduce((total, digit, index) => total + Number(digit) * weights[index]!, 0);
  return String((10 - (sum % 10)) % 10);
}

const NGN_VA_BANKS = [
  { code: '035', name: 'Wema Bank' },
  { code: '101', name: 'Providus Bank' },
] as const;

function ngnVirtualAccount(input: InstructionInput, digits: DigitSource): InstructionsBody {
  const bank = NGN_VA_BANKS[Number(digits(1)) % NGN_VA_BANKS.length]!;
  const serial = digits(9);
  return {
    kind: 'VIRTUAL_ACCOUNT',
    accountNumber: serial + nubanCheckDigit(bank.code, serial),
    bankName: bank.name,
    accountName: accountName(input.payerName),
  };
}

/** Each bank's VA prefix (its company or institution code); every VA is 16 digits. */
const IDR_VA_BANKS: Readonly<Record<string, { readonly prefix: string; readonly name: string }>> = {
  BNI: { prefix: '8808', name: 'Bank Negara Indonesia (BNI)' },
  BRI: { prefix: '26215', name: 'Bank Rakyat Indonesia (BRI)' },
  MANDIRI: { prefix: '89608', name: 'Bank Mandiri' },
  PERMATA: { prefix: '8528', name: 'Bank Permata' },
};
const IDR_VA_LENGTH = 16;

function idrVirtualAccount(input: InstructionInput, digits: DigitSource): InstructionsBody {
  const bank = IDR_VA_BANKS[input.method]!;
  return {
    kind: 'VIRTUAL_ACCOUNT',
    accountNumber: bank.prefix + digits(IDR_VA_LENGTH - bank.prefix.length),
    bankName: bank.name,
    accountName: accountName(input.payerName),
  };
}

/** Rupiah as EMV tag 54 wants it: whole rupiah without decimals, else two decimals. */
const qrisAmount = (amountMinor: Minor): string => {
  const text = formatMinor(amountMinor);
  return text.endsWith('.00') ? text.slice(0, -3) : text;
};

function qris(input: InstructionInput, digits: DigitSource): InstructionsBody {
  const payload = qrisPayload({
    nmid: `ID10${digits(11)}`,
    merchantPan: `93600999${digits(11)}`,
    merchantId: input.merchantId.replace(/[^A-Za-z0-9]/g, '').slice(0, 15) || 'PAYGATE',
    merchantName: PAYEE_NAME.toUpperCase(),
    merchantCity: 'JAKARTA',
    postalCode: '10110',
    amount: qrisAmount(input.amountMinor),
    referenceLabel: input.upstreamRef,
  });
  return { kind: 'QRIS', qrPayload: payload };
}

/** The payer's instructions for a collection; `digits` supplies the random part of codes. */
export function buildInstructions(input: InstructionInput, digits: DigitSource): InstructionsBody {
  switch (`${input.currency}:${input.method}`) {
    case 'INR:NATIVE':
      return upi(input);
    case 'NGN:TRANSFER':
      return ngnVirtualAccount(input, digits);
    case 'IDR:BNI':
    case 'IDR:BRI':
    case 'IDR:MANDIRI':
    case 'IDR:PERMATA':
      return idrVirtualAccount(input, digits);
    case 'IDR:QRIS':
      return qris(input, digits);
    case 'IDR:OVO':
    case 'IDR:DANA':
      return { kind: 'EWALLET', walletPhone: input.payerPhone };
    case 'EGP:FAWRY':
      return { kind: 'FAWRY', referenceCode: String(1 + Number(digits(1)) % 9) + digits(8) };
    case 'EGP:WALLET':
      return { kind: 'MOBILE_WALLET', walletPhone: input.payerPhone };
    default:
      throw new RangeError(`no collection method ${input.method} for ${input.currency}`);
  }
}

/** The number a payer pays to, which must be unique among the bank's collections; null when none. */
export const payCodeOf = (instructions: InstructionsBody): string | null =>
  instructions.accountNumber ?? instructions.referenceCode ?? null;
