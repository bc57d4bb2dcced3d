// The method catalog of contract section 2: which pay-in and payout methods each currency offers,
// whether a pay-in can be refunded upstream, and the default amount bounds of section 9.
import { AppError } from '../core/errors.js';
import type { Currency, Minor } from '../core/money.js';

export type Direction = 'payin' | 'payout';
export const DIRECTIONS: readonly Direction[] = ['payin', 'payout'];

export interface MethodSpec {
  readonly method: string;
  /** Pay-ins only: does the upstream support refunds for this method? Always false for payouts. */
  readonly refundable: boolean;
  readonly minMinor: Minor;
  readonly maxMinor: Minor;
}

export interface AmountBounds {
  readonly minMinor: Minor;
  readonly maxMinor: Minor;
}

/** Section 9 bounds in minor units (two decimals for every currency): INR 100 to 500,000 and so on. */
export const DEFAULT_BOUNDS: Readonly<Record<Currency, AmountBounds>> = {
  INR: { minMinor: 100_00n, maxMinor: 500_000_00n },
  EGP: { minMinor: 10_00n, maxMinor: 200_000_00n },
  NGN: { minMinor: 100_00n, maxMinor: 5_000_000_00n },
  IDR: { minMinor: 10_000_00n, maxMinor: 100_000_000_00n },
};

const spec = (currency: Currency, method: string, refundable: boolean): MethodSpec => ({
  method,
  refundable,
  ...DEFAULT_BOUNDS[currency],
});

export const PAYIN_METHODS: Readonly<Record<Currency, readonly MethodSpec[]>> = {
  INR: [spec('INR', 'NATIVE', true)],
  NGN: [spec('NGN', 'TRANSFER', false)],
  IDR: [
    spec('IDR', 'BNI', false),
    spec('IDR', 'BRI', false),
    spec('IDR', 'MANDIRI', false),
    spec('IDR', 'PERMATA', false),
    spec('IDR', 'QRIS', true),
    spec('IDR', 'OVO', true),
    spec('IDR', 'DANA', true),
  ],
  EGP: [spec('EGP', 'FAWRY', false), spec('EGP', 'WALLET', true)],
};

export const PAYOUT_METHODS: Readonly<Record<Currency, readonly MethodSpec[]>> = {
  INR: [spec('INR', 'BANK', false), spec('INR', 'UPI', false)],
  NGN: [spec('NGN', 'BANK', false)],
  IDR: [spec('IDR', 'TRANSFER', false)],
  EGP: [spec('EGP', 'WALLET', false), spec('EGP', 'BANK', false)],
};

const namesOf = (catalog: Readonly<Record<Currency, readonly MethodSpec[]>>): readonly string[] => [
  ...new Set(Object.values(catalog).flatMap((specs) => specs.map((s) => s.method))),
];

/** Every pay-in and every payout method name of any currency, for the API's enums. */
export const PAYIN_METHOD_NAMES = namesOf(PAYIN_METHODS);
export const PAYOUT_METHOD_NAMES = namesOf(PAYOUT_METHODS);

export function methodsFor(currency: Currency, direction: Direction): readonly MethodSpec[] {
  return (direction === 'payin' ? PAYIN_METHODS : PAYOUT_METHODS)[currency];
}

export function findMethod(currency: Currency, direction: Direction, method: string): MethodSpec | undefined {
  return methodsFor(currency, direction).find((m) => m.method === method);
}

/** The method's catalog entry, or UNSUPPORTED_METHOD. */
export function requireMethod(currency: Currency, direction: Direction, method: string): MethodSpec {
  const found = findMethod(currency, direction, method);
  if (!found) {
    throw new AppError('UNSUPPORTED_METHOD', `${method} is not a ${direction} method for ${currency}.`, [
      { field: 'method', problem: `must be one of ${methodsFor(currency, direction).map((m) => m.method).join(', ')}` },
    ]);
  }
  return found;
}
