// Merchant authentication exactly as contract section 6: three headers, a 300-second timestamp
// window, a signature over hex(SHA512(rawBody)) + Timestamp checked against each active key, the
// one-time-signature rule, and only then the per-merchant rate limit, so a refused request (a replay
// included) never spends the merchant's budget. Between the signature and the one-time rule sit the
// merchant's IP allow-list and the signing key's scope: only a signed request learns of either.
import type { FastifyRequest, RouteOptions } from 'fastify';
import { verifyHmacSha256, verifyRsaSha512 } from '../../sdk/src/signing.js';
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { unmapIpv4 } from '../core/cidr.js';
import type { KeyScope } from '../merchants/access.js';
import type { Merchant, MerchantCredentials, MerchantService, VerifierKey } from '../merchants/merchant-service.js';
import type { RateLimiter } from './rate-limit.js';
import type { ReplayGuard, SignatureUse } from './replay-guard.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Every merchant route declares whether it changes state: a Signature accepted on such a route is
     * refused on any other path (contract section 6), while read routes may share one.
     */
    changesState?: boolean;
    /** Which API keys may call the route (see RouteScope); every merchant route declares it. */
    keyScope?: RouteScope;
    /**
     * Whether the route sends money out of the merchant's balance (payouts, refunds): those are the
     * calls an IP allow-list of scope `money` guards. Every merchant route declares it.
     */
    movesMoney?: boolean;
    /**
     * The route only reads this service's own database (no upstream call, no write): its read may run
     * while the Signature's record commits, and its answer waits for that record and the rate limit
     * (registerSignedScope). A request they refuse gets their error; what it read is thrown away.
     */
    readAhead?: boolean;
  }
}

/**
 * What a route needs of the signing key: `read` any key; `payments` a payments or all key; `payouts`
 * a payouts or all key; `payments-or-payouts` any key but a read-only one (webhook resends, which
 * serve both kinds of event).
 */
export type RouteScope = 'read' | 'payments' | 'payouts' | 'payments-or-payouts';
const ROUTE_SCOPES: readonly RouteScope[] = ['read', 'payments', 'payouts', 'payments-or-payouts'];

/** Whether a key of scope `key` may call a route that needs `route`. */
export function keyScopeAllows(key: KeyScope, route: RouteScope): boolean {
  if (key === 'all' || route === 'read') return true;
  if (route === 'payments-or-payouts') return key === 'payments' || key === 'payouts';
  return key === route;
}

/** The key that verified a request, as handlers may need it (who signed, what it may do). */
export interface SigningKey {
  readonly id: string;
  readonly scope: KeyScope;
}

export interface AuthenticatedCaller {
  readonly merchant: Merchant;
  readonly key: SigningKey;
}

/** An onRoute hook for the merchant scope: a route that does not declare its effect fails at start-up. */
export function requireDeclaredEffect(route: RouteOptions): void {
  if (typeof route.config?.changesState !== 'boolean') {
    throw new Error(`merchant route ${route.method} ${route.url} must declare config.changesState`);
  }
}

/**
 * An onRoute hook for the merchant scope: a route that does not declare its key scope and whether it
 * moves money fails at start-up. Both are published in the OpenAPI document as x-key-scope and
 * x-moves-money, so merchants see what each key may call.
 */
export function requireDeclaredAccess(route: RouteOptions): void {
  const keyScope = route.config?.keyScope;
  if (typeof keyScope !== 'string' || !ROUTE_SCOPES.includes(keyScope)) {
    throw new Error(`merchant route ${route.method} ${route.url} must declare config.keyScope (${ROUTE_SCOPES.join(', ')})`);
  }
  if (typeof route.config?.movesMoney !== 'boolean') {
    throw new Error(`merchant route ${route.method} ${route.url} must declare config.movesMoney`);
  }
  route.schema = { ...(route.schema ?? {}), 'x-key-scope': keyScope, 'x-moves-money': route.config.movesMoney } as RouteOptions['schema'];
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

function matchingKey(keys: readonly VerifierKey[], body: Buffer, timestamp: string, signature: string): VerifierKey | undefined {
  return keys.find((key) =>
    key.type === 'RSA-SHA512'
      ? verifyRsaSha512(key.publicKey, body, timestamp, signature)
      : verifyHmacSha256(key.secret, body, timestamp, signature),
  );
}

/**
 * The merchant's IP allow-list, where it guards this route: the client address is request.ip, the
 * socket's peer unless trusted proxies are configured (then the right-most untrusted X-Forwarded-For
 * address, as Fastify's trustProxy finds it).
 */
function checkIpAllowList(request: FastifyRequest, credentials: MerchantCredentials): void {
  const guard = credentials.ipAllowList;
  if (!guard) return;
  if (guard.scope === 'money' && request.routeOptions.config.movesMoney !== true) return;
  if (!guard.allows(request.ip)) {
    throw new AppError('IP_NOT_ALLOWED', `Calls from ${unmapIpv4(request.ip)} are not on this merchant's IP allow-list.`);
  }
}

function checkKeyScope(request: FastifyRequest, key: VerifierKey): void {
  const needs = request.routeOptions.config.keyScope;
  if (needs === undefined) throw new AppError('INTERNAL_ERROR', 'Merchant route without a declared key scope.');
  if (!keyScopeAllows(key.scope, needs)) {
    throw new AppError('KEY_SCOPE', `This API key's scope is ${key.scope}; this call needs a key of scope ${needs === 'payments-or-payouts' ? 'payments, payouts' : needs} or all.`);
  }
}

/** A request whose signature verified: who signed it, before the one-time rule and the rate limit. */
export interface VerifiedRequest extends AuthenticatedCaller {
  readonly signature: string;
  readonly timestampSeconds: number;
}

/** Contract section 6 up to the signature, then the IP allow-list and the key's scope. */
export async function verifyMerchantSignature(request: FastifyRequest, deps: AuthDeps): Promise<VerifiedRequest> {
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
  const key = matchingKey(credentials.keys, body, timestamp, signature);
  if (!key) {
    throw new AppError('INVALID_SIGNATURE', 'The Signature does not verify against any active key of this merchant.');
  }
  const { merchant } = credentials;
  if (merchant.status !== 'active') throw new AppError('MERCHANT_DISABLED', 'This merchant is disabled.');
  checkIpAllowList(request, credentials);
  checkKeyScope(request, key);
  return { merchant, key: { id: key.id, scope: key.scope }, signature, timestampSeconds: Number(timestamp) };
}

/**
 * Whether a verified request's route may start its read before the one-time rule and the rate limit
 * have judged it (readAhead): only a read route, and only while the merchant's rate budgets, fresh and
 * repeat, may have room, so that a merchant over its limit (or a replay over the repeats' budget) costs
 * no read.
 */
export function mayReadAhead(request: FastifyRequest, deps: AuthDeps, verified: VerifiedRequest): boolean {
  const { config } = request.routeOptions;
  if (config.readAhead !== true || config.changesState !== false) return false;
  const { id, rateLimitPerSecond } = verified.merchant;
  return deps.limiter.mayHaveRoom(id, rateLimitPerSecond) && deps.limiter.mayHaveRoom(repeatBucket(id), rateLimitPerSecond);
}

/**
 * The rest of contract section 6 for a verified request: the one-time rule (the Signature's record is
 * committed before this resolves), then the merchant's rate limit. Rejects with SIGNATURE_REUSED or
 * RATE_LIMITED.
 */
export async function admitVerifiedRequest(request: FastifyRequest, deps: AuthDeps, verified: VerifiedRequest): Promise<void> {
  const { merchant } = verified;
  const outcome = await deps.replay.claim(verified.signature, merchant.id, verified.timestampSeconds, useOf(request));
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
}
