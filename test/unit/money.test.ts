// Properties of the one money type (src/core/money.ts): JSON numbers in major units with at most two
// decimals convert to integer minor units and back without loss; everything else is refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMinor, isCurrency, parseMajorString, toMajor, toMinor } from '../../src/core/money.js';

const MAX_AMOUNT_MINOR = 10n ** 13n;

/** Minor amounts the service handles: 0 to 10^13 (10^11 major units), weighted towards the edges. */
const minorAmount = fc.oneof(
  fc.bigInt({ min: 0n, max: MAX_AMOUNT_MINOR }),
  fc.bigInt({ min: 0n, max: 100_000n }),
  fc.constantFrom(0n, 1n, 9n, 10n, 99n, 100n, 101n, 110n, 12_345n, MAX_AMOUNT_MINOR - 1n, MAX_AMOUNT_MINOR),
);

describe('toMinor and toMajor', () => {
  it('round-trips every amount from 0 to 10^13 minor units', () => {
    fc.assert(
      fc.property(minorAmount, (minor) => {
        expect(toMinor(toMajor(minor))).toBe(minor);
      }),
      { numRuns: 2000 },
    );
  });

  it('renders minor units as the number a merchant wrote, with no float artefacts', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_AMOUNT_MINOR }), (minor) => {
        const major = toMajor(minor);
        // The JSON text of the number is exactly the decimal amount, trailing zeros dropped.
        const expected = formatMinor(minor).replace(/\.?0+$/, '');
        expect(JSON.stringify(major)).toBe(expected === '' ? '0' : expected);
      }),
      { numRuns: 1000 },
    );
    expect(toMajor(30n)).toBe(0.3);
    expect(JSON.stringify(toMajor(10n + 20n))).toBe('0.3');
  });

  it('reads what JSON.parse gives for amounts with zero, one or two decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 11n }), fc.integer({ min: 0, max: 99 }), fc.boolean(), (whole, cents, oneDecimal) => {
        const fraction = oneDecimal ? String(cents % 10) : String(cents).padStart(2, '0');
        const text = `${whole}.${fraction}`;
        const expected = whole * 100n + (oneDecimal ? BigInt(cents % 10) * 10n : BigInt(cents));
        expect(toMinor(JSON.parse(text) as number)).toBe(expected);
        expect(toMinor(JSON.parse(String(whole)) as number)).toBe(whole * 100n);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses numbers with three or more decimals', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 10n }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 1, max: 9 }),
        (whole, cents, third) => {
          const amount = Number(`${whole}.${String(cents).padStart(2, '0')}${third}`);
          expect(toMinor(amount)).toBeNull();
        },
      ),
      { numRuns: 1000 },
    );
    for (const amount of [0.001, 1.005, 100.005, 0.1 + 0.2, 1 / 3, Math.PI, 5e-324, 1e-7]) expect(toMinor(amount)).toBeNull();
  });

  it('refuses negatives, NaN, the infinities and numbers too large to be amounts', () => {
    fc.assert(
      fc.property(fc.double({ max: -Number.MIN_VALUE, noNaN: true }), (amount) => {
        expect(toMinor(amount)).toBeNull();
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.double({ min: 1e16, noNaN: true }), (amount) => {
        expect(toMinor(amount)).toBeNull();
      }),
      { numRuns: 500 },
    );
    for (const amount of [-1, -0.01, -100, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e21, 1e16, 1e308, Number.MAX_VALUE]) {
      expect(toMinor(amount)).toBeNull();
    }
  });

  it('never reads a JSON amount as a different amount: what a double cannot carry to the cent is refused', () => {
    // Whole parts up to the 15 digits toMinor's pattern admits; past about 9e13 a double no longer holds
    // every cent, so the only right answers are the exact amount or a refusal.
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), fc.integer({ min: 0, max: 99 }), (whole, cents) => {
        const text = `${whole}.${String(cents).padStart(2, '0')}`;
        const minor = toMinor(JSON.parse(text) as number);
        if (minor !== null) expect({ text, minor }).toEqual({ text, minor: whole * 100n + BigInt(cents) });
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts only amounts it can render back: never throws, answers null or a non-negative bigint', () => {
    // Any double, and doubles with at most two decimals around and beyond 2^53 minor units.
    const amounts = fc.oneof(fc.double(), fc.bigInt({ min: 9n * 10n ** 15n, max: 10n ** 17n - 1n }).map((m) => Number(m) / 100));
    fc.assert(
      fc.property(amounts, (amount) => {
        const minor = toMinor(amount);
        if (minor !== null) {
          expect(typeof minor).toBe('bigint');
          expect(minor >= 0n).toBe(true);
          // An accepted number has at most two decimals: it is its minor units over 100, exactly.
          expect(toMajor(minor)).toBe(amount === 0 ? 0 : amount);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses to render an amount that a JSON number cannot carry exactly', () => {
    expect(() => toMajor(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toThrow(RangeError);
    expect(toMajor(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER / 100);
  });
});

describe('formatMinor and parseMajorString', () => {
  const anyMinor = fc.bigInt({ min: -(10n ** 17n) + 1n, max: 10n ** 17n - 1n });

  it('round-trip every amount with a 15-digit whole part or less, negatives included', () => {
    fc.assert(
      fc.property(anyMinor, (minor) => {
        const text = formatMinor(minor);
        expect(text).toMatch(/^-?\d+\.\d{2}$/);
        expect(parseMajorString(text)).toBe(minor);
      }),
      { numRuns: 2000 },
    );
    expect(formatMinor(12345n)).toBe('123.45');
    expect(formatMinor(5n)).toBe('0.05');
    expect(formatMinor(-5n)).toBe('-0.05');
    expect(formatMinor(0n)).toBe('0.00');
  });

  it('normalise what an operator types', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), fc.option(fc.stringMatching(/^\d{1,2}$/)), (whole, fraction) => {
        const text = fraction === null ? String(whole) : `${whole}.${fraction}`;
        const minor = parseMajorString(text);
        expect(minor).not.toBeNull();
        expect(formatMinor(minor!)).toBe(`${whole}.${(fraction ?? '').padEnd(2, '0')}`);
        expect(parseMajorString(` ${text} `)).toBe(minor);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuse malformed text', () => {
    for (const text of ['', ' ', '.', '1.', '.5', '1.234', '1,5', '1e3', '0x10', '+1', '--1', '1.2.3', 'abc', '١٢٣', '1 000', '1234567890123456', 'NaN', 'Infinity']) {
      expect(parseMajorString(text), text).toBeNull();
    }
    fc.assert(
      fc.property(fc.string(), (text) => {
        const minor = parseMajorString(text);
        if (minor !== null) expect(/^\s*-?\d{1,15}(\.\d{1,2})?\s*$/.test(text)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isCurrency', () => {
  it('accepts exactly the four currencies', () => {
    for (const c of ['INR', 'EGP', 'NGN', 'IDR']) expect(isCurrency(c)).toBe(true);
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(isCurrency(value)).toBe(['INR', 'EGP', 'NGN', 'IDR'].includes(value as string));
      }),
    );
  });
});
