// Verifying the webhooks the service sends (contract section 8). Each delivery carries two independent
// signatures; a receiver checks whichever it prefers:
//  - `Timestamp` + `Signature`: the service's RSA key over hex(SHA512(rawBody)) + Timestamp, as for requests;
//  - Standard Webhooks `webhook-id` / `webhook-timestamp` / `webhook-signature`: HMAC-SHA256 with the merchant's
//    `whsec_` secret, so any Standard Webhooks library verifies them too.
import { createHmac, type KeyObject } from 'node:crypto';
import { bytesEqual, decodeBase64Strict, verifyRsaSha512, type RawBody } from './signing.js';
import type { WebhookPayload } from './types.js';

/** Node's `req.headers`, a plain object with any-case keys, or a fetch `Headers`. */
export type HeaderInput = Headers | Record<string, string | string[] | undefined>;

export type WebhookFailureReason = 'MISSING_HEADERS' | 'STALE' | 'BAD_SIGNATURE' | 'INVALID_BODY';

export type WebhookVerification<T> = { ok: true; event: T } | { ok: false; reason: WebhookFailureReason };

interface CommonOptions {
  /** The raw body exactly as received: re-serialized JSON will not verify. */
  body: RawBody;
  headers: HeaderInput;
  /** Maximum distance between the signed timestamp and now, either way. */
  toleranceSeconds?: number;
  /** Unix seconds; defaults to the system clock. */
  nowSeconds?: number;
}

export interface VerifyWebhookSignatureOptions extends CommonOptions {
  servicePublicKeyPem: string | KeyObject;
}

export interface VerifyStandardWebhookOptions extends CommonOptions {
  /** `whsec_` followed by the base64 key. */
  secret: string;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const WHSEC_PREFIX = 'whsec_';

function headerValue(headers: HeaderInput, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  // Node types header values as string or string[]; a `webhook-signature` list is space-separated.
  return Array.isArray(value) ? value.join(' ') : value;
}

/** Parses a Unix-seconds header; undefined when absent or not all digits. */
function parseTimestamp(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,12}$/.test(text) ? Number(text) : undefined;
}

function isFresh(timestamp: number, options: CommonOptions): boolean {
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  return Math.abs(now - timestamp) <= (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS);
}

function parseBody<T>(body: RawBody): WebhookVerification<T> {
  try {
    const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    return { ok: true, event: JSON.parse(text) as T };
  } catch {
    return { ok: false, reason: 'INVALID_BODY' };
  }
}

/** Checks the RSA `Timestamp` + `Signature` headers; on success returns the parsed (not schema-checked) body. */
export function verifyWebhookSignature<T = WebhookPayload>(
  options: VerifyWebhookSignatureOptions,
): WebhookVerification<T> {
  const timestampText = headerValue(options.headers, 'timestamp');
  const signature = headerValue(options.headers, 'signature');
  const timestamp = parseTimestamp(timestampText);
  if (timestampText === undefined || timestamp === undefined || !signature) {
    return { ok: false, reason: 'MISSING_HEADERS' };
  }
  // The window is checked before the comparatively costly RSA verification.
  if (!isFresh(timestamp, options)) return { ok: false, reason: 'STALE' };
  if (!verifyRsaSha512(options.servicePublicKeyPem, options.body, timestampText, signature)) {
    return { ok: false, reason: 'BAD_SIGNATURE' };
  }
  return parseBody<T>(options.body);
}

function standardWebhookKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(WHSEC_PREFIX) ? secret.slice(WHSEC_PREFIX.length) : secret, 'base64');
}

function standardWebhookMac(secret: string, id: string, timestampSeconds: number, body: RawBody): Buffer {
  // Fed in two parts so a Buffer body is hashed as bytes, without a copy or a lossy decode.
  return createHmac('sha256', standardWebhookKey(secret))
    .update(`${id}.${timestampSeconds}.`)
    .update(body)
    .digest();
}

/** The `webhook-signature` header value (`v1,<base64>`) for one delivery. */
export function signStandardWebhook(secret: string, id: string, timestampSeconds: number, body: RawBody): string {
  return `v1,${standardWebhookMac(secret, id, timestampSeconds, body).toString('base64')}`;
}

/** True when any `v1,<base64>` entry of the space-separated header matches; other versions are ignored. */
function anySignatureMatches(header: string, expected: Buffer): boolean {
  return header.split(' ').some((entry) => {
    const candidate = entry.startsWith('v1,') ? decodeBase64Strict(entry.slice(3)) : null;
    return candidate !== null && bytesEqual(candidate, expected);
  });
}

/** Checks the Standard Webhooks headers; on success returns the parsed (not schema-checked) body. */
export function verifyStandardWebhook<T = WebhookPayload>(
  options: VerifyStandardWebhookOptions,
): WebhookVerification<T> {
  const id = headerValue(options.headers, 'webhook-id');
  const timestamp = parseTimestamp(headerValue(options.headers, 'webhook-timestamp'));
  const signatures = headerValue(options.headers, 'webhook-signature');
  if (!id || timestamp === undefined || !signatures) return { ok: false, reason: 'MISSING_HEADERS' };
  if (!isFresh(timestamp, options)) return { ok: false, reason: 'STALE' };
  const expected = standardWebhookMac(options.secret, id, timestamp, options.body);
  if (!anySignatureMatches(signatures, expected)) return { ok: false, reason: 'BAD_SIGNATURE' };
  return parseBody<T>(options.body);
}
