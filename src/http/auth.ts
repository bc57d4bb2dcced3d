// Merchant authentication exactly as contract section 6: three headers, a 300-second timestamp
// window, a signature over hex(SHA512(rawBody)) + Timestamp checked against each active key, the
// one-time-signature rule, and only then the per-merchant rate limit, so a refused request (a replay
// included) never spends the merchant's budget.
import type { FastifyRequest, RouteOptions } from 'fastify';
import { verifyHmacSha256, verifyRsaSha512 } from '../../sdk/src/signing.js';
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import type { Merchant, MerchantService, VerifierKey } from '../merchants/merchant-service.js';
import type { RateLimiter } from './rate-limit.js';
import type { ReplayGuard, SignatureUse } from './replay-guard.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Every merchant route declares whether it changes state: a Signature accepted on such a route is
     * refused on any other path (contract section 6), while read routes may share one.
     */
    changesState?: boolean;
  }
}

/** An onRoute hook for the merchant scope: a route that does not declare its effect fails at start-up. */
export function requireDeclaredEffect(route: RouteOptions): void {
  if (typeof route.config?.changesState !== 'boolean') {
    throw new Error(`merchant route ${route.method} ${route.url} must declare config.changesState`);
  }
}

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

/** The route as declared (`config.changesState`, which requireDeclaredEffect makes every merchant route give). */
function useOf(request: FastifyRequest): SignatureUse {
  const { url, config } = request.routeOptions;
  if (url === undefined || typeof config.changesState !== 'boolean') {
    throw new AppError('INTERNAL_ERROR', 'Merchant route without a declared effect.');
  }
  return { path: url, changesState: config.changesState };
}

/**
 * A repeat of an accepted request counts against a budget of its own, the same size as the merchant's:
 * a copy of a request replayed by whoever captured it can never throttle the merchant's fresh requests.
 */
const repeatBucket = (merchantId: string): string => `${merchantId}:repeat`;

/** The active key the signature verifies against, if any. */
function signingKey(keys: readonly VerifierKey[], body: Buffer, timestamp: string, signature: string): VerifierKey | undefined {
  return keys.find((key) =>
    key.type === 'RSA-SHA512'
      ? verifyRsaSha512(key.publicKey, body, timestamp, signature)
      : verifyHmacSha256(key.secret, body, timestamp, signature),
  );
}

/** Who signed: the merchant and which of its keys. */
export interface SignedBy {
  readonly merchant: Merchant;
  readonly keyId: string;
}

export async function authenticateMerchant(request: FastifyRequest, deps: AuthDeps): Promise<SignedBy> {
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
  const key = signingKey(credentials.keys, body, timestamp, signature);
  if (!key) {
    throw new AppError('INVALID_SIGNATURE', 'The Signature does not verify against any active key of this merchant.');
  }
  const { merchant } = credentials;
  if (merchant.status !== 'active') throw new AppError('MERCHANT_DISABLED', 'This merchant is disabled.');
  const outcome = await deps.replay.claim(signature, merchant.id, Number(timestamp), useOf(request));
  if (outcome === 'refused') {
    throw new AppError('SIGNATURE_REUSED', 'This Signature was already accepted on another path; sign each request for its own endpoint.');
  }
  const bucket = outcome === 'first' ? merchant.id : repeatBucket(merchant.id);
  const retryAfterSeconds = await deps.limiter.take(bucket, merchant.rateLimitPerSecond);
  if (retryAfterSeconds > 0) {
    throw new AppError('RATE_LIMITED', 'Too many requests for this merchant; retry later.', undefined, {
      'retry-after': String(retryAfterSeconds),
    });
  }
  return { merchant, keyId: key.id };
}
