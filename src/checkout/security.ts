// The checkout pages' browser-facing defences: the response headers every checkout answer carries,
// and the same-origin test for the page's state-changing request (the sandbox Pay/Decline buttons).
import type { FastifyRequest } from 'fastify';
import { pageSecurityHeaders, strictContentSecurityPolicy } from '../http/page-headers.js';

/**
 * Navigation to the merchant's redirectUrl is not governed by CSP; the page validates that URL itself
 * (http/https only). The page's script polls its own status, hence connect-src 'self'.
 */
export const CONTENT_SECURITY_POLICY = strictContentSecurityPolicy({ connect: true });

export const SECURITY_HEADERS = pageSecurityHeaders(CONTENT_SECURITY_POLICY);

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
