// TOTP (RFC 6238) over HOTP (RFC 4226) with HMAC-SHA1, 6 digits and 30-second steps: what every
// authenticator app implements. Tested against the RFC's own vectors (test/unit/totp.test.ts).
import crypto from 'node:crypto';

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** One step either side absorbs a phone clock a little off and a code typed as it turns. */
export const TOTP_WINDOW_STEPS = 1;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** HOTP value of one counter (RFC 4226 section 5.3: dynamic truncation). */
export function hotp(key: Buffer, counter: bigint, digits = TOTP_DIGITS, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(counter);
  const mac = crypto.createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

export const totpStep = (nowMs: number): bigint => BigInt(Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS));

/** The code an authenticator shows at `nowMs`. */
export function totpCode(secretBase32: string, nowMs: number): string {
  return hotp(base32Decode(secretBase32), totpStep(nowMs));
}

/**
 * The step a code matches within the window, or null. The caller refuses a step at or before the last
 * one accepted, so a code seen over someone's shoulder cannot be used again.
 */
export function matchTotp(secretBase32: string, code: string, nowMs: number): bigint | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secretBase32);
  const now = totpStep(nowMs);
  const presented = Buffer.from(code);
  for (let delta = -TOTP_WINDOW_STEPS; delta <= TOTP_WINDOW_STEPS; delta++) {
    const step = now + BigInt(delta);
    if (crypto.timingSafeEqual(Buffer.from(hotp(key, step)), presented)) return step;
  }
  return null;
}

/** 160 random bits, the size RFC 4226 recommends for SHA-1. */
export const newTotpSecret = (): string => base32Encode(crypto.randomBytes(20));

/** What an authenticator app scans: otpauth://totp/Issuer:account?secret=...&issuer=... */
export function otpauthUri(secretBase32: string, account: string, issuer = 'Paygate'): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const query = new URLSearchParams({ secret: secretBase32, issuer, algorithm: 'SHA1', digits: String(TOTP_DIGITS), period: String(TOTP_STEP_SECONDS) });
  return `otpauth://totp/${label}?${query.toString()}`;
}
