import { describe, it, expect } from 'vitest';
import {
  banksFor,
  ifscBankKnown,
  isKnownBankCode,
  isValidIfsc,
  publicBanksFor,
  type BankCurrency,
  type BankEntry,
} from '../../src/domain/banks/index.js';

const CURRENCIES: readonly BankCurrency[] = ['INR', 'EGP', 'NGN', 'IDR'];

const CODE_FORMAT: Record<BankCurrency, RegExp> = {
  IDR: /^\d{5}$/,
  NGN: /^\d{3,6}$/,
  EGP: /^\d+$/,
  INR: /^[A-Z]{4}$/,
};

const MIN_SIZE: Record<BankCurrency, number> = { IDR: 100, NGN: 40, EGP: 25, INR: 40 };

const collator = new Intl.Collator('en', { sensitivity: 'base' });

const codeOf = (currency: BankCurrency, namePart: string): string | undefined =>
  banksFor(currency).find((b) => b.bankName.toLowerCase().includes(namePart.toLowerCase()))
    ?.bankCode;

const countKind = (list: readonly BankEntry[], kind: BankEntry['kind']): number =>
  list.filter((b) => b.kind === kind).length;

describe.each(CURRENCIES)('%s bank list', (currency) => {
  const list = banksFor(currency);

  it('has unique codes', () => {
    const codes = list.map((b) => b.bankCode);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('has no duplicate names (ignoring case and surrounding space)', () => {
    const names = list.map((b) => b.bankName.trim().toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    for (const b of list) expect(b.bankName).toBe(b.bankName.trim());
  });

  it('uses the currency code format', () => {
    const bad = list.filter((b) => !CODE_FORMAT[currency].test(b.bankCode));
    expect(bad).toEqual([]);
  });

  it('meets the minimum size', () => {
    expect(list.length).toBeGreaterThanOrEqual(MIN_SIZE[currency]);
  });

  it('is sorted by bankName', () => {
    const sorted = [...list].sort((a, b) => collator.compare(a.bankName, b.bankName));
    expect(list.map((b) => b.bankName)).toEqual(sorted.map((b) => b.bankName));
  });

  it('knows each listed code and rejects near misses', () => {
    for (const b of list) expect(isKnownBankCode(currency, b.bankCode)).toBe(true);
    expect(isKnownBankCode(currency, '')).toBe(false);
    expect(isKnownBankCode(currency, ` ${list[0]!.bankCode}`)).toBe(false);
  });

  it('exposes only bankCode and bankName on the public list', () => {
    const pub = publicBanksFor(currency);
    expect(pub).toHaveLength(list.length);
    for (const entry of pub) expect(Object.keys(entry).sort()).toEqual(['bankCode', 'bankName']);
    expect(Object.isFrozen(pub)).toBe(true);
    expect(publicBanksFor(currency)).toBe(pub);
  });
});

describe('IDR specifics', () => {
  const list = banksFor('IDR');

  it('covers regional development banks and e-wallets', () => {
    expect(countKind(list, 'regional')).toBeGreaterThanOrEqual(25);
    expect(countKind(list, 'ewallet')).toBeGreaterThanOrEqual(5);
  });

  it('pads BI clearing codes to five digits', () => {
    expect(codeOf('IDR', 'Bank Central Asia (BCA)')).toBe('00014');
    expect(codeOf('IDR', 'Bank Negara Indonesia')).toBe('00009');
    expect(codeOf('IDR', 'Bank Rakyat Indonesia')).toBe('00002');
    expect(codeOf('IDR', 'Bank Mandiri')).toBe('00008');
    expect(codeOf('IDR', 'Bank DKI')).toBe('00111');
    expect(codeOf('IDR', 'Bank BJB (')).toBe('00110');
    expect(codeOf('IDR', 'Bank Jago')).toBe('00542');
  });

  it('keeps e-wallets in the 900xx block and banks out of it', () => {
    for (const b of list) {
      if (b.kind === 'ewallet') expect(b.bankCode).toMatch(/^900\d\d$/);
      else expect(b.bankCode).toMatch(/^00\d{3}$/);
    }
    for (const wallet of ['OVO', 'DANA', 'GoPay', 'ShopeePay', 'LinkAja']) {
      expect(list.some((b) => b.kind === 'ewallet' && b.bankName === wallet)).toBe(true);
    }
  });
});

describe('NGN specifics', () => {
  it('carries the CBN codes of the big commercial banks', () => {
    expect(codeOf('NGN', 'GTBank')).toBe('058');
    expect(codeOf('NGN', 'Access Bank')).toBe('044');
    expect(codeOf('NGN', 'Zenith')).toBe('057');
    expect(codeOf('NGN', 'First Bank of Nigeria')).toBe('011');
    expect(codeOf('NGN', 'United Bank for Africa')).toBe('033');
  });

  it('includes the large fintechs and MFBs', () => {
    expect(codeOf('NGN', 'OPay')).toBe('999992');
    expect(codeOf('NGN', 'PalmPay')).toBe('999991');
    expect(codeOf('NGN', 'Moniepoint')).toBe('50515');
    expect(codeOf('NGN', 'Kuda')).toBe('50211');
  });
});

describe('EGP specifics', () => {
  it('lists the main Egyptian banks', () => {
    for (const name of ['National Bank of Egypt', 'Banque Misr', 'Commercial International Bank']) {
      expect(codeOf('EGP', name)).toBeDefined();
    }
  });
});

describe('INR IFSC helpers', () => {
  it('lists the major bank prefixes', () => {
    for (const prefix of ['SBIN', 'HDFC', 'ICIC', 'UTIB', 'PYTM', 'AIRP']) {
      expect(isKnownBankCode('INR', prefix)).toBe(true);
    }
  });

  it('validates IFSC shape', () => {
    expect(isValidIfsc('SBIN0001234')).toBe(true);
    expect(isValidIfsc('HDFC0ABC123')).toBe(true);
    expect(isValidIfsc('SBIN1001234')).toBe(false); // fifth character must be 0
    expect(isValidIfsc('sbin0001234')).toBe(false);
    expect(isValidIfsc('SBIN000123')).toBe(false);
    expect(isValidIfsc('SBIN00012345')).toBe(false);
    expect(isValidIfsc('SB1N0001234')).toBe(false);
  });

  it('checks the IFSC prefix against the INR list', () => {
    expect(ifscBankKnown('SBIN0001234')).toBe(true);
    expect(ifscBankKnown('UTIB0000123')).toBe(true);
    expect(ifscBankKnown('ZZZZ0001234')).toBe(false);
    expect(ifscBankKnown('SBIN')).toBe(false);
  });
});
