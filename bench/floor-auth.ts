// What the bench's bare servers (floor-server.ts, payout-floor.ts) check of a signed request, as
// contract section 6 asks and nothing more: the three headers, the Timestamp window and the signature
// against the merchant's one key, parsed once.
import crypto, { type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { verifyHmacSha256, verifyRsaSha512, type MerchantKey } from '../sdk/src/signing.js';

export const WINDOW_SECONDS = 300;
/** How long a used signature is remembered (at least past its Timestamp's window). */
export const TTL_MS = 600_000;

export type Verifier = (body: string, timestamp: string, signature: string) => boolean;

export function verifierOf(key: MerchantKey): Verifier {
  if (key.type === 'RSA-SHA512') {
    const publicKey: KeyObject = crypto.createPublicKey(key.privateKeyPem);
    return (body, timestamp, signature) => verifyRsaSha512(publicKey, body, timestamp, signature);
  }
  const secret = crypto.createSecretKey(Buffer.from(key.secret, 'utf8'));
  return (body, timestamp, signature) => verifyHmacSha256(secret, body, timestamp, signature);
}

export interface SignedBy {
  readonly merchantId: string;
  readonly nowMs: number;
  /**
   * The one-time record's key: the signed Timestamp, then SHA-256 of the Signature header. The service
   * keys its records by that pair (0017_signature_claims), so the claims of a moment share the key's
   * right-hand leaves; the floors keep one text key and get the same order from its prefix.
   */
  readonly hash: string;
  /** Until when the record is kept. */
  readonly expiresAtMs: number;
}

/** The request's signer when the headers, the Timestamp window and the signature all hold; null otherwise. */
export function signedBy(headers: IncomingHttpHeaders, raw: string, verifiers: ReadonlyMap<string, Verifier>): SignedBy | null {
  const { merchantid: merchantId, timestamp, signature } = headers;
  const verify = typeof merchantId === 'string' ? verifiers.get(merchantId) : undefined;
  const seconds = Number(timestamp);
  if (verify === undefined || typeof timestamp !== 'string' || typeof signature !== 'string' || !Number.isInteger(seconds)) return null;
  const nowMs = Date.now();
  if (Math.abs(nowMs / 1000 - seconds) > WINDOW_SECONDS || !verify(raw, timestamp, signature)) return null;
  return {
    merchantId: merchantId as string,
    nowMs,
    hash: `${timestamp}:${crypto.createHash('sha256').update(signature).digest('hex')}`,
    expiresAtMs: Math.max(nowMs + TTL_MS, (seconds + WINDOW_SECONDS + 1) * 1000),
  };
}

/** The refusal of a request that is not signed as section 6 asks, in the contract's envelope. */
export const UNAUTHORIZED = { code: '401', message: 'UNAUTHORIZED', data: null } as const;

/** The refusal of a signed read whose signature was used before (contract section 12). */
export const SIGNATURE_REUSED = { code: '401', message: 'SIGNATURE_REUSED', data: null } as const;

/**
 * A bare JSON route's request (its body parsed by the floor server as `{ raw, json }`) with its signer,
 * or null when it is not signed as section 6 asks (answer UNAUTHORIZED).
 */
export function signedJson(req: FastifyRequest, verifiers: ReadonlyMap<string, Verifier>): { readonly signer: SignedBy; readonly json: Record<string, unknown> } | null {
  const { raw, json } = req.body as { raw: string; json: Record<string, unknown> };
  const signer = signedBy(req.headers, raw, verifiers);
  return signer === null ? null : { signer, json };
}

/** A non-empty string of at most `max` characters, else null (a bare route's whole validation of a text field). */
export function text(value: unknown, max: number): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : null;
}
