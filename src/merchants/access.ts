// What limits a merchant's calls beyond a valid signature: each API key's scope, and the merchant's
// IP allow-list with the calls it guards. The signature check (http/auth.ts) applies both; this
// file owns their vocabulary and how the allow-list is checked, stored and read back.
import { cidrMatcher, formatCidr, MAX_CIDRS, parseCidrList } from '../core/cidr.js';
import { AppError } from '../core/errors.js';

/** `read`: lookups only; `payments`: pay-in and refunds too; `payouts`: payouts too; `all`: everything. */
export const KEY_SCOPES = ['read', 'payments', 'payouts', 'all'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** `money`: only the calls that send money out (payouts, refunds); `all`: every merchant call. */
export const IP_ALLOW_SCOPES = ['money', 'all'] as const;
export type IpAllowScope = (typeof IP_ALLOW_SCOPES)[number];

export function isKeyScope(value: unknown): value is KeyScope {
  return typeof value === 'string' && (KEY_SCOPES as readonly string[]).includes(value);
}

export function isIpAllowScope(value: unknown): value is IpAllowScope {
  return typeof value === 'string' && (IP_ALLOW_SCOPES as readonly string[]).includes(value);
}

/** The allow-list as the operator sees it; an empty list means none is set. */
export interface IpAllowList {
  readonly cidrs: string[];
  readonly scope: IpAllowScope;
}

/** The allow-list ready for the signature check, parsed once per credentials load. */
export interface IpAllowGuard {
  readonly scope: IpAllowScope;
  allows(address: string): boolean;
}

/**
 * The operator's list, normalised (`203.0.113.7` becomes `203.0.113.7/32`, duplicates dropped), or
 * 400 VALIDATION_FAILED naming every entry that is not an address range.
 */
export function normaliseCidrs(texts: readonly string[]): string[] {
  if (texts.length > MAX_CIDRS) {
    throw new AppError('VALIDATION_FAILED', `An allow-list holds at most ${MAX_CIDRS} ranges.`, [
      { field: 'cidrs', problem: `must have at most ${MAX_CIDRS} entries` },
    ]);
  }
  const { cidrs, problems } = parseCidrList(texts);
  if (problems.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Not an IPv4 or IPv6 address or CIDR range: ${problems.map((p) => JSON.stringify(p.value)).join(', ')}.`,
      problems.map((p) => ({ field: `cidrs[${p.index}]`, problem: 'must be an IPv4 or IPv6 address or CIDR range such as 203.0.113.0/24 or 2001:db8::/32' })),
    );
  }
  return cidrs.map(formatCidr);
}

/** The stored column as the operator's view. */
export function ipAllowListOf(stored: string | null, scope: IpAllowScope): IpAllowList {
  return { cidrs: stored === null ? [] : (JSON.parse(stored) as string[]), scope };
}

/** The stored column as a guard, or null when the merchant has no allow-list. */
export function ipAllowGuardOf(stored: string | null, scope: IpAllowScope): IpAllowGuard | null {
  if (stored === null) return null;
  // Stored ranges were normalised when set, so they parse; a hand-edited bad row fails closed (matches nothing).
  const { cidrs } = parseCidrList(JSON.parse(stored) as string[]);
  return { scope, allows: cidrMatcher(cidrs) };
}
