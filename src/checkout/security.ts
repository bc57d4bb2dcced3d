// The checkout pages' browser-facing defences: the response headers every checkout answer carries,
// and the same-origin test for the page's state-changing request (the sandbox Pay/Decline buttons).
import type { FastifyRequest } from 'fastify';

/**
 * No inline script or style, no plugins, no framing, no foreign connections. Navigation to the
 * merchant's redirectUrl is not governed by CSP; the page validates that URL itself (http/https only).
 * Trusted Types make any accidental HTML sink in the script fail closed in browsers that support it.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "require-trusted-types-for 'script'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'x-robots-tag': 'noindex, nofollow',
};

/** The header the page's script sets; a cross-site form cannot, and a cross-site fetch would need CORS. */
export const ACTION_HEADER = 'x-checkout-action';

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * True when the request comes from the checkout page itself: the action header is present, and the
 * browser's own provenance headers (when sent) name this site. Origin may be the public base URL
 * (behind a TLS-terminating proxy) or the host the request was addressed to.
 */
export function isSameOriginAction(request: FastifyRequest, publicBaseUrl: string): boolean {
  if (request.headers[ACTION_HEADER] !== '1') return false;
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const publicOrigin = (() => {
    try {
      return new URL(publicBaseUrl).origin;
    } catch {
      return null;
    }
  })();
  if (origin === publicOrigin) return true;
  const host = request.headers.host;
  return host !== undefined && originHost(origin) === host.toLowerCase();
}
