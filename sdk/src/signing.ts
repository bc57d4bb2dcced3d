// Request signing as defined in contract section 6. The server imports this file too, so it must stay
// dependency-free (node:crypto only) and cheap: callers on hot paths pass pre-parsed KeyObjects.
import { createHash, createHmac, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';

/** The exact bytes sent on the wire. A string is taken as its UTF-8 encoding. */
export type RawBody = string | Uint8Array;

export type MerchantKey =
  | { type: 'RSA-SHA512'; privateKeyPem: string }
  | { type: 'HMAC-SHA256'; secret: string };

export function bodySha512Hex(body: RawBody): string {
  return createHash('sha512').update(body).digest('hex');
}

/** `hex(SHA512(body)) + timestamp`, with no separator. */
export function stringToSign(body: RawBody, timestamp: string): string {
  return bodySha512Hex(body) + timestamp;
}

/** base64 RSASSA-PKCS1-v1_5 SHA-512 signature of the string to sign (PKCS#1 v1.5 is node's default for RSA keys). */
export function signRsaSha512(privateKey: string | KeyObject, body: RawBody, timestamp: string): string {
  return sign('sha512', Buffer.from(stringToSign(body, timestamp)), privateKey).toString('base64');
}

function hmacSha256(secret: string | KeyObject, body: RawBody, timestamp: string): Buffer {
  return createHmac('sha256', secret).update(stringToSign(body, timestamp)).digest();
}

/** base64 HMAC-SHA256 of the string to sign; a string secret is used as its UTF-8 bytes. */
export function signHmacSha256(secret: string | KeyObject, body: RawBody, timestamp: string): string {
  return hmacSha256(secret, body, timestamp).toString('base64');
}

export function signRequest(key: MerchantKey, body: RawBody, timestamp: string): string {
  return key.type === 'RSA-SHA512'
    ? signRsaSha512(key.privateKeyPem, body, timestamp)
    : signHmacSha256(key.secret, body, timestamp);
}

/**
 * Decodes canonical base64 only, else null. Node's decoder skips stray characters and missing padding, so
 * without this many spellings of one signature would verify, and the server's one-time-signature check
 * (keyed on the header text) could be bypassed by re-spelling a captured signature.
 */
export function decodeBase64Strict(text: string): Buffer | null {
  const bytes = Buffer.from(text, 'base64');
  return bytes.length > 0 && bytes.toString('base64') === text ? bytes : null;
}

/** Constant-time comparison of two byte strings; false when lengths differ. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export function verifyRsaSha512(
  publicKey: string | KeyObject,
  body: RawBody,
  timestamp: string,
  signatureB64: string,
): boolean {
  try {
    const signature = decodeBase64Strict(signatureB64);
    const message = Buffer.from(stringToSign(body, timestamp));
    return signature !== null && verify('sha512', message, publicKey, signature);
  } catch {
    // Malformed keys or non-string input from an untrusted caller are a failed verification, not a crash.
    return false;
  }
}

export function verifyHmacSha256(
  secret: string | KeyObject,
  body: RawBody,
  timestamp: string,
  signatureB64: string,
): boolean {
  try {
    const signature = decodeBase64Strict(signatureB64);
    return signature !== null && bytesEqual(signature, hmacSha256(secret, body, timestamp));
  } catch {
    return false;
  }
}
