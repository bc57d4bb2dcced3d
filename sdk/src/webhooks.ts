// Verifying the webhooks the service sends (contract section 8). Each delivery carries two independent
// signatures; a receiver checks whichever it prefers:
//  - `Timestamp` + `Signature`: the service's RSA key over hex(SHA512(rawBody)) + Timestamp, as for requests;
//    `Signature-Key-Id` names the key (GET /v1/public-key lists the current and the replaced one by id);
//  - Standard Webhooks `webhook-id` / `webhook-timestamp` / `webhook-signature`: HMAC-SHA256 with the merchant's
//    `whsec_` secret, so any Standard Webhooks library verifies them too. During a secret rotation's overlap
//    the header holds two `v1,` entries (new and old secret); a receiver may hold either or both.
import { createHmac, type KeyObject } from 'node:crypto';
import { bytesEqual, decodeBase64Strict, verifyRsaSha512, type RawBody } from './signing.js';
import type { WebhookPayload } from './types.js';

/** Node's `req.headers`, a plain object with any-case keys, or a fetch `Headers`. */
export type HeaderInput = Headers | Record<string, string | string[] | undefined>;

/** UNKNOWN_KEY: Signature-Key-Id names none of the keys given: fetch GET /v1/public-key again. */
export type WebhookFailureReason = 'MISSING_HEADERS' | 'STALE' | 'BAD_SIGNATURE' | 'INVALID_BODY' | 'UNKNOWN_KEY';

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

/** One of the service's public keys, as GET /v1/public-key lists them in `keys`. */
export interface ServicePublicKeyRef {
  readonly keyId: string;
  readonly publicKeyPem: string | KeyObject;
}

export interface VerifyWebhookSignatureOptions extends CommonOptions {
  /** One key, checked whatever Signature-Key-Id says (the single key of before rotations). */
  servicePublicKeyPem?: string | KeyObject;
  /**
   * Several keys by id (`keys` of GET /v1/public-key): the one the Signature-Key-Id header names
   * verifies; an id none of them has fails with UNKNOWN_KEY. Without the header, any may verify.
   */
  servicePublicKeys?: readonly ServicePublicKeyRef[];
}

export interface VerifyStandardWebhookOptions extends CommonOptions {
  /** `whsec_` followed by the base64 key; or several (old and new, while rotating): any one may verify. */
  secret: string | readonly string[];
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
  const candidates = rsaKeysFor(options, headerValue(options.headers, 'signature-key-id'));
  if (candidates.length === 0) return { ok: false, reason: 'UNKNOWN_KEY' };
  if (!candidates.some((key) => verifyRsaSha512(key, options.body, timestampText, signature))) {
    return { ok: false, reason: 'BAD_SIGNATURE' };
  }
  return parseBody<T>(options.body);
}

/** The keys that may have signed: the one named by Signature-Key-Id when several are given by id. */
function rsaKeysFor(options: VerifyWebhookSignatureOptions, keyId: string | undefined): (string | KeyObject)[] {
  if (options.servicePublicKeys !== undefined) {
    const named = keyId === undefined ? options.servicePublicKeys : options.servicePublicKeys.filter((key) => key.keyId === keyId);
    return named.map((key) => key.publicKeyPem);
  }
  if (options.servicePublicKeyPem === undefined) throw new TypeError('verifyWebhookSignature needs servicePublicKeyPem or servicePublicKeys');
  return [options.servicePublicKeyPem];
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
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  const matched = secrets.some((secret) => anySignatureMatches(signatures, standardWebhookMac(secret, id, timestamp, options.body)));
  if (!matched) return { ok: false, reason: 'BAD_SIGNATURE' };
  return parseBody<T>(options.body);
}

/**
 * Fetches GET /v1/public-key: the current key and any replaced key still in its overlap, for
 * `servicePublicKeys`. Refetch when a webhook names a key id you do not have (UNKNOWN_KEY).
 */
export async function fetchServicePublicKeys(baseUrl: string, fetchFn: typeof fetch = (input, init) => fetch(input, init)): Promise<ServicePublicKeyRef[]> {
  const response = await fetchFn(`${baseUrl.replace(/\/+$/, '')}/v1/public-key`, { method: 'GET' });
  if (!response.ok) throw new Error(`GET /v1/public-key answered HTTP ${response.status}`);
  const envelope = (await response.json()) as { data?: { publicKeyPem?: string; keyId?: string; keys?: ServicePublicKeyRef[] } };
  const data = envelope.data ?? {};
  if (Array.isArray(data.keys)) return data.keys.map((key) => ({ keyId: key.keyId, publicKeyPem: key.publicKeyPem }));
  if (typeof data.publicKeyPem === 'string') return [{ keyId: data.keyId ?? 'webhook-signing', publicKeyPem: data.publicKeyPem }];
  throw new Error('GET /v1/public-key answered no key');
}
