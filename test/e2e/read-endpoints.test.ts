// The read endpoints a merchant calls before moving money: payout/bankCode for the four currencies,
// account/usdt/rate after the operator set a rate, and account/balance of a new merchant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankEntry, Balance, UsdtRate } from '../../sdk/src/index.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { fund, initiateBody } from '../payments/api-helpers.js';

let server: TestServer;
let merchant: TestMerchant;

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

beforeAll(async () => {
  server = await startTestServer();
  merchant = await server.createMerchant({ keyType: 'RSA-SHA512' });
});
afterAll(async () => server.close());

async function banks(currency: 'INR' | 'EGP' | 'NGN' | 'IDR'): Promise<BankEntry[]> {
  const result = await merchant.client.bankCodes({ currency });
  expect({ status: result.status, code: result.code, message: result.message }).toEqual({ status: 200, code: '200', message: 'SUCCESS' });
  expect(Array.isArray(result.data)).toBe(true);
  for (const entry of result.data) {
    expect(Object.keys(entry).sort()).toEqual(['bankCode', 'bankName']);
    expect(typeof entry.bankCode).toBe('string');
    expect(typeof entry.bankName).toBe('string');
    expect(entry.bankName.trim().length).toBeGreaterThan(0);
  }
  expect(new Set(result.data.map((b) => b.bankCode)).size).toBe(result.data.length);
  return result.data;
}

const nameOf = (list: BankEntry[], code: string): string | undefined => list.find((b) => b.bankCode === code)?.bankName;

/**
 * The deposit and withdraw rates computed independently of src/domain/rates.ts: reference × (1 ∓ spread),
 * exactly as a rational number, then rounded half up to 6 decimals (micro-units).
 */
function expectedRates(reference: string, depositBps: number, withdrawBps: number): { deposit: number; withdraw: number } {
  const [whole, fraction = ''] = reference.split('.');
  const micros = BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  const round = (bps: bigint): number => {
    const numerator = micros * bps;
    const quotient = numerator / 10_000n;
    const remainder = numerator % 10_000n;
    const rounded = remainder * 2n >= 10_000n ? quotient + 1n : quotient;
    const text = `${rounded / 1_000_000n}.${(rounded % 1_000_000n).toString().padStart(6, '0')}`;
    return Number(text);
  };
  return { deposit: round(10_000n - BigInt(depositBps)), withdraw: round(10_000n + BigInt(withdrawBps)) };
}

describe('payout/bankCode', () => {
  it('lists Indonesian banks, regional banks and e-wallets under 5-digit codes', async () => {
    const list = await banks('IDR');
    expect(list.length).toBeGreaterThanOrEqual(50);
    for (const entry of list) expect(entry.bankCode).toMatch(/^\d{5}$/);
    expect(nameOf(list, '00014')).toMatch(/BCA|Central Asia/);
    // A regional development bank (BPD) and e-wallets.
    expect(nameOf(list, '00111')).toMatch(/DKI/);
    expect(list.some((b) => /Jatim|Jawa Timur/.test(b.bankName))).toBe(true);
    for (const wallet of ['DANA', 'OVO']) expect(list.some((b) => b.bankName.toUpperCase().includes(wallet))).toBe(true);
  });

  it('lists Nigerian banks with their CBN codes, including GTBank, Access, Zenith and OPay', async () => {
    const list = await banks('NGN');
    for (const entry of list) expect(entry.bankCode).toMatch(/^\d{3,6}$/);
    expect(nameOf(list, '058')).toMatch(/Guaranty|GTBank/);
    expect(nameOf(list, '044')).toMatch(/Access/);
    expect(nameOf(list, '057')).toMatch(/Zenith/);
    expect(list.some((b) => /OPay/i.test(b.bankName))).toBe(true);
  });

  it('lists Egyptian banks', async () => {
    const list = await banks('EGP');
    expect(list.length).toBeGreaterThan(0);
    for (const entry of list) expect(entry.bankCode).toMatch(/^\d+$/);
    expect(list.some((b) => /Misr/i.test(b.bankName))).toBe(true);
  });

  it('lists Indian banks under their 4-letter IFSC prefixes', async () => {
    const list = await banks('INR');
    for (const entry of list) expect(entry.bankCode).toMatch(/^[A-Z]{4}$/);
    expect(nameOf(list, 'SBIN')).toMatch(/State Bank of India/);
    expect(nameOf(list, 'HDFC')).toMatch(/HDFC/);
    expect(nameOf(list, 'ICIC')).toMatch(/ICICI/);
  });

  it('answers the same list on every call', async () => {
    const first = await banks('IDR');
    const second = await banks('IDR');
    expect(second).toEqual(first);
  });
});

describe('account/usdt/rate', () => {
  it('answers 404 NOT_FOUND for a currency whose rate was never set', async () => {
    const result = await merchant.client.usdtRate({ currency: 'EGP' });
    expect(result.status).toBe(404);
    expect(result.code).toBe('404');
    expect(result.message).toBe('NOT_FOUND');
  });

  it('answers the deposit and withdraw rates derived from the operator reference and spreads', async () => {
    const before = server.clock.nowMs();
    const set = await server.admin('PUT', '/rates/INR', { reference: '88.25', depositSpreadBps: 50, withdrawSpreadBps: 50 });
    expect(set.status).toBe(200);
    const result = await merchant.client.usdtRate({ currency: 'INR' });
    expect({ status: result.status, code: result.code, message: result.message }).toEqual({ status: 200, code: '200', message: 'SUCCESS' });
    const rate: UsdtRate = result.data;
    expect(rate.currency).toBe('INR');
    // 88.25 × 0.995 = 87.80875 and 88.25 × 1.005 = 88.69125, both exact at six decimals.
    expect(rate.deposit).toBe(87.80875);
    expect(rate.withdraw).toBe(88.69125);
    expect(rate.deposit).toBe(expectedRates('88.25', 50, 50).deposit);
    expect(rate.updatedAt).toMatch(ISO_UTC);
    const setAt = Date.parse(rate.updatedAt);
    expect(setAt).toBeGreaterThanOrEqual(before - 1000);
    expect(setAt).toBeLessThanOrEqual(server.clock.nowMs() + 1000);
  });

  it.each([
    ['IDR', '16650.123457', 33, 77],
    ['NGN', '1480.5', 125, 0],
    ['EGP', '48.600001', 1, 4999],
    ['INR', '0.000001', 5000, 5000],
  ] as const)('rounds %s %s with spreads %d/%d half up to six decimals', async (currency, reference, depositBps, withdrawBps) => {
    const set = await server.admin('PUT', `/rates/${currency}`, { reference, depositSpreadBps: depositBps, withdrawSpreadBps: withdrawBps });
    expect(set.status).toBe(200);
    const result = await merchant.client.usdtRate({ currency });
    expect(result.status).toBe(200);
    const expected = expectedRates(reference, depositBps, withdrawBps);
    expect({ deposit: result.data.deposit, withdraw: result.data.withdraw }).toEqual(expected);
    expect(result.data.deposit).toBeLessThanOrEqual(result.data.withdraw);
  });

  it('answers the latest rate after the operator changes it', async () => {
    await server.admin('PUT', '/rates/INR', { reference: '90', depositSpreadBps: 0, withdrawSpreadBps: 100 });
    const result = await merchant.client.usdtRate({ currency: 'INR' });
    expect(result.status).toBe(200);
    expect(result.data).toMatchObject({ currency: 'INR', deposit: 90, withdraw: 90.9 });
  });
});

describe('account/balance', () => {
  it.each(['INR', 'EGP', 'NGN', 'IDR'] as const)('answers five zero balances in %s for a new merchant', async (currency) => {
    const fresh = await server.createMerchant();
    const result = await fresh.client.balance({ currency });
    expect({ status: result.status, code: result.code, message: result.message }).toEqual({ status: 200, code: '200', message: 'SUCCESS' });
    const balance: Balance = result.data;
    expect(balance).toEqual({ currency, available: 0, pending: 0, held: 0, credit: 0, security: 0 });
  });
});

// Reads arriving together share one statement (src/ledger/queries.ts, src/domain/payments/repository.ts):
// each caller still gets its own merchant's answer, and another merchant's payment is still missing.
describe('reads answered together', () => {
  it('gives every merchant its own balances when their reads arrive at once', async () => {
    const shops = [await server.createMerchant(), await server.createMerchant({ keyType: 'RSA-SHA512' }), await server.createMerchant()];
    await Promise.all(shops.map((shop, i) => fund(server, shop.id, 'INR', BigInt(i + 1) * 1_000_00n)));
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => shops[i % shops.length]!.client.balance({ currency: i % 2 === 0 ? 'INR' : 'IDR' })),
    );
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      const available = i % 2 === 0 ? ((i % shops.length) + 1) * 1_000 : 0;
      expect(answer.data).toEqual({ currency: i % 2 === 0 ? 'INR' : 'IDR', available, pending: 0, held: 0, credit: 0, security: 0 });
    });
  });

  it("answers a payment/status only to the payment's merchant, also when another merchant asks in the same moment", async () => {
    const owner = await server.createMerchant();
    const other = await server.createMerchant();
    const created = await owner.client.paymentInitiate(initiateBody('INR', 'NATIVE'));
    const { transactionRef } = created.data;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? owner : other).client.paymentStatus({ transactionRef })),
    );
    answers.forEach((answer, i) => {
      if (i % 2 === 0) expect({ status: answer.status, ref: answer.data.transactionRef }).toEqual({ status: 200, ref: transactionRef });
      else expect({ status: answer.status, message: answer.message }).toEqual({ status: 404, message: 'NOT_FOUND' });
    });
    const byMerchantRef = await owner.client.paymentStatus({ merchantRef: created.data.merchantRef });
    expect(byMerchantRef.data.transactionRef).toBe(transactionRef);
    expect((await other.client.paymentStatus({ merchantRef: created.data.merchantRef })).status).toBe(404);
  });
});
