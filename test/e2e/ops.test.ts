// Operations endpoints and graceful shutdown, as an operator sees them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { PaymentClient } from '../../sdk/src/index.js';
import { startTestServer, TEST_ADMIN_TOKEN, TEST_SECRET_KEY, type TestServer } from '../helpers/server.js';
import { allocateTestDatabase } from '../helpers/store.js';
import { freePort } from '../helpers/ports.js';

/** paygate_db_statements_total on a /metrics page (whole or filtered); the metric must be there. */
function statementsIn(text: string): number {
  const match = /^paygate_db_statements_total (\d+)$/m.exec(text);
  expect(match).not.toBeNull();
  return Number(match![1]);
}

describe('operations endpoints', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('reports liveness and readiness with the store kind', async () => {
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', store: server.services.store.kind });
  });

  it('exposes Prometheus metrics that count requests by route and status', async () => {
    const merchant = await server.createMerchant();
    await merchant.client.bankCodes({ currency: 'IDR' });
    await merchant.client.request('payout/bankCode', { currency: 'XXX' });
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    expect(text).toMatch(/http_request_duration_seconds_count\{method="POST",route="\/v1\/api\/payout\/bankCode",status="200"\} 1/);
    expect(text).toMatch(/http_requests_refused_total\{route="\/v1\/api\/payout\/bankCode",status="400"\} 1/);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('counts the statements run on the database, which a signed read adds to', async () => {
    const statements = async (): Promise<number> => statementsIn(await (await fetch(`${server.baseUrl}/metrics`)).text());
    const merchant = await server.createMerchant();
    const before = await statements();
    expect(before).toBeGreaterThan(0);
    // The signature's one-time record at least; the balance read itself on top.
    await merchant.client.balance({ currency: 'INR' });
    expect(await statements()).toBeGreaterThanOrEqual(before + 2);
  });

  it('answers only the metrics named by name[], without collecting the others (no database reads)', async () => {
    // A server of its own without background jobs, so that nothing but the scrapes runs statements.
    const quiet = await startTestServer({}, { worker: false });
    onTestFinished(() => quiet.close());
    const scrape = async (query: string): Promise<string> => {
      const response = await fetch(`${quiet.baseUrl}/metrics${query}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/plain');
      return response.text();
    };
    const one = '?name[]=paygate_db_statements_total';

    const first = await scrape(one);
    expect(first.endsWith('\n')).toBe(true);
    expect(first.split('\n').filter((line) => line !== '')).toEqual([
      expect.stringMatching(/^# HELP paygate_db_statements_total /),
      '# TYPE paygate_db_statements_total counter',
      expect.stringMatching(/^paygate_db_statements_total \d+$/),
    ]);
    // A filtered scrape runs no statement of its own: the count is where it was.
    expect(statementsIn(await scrape(one))).toBe(statementsIn(first));
    // The whole page does (the backlogs are counted in the database), and it holds every metric.
    const whole = await scrape('');
    expect(whole).toContain('process_resident_memory_bytes');
    expect(statementsIn(await scrape(one))).toBeGreaterThan(statementsIn(first));

    // Several names, from the service's registry and the connectors' alike; unknown names are left out.
    const two = await scrape('?name[]=process_resident_memory_bytes&name[]=paygate_webhook_backlog&name[]=no_such_metric');
    expect(two).toMatch(/^process_resident_memory_bytes \d+$/m);
    expect(two).toMatch(/^paygate_webhook_backlog \d+$/m);
    expect(two).not.toContain('paygate_db_statements_total');
    expect(await scrape('?name[]=no_such_metric')).toBe('');
    // Names of a plain object's own machinery are names like any other: not metrics here.
    expect(await scrape('?name[]=constructor&name[]=__proto__&name[]=toString')).toBe('');

    const bad = await fetch(`${quiet.baseUrl}/metrics?name[]=${encodeURIComponent('bad name{}')}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: '400', message: 'VALIDATION_FAILED' });
  });

  it('publishes an OpenAPI document generated from the route schemas, and its browser view', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as any;
    expect(doc.openapi).toBe('3.1.0');
    const bankCode = doc.paths['/v1/api/payout/bankCode'].post;
    expect(bankCode.requestBody.content['application/json'].schema.properties.currency).toEqual({ $ref: '#/components/schemas/Currency' });
    expect(doc.components.schemas.Currency).toMatchObject({ type: 'string', enum: ['INR', 'EGP', 'NGN', 'IDR'] });
    expect(bankCode.security).toEqual([{ MerchantID: [], Timestamp: [], Signature: [] }]);
    expect(doc.components.securitySchemes.Signature.in).toBe('header');
    expect((await fetch(`${server.baseUrl}/docs/`)).status).toBe(200);
  });
});

describe('graceful shutdown', () => {
  it('finishes requests in flight on SIGTERM, refuses new ones with 503, and exits 0', async () => {
    const database = allocateTestDatabase();
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      env: {
        ...process.env,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        DATA_DIR: database.dataDir,
        DATABASE_URL: '',
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        SECRET_KEY: TEST_SECRET_KEY,
        RATE_LIMIT_PER_SECOND: '100000',
        SHUTDOWN_DRAIN_MS: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('Sandbox MerchantID') && resolve());
        child.on('exit', () => reject(new Error('service exited before it was ready')));
      });
      const sandbox = JSON.parse(fs.readFileSync(path.join(database.dataDir, 'sandbox-merchant.json'), 'utf8'));
      const client = new PaymentClient({
        baseUrl: `http://127.0.0.1:${port}`,
        merchantId: sandbox.merchantId,
        key: { type: 'RSA-SHA512', privateKeyPem: fs.readFileSync(sandbox.privateKeyFile, 'utf8') },
      });
      const currencies = ['INR', 'EGP', 'NGN', 'IDR'] as const;
      const burst = Array.from({ length: 120 }, (_, i) =>
        client.bankCodes({ currency: currencies[i % 4]! }).then(
          (result) => ({ status: result.status, message: result.message }),
          (error: Error & { cause?: { code?: string } }) => ({ status: 0, message: error.cause?.code ?? error.message }),
        ),
      );
      await burst[0];
      child.kill('SIGTERM');
      const outcomes = await Promise.all(burst);
      expect(await exited, stderr.slice(-3000)).toBe(0);
      // Every request either completed, was refused with the envelope, or never got a connection.
      for (const outcome of outcomes) {
        const completed = outcome.status === 200;
        const refused = outcome.status === 503 && outcome.message === 'UNAVAILABLE';
        // Refused connections, or a request written onto an idle kept-alive socket at the instant the
        // server closed it (HTTP's own race; the server never read it). Clients retry both.
        const neverConnected = outcome.status === 0 && ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'].includes(outcome.message);
        expect(completed || refused || neverConnected, JSON.stringify(outcome)).toBe(true);
      }
      expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThan(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await database.drop();
    }
  });
});
