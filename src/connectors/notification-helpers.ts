// The pieces every connector's notification check repeats: reading one header, comparing what the
// provider sent with what our secret gives in constant time (so the time taken reveals nothing of
// the secret), and reading the body as a JSON object once it is known to be authentic.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../core/errors.js';

export type CallbackHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The two ways a notification is turned away, worded alike for every provider: not authentic
 * (INVALID_SIGNATURE, answered 401) and authentic but unreadable (VALIDATION_FAILED). `what` names
 * it for the operator, e.g. `The Paystack event`.
 */
export const notificationErrors = (what: string) => ({
  notAuthentic: (why: string): AppError => new AppError('INVALID_SIGNATURE', `${what} is not authentic: ${why}.`),
  malformed: (why: string): AppError => new AppError('VALIDATION_FAILED', `${what} is malformed: ${why}.`),
});

/** A header sent once; absent or repeated is null (a repeated signature header is not trusted). */
export const singleHeader = (headers: CallbackHeaders, name: string): string | null => {
  const value = headers[name];
  return typeof value === 'string' ? value : null;
};

/** Same text (a token, a shared secret), in constant time; a different length or an empty secret never matches. */
export function textMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && b.length > 0 && timingSafeEqual(a, b);
}

const HEX = /^[0-9a-fA-F]*$/;

/** Is `given` the hex of exactly `expected`'s bytes, in constant time; any other shape is simply not authentic. */
export function hexMatches(given: string, expected: Uint8Array): boolean {
  if (given.length !== expected.length * 2 || !HEX.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}

type HmacAlgorithm = 'sha256' | 'sha512';

/** The lower-case hex HMAC of these bytes: what a provider signing the raw body sends (and our fakes sign with). */
export const hmacHex = (algorithm: HmacAlgorithm, secret: string, rawBody: Uint8Array): string => createHmac(algorithm, secret).update(rawBody).digest('hex');

/** Is `given` the hex HMAC of exactly these bytes under `secret`? */
export const hmacMatches = (algorithm: HmacAlgorithm, secret: string, rawBody: Uint8Array, given: string): boolean =>
  hexMatches(given, createHmac(algorithm, secret).update(rawBody).digest());

/**
 * The body as a JSON object (not an array, not null); `fail(why)` is thrown otherwise. `parse` lets a
 * provider whose amounts must stay exact read them as text.
 */
export function parseJsonObject(
  rawBody: Buffer,
  fail: (why: string) => AppError,
  parse: (text: string) => unknown = JSON.parse,
): Record<string, unknown> {
  let value: unknown;
  try {
    value = parse(rawBody.toString('utf8'));
  } catch {
    throw fail('body is not JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw fail('body is not an object');
  return value as Record<string, unknown>;
}
