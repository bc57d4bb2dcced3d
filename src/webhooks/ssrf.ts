// Keeps webhooks away from the service's own network (contract section 8): https only unless the
// operator allows http, no credentials in URLs, and no address in a loopback, private, link-local,
// CGNAT, metadata or other special range unless the operator allow-lists the host or address.
// The check runs in the connection's own DNS lookup, so the address vetted is the address dialled.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressKey, classifyAddress, parseIp } from './addresses.js';
import { envBool, type Env } from '../core/env.js';
import { validationError } from '../core/errors.js';

export interface WebhookConfig {
  /** Host names or IP addresses webhooks may reach even when they are not public. */
  readonly allowHosts: readonly string[];
  /** Allow plain-http webhook URLs (local development, private networks). */
  readonly allowHttp: boolean;
}


export const MAX_WEBHOOK_URL_CHARS = 2048;
const LOWEST_UNPRIVILEGED_PORT = 1024;
const STANDARD_PORTS = new Set(['', '80', '443']);

/** Reads WEBHOOK_ALLOW_HOSTS (comma-separated) and WEBHOOK_ALLOW_HTTP (true/false, default false). */
export function webhookConfigFromEnv(env: Env): WebhookConfig {
  const hosts = (env.WEBHOOK_ALLOW_HOSTS ?? '')
    .split(',')
    .map((host) => host.trim())
    .filter((host) => host.length > 0);
  return { allowHosts: hosts, allowHttp: envBool(env, 'WEBHOOK_ALLOW_HTTP', false) };
}

/** A delivery the guard will not make; the reason is recorded on the attempt. */
export class DestinationRefusedError extends Error {
  readonly code = 'EWEBHOOKREFUSED';
  constructor(readonly reason: string) {
    super(`destination refused: ${reason}`);
  }
}

const hostKey = (host: string): string => host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');

/** The allow-list in a form that answers "is this host or address allowed?" in one lookup. */
export class AllowList {
  private readonly keys: ReadonlySet<string>;

  constructor(entries: readonly string[]) {
    this.keys = new Set(entries.map((entry) => AllowList.key(entry)));
  }

  private static key(hostOrIp: string): string {
    const ip = parseIp(hostOrIp);
    return ip ? addressKey(ip) : `name:${hostKey(hostOrIp)}`;
  }

  has(hostOrIp: string): boolean {
    return this.keys.has(AllowList.key(hostOrIp));
  }
}

function portProblem(url: URL): string | null {
  if (STANDARD_PORTS.has(url.port) || Number(url.port) >= LOWEST_UNPRIVILEGED_PORT) return null;
  return `must use port 80, 443 or 1024 and above, not ${url.port}`;
}

/** Why an address literal or a name that always means this machine may not be used, or null. */
function hostProblem(hostname: string): string | null {
  const host = hostKey(hostname);
  if (parseIp(host)) {
    const cls = classifyAddress(host);
    return cls === 'public' ? null : `points to a ${cls} address (${host})`;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return `points to a loopback address (${host})`;
  return null;
}

function parseProblem(raw: string, cfg: WebhookConfig): { url: URL | null; problem: string | null } {
  if (raw.length > MAX_WEBHOOK_URL_CHARS) return { url: null, problem: `must be at most ${MAX_WEBHOOK_URL_CHARS} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { url: null, problem: 'must be an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && cfg.allowHttp)) {
    return { url, problem: cfg.allowHttp ? 'must use https or http' : 'must use https' };
  }
  if (url.username || url.password) return { url, problem: 'must not contain a user name or password' };
  if (!url.hostname) return { url, problem: 'must name a host' };
  return { url, problem: null };
}

/**
 * The configuration-time check of a webhook URL (no DNS): scheme, credentials, port, and address
 * literals or localhost names outside the allow-list. Returns the problem, or null when it is fine.
 */
export function checkWebhookUrlSyntax(raw: string, cfg: WebhookConfig): string | null {
  const { url, problem } = parseProblem(raw, cfg);
  if (problem || !url) return problem;
  if (new AllowList(cfg.allowHosts).has(url.hostname)) return null;
  return portProblem(url) ?? hostProblem(url.hostname);
}

/** The delivery-time check before any connection: the same rules, as a URL or a refusal. */
export function vetDeliveryUrl(raw: string, cfg: WebhookConfig, allow: AllowList): URL {
  const { url, problem } = parseProblem(raw, cfg);
  if (problem || !url) throw new DestinationRefusedError(`URL ${problem ?? 'is invalid'}`);
  if (allow.has(url.hostname)) return url;
  const refused = portProblem(url) ?? hostProblem(url.hostname);
  if (refused) throw new DestinationRefusedError(`URL ${refused}`);
  return url;
}

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: HostResolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Resolves a host name and refuses it when any of its addresses is off limits. */
export async function resolveVetted(hostname: string, allow: AllowList, resolve: HostResolver): Promise<ResolvedAddress[]> {
  const addresses = [...(await resolve(hostname))];
  if (addresses.length === 0) throw new DestinationRefusedError(`${hostname} has no address`);
  if (allow.has(hostname)) return addresses;
  for (const { address } of addresses) {
    const cls = classifyAddress(address);
    if (cls !== 'public' && !allow.has(address)) {
      throw new DestinationRefusedError(`${hostname} resolves to a ${cls} address (${address})`);
    }
  }
  return addresses;
}

function familyOf(family: number | string | undefined): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

/**
 * A `lookup` for the HTTP client's sockets: the connection goes to exactly the addresses vetted
 * here, so a DNS answer that changes between a check and the connect (rebinding) cannot slip through.
 */
export function guardedLookup(allow: AllowList, resolve: HostResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolveVetted(hostname, allow, resolve).then(
      (addresses) => {
        const family = familyOf(options.family);
        const wanted = family === 0 ? addresses : addresses.filter((a) => a.family === family);
        const first = wanted[0];
        if (!first) return callback(new DestinationRefusedError(`${hostname} has no IPv${family} address`), '');
        if (options.all) return callback(null, wanted.map((a) => ({ address: a.address, family: a.family })));
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** A webhook URL given by the operator: refused with VALIDATION_FAILED on `field` when it breaks the delivery rules. */
export function checkWebhookUrl(field: string, value: string | null | undefined, config: WebhookConfig): void {
  if (value === null || value === undefined) return;
  const problem = checkWebhookUrlSyntax(value, config);
  if (problem) throw validationError(field, problem);
}
