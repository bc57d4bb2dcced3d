// The one money type: integer minor units as bigint. Amounts cross the API as JSON numbers in
// major units with at most two decimals; conversion happens only here, through decimal strings,
// so no float arithmetic ever touches money.
export type Minor = bigint;

export const CURRENCIES = ['INR', 'EGP', 'NGN', 'IDR'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const isCurrency = (value: unknown): value is Currency =>
  typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);

/** Every currency is carried with two decimals (the contract allows at most two for all four). */
export const MINOR_PER_MAJOR = 100n;

const MAJOR_PATTERN = /^(0|[1-9]\d{0,11})(?:\.(\d{1,2}))?$/;

/**
 * Converts a JSON number in major units to minor units, or returns null when the number has more
 * than two decimals, is negative, not finite, or too large to be an amount. JavaScript prints a
 * number with the shortest digits that read back to it, so `100.5` is "100.5" and `0.1 + 0.2`
 * (which no JSON text produces as an amount) would be refused for its 17 decimals. The whole part
 * is capped at 12 digits, where a double still carries every cent exactly.
 */
export function toMinor(amount: number): Minor | null {
  if (!Number.isFinite(amount) || amount < 0) return null;
  const match = MAJOR_PATTERN.exec(String(amount));
  if (!match) return null;
  const whole = BigInt(match[1]!);
  const fraction = BigInt((match[2] ?? '').padEnd(2, '0'));
  return whole * MINOR_PER_MAJOR + fraction;
}

const MAX_EXACT_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

/** Renders minor units as a JSON number in major units; exact for every amount below 2^53 minor. */
export function toMajor(minor: Minor | number | string): number {
  const value = typeof minor === 'bigint' ? minor : BigInt(minor);
  if (value > MAX_EXACT_MINOR || value < -MAX_EXACT_MINOR) {
    throw new RangeError('amount exceeds the exactly representable range');
  }
  return Number(value) / Number(MINOR_PER_MAJOR);
}

/** Renders minor units as a decimal string, e.g. 12345n -> "123.45" (for docs, logs, CLI). */
export function formatMinor(minor: Minor): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const whole = abs / MINOR_PER_MAJOR;
  const fraction = (abs % MINOR_PER_MAJOR).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Parses "123.45" or "123" (operator input) into minor units; null when malformed. */
export function parseMajorString(text: string): Minor | null {
  const match = /^(-?)(\d{1,15})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const minor = BigInt(match[2]!) * MINOR_PER_MAJOR + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -minor : minor;
}
