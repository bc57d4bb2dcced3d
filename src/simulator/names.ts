// The simulated bank's name enquiry: every account has a holder whose name is derived from the
// account itself (the same account always answers the same name, in the currency's naming style),
// except the magic ending 0001, which no account has (INVALID_ACCOUNT, as its payouts fail).
import { createHash } from 'node:crypto';
import { isCurrency, type Currency } from '../core/money.js';
import { PAYOUT_METHODS } from './instructions.js';
import type { ResolveAccountBody, ResolvedAccountBody } from './protocol.js';
import { BankRefusal } from './refs.js';

const GIVEN: Readonly<Record<Currency, readonly string[]>> = {
  INR: ['Asha', 'Arjun', 'Priya', 'Rahul', 'Kavya', 'Vikram', 'Meera', 'Rohan'],
  NGN: ['Adaeze', 'Chinedu', 'Funmilayo', 'Emeka', 'Ngozi', 'Tunde', 'Amaka', 'Yusuf'],
  IDR: ['Budi', 'Siti', 'Agus', 'Dewi', 'Rizky', 'Putri', 'Eko', 'Wulan'],
  EGP: ['Ahmed', 'Mona', 'Omar', 'Nour', 'Karim', 'Salma', 'Youssef', 'Hana'],
};

const FAMILY: Readonly<Record<Currency, readonly string[]>> = {
  INR: ['Rao', 'Sharma', 'Iyer', 'Verma', 'Nair', 'Gupta', 'Reddy', 'Das'],
  NGN: ['Okafor', 'Adeyemi', 'Bello', 'Eze', 'Okonkwo', 'Balogun', 'Nwosu', 'Ibrahim'],
  IDR: ['Santoso', 'Wijaya', 'Saputra', 'Lestari', 'Hidayat', 'Kusuma', 'Pratama', 'Sari'],
  EGP: ['Hassan', 'Mahmoud', 'Ibrahim', 'Fathy', 'Mostafa', 'Saleh', 'Ali', 'Nabil'],
};

/** The digits a magic ending is read from: a VPA's part before "@", else the account itself. */
const accountTail = (account: string): string => account.split('@')[0]!.slice(-4);

/**
 * The holder of `account` at the simulated bank: a given and a family name picked by a hash of the
 * currency, bank code and account, in upper case as banks answer names.
 */
export function simulatedAccountName(currency: Currency, bankCode: string | null, account: string): string {
  const digest = createHash('sha256').update(`${currency}|${bankCode ?? ''}|${account}`).digest();
  const given = GIVEN[currency][digest[0]! % GIVEN[currency].length]!;
  const family = FAMILY[currency][digest[1]! % FAMILY[currency].length]!;
  return `${given} ${family}`.toUpperCase();
}

/** Answers a name enquiry, or refuses an account ending 0001 (422 INVALID_ACCOUNT). */
export function resolveAccount(request: ResolveAccountBody): ResolvedAccountBody {
  const currency = request.currency;
  if (!isCurrency(currency)) throw new BankRefusal(400, 'UNSUPPORTED_CURRENCY', `No accounts in ${currency}.`);
  if (!PAYOUT_METHODS[currency].includes(request.method)) throw new BankRefusal(400, 'UNSUPPORTED_METHOD', `No ${request.method} accounts in ${currency}.`);
  if (accountTail(request.account) === '0001') throw new BankRefusal(422, 'INVALID_ACCOUNT', 'No account with this number at the bank.');
  return { accountName: simulatedAccountName(currency, request.bankCode, request.account), bankCode: request.bankCode, account: request.account };
}
