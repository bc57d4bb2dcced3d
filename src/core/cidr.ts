// Address ranges as operators write them: `203.0.113.7`, `203.0.113.0/24`, `2001:db8::/32`, `::1`.
// Used for a merchant's IP allow-list and for the trusted proxies. Parsing is strict (node:net's
// own address grammar, a decimal prefix in range, no zone ids) so a typo is refused, not widened;
// matching is node:net's BlockList, which also matches IPv4-mapped IPv6 addresses to IPv4 ranges.
import net from 'node:net';

export interface Cidr {
  readonly family: 'ipv4' | 'ipv6';
  readonly address: string;
  readonly prefix: number;
}

/** At most this many ranges in one list: an allow-list is a handful of egress addresses, not a firewall. */
export const MAX_CIDRS = 100;
const MAX_CIDR_CHARS = 64;
const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** `::ffff:192.0.2.1` (how a dual-stack socket shows an IPv4 peer) as the IPv4 address it is; others unchanged. */
export function unmapIpv4(address: string): string {
  const mapped = MAPPED_IPV4.exec(address);
  return mapped && net.isIPv4(mapped[1]!) ? mapped[1]! : address;
}

/** One range, or null when `text` is not an address with an optional in-range decimal prefix. */
export function parseCidr(text: string): Cidr | null {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_CIDR_CHARS || trimmed.includes('%')) return null;
  const [rawAddress, rawPrefix, extra] = trimmed.split('/');
  if (extra !== undefined || rawAddress === undefined) return null;
  const kind = net.isIP(rawAddress);
  if (kind === 0) return null;
  let family: Cidr['family'] = kind === 4 ? 'ipv4' : 'ipv6';
  const maxPrefix = family === 'ipv4' ? 32 : 128;
  if (rawPrefix !== undefined && !/^\d{1,3}$/.test(rawPrefix)) return null;
  let prefix = rawPrefix === undefined ? maxPrefix : Number(rawPrefix);
  if (prefix > maxPrefix) return null;
  let address = rawAddress.toLowerCase();
  // An IPv4-mapped range written in IPv6 (`::ffff:10.0.0.0/104`) is kept as the IPv4 range it means.
  const unmapped = unmapIpv4(address);
  if (family === 'ipv6' && unmapped !== address && prefix >= 96) {
    family = 'ipv4';
    address = unmapped;
    prefix -= 96;
  }
  return { family, address, prefix };
}

/** The range as stored and shown: always with its prefix. */
export const formatCidr = (cidr: Cidr): string => `${cidr.address}/${cidr.prefix}`;

export interface CidrListProblem {
  readonly index: number;
  readonly value: string;
}

/**
 * Parses a whole list: the ranges (duplicates dropped, order kept) or the entries that are not
 * ranges, so the caller can name each one in its answer.
 */
export function parseCidrList(texts: readonly string[]): { readonly cidrs: Cidr[]; readonly problems: CidrListProblem[] } {
  const cidrs: Cidr[] = [];
  const problems: CidrListProblem[] = [];
  const seen = new Set<string>();
  texts.forEach((value, index) => {
    const cidr = typeof value === 'string' ? parseCidr(value) : null;
    if (!cidr) {
      problems.push({ index, value: String(value) });
      return;
    }
    const key = formatCidr(cidr);
    if (!seen.has(key)) {
      seen.add(key);
      cidrs.push(cidr);
    }
  });
  return { cidrs, problems };
}

/** A matcher over a list of ranges; an address that is not an IP never matches. */
export function cidrMatcher(cidrs: readonly Cidr[]): (address: string) => boolean {
  const list = new net.BlockList();
  for (const cidr of cidrs) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  return (address) => {
    const plain = unmapIpv4(address);
    const kind = net.isIP(plain);
    if (kind === 0) return false;
    return list.check(plain, kind === 4 ? 'ipv4' : 'ipv6');
  };
}
