// Verification of the simulated bank's callbacks: HMAC-SHA256 over timestamp and raw body, checked
// in constant time within a time window, so an unauthentic or stale notification is never parsed.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../core/errors.js';
import type { ChannelCallback } from '../channel.js';
import { toChannelCallback } from './transformers.js';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const SIGNATURE_HEADER = 'x-sim-signature';
const TIMESTAMP_HEADER = 'x-sim-timestamp';
const SIGNATURE_PREFIX = 'sha256=';
const SIGNATURE_PATTERN = /^sha256=[0-9a-f]{64}$/;
const TIMESTAMP_PATTERN = /^\d{1,12}$/;

/** A callback older or newer than this (by its signed timestamp) is refused, which stops replays. */
export const CALLBACK_TOLERANCE_SECONDS = 300;

const notAuthentic = (why: string): AppError => new AppError('INVALID_SIGNATURE', `The simulator callback is not authentic: ${why}.`);

const single = (value: string | string[] | undefined): string | null => (typeof value === 'string' ? value : null);

/** Only the canonical lowercase `sha256=<hex HMAC(secret, timestamp + "." + rawBody)>` verifies. */
function signatureValid(secret: string, timestamp: string, rawBody: Uint8Array, signature: string): boolean {
  if (!SIGNATURE_PATTERN.test(signature)) return false;
  const given = Buffer.from(signature.slice(SIGNATURE_PREFIX.length), 'hex');
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  return timingSafeEqual(given, expected);
}

export function parseSimulatorCallback(
  headers: Headers,
  rawBody: Buffer,
  secret: string,
  nowSeconds: number,
  toleranceSeconds: number,
): ChannelCallback {
  const timestamp = single(headers[TIMESTAMP_HEADER]);
  const signature = single(headers[SIGNATURE_HEADER]);
  if (timestamp === null || signature === null) throw notAuthentic('signature or timestamp header missing');
  if (!TIMESTAMP_PATTERN.test(timestamp)) throw notAuthentic('timestamp malformed');
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) throw notAuthentic('timestamp outside the allowed window');
  if (!signatureValid(secret, timestamp, rawBody, signature)) throw notAuthentic('signature does not verify');
  return toChannelCallback(rawBody);
}
