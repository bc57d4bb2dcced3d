// HTTP that Node's parser cannot read (no request line, a non-numeric Content-Length, Content-Length
// together with Transfer-Encoding) is answered with the contract's envelope, 400 INVALID_REQUEST, a
// Request-Id and Connection: close, written over raw TCP since no client library sends such bytes.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({}, { worker: false });
});

afterAll(async () => {
  await server?.close();
});

/** Writes the bytes on a fresh connection and collects everything until the server ends it. */
function exchange(bytes: string): Promise<string> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      socket.end();
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(bytes);
  });
}

interface RawAnswer {
  readonly statusLine: string;
  readonly headers: Map<string, string>;
  readonly body: string;
}

function parse(raw: string): RawAnswer {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { statusLine, headers, body: raw.slice(split + 4) };
}

const signedLooking = (extra: string, body: string): string =>
  `POST /v1/api/account/balance HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${extra}\r\n${body}`;

const CASES: Record<string, string> = {
  'no request line': 'GARBAGE\r\n\r\n',
  'a non-numeric Content-Length': signedLooking('Content-Length: abc\r\n', '{"currency":"INR"}'),
  'Content-Length with Transfer-Encoding: chunked': signedLooking(
    'Content-Length: 18\r\nTransfer-Encoding: chunked\r\n',
    '12\r\n{"currency":"INR"}\r\n0\r\n\r\n',
  ),
};

describe('malformed HTTP', () => {
  for (const [name, bytes] of Object.entries(CASES)) {
    it(`${name} gets 400 INVALID_REQUEST in the envelope with a Request-Id`, async () => {
      const answer = parse(await exchange(bytes));
      expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
      expect(answer.headers.get('request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(answer.headers.get('connection')).toBe('close');
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(answer.body));
      const body = JSON.parse(answer.body) as { code: string; message: string; data: { detail: string } };
      expect(Object.keys(body).sort()).toEqual(['code', 'data', 'message']);
      expect(body).toMatchObject({ code: '400', message: 'INVALID_REQUEST' });
      expect(typeof body.data.detail).toBe('string');
    });
  }

  it('bytes sent after the refusal get no second answer and no reset', async () => {
    const { hostname, port } = new URL(server.baseUrl);
    const socket = net.connect({ host: hostname, port: Number(port) });
    let received = '';
    const ended = new Promise<void>((resolve, reject) => {
      socket.on('end', () => resolve());
      socket.on('error', reject);
    });
    socket.on('data', (chunk: Buffer) => {
      const first = received === '';
      received += chunk.toString();
      if (first) socket.write('MORE GARBAGE\r\n\r\n', () => socket.end());
    });
    socket.write(CASES['no request line']!);
    await ended;
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(parse(received).statusLine).toBe('HTTP/1.1 400 Bad Request');
  });

  it('each refusal has its own Request-Id, and the service keeps answering', async () => {
    const first = parse(await exchange(CASES['no request line']!));
    const second = parse(await exchange(CASES['no request line']!));
    expect(first.headers.get('request-id')).not.toBe(second.headers.get('request-id'));
    const health = await fetch(`${server.baseUrl}/healthz`);
    expect(health.status).toBe(200);
  });
});
