// SIGTERM under keep-alive: during the drain every new request, on an open connection or a new one,
// gets 503 UNAVAILABLE with Connection: close (never a reset), and a request already in flight when
// the listener finally closes still gets its normal answer. The service runs as a real process.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentClient } from '../../sdk/src/index.js';
import { TEST_ADMIN_TOKEN, TEST_SECRET_KEY } from '../helpers/server.js';
import { freePort } from '../helpers/ports.js';
import { allocateTestDatabase, type TestDatabase } from '../helpers/store.js';

const KEPT_ALIVE = 4;

let database: TestDatabase;
let child: ChildProcess;
let exited: Promise<number | null>;
let stderr = '';
let port = 0;

beforeAll(async () => {
  database = allocateTestDatabase();
  port = await freePort();
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(__dirname, '../..'),
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.databaseUrl ?? '',
      DATABASE_SCHEMA: database.databaseSchema ?? '',
      SEED_SANDBOX_MERCHANT: 'false',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SECRET_KEY: TEST_SECRET_KEY,
      SHUTDOWN_DRAIN_MS: '6000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  while ((await get('/readyz', false).catch(() => null))?.status !== 200) {
    if (child.exitCode !== null) throw new Error(`service exited before it was ready: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  await database?.drop();
});

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: any;
  readonly reusedSocket: boolean;
}

function get(urlPath: string, agent: http.Agent | false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: urlPath, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: JSON.parse(Buffer.concat(chunks).toString()), reusedSocket: request.reusedSocket }),
      );
    });
    request.on('error', reject);
  });
}

/** Asks /readyz on a fresh connection until the answer is not `200`; returns it, or the error. */
async function readinessUntilChanged(): Promise<Answer | Error> {
  for (;;) {
    const answer = await get('/readyz', false).catch((error: Error) => error);
    if (answer instanceof Error || answer.status !== 200) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const errorCode = (answer: Answer | Error): string | undefined => (answer instanceof Error ? (answer as Error & { code?: string }).code : undefined);

/**
 * Polls until nothing listens any more (the drain is over); every answer until then is the drain's 503.
 * A connection that reaches the listener's accept queue in the instant it closes is reset by the
 * kernel, not by the service; that reset is accepted only if the very next connection is refused.
 */
async function untilRefused(): Promise<void> {
  for (;;) {
    const answer = await get('/readyz', false).catch((error: Error) => error);
    if (answer instanceof Error) {
      if (errorCode(answer) === 'ECONNRESET') {
        expect(errorCode(await get('/readyz', false).catch((error: Error) => error))).toBe('ECONNREFUSED');
        return;
      }
      expect(errorCode(answer)).toBe('ECONNREFUSED');
      return;
    }
    expect(answer.status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A signed balance request whose headers arrive now and whose body arrives when `finish` is called. */
async function startSlowRequest(): Promise<{ finish(): Promise<string> }> {
  const created = await fetch(`http://127.0.0.1:${port}/admin/merchants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Drain Test' }),
  }).then((response) => response.json() as Promise<{ data: { merchant: { id: string }; key: { privateKeyPem: string } } }>);
  const client = new PaymentClient({
    baseUrl: `http://127.0.0.1:${port}`,
    merchantId: created.data.merchant.id,
    key: { type: 'RSA-SHA512', privateKeyPem: created.data.key.privateKeyPem },
  });
  const signed = client.buildSignedRequest({ currency: 'INR' });
  const socket = net.connect({ host: '127.0.0.1', port });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const closed = new Promise<string>((resolve, reject) => {
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
  const head = [
    'POST /v1/api/account/balance HTTP/1.1',
    'Host: localhost',
    ...Object.entries(signed.headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(signed.body)}`,
    'Expect: 100-continue',
  ];
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  // The interim answer is written as the request is dispatched, so the service counts it in flight.
  while (!received.includes('100 Continue')) await new Promise((resolve) => setTimeout(resolve, 10));
  received = '';
  return {
    finish: () => {
      // write, not end: a client that half-closes has its unanswered request aborted by Node.
      socket.write(signed.body);
      return closed;
    },
  };
}

describe('shutdown under keep-alive', () => {
  it('answers 503 with Connection: close during the drain, finishes the request in flight and exits 0', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: KEPT_ALIVE });
    const warm = await Promise.all(Array.from({ length: KEPT_ALIVE }, () => get('/healthz', agent)));
    expect(warm.map((a) => a.status)).toEqual(Array(KEPT_ALIVE).fill(200));
    const slow = await startSlowRequest();

    child.kill('SIGTERM');
    const draining = await readinessUntilChanged();
    expect(draining).not.toBeInstanceOf(Error);
    expect((draining as Answer).status).toBe(503);
    expect((draining as Answer).headers.connection).toBe('close');
    expect((draining as Answer).body).toMatchObject({ status: 'unavailable' });

    // The kept-alive connections are still open: each new request on them is answered, never reset.
    const onOpen = await Promise.all(Array.from({ length: KEPT_ALIVE }, () => get('/v1/public-key', agent)));
    for (const answer of onOpen) {
      expect(answer.reusedSocket).toBe(true);
      expect(answer.status).toBe(503);
      expect(answer.headers.connection).toBe('close');
      expect(answer.headers['request-id']).toBeTruthy();
      expect(answer.body).toMatchObject({ code: '503', message: 'UNAVAILABLE' });
    }

    await untilRefused();
    const raw = await slow.finish();
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(raw.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: '200', message: 'SUCCESS', data: { currency: 'INR' } });
    expect(await exited, stderr.slice(-3000)).toBe(0);
    agent.destroy();
  });
});
