// The per-merchant rate limit through HTTP (contract section 6): only a request that passed its
// signature and the one-time rule spends the merchant's budget, and API instances sharing a database
// (RATE_LIMIT_STORE=database) share one budget. The instances' clock is frozen, so every request falls
// in the same second and the counts are exact.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildRuntime, type Runtime } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/core/clock.js';
import { buildApp, type AppHandle } from '../../src/server.js';
import { PaymentClient, type SignedRequest } from '../../sdk/src/index.js';
import { testConfig } from '../helpers/server.js';
import { allocateTestDatabase, type TestDatabase } from '../helpers/store.js';
import { listRecordCounts } from '../helpers/metrics.js';

interface Instance {
  readonly runtime: Runtime;
  readonly handle: AppHandle;
  readonly baseUrl: string;
}

interface Answer {
  readonly status: number;
  readonly message: string;
  readonly retryAfter: string | null;
}

const opened: { database: TestDatabase; instances: Instance[] }[] = [];

async function startInstance(database: TestDatabase, clock: ManualClock, env: Record<string, string>): Promise<Instance> {
  const runtime = await buildRuntime(testConfig(database, env), clock);
  const handle = await buildApp(runtime.services);
  await handle.app.listen({ host: '127.0.0.1', port: 0 });
  const address = handle.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { runtime, handle, baseUrl: `http://127.0.0.1:${port}` };
}

/** `count` API instances on one fresh database, all reading one frozen clock. */
async function startInstances(count: number, env: Record<string, string> = {}): Promise<{ instances: Instance[]; clock: ManualClock }> {
  const database = allocateTestDatabase();
  const clock = new ManualClock(Date.now());
  const entry = { database, instances: [] as Instance[] };
  opened.push(entry);
  // One after the other: the first applies the migrations.
  for (let i = 0; i < count; i += 1) entry.instances.push(await startInstance(database, clock, env));
  return { instances: entry.instances, clock };
}

afterEach(async () => {
  for (const { database, instances } of opened.splice(0)) {
    for (const instance of instances) await instance.handle.close();
    for (const instance of instances) await instance.runtime.close();
    await database.drop();
  }
});

async function merchantWithLimit(instance: Instance, clock: ManualClock, perSecond: number): Promise<{ id: string; client: PaymentClient }> {
  const created = await instance.runtime.services.merchants.create({
    name: 'Limited',
    mode: 'sandbox',
    key: { type: 'HMAC-SHA256' },
    rateLimitPerSecond: perSecond,
  }, 'test');
  const client = new PaymentClient({
    baseUrl: instance.baseUrl,
    merchantId: created.merchant.id,
    key: { type: 'HMAC-SHA256', secret: created.key.secret! },
    clock: () => clock.nowMs() / 1000,
  });
  return { id: created.merchant.id, client };
}

async function send(instance: Instance, path: string, request: SignedRequest): Promise<Answer> {
  const response = await fetch(`${instance.baseUrl}/v1/api/${path}`, { method: 'POST', headers: request.headers, body: request.body });
  return { status: response.status, message: (await response.json()).message, retryAfter: response.headers.get('retry-after') };
}

/** Distinct signed bodies: JSON whitespace after the object changes the bytes, not the meaning. */
const distinct = (client: PaymentClient, count: number): SignedRequest[] =>
  Array.from({ length: count }, (_, i) => client.buildSignedRequest(`{"currency":"IDR"}${' '.repeat(i)}`));

describe('what spends the budget', () => {
  it('a captured request replayed to another path, refused, spends none of it', async () => {
    const { instances, clock } = await startInstances(1);
    const api = instances[0]!;
    const merchant = await merchantWithLimit(api, clock, 5);
    const captured = merchant.client.buildSignedRequest({ transactionRef: 'pay_captured' });
    expect((await send(api, 'payment/status', captured)).status).toBe(404);
    for (let i = 0; i < 10; i += 1) {
      expect(await send(api, 'payment/refund', captured)).toMatchObject({ status: 401, message: 'SIGNATURE_REUSED' });
    }
    // The one accepted request spent one of five: four fresh ones pass, the fifth is over.
    const fresh = await Promise.all(distinct(merchant.client, 5).map((r) => send(api, 'payout/bankCode', r)));
    expect(fresh.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 429]);
  });

  it('repeats of an accepted request on its own path cannot throttle fresh requests', async () => {
    const { instances, clock } = await startInstances(1);
    const api = instances[0]!;
    const merchant = await merchantWithLimit(api, clock, 5);
    const captured = merchant.client.buildSignedRequest({ currency: 'NGN' });
    const repeats = [];
    for (let i = 0; i < 10; i += 1) repeats.push(await send(api, 'payout/bankCode', captured));
    // The first spends the merchant's budget; repeats have a budget of their own, of the same size.
    expect(repeats.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429]);
    expect(repeats[6]).toMatchObject({ message: 'RATE_LIMITED', retryAfter: expect.stringMatching(/^[1-9]\d*$/) });
    const fresh = await Promise.all(distinct(merchant.client, 4).map((r) => send(api, 'payout/bankCode', r)));
    expect(fresh.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });
});

describe('a read route over the budget', () => {
  it('answers 429 with Retry-After, and reads no page once the budget is known spent', async () => {
    const { instances, clock } = await startInstances(1);
    const api = instances[0]!;
    const merchant = await merchantWithLimit(api, clock, 3);
    const pages = Array.from({ length: 4 }, (_, i) => merchant.client.buildSignedRequest(`{"limit":${i + 1}}`));
    // One payment to list (spending one of the three), so that a page read shows on /metrics
    // (PostgreSQL counts the records it serves).
    const initiate = merchant.client.buildSignedRequest({ merchantRef: 'limited-1', method: 'NATIVE', currency: 'INR', amount: 500, name: 'Payer', email: 'p@example.com', phone: '919876543210', redirectUrl: 'https://merchant.example/return' });
    expect((await send(api, 'payment/initiate', initiate)).status).toBe(200);
    const recordsServed = async (): Promise<number> => {
      const { hit, miss } = await listRecordCounts(api.baseUrl);
      return hit + miss;
    };
    const answers = [];
    const served: number[] = [];
    for (const page of pages) {
      const response = await fetch(`${api.baseUrl}/v1/api/payment/list`, { method: 'POST', headers: page.headers, body: page.body });
      answers.push({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() });
      served.push(await recordsServed());
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429, 429]);
    expect(answers[2]!.body).toEqual({ code: '429', message: 'RATE_LIMITED', data: { detail: expect.any(String) } });
    expect(answers[2]!.retryAfter).toMatch(/^[1-9]\d*$/);
    // Once this process knows the budget is spent (the memory limiter from its bucket, the shared one
    // from the first refusal of the second), a read route waits for the limit before it reads: the last
    // refused page was never read.
    if (process.env.TEST_STORE === 'postgres') {
      expect(served[1]).toBeGreaterThan(served[0]!);
      expect(served[3]).toBe(served[2]);
    }
  });
});

describe('RATE_LIMIT_STORE=database', () => {
  it('shares one budget between two instances: 2N requests split across both get N through', async () => {
    const { instances, clock } = await startInstances(2, { RATE_LIMIT_STORE: 'database' });
    const [a, b] = instances as [Instance, Instance];
    const limit = 4;
    const merchant = await merchantWithLimit(a, clock, limit);
    const requests = distinct(merchant.client, 2 * limit);
    const answers = await Promise.all(requests.map((r, i) => send(i % 2 === 0 ? a : b, 'payout/bankCode', r)));
    expect(answers.filter((x) => x.status === 200)).toHaveLength(limit);
    const limited = answers.filter((x) => x.status === 429);
    expect(limited).toHaveLength(limit);
    for (const answer of limited) expect(answer).toMatchObject({ message: 'RATE_LIMITED', retryAfter: '1' });

    // The next second is a fresh window on both instances.
    clock.advance(1000);
    const next = await Promise.all(distinct(merchant.client, 2).map((r, i) => send(i === 0 ? a : b, 'payout/bankCode', r)));
    expect(next.map((x) => x.status)).toEqual([200, 200]);
  });

  it('keeps the counters small: past seconds are deleted', async () => {
    const { instances, clock } = await startInstances(1, { RATE_LIMIT_STORE: 'database' });
    const api = instances[0]!;
    const merchant = await merchantWithLimit(api, clock, 5);
    for (let second = 0; second < 3; second += 1) {
      expect((await send(api, 'payout/bankCode', distinct(merchant.client, 1)[0]!)).status).toBe(200);
      clock.advance(1000);
    }
    const { db, kind } = api.runtime.services.store;
    const rows = await db.selectFrom('rate_limit_windows').select('window_s').execute();
    expect(rows.map((r) => Number(r.window_s))).toEqual([Math.floor(clock.nowMs() / 1000) - 1]);
    if (kind === 'postgres') {
      // Counters skip the WAL: no fsync per request.
      const table = await sql<{ relpersistence: string }>`select relpersistence from pg_class where oid = 'rate_limit_windows'::regclass`.execute(db);
      expect(table.rows[0]?.relpersistence).toBe('u');
    }
  });
});

describe('the RATE_LIMIT_STORE setting', () => {
  it('defaults to database on PostgreSQL and memory on SQLite, and refuses other values', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).http.rateLimitStore).toBe('database');
    expect(loadConfig({}).http.rateLimitStore).toBe('memory');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x', RATE_LIMIT_STORE: 'memory' }).http.rateLimitStore).toBe('memory');
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'redis' })).toThrow(/RATE_LIMIT_STORE/);
  });
});
