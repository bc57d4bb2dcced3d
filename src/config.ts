// Every setting of the service, typed and read once from the environment.
// Nothing else reads process.env, so what the service can be told is all here.
import path from 'node:path';
import { simulatorConfigFromEnv, type SimulatorConfig } from './connectors/simulator/config.js';
import { inProcessConfigFromEnv, type InProcessSimulatorConfig } from './simulator/config.js';
import { webhookConfigFromEnv, type WebhookConfig } from './webhooks/ssrf.js';
import { envBool as bool, envInt as int, type Env } from './core/env.js';
import { DEFAULT_JOB_CONCURRENCY } from './core/pooled-job.js';
import { PAYOUT_LEASE_MS } from './domain/payouts/payout-limits.js';
import type { RateLimitStore } from './http/rate-limit.js';
import { formatCidr, parseCidrList } from './core/cidr.js';

export type Role = 'all' | 'api' | 'worker';

/** The HTTP surface's own section: logging, request size, signature checks and request counting. */
export interface HttpConfig {
  readonly logLevel: string;
  readonly bodyLimitBytes: number;
  readonly signatureWindowSeconds: number;
  readonly replayTtlSeconds: number;
  /** Where requests are counted: this process's memory, or the database all API processes share. */
  readonly rateLimitStore: RateLimitStore;
  /** TRUSTED_PROXIES: the proxies whose X-Forwarded-For gives the client address (normalised CIDRs); empty: none. */
  readonly trustedProxies: readonly string[];
}

/** Live connectors (connectors/catalog.ts): the deadline of each provider request and how often settings are re-read. */
export interface ConnectorsConfig {
  readonly timeoutMs: number;
  readonly refreshMs: number;
}

/** Reconciliation's daily job (docs/reconciliation.md): whether it runs, and from which UTC hour it fetches yesterday. */
export interface ReconciliationConfig {
  readonly daily: boolean;
  readonly hourUtc: number;
}

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly publicBaseUrl: string;
  readonly role: Role;
  readonly dataDir: string;
  /** postgres://... selects PostgreSQL; empty means the embedded SQLite file under dataDir. */
  readonly databaseUrl: string | null;
  /** PostgreSQL schema to use (tests give each run its own). */
  readonly databaseSchema: string | null;
  readonly sqliteFile: string;
  /**
   * How far V8 lets its old generation grow past what the last full collection kept, in percent
   * (V8's own heuristics allow up to about 300 % under fast allocation). 0 leaves V8's default.
   */
  readonly heapGrowthPercent: number;
  /** Bearer token for /admin; generated into dataDir on first start when not given. */
  readonly adminToken: string | null;
  /** base64 of 32 bytes; encrypts HMAC and webhook secrets at rest. Generated into dataDir when not given. */
  readonly secretKey: string | null;
  readonly seedSandboxMerchant: boolean;
  readonly defaultRateLimitPerSecond: number;
  /** How long a merchant/key lookup may be served from memory before it is re-read. */
  readonly credentialCacheMs: number;
  /** How long shutdown answers new requests with 503 before it stops listening (SIGTERM only). */
  readonly shutdownDrainMs: number;
  readonly shutdownGraceMs: number;
  /** How often each background job looks for work when it last found none. */
  readonly workerIdleMs: number;
  /** The longest an idle job waits between looks: its wait doubles up to this while it finds nothing. */
  readonly workerIdleMaxMs: number;
  /** Rows each upstream-calling job (payouts and every pay-in job, each separately) has in flight in one process. */
  readonly upstreamConcurrency: number;
  /** How the simulator's connector reaches its bank: in-process on a random port unless SIMULATOR_URL is set. */
  readonly simulator: SimulatorConfig;
  /** The simulated bank the service starts when SIMULATOR_URL is unset. */
  readonly simulatorBank: InProcessSimulatorConfig;
  readonly connectors: ConnectorsConfig;
  readonly reconciliation: ReconciliationConfig;
  /** Webhook delivery: SSRF allow-list and whether plain http is allowed. */
  readonly webhooks: WebhookConfig;
  /**
   * WEBHOOK_EVENT_RETENTION_DAYS: a webhook event whose delivery is over is deleted with its attempts
   * this many days after it was created (src/webhooks/retention.ts); 0 keeps every event forever.
   */
  readonly webhookRetentionDays: number;
  /** How long a replaced secret or key keeps working beside its successor after a rotation. */
  readonly rotation: {
    /** A merchant's replaced webhook secret signs beside the new one (WEBHOOK_SECRET_OVERLAP_SECONDS). */
    readonly webhookSecretOverlapSeconds: number;
    /** The service's replaced RSA key stays listed in /v1/public-key (SERVICE_KEY_OVERLAP_SECONDS). */
    readonly serviceKeyOverlapSeconds: number;
  };
  readonly http: HttpConfig;
  readonly console: ConsoleConfig;
}

/** The web console (docs/console.md): sessions, sign-in throttling, invitations and the cookie. */
export interface ConsoleConfig {
  /** CONSOLE_IDLE_MINUTES: a session unused this long ends. */
  readonly idleMs: number;
  /** CONSOLE_ABSOLUTE_HOURS: a session ends this long after sign-in, used or not. */
  readonly absoluteMs: number;
  /** CONSOLE_LOCKOUT_FAILURES: failed sign-ins of one account before it is locked. */
  readonly accountFailures: number;
  /** CONSOLE_ADDRESS_FAILURES: failed sign-ins from one address before it is locked. */
  readonly addressFailures: number;
  /** CONSOLE_LOCKOUT_MINUTES: the first lockout; each further one doubles, up to a day. */
  readonly lockoutMs: number;
  readonly maxLockoutMs: number;
  readonly invitationTtlMs: number;
  /** CONSOLE_SECURE_COOKIE: the Secure flag (and the __Host- name); by default when PUBLIC_BASE_URL is https. */
  readonly secureCookie: boolean;
}

/** Default: shared counters on PostgreSQL (where several API processes are the norm), memory on SQLite. */
function rateLimitStore(raw: string | undefined, databaseUrl: string | null): RateLimitStore {
  if (raw === undefined || raw === '') return databaseUrl ? 'database' : 'memory';
  if (raw === 'memory' || raw === 'database') return raw;
  throw new Error(`config: RATE_LIMIT_STORE must be memory or database, got "${raw}"`);
}

/** A comma-separated CIDR list; a range that does not parse stops the start, it is never guessed at. */
function trustedProxies(raw: string | undefined): string[] {
  const entries = (raw ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
  const { cidrs, problems } = parseCidrList(entries);
  if (problems.length > 0) {
    throw new Error(`config: TRUSTED_PROXIES must be IPv4/IPv6 addresses or CIDR ranges, comma-separated; bad: ${problems.map((p) => p.value).join(', ')}`);
  }
  return cidrs.map(formatCidr);
}

function role(raw: string | undefined): Role {
  if (raw === undefined || raw === '') return 'all';
  if (raw === 'all' || raw === 'api' || raw === 'worker') return raw;
  throw new Error(`config: ROLE must be all, api or worker, got "${raw}"`);
}

/**
 * A payout's claim lease must outlast the upstream call it covers, with room for the writes after it:
 * otherwise a second worker could take the row while the first still waits for the bank's answer.
 */
export const MAX_UPSTREAM_TIMEOUT_MS = PAYOUT_LEASE_MS - 10_000;

function withinLease(simulator: SimulatorConfig): SimulatorConfig {
  if (simulator.timeoutMs > MAX_UPSTREAM_TIMEOUT_MS) {
    throw new Error(`config: SIMULATOR_TIMEOUT_MS must be at most ${MAX_UPSTREAM_TIMEOUT_MS} (the payout lease is ${PAYOUT_LEASE_MS} ms), got ${simulator.timeoutMs}`);
  }
  return simulator;
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('config: DATABASE_URL must start with postgres:// (leave it empty for SQLite)');
  }
  const schema = env.DATABASE_SCHEMA || null;
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error('config: DATABASE_SCHEMA must be a lowercase identifier');
  }
  const publicBaseUrl = (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    host: env.HOST || '127.0.0.1',
    port,
    publicBaseUrl,
    role: role(env.ROLE),
    dataDir,
    databaseUrl,
    databaseSchema: schema,
    sqliteFile: path.join(dataDir, env.SQLITE_FILE || 'paygate.sqlite'),
    heapGrowthPercent: int(env, 'HEAP_GROWTH_PERCENT', 100, 0, 400),
    adminToken: env.ADMIN_TOKEN || null,
    secretKey: env.SECRET_KEY || null,
    seedSandboxMerchant: bool(env, 'SEED_SANDBOX_MERCHANT', true),
    defaultRateLimitPerSecond: int(env, 'RATE_LIMIT_PER_SECOND', 50, 1, 1_000_000),
    credentialCacheMs: int(env, 'CREDENTIAL_CACHE_MS', 2000, 0, 60_000),
    shutdownDrainMs: int(env, 'SHUTDOWN_DRAIN_MS', 5000, 0, 120_000),
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 120_000),
    workerIdleMs: int(env, 'WORKER_IDLE_MS', 500, 10, 60_000),
    workerIdleMaxMs: int(env, 'WORKER_IDLE_MAX_MS', 2_000, 10, 600_000),
    upstreamConcurrency: int(env, 'UPSTREAM_CONCURRENCY', DEFAULT_JOB_CONCURRENCY, 1, 1000),
    simulator: withinLease(simulatorConfigFromEnv(env)),
    simulatorBank: inProcessConfigFromEnv(env),
    connectors: {
      // Bounded by the payout lease like the simulator's deadline (MAX_UPSTREAM_TIMEOUT_MS).
      timeoutMs: int(env, 'CONNECTOR_TIMEOUT_MS', 15_000, 50, MAX_UPSTREAM_TIMEOUT_MS),
      refreshMs: int(env, 'ROUTING_REFRESH_MS', 5_000, 0, 300_000),
    },
    reconciliation: {
      daily: bool(env, 'RECONCILIATION_DAILY', true),
      hourUtc: int(env, 'RECONCILIATION_HOUR_UTC', 2, 0, 23),
    },
    webhooks: webhookConfigFromEnv(env),
    webhookRetentionDays: int(env, 'WEBHOOK_EVENT_RETENTION_DAYS', 90, 0, 36_500),
    rotation: {
      webhookSecretOverlapSeconds: int(env, 'WEBHOOK_SECRET_OVERLAP_SECONDS', 86_400, 0, 30 * 86_400),
      serviceKeyOverlapSeconds: int(env, 'SERVICE_KEY_OVERLAP_SECONDS', 86_400, 0, 30 * 86_400),
    },
    http: {
      logLevel: env.LOG_LEVEL || 'info',
      bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 64 * 1024, 1024, 1024 * 1024),
      signatureWindowSeconds: int(env, 'SIGNATURE_WINDOW_SECONDS', 300, 1, 3600),
      replayTtlSeconds: int(env, 'REPLAY_TTL_SECONDS', 600, 60, 86400),
      rateLimitStore: rateLimitStore(env.RATE_LIMIT_STORE, databaseUrl),
      trustedProxies: trustedProxies(env.TRUSTED_PROXIES),
    },
    console: {
      idleMs: int(env, 'CONSOLE_IDLE_MINUTES', 30, 1, 24 * 60) * 60_000,
      absoluteMs: int(env, 'CONSOLE_ABSOLUTE_HOURS', 12, 1, 7 * 24) * 3_600_000,
      accountFailures: int(env, 'CONSOLE_LOCKOUT_FAILURES', 5, 1, 1000),
      addressFailures: int(env, 'CONSOLE_ADDRESS_FAILURES', 20, 1, 100_000),
      lockoutMs: int(env, 'CONSOLE_LOCKOUT_MINUTES', 15, 1, 24 * 60) * 60_000,
      maxLockoutMs: 24 * 3_600_000,
      invitationTtlMs: 72 * 3_600_000,
      secureCookie: bool(env, 'CONSOLE_SECURE_COOKIE', publicBaseUrl.startsWith('https:')),
    },
  };
}
