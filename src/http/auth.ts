// Merchant authentication exactly as contract section 6: three headers, a 300-second timestamp
// window, a signature over hex(SHA512(rawBody)) + Timestamp checked against each active key,
// then the per-merchant rate limit (wall time, not the business clock), then the one-time-signature
// record.
import type { FastifyRequest } from 'fastify';
import { verifyHmacSha256, verifyRsaSha512 } from '../../sdk/src/signing.js';
import type { Clock } from '../domain/clock.js';
import { AppError } from '../domain/errors.js';
import type { Merchant, MerchantService, VerifierKey } from '../domain/merchants.js';
import type { RateLimiter } from './rate-limit.js';
import type { ReplayGuard } from './replay-guard.js';

const TIMESTAMP_PATTERN = /^\d{10}$/;
/** A signature of a 4096-bit RSA key is 684 base64 characters; anything far longer is not one. */
const MAX_SIGNATURE_CHARS = 2048;
const MAX_MERCHANT_ID_CHARS = 64;

export interface AuthDeps {
  readonly merchants: MerchantService;
  readonly clock: Clock;
  readonly replay: ReplayGuard;
  readonly limiter: RateLimiter;
  readonly windowSeconds: number;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function signatureMatches(keys: readonly VerifierKey[], body: Buffer, timestamp: string, signature: string): boolean {
  return keys.some((key) =>
    key.type === 'RSA-SHA512'
      ? verifyRsaSha512(key.publicKey, body, timestamp, signature)
      : verifyHmacSha256(key.secret, body, timestamp, signature),
  );
}

export async function authenticateMerchant(request: FastifyRequest, deps: AuthDeps): Promise<Merchant> {
  const merchantId = header(request, 'merchantid');
  const timestamp = header(request, 'timestamp');
  const signature = header(request, 'signature');
  if (!merchantId || !timestamp || !signature) {
    throw new AppError('MISSING_CREDENTIALS', 'The MerchantID, Timestamp and Signature headers are all required.');
  }
  if (merchantId.length > MAX_MERCHANT_ID_CHARS || signature.length > MAX_SIGNATURE_CHARS) {
    throw new AppError('MISSING_CREDENTIALS', 'The MerchantID or Signature header is malformed.');
  }
  if (!TIMESTAMP_PATTERN.test(timestamp)) {
    throw new AppError('INVALID_TIMESTAMP', 'Timestamp must be Unix time in seconds, ten digits.');
  }
  const nowSeconds = Math.floor(deps.clock.nowMs() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > deps.windowSeconds) {
    throw new AppError('TIMESTAMP_OUT_OF_WINDOW', `Timestamp is more than ${deps.windowSeconds} seconds from the server's clock.`);
  }
  const credentials = await deps.merchants.credentials(merchantId);
  if (!credentials) throw new AppError('UNKNOWN_MERCHANT', 'No merchant has this MerchantID.');
  const body = request.rawBody ?? Buffer.alloc(0);
  if (!signatureMatches(credentials.keys, body, timestamp, signature)) {
    throw new AppError('INVALID_SIGNATURE', 'The Signature does not verify against any active key of this merchant.');
  }
  const { merchant } = credentials;
  if (merchant.status !== 'active') throw new AppError('MERCHANT_DISABLED', 'This merchant is disabled.');
  const retryAfterSeconds = deps.limiter.take(merchant.id, merchant.rateLimitPerSecond, Date.now());
  if (retryAfterSeconds > 0) {
    throw new AppError('RATE_LIMITED', 'Too many requests for this merchant; retry later.', undefined, {
      'retry-after': String(retryAfterSeconds),
    });
  }
  if (!(await deps.replay.claim(signature, merchant.id, Number(timestamp)))) {
    throw new AppError('SIGNATURE_REUSED', 'This Signature was already used; sign every request afresh.');
  }
  return merchant;
}
