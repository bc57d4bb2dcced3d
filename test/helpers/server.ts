// Starts the real service on a random port over a fresh database, and makes merchants whose SDK
// clients sign every request. Tests talk to it over HTTP like a merchant would.
import { loadConfig, type Config } from '../../src/config.js';
import { buildRuntime } from '../../src/bootstrap.js';
import { Worker, type Job } from '../../src/core/worker.js';
import { OffsetClock } from '../../src/core/clock.js';
import { buildApp, type AppHandle } from '../../src/server.js';
import type { Services } from '../../src/services.js';
import type { KeyType } from '../../src/merchants/merchant-service.js';
import type { KeyScope } from '../../src/merchants/access.js';
import { PaymentClient } from '../../sdk/src/index.js';
import { allocateTestDatabase, type TestDatabase } from './store.js';
import type { ConnectorDefinition } from '../../src/connectors/connector.js';

export interface TestMerchant {
  readonly id: string;
  readonly client: PaymentClient;
  readonly keyId: string;
  readonly privateKeyPem?: string;
  readonly secret?: string;
  readonly webhookSecret: string;
}

export interface TestServer {
  readonly baseUrl: string;
  readonly services: Services;
  readonly handle: AppHandle;
  readonly clock: OffsetClock;
  readonly adminToken: string;
  readonly database: TestDatabase;
  readonly worker: Worker;
  /** The background jobs the runtime made from the configuration (the worker runs them unless `worker: false`). */
  readonly jobs: readonly Job[];
  createMerchant(options?: { keyType?: KeyType; keyScope?: KeyScope; rateLimitPerSecond?: number; mode?: 'sandbox' | 'live' }): Promise<TestMerchant>;
  /** Calls the operator API with the bearer token. */
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export const TEST_ADMIN_TOKEN = 'adm_test_token_0123456789';
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

/** Configuration for a test server on `database`; `env` overrides any setting. */
export function testConfig(database: TestDatabase, env: Record<string, string> = {}): Config {
  return loadConfig({
    PORT: '0',
    LOG_LEVEL: 'silent',
    DATA_DIR: database.dataDir,
    SQLITE_FILE: 'test.sqlite',
    DATABASE_URL: database.databaseUrl ?? '',
    DATABASE_SCHEMA: database.databaseSchema ?? '',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    SECRET_KEY: TEST_SECRET_KEY,
    RATE_LIMIT_PER_SECOND: '100000',
    CREDENTIAL_CACHE_MS: '0',
    SIMULATOR_PAYOUT_DELAY_MS: '50',
    SIMULATOR_TIMEOUT_MS: '3000',
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1,localhost',
    WEBHOOK_ALLOW_HTTP: 'true',
    WORKER_IDLE_MS: '50',
    // Jobs poll at their own intervals, as before backoff, unless a test sets a longer ceiling.
    WORKER_IDLE_MAX_MS: '50',
    // The daily statement fetch would call the simulated bank at start-up, beside what a test counts
    // or faults there; the reconciliation tests switch it on, or run the job themselves.
    RECONCILIATION_DAILY: 'false',
    ...env,
  });
}

export interface TestServerOptions {
  /** Run the background jobs (collections, expiry, webhooks, settlement); default true. */
  readonly worker?: boolean;
  /** The live connectors offered (default: those the service ships). */
  readonly connectors?: readonly ConnectorDefinition[];
  /** Where to listen (default 127.0.0.1); `::1` serves over IPv6, baseUrl then uses [::1]. */
  readonly host?: string;
  /**
   * An earlier server's database and data directory, to start the service again on them (a restart);
   * the caller drops it. Default: a fresh one, dropped by close().
   */
  readonly database?: TestDatabase;
}

export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const ownDatabase = options.database === undefined;
  const database = options.database ?? allocateTestDatabase();
  const dropOwn = async (): Promise<void> => {
    if (ownDatabase) await database.drop();
  };
  const clock = new OffsetClock();
  const runtime = await buildRuntime(testConfig(database, env), clock, 'start', { connectors: options.connectors }).catch(async (error: unknown) => {
    await dropOwn();
    throw error;
  });
  const { services } = runtime;
  const handle = await buildApp(services);
  const host = options.host ?? '127.0.0.1';
  await handle.app.listen({ host, port: 0 });
  const address = handle.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  services.channels.setServiceBaseUrl(baseUrl);
  const worker = new Worker(options.worker === false ? [] : runtime.jobs, { error: () => undefined }, runtime.workerOptions);
  worker.start();

  return {
    baseUrl,
    services,
    handle,
    clock,
    adminToken: TEST_ADMIN_TOKEN,
    database,
    async createMerchant(options = {}) {
      const created = await services.merchants.create({
        name: 'Test Merchant',
        mode: options.mode ?? 'sandbox',
        key: { type: options.keyType ?? 'HMAC-SHA256', scope: options.keyScope },
        rateLimitPerSecond: options.rateLimitPerSecond,
      }, 'test');
      const key =
        created.key.type === 'RSA-SHA512'
          ? { type: 'RSA-SHA512' as const, privateKeyPem: created.key.privateKeyPem! }
          : { type: 'HMAC-SHA256' as const, secret: created.key.secret! };
      return {
        id: created.merchant.id,
        client: new PaymentClient({ baseUrl, merchantId: created.merchant.id, key, clock: () => clock.nowMs() / 1000 }),
        keyId: created.key.keyId,
        privateKeyPem: created.key.privateKeyPem,
        secret: created.key.secret,
        webhookSecret: created.webhookSecret,
      };
    },
    async admin(method, path, body) {
      const response = await fetch(`${baseUrl}/admin${path}`, {
        method,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    worker,
    jobs: runtime.jobs,
    async close() {
      await handle.close();
      await worker.stop();
      await runtime.close();
      await dropOwn();
    },
  };
}
