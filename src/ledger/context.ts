// What every ledger operation needs besides its transaction: the store kind (locking differs),
// the clock, and the settlement policy.
import type { Clock } from '../core/clock.js';
import type { Currency } from '../core/money.js';
import type { StoreKind } from '../store/db.js';

export interface LedgerContext {
  readonly storeKind: StoreKind;
  readonly clock: Clock;
  /** How long a payment's net amount stays in `pending` before it may settle to `available`. */
  settlementDelayMs(currency: Currency): number;
}

export function assertPositive(name: string, valueMinor: bigint): void {
  if (typeof valueMinor !== 'bigint' || valueMinor <= 0n) throw new Error(`ledger: ${name} must be a positive bigint`);
}

export function assertNonNegative(name: string, valueMinor: bigint): void {
  if (typeof valueMinor !== 'bigint' || valueMinor < 0n) throw new Error(`ledger: ${name} must be a non-negative bigint`);
}

export const minMinor = (a: bigint, b: bigint): bigint => (a < b ? a : b);
