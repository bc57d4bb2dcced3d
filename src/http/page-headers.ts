// The headers every server-rendered page (checkout, console) answers with: one strict policy, so the
// two surfaces cannot drift apart. Nothing inline, nothing foreign, no plugins, no framing; Trusted
// Types make an accidental HTML sink in a script fail closed where the browser supports them.

/** The strict Content-Security-Policy; `connect` allows the page's own script to fetch same-origin. */
export function strictContentSecurityPolicy(options: { readonly connect: boolean }): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    ...(options.connect ? ["connect-src 'self'"] : []),
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "require-trusted-types-for 'script'",
  ].join('; ');
}

/** The policy plus the headers that keep a page unsniffed, unframed, unindexed and without a referrer. */
export function pageSecurityHeaders(contentSecurityPolicy: string): Readonly<Record<string, string>> {
  return {
    'content-security-policy': contentSecurityPolicy,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'x-robots-tag': 'noindex, nofollow',
  };
}
