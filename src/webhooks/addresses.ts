// Which IP addresses a webhook may reach: every address is parsed to a number and checked against
// the special-purpose ranges (loopback, private, link-local, CGNAT, cloud metadata, multicast...).
// IPv4 embedded in IPv6 (mapped, compatible, NAT64, 6to4) is judged as the IPv4 address it carries.
import net from 'node:net';

export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'metadata'
  | 'multicast'
  | 'reserved';

export interface ParsedAddress {
  readonly family: 4 | 6;
  readonly value: bigint;
}

interface Range {
  readonly base: bigint;
  readonly prefix: number;
  readonly class: AddressClass;
}

function parseIpv4(text: string): bigint | null {
  if (!net.isIPv4(text)) return null;
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function parseIpv6(text: string): bigint | null {
  const bare = text.replace(/%.*$/, '');
  if (!net.isIPv6(bare)) return null;
  let groups = bare;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (dotted) {
    const v4 = parseIpv4(dotted[1]!)!;
    groups = `${bare.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = groups.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros: string[] = tail === undefined ? [] : Array(8 - headParts.length - tailParts.length).fill('0');
  const all = [...headParts, ...zeros, ...tailParts];
  if (all.length !== 8) return null;
  return all.reduce((acc, part) => (acc << 16n) | BigInt(parseInt(part, 16)), 0n);
}

/** Parses an IPv4 or IPv6 literal (brackets and a zone id are accepted); null when it is not one. */
export function parseIp(text: string): ParsedAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const v4 = parseIpv4(bare);
  if (v4 !== null) return { family: 4, value: v4 };
  const v6 = parseIpv6(bare);
  return v6 === null ? null : { family: 6, value: v6 };
}

function v4Range(cidr: string, cls: AddressClass): Range {
  const [base, prefix] = cidr.split('/');
  return { base: parseIpv4(base!)!, prefix: Number(prefix), class: cls };
}

function v6Range(cidr: string, cls: AddressClass): Range {
  const [base, prefix] = cidr.split('/');
  return { base: parseIpv6(base!)!, prefix: Number(prefix), class: cls };
}

// Order matters: the first matching range decides, so the narrow metadata ranges come first.
const IPV4_RANGES: readonly Range[] = [
  v4Range('169.254.169.254/32', 'metadata'),
  v4Range('0.0.0.0/8', 'unspecified'),
  v4Range('10.0.0.0/8', 'private'),
  v4Range('100.64.0.0/10', 'cgnat'),
  v4Range('127.0.0.0/8', 'loopback'),
  v4Range('169.254.0.0/16', 'link-local'),
  v4Range('172.16.0.0/12', 'private'),
  v4Range('192.0.0.0/24', 'reserved'),
  v4Range('192.0.2.0/24', 'reserved'),
  v4Range('192.88.99.0/24', 'reserved'),
  v4Range('192.168.0.0/16', 'private'),
  v4Range('198.18.0.0/15', 'reserved'),
  v4Range('198.51.100.0/24', 'reserved'),
  v4Range('203.0.113.0/24', 'reserved'),
  v4Range('224.0.0.0/4', 'multicast'),
  v4Range('240.0.0.0/4', 'reserved'),
];

const IPV6_RANGES: readonly Range[] = [
  v6Range('fd00:ec2::254/128', 'metadata'),
  v6Range('::/128', 'unspecified'),
  v6Range('::1/128', 'loopback'),
  v6Range('64:ff9b:1::/48', 'private'),
  v6Range('100::/64', 'reserved'),
  v6Range('2001:db8::/32', 'reserved'),
  v6Range('fc00::/7', 'private'),
  v6Range('fe80::/10', 'link-local'),
  v6Range('fec0::/10', 'private'),
  v6Range('ff00::/8', 'multicast'),
];

function inRange(value: bigint, bits: number, range: Range): boolean {
  const shift = BigInt(bits - range.prefix);
  return value >> shift === range.base >> shift;
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64 well-known prefix, 6to4), if any. */
function embeddedIpv4(value: bigint): bigint | null {
  const low32 = value & 0xffffffffn;
  const high96 = value >> 32n;
  if (high96 === 0xffffn || high96 === 0n) return low32;
  if (high96 === parseIpv6('64:ff9b::')! >> 32n) return low32;
  if (value >> 112n === 0x2002n) return (value >> 80n) & 0xffffffffn;
  return null;
}

function classifyValue(address: ParsedAddress): AddressClass {
  if (address.family === 6) {
    const special = IPV6_RANGES.find((range) => inRange(address.value, 128, range));
    if (special) return special.class;
    const v4 = embeddedIpv4(address.value);
    if (v4 !== null) return classifyValue({ family: 4, value: v4 });
    return 'public';
  }
  return IPV4_RANGES.find((range) => inRange(address.value, 32, range))?.class ?? 'public';
}

/** The class of an IP literal; throws when the text is not one. */
export function classifyAddress(ip: string): AddressClass {
  const parsed = parseIp(ip);
  if (!parsed) throw new Error(`not an IP address: ${ip}`);
  return classifyValue(parsed);
}

/**
 * A comparable key for an address: an IPv6 address that carries an IPv4 one is keyed as that IPv4
 * address, so allow-listing 127.0.0.1 also covers ::ffff:127.0.0.1.
 */
export function addressKey(address: ParsedAddress): string {
  if (address.family === 6) {
    const v4 = (address.value >> 32n === 0xffffn) ? address.value & 0xffffffffn : null;
    if (v4 !== null) return `4:${v4}`;
  }
  return `${address.family}:${address.value}`;
}
