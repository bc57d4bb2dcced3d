// The console's browser-facing defences: response headers (the checkout's strict CSP), the session
// and pre-sign-in cookies, and the CSRF checks every state-changing request passes.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageSecurityHeaders, strictContentSecurityPolicy } from '../http/page-headers.js';

/** As strict as the checkout's: nothing inline, nothing foreign, forms post only here, no framing. */
export const CONTENT_SECURITY_POLICY = strictContentSecurityPolicy({ connect: false });

/** Console pages hold merchants' data: never cached. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...pageSecurityHeaders(CONTENT_SECURITY_POLICY),
  'cache-control': 'no-store',
};

export interface CookieNames {
  readonly session: string;
  readonly login: string;
  readonly notice: string;
  /** __Host- cookies must have Path=/ (the browser refuses them otherwise); plain ones stay under /console. */
  readonly path: string;
  readonly secure: boolean;
}

/**
 * Behind https the cookies carry the __Host- prefix: the browser then guarantees they were set by this
 * host over TLS, with no Domain, and Path=/ (which the prefix requires). Over plain http (the local
 * quick start) the prefix cannot be used, so they are scoped to /console instead.
 */
export function cookieNames(secure: boolean): CookieNames {
  const prefix = secure ? '__Host-' : '';
  return { session: `${prefix}paygate_console`, login: `${prefix}paygate_console_login`, notice: `${prefix}paygate_console_notice`, path: secure ? '/' : '/console', secure };
}

export function readCookies(request: FastifyRequest): Map<string, string> {
  const out = new Map<string, string>();
  const header = request.headers.cookie;
  if (typeof header !== 'string') return out;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 1) continue;
    const name = part.slice(0, index).trim();
    if (!out.has(name)) {
      try {
        out.set(name, decodeURIComponent(part.slice(index + 1).trim()));
      } catch {
        // A cookie that is not ours (or tampered with) is ignored.
      }
    }
  }
  return out;
}

/** HttpOnly and SameSite=Strict always; Secure behind https. maxAgeSeconds 0 deletes it. */
export function setCookie(reply: FastifyReply, names: CookieNames, name: string, value: string, maxAgeSeconds?: number): void {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${names.path}`, 'HttpOnly', 'SameSite=Strict'];
  if (names.secure) parts.push('Secure');
  if (maxAgeSeconds !== undefined) parts.push(`Max-Age=${maxAgeSeconds}`);
  const previous = reply.getHeader('set-cookie');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous.map(String) : [String(previous)];
  reply.header('set-cookie', [...list, parts.join('; ')]);
}

const digest = (text: string): Buffer => crypto.createHash('sha256').update(text).digest();

/** Constant-time equality of two tokens (hashing first gives equal lengths, so length leaks nothing). */
export function tokensEqual(presented: unknown, expected: string): boolean {
  return typeof presented === 'string' && presented.length > 0 && crypto.timingSafeEqual(digest(presented), digest(expected));
}

/**
 * The browser's own word on where a request comes from: a cross-site POST is refused before its token
 * is even looked at. Browsers that send no Sec-Fetch-Site are left to the token and SameSite.
 */
export function isCrossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}
