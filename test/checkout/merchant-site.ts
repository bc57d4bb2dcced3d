// A merchant's side of a checkout, on 127.0.0.1: the page payers return to (redirectUrl) and the
// webhook receiver, which verifies every delivery with the SDK before recording it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyStandardWebhook, type PaymentWebhookPayload } from '../../sdk/src/index.js';

export interface ReceivedEvent {
  readonly id: string;
  readonly type: string;
  readonly transactionRef: string;
  readonly status: string;
}

export interface MerchantSite {
  readonly returnUrl: string;
  readonly webhookUrl: string;
  /** Verified events, deduplicated by event id. */
  readonly events: ReceivedEvent[];
  /** Deliveries whose signature did not verify (should stay empty). */
  readonly rejected: string[];
  waitForEvent(transactionRef: string, type: string, timeoutMs?: number): Promise<ReceivedEvent>;
  close(): Promise<void>;
}

const RETURN_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>Merchant</title></head><body><h1>Back at the shop</h1></body></html>`;

async function readBody(request: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * `webhookSecret` is the merchant's whsec_ secret; `nowSeconds` is the service's clock, which tests
 * move forward, so the signature's freshness is judged against the time the service signed at.
 */
export async function startMerchantSite(webhookSecret: () => string, nowSeconds: () => number): Promise<MerchantSite> {
  const events: ReceivedEvent[] = [];
  const rejected: string[] = [];

  const server = http.createServer((request, response) => {
    void (async () => {
      if (request.method === 'POST' && request.url === '/webhook') {
        const body = await readBody(request);
        const verified = verifyStandardWebhook<PaymentWebhookPayload>({
          body,
          headers: request.headers,
          secret: webhookSecret(),
          nowSeconds: nowSeconds(),
        });
        if (!verified.ok) {
          rejected.push(verified.reason);
          response.writeHead(400).end();
          return;
        }
        const { event, transactionRef, status } = verified.event;
        if (!events.some((known) => known.id === event.id)) events.push({ id: event.id, type: event.type, transactionRef, status });
        response.writeHead(200, { 'content-type': 'text/plain' }).end('SUCCESS');
        return;
      }
      if (request.method === 'GET' && request.url?.startsWith('/return')) {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(RETURN_PAGE);
        return;
      }
      response.writeHead(404).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    returnUrl: `${base}/return`,
    webhookUrl: `${base}/webhook`,
    events,
    rejected,
    async waitForEvent(transactionRef, type, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find((event) => event.transactionRef === transactionRef && event.type === type);
        if (found) return found;
        if (Date.now() > deadline) {
          const seen = events.map((event) => `${event.type} ${event.transactionRef}`).join(', ') || 'none';
          throw new Error(`no verified ${type} webhook for ${transactionRef} within ${timeoutMs} ms (received: ${seen}; rejected: ${rejected.join(', ') || 'none'})`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
