// The simulated bank's numbers and refusals: random digits, its own reference formats (UTR, NIP
// session id, ...), and the error it answers with. Shared by its collection and payout books.
import { randomInt } from 'node:crypto';
import type { Currency } from '../core/money.js';

/** A refusal the simulator answers with its HTTP status and an UPPER_SNAKE code. */
export class BankRefusal extends Error {
  constructor(
    readonly httpStatus: 400 | 404 | 409 | 422,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const randomDigits = (n: number): string => {
  let digits = '';
  for (let i = 0; i < n; i += 1) digits += String(randomInt(10));
  return digits;
};

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/** yyyymmdd of an instant, UTC. */
const ymd = (at: Date): string => `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1, 2)}${pad(at.getUTCDate(), 2)}`;

export const collectionRef = (nowMs: number): string => `SIMC${ymd(new Date(nowMs))}${randomDigits(10)}`;

export const refundRef = (nowMs: number): string => `SIMR${ymd(new Date(nowMs))}${randomDigits(10)}`;

/** IMPS-style 12-digit UTR: year digit, day of year, hour, 6-digit sequence. */
function utr(at: Date): string {
  const startOfYear = Date.UTC(at.getUTCFullYear(), 0, 1);
  const dayOfYear = Math.floor((at.getTime() - startOfYear) / 86_400_000) + 1;
  return `${at.getUTCFullYear() % 10}${pad(dayOfYear, 3)}${pad(at.getUTCHours(), 2)}${randomDigits(6)}`;
}

/** NIP session id: 6-digit sender institution, yymmddHHMMSS, 12 random digits (30 digits). */
function nipSessionId(at: Date): string {
  const stamp =
    ymd(at).slice(2) + pad(at.getUTCHours(), 2) + pad(at.getUTCMinutes(), 2) + pad(at.getUTCSeconds(), 2);
  return `999999${stamp}${randomDigits(12)}`;
}

/** The reference a successful transfer carries, in the style of the currency's rails. */
export function transferRef(currency: Currency, nowMs: number): string {
  const at = new Date(nowMs);
  switch (currency) {
    case 'INR':
      return utr(at);
    case 'NGN':
      return nipSessionId(at);
    case 'IDR':
      return `SIMID${ymd(at)}${randomDigits(10)}`;
    case 'EGP':
      return `SIMEG${ymd(at)}${randomDigits(10)}`;
  }
}

/**
 * Drops the oldest records of `map` that `removable` allows until it holds at most `limit`,
 * looking at a bounded number of entries per call so an insert never scans the whole book.
 */
export function evictOldest<V>(map: Map<string, V>, limit: number, removable: (value: V) => boolean, onEvict: (key: string, value: V) => void): void {
  const maxScanned = 64;
  let scanned = 0;
  for (const [key, value] of map) {
    if (map.size <= limit || scanned >= maxScanned) return;
    scanned += 1;
    if (!removable(value)) continue;
    map.delete(key);
    onEvict(key, value);
  }
}
