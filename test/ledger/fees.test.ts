// Fees (basis points + fixed, rounded half up), limits, their per-merchant overrides, and the method catalog.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { AppError } from '../../src/core/errors.js';
import { computeFee, DEFAULT_FEES, FeeService } from '../../src/domain/fees.js';
import { DEFAULT_BOUNDS, DIRECTIONS, methodsFor, PAYIN_METHODS, PAYOUT_METHODS } from '../../src/domain/methods.js';
import { CURRENCIES } from '../../src/core/money.js';
import { openLedger, T0_MS, type LedgerFixture } from './helpers.js';

describe('computeFee', () => {
  const rule = (bps: number, fixedMinor: bigint) => ({ bps: BigInt(bps), fixedMinor });

  it('rounds the percentage half up to the minor unit, then adds the fixed part', () => {
    expect(computeFee(rule(200, 0n), 'payin', 12_345n)).toBe(247n); // 246.9 -> 247
    expect(computeFee(rule(150, 0n), 'payin', 100n)).toBe(2n); // 1.5 -> 2
    expect(computeFee(rule(140, 0n), 'payin', 35n)).toBe(0n); // 0.49 -> 0
    expect(computeFee(rule(150, 2_50n), 'payin', 100_00n)).toBe(4_00n);
    expect(computeFee(rule(0, 5_00n), 'payout', 1_00n)).toBe(5_00n);
  });

  it('never takes more than the paid amount of a pay-in', () => {
    expect(computeFee(rule(0, 4_000_00n), 'payin', 100n)).toBe(100n);
  });

  it('equals the exact rational fee rounded half up, for any amount and rate', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.integer({ min: 0, max: 10_000 }), (amount, bps) => {
        const fee = computeFee(rule(bps, 0n), 'payout', amount);
        const exactTimes10000 = amount * BigInt(bps);
        expect(fee * 10_000n - exactTimes10000).toBeLessThanOrEqual(5_000n);
        expect(exactTimes10000 - fee * 10_000n).toBeLessThan(5_000n);
      }),
    );
  });
});

describe('method catalog', () => {
  it('lists the methods of contract section 2 with the section 9 bounds', () => {
    const names = (list: readonly { method: string }[]) => list.map((m) => m.method);
    expect(names(PAYIN_METHODS.IDR)).toEqual(['BNI', 'BRI', 'MANDIRI', 'PERMATA', 'QRIS', 'OVO', 'DANA']);
    expect(names(PAYOUT_METHODS.EGP)).toEqual(['WALLET', 'BANK']);
    expect(PAYIN_METHODS.IDR.filter((m) => m.refundable).map((m) => m.method)).toEqual(['QRIS', 'OVO', 'DANA']);
    expect(PAYIN_METHODS.NGN[0]).toMatchObject({ method: 'TRANSFER', refundable: false, minMinor: 100_00n, maxMinor: 5_000_000_00n });
    expect(DEFAULT_BOUNDS.IDR).toEqual({ minMinor: 1_000_000n, maxMinor: 10_000_000_000n });
  });

  it('has a default fee for every method of every currency', () => {
    for (const currency of CURRENCIES) {
      for (const direction of DIRECTIONS) {
        const methods = methodsFor(currency, direction).map((m) => m.method).sort();
        expect(Object.keys(DEFAULT_FEES[currency][direction]).sort()).toEqual(methods);
      }
    }
  });
});

describe('FeeService', () => {
  let f: LedgerFixture;
  let fees: FeeService;
  let clock: ManualClock;
  beforeEach(async () => {
    f = await openLedger(['mch_f']);
    clock = new ManualClock(T0_MS);
    fees = new FeeService(f.db, clock, { cacheMs: 1000 });
  });
  afterEach(async () => f.close());

  it('uses the defaults until the operator sets a merchant fee, which applies at once', async () => {
    expect(await fees.feeFor('mch_f', 'INR', 'NATIVE', 'payin', 1_000_00n)).toBe(20_00n);
    await fees.setFee({ merchantId: 'mch_f', currency: 'INR', method: 'NATIVE', direction: 'payin', bps: 100n, fixedMinor: 1_00n }, 'test');
    expect(await fees.feeFor('mch_f', 'INR', 'NATIVE', 'payin', 1_000_00n)).toBe(11_00n);
    await fees.setFee({ merchantId: 'mch_f', currency: 'INR', method: 'NATIVE', direction: 'payin', bps: 50n, fixedMinor: 0n }, 'test');
    expect(await fees.ruleFor('mch_f', 'INR', 'NATIVE', 'payin')).toEqual({ bps: 50n, fixedMinor: 0n });
    expect(await fees.feeFor('mch_f', 'INR', 'UPI', 'payout', 1_000_00n)).toBe(3_00n);
  });

  it('sees a change made by another process once its cache expires', async () => {
    const other = new FeeService(f.db, clock, { cacheMs: 1000 });
    expect(await fees.feeFor('mch_f', 'NGN', 'BANK', 'payout', 1_000_00n)).toBe(25_00n);
    await other.setFee({ merchantId: 'mch_f', currency: 'NGN', method: 'BANK', direction: 'payout', bps: 0n, fixedMinor: 10_00n }, 'test');
    expect(await fees.feeFor('mch_f', 'NGN', 'BANK', 'payout', 1_000_00n)).toBe(25_00n);
    clock.advance(1000);
    expect(await fees.feeFor('mch_f', 'NGN', 'BANK', 'payout', 1_000_00n)).toBe(10_00n);
  });

  it('overrides amount limits per merchant and method', async () => {
    expect(await fees.limitsFor('mch_f', 'EGP', 'WALLET', 'payin')).toEqual({ minMinor: 10_00n, maxMinor: 200_000_00n });
    await fees.setLimits({ merchantId: 'mch_f', currency: 'EGP', method: 'WALLET', direction: 'payin', minMinor: 50_00n, maxMinor: 1_000_00n }, 'test');
    expect(await fees.limitsFor('mch_f', 'EGP', 'WALLET', 'payin')).toEqual({ minMinor: 50_00n, maxMinor: 1_000_00n });
    expect(await fees.limitsFor('mch_f', 'EGP', 'FAWRY', 'payin')).toEqual({ minMinor: 10_00n, maxMinor: 200_000_00n });
  });

  it('lists the terms of every method of a currency for payment/methods', async () => {
    const terms = await fees.termsFor('mch_f', 'INR');
    expect(terms.map((t) => `${t.direction}:${t.method}:${t.refundable}`)).toEqual(['payin:NATIVE:true', 'payout:BANK:false', 'payout:UPI:false']);
    expect(terms[0]).toMatchObject({ fee: { bps: 200n, fixedMinor: 0n }, bounds: { minMinor: 100_00n, maxMinor: 500_000_00n } });
  });

  it('refuses unknown methods, impossible rates and unknown merchants', async () => {
    const reason = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => (e as AppError).reason);
    expect(await reason(fees.feeFor('mch_f', 'INR', 'QRIS', 'payin', 1n))).toBe('UNSUPPORTED_METHOD');
    expect(await reason(fees.setFee({ merchantId: 'mch_f', currency: 'INR', method: 'NATIVE', direction: 'payin', bps: 10_001n, fixedMinor: 0n }, 'test'))).toBe('VALIDATION_FAILED');
    expect(await reason(fees.setLimits({ merchantId: 'mch_f', currency: 'INR', method: 'BANK', direction: 'payout', minMinor: 10n, maxMinor: 9n }, 'test'))).toBe('VALIDATION_FAILED');
    expect(await reason(fees.setFee({ merchantId: 'mch_x', currency: 'INR', method: 'NATIVE', direction: 'payin', bps: 1n, fixedMinor: 0n }, 'test'))).toBe('NOT_FOUND');
  });
});
