// A webhook test bench: a real store, real merchants, the service key, and a plain node:http
// receiver on 127.0.0.1 whose answer each test decides.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../src/core/clock.js';
import { MerchantService } from '../../src/merchants/merchant-service.js';
import { SecretBox } from '../../src/core/secrets.js';
import { WebhookDispatcher, type DispatcherOptions } from '../../src/webhooks/dispatcher.js';
import { enqueueWebhookEvent, type EnqueueWebhookInput } from '../../src/webhooks/outbox.js';
import { WebhookService } from '../../src/webhooks/service.js';
import { loadOrCreateServiceKey, type ServiceKey } from '../../src/webhooks/signer.js';
import type { WebhookConfig } from '../../src/webhooks/ssrf.js';
import { openTestStore } from '../helpers/store.js';

export const TEST_BOX_KEY = Buffer.alloc(32, 9).toString('base64');
export const LOCAL_RECEIVER: WebhookConfig = { allowHosts: ['127.0.0.1'], allowHttp: true };

export interface ReceivedDelivery {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  readonly eventId: string;
  readonly path: string;
}

/**
 * What the receiver does with one request: answer, never answer, drop the connection, or send a 200
 * and a body that never ends, a byte at a time ('trickle').
 */
export type ReceiverBehaviour = (
  delivery: ReceivedDelivery,
) => { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | 'hang' | 'drop' | 'trickle';

export class Receiver {
  readonly hits: ReceivedDelivery[] = [];
  /** The most requests for one event id that were ever open at the same time. */
  maxConcurrentPerEvent = 0;
  behaviour: ReceiverBehaviour = () => ({ status: 200, body: 'SUCCESS' });
  private readonly open = new Map<string, number>();
  private readonly server: http.Server;
  port = 0;

  constructor() {
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async listen(port = 0): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  hitsFor(eventId: string): ReceivedDelivery[] {
    return this.hits.filter((hit) => hit.eventId === eventId);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const eventId = String(req.headers['webhook-id'] ?? '');
      const delivery = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), eventId, path: req.url ?? '' };
      this.hits.push(delivery);
      const open = (this.open.get(eventId) ?? 0) + 1;
      this.open.set(eventId, open);
      this.maxConcurrentPerEvent = Math.max(this.maxConcurrentPerEvent, open);
      res.on('close', () => this.open.set(eventId, (this.open.get(eventId) ?? 1) - 1));
      const answer = this.behaviour(delivery);
      if (answer === 'hang') return;
      if (answer === 'drop') return void req.socket.destroy();
      if (answer === 'trickle') {
        // A byte every 100 ms: never idle long enough for the sender's body timeout, never done.
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('still writing');
        const more = setInterval(() => res.write('.'), 100);
        res.on('close', () => clearInterval(more));
        return;
      }
      setTimeout(() => {
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      }, answer.delayMs ?? 0);
    });
  }
}

export interface Bench {
  readonly store: Awaited<ReturnType<typeof openTestStore>>;
  readonly clock: ManualClock;
  readonly box: SecretBox;
  readonly merchants: MerchantService;
  readonly serviceKey: ServiceKey;
  readonly webhooks: WebhookService;
  createMerchant(urls?: { payment?: string | null; payout?: string | null }): Promise<{ id: string; webhookSecret: string }>;
  enqueue(input: Partial<EnqueueWebhookInput> & { merchantId: string }): Promise<string>;
  dispatcher(options?: Partial<DispatcherOptions>): WebhookDispatcher;
  close(): Promise<void>;
}

export const paymentRecord = (ref: string) => ({
  transactionRef: ref,
  merchantRef: `order-${ref.slice(0, 8)}`,
  method: 'NATIVE',
  currency: 'INR',
  amount: 100.5,
  paidAmount: 100.5,
  fee: 2.01,
  status: 'Success',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:01:00.000Z',
  completedAt: '2025-01-01T00:01:00.000Z',
});

export async function openBench(): Promise<Bench> {
  const store = await openTestStore();
  const clock = new ManualClock(Date.now());
  const box = new SecretBox(TEST_BOX_KEY);
  const merchants = new MerchantService(store.db, box, clock, { rateLimitPerSecond: 50, credentialCacheMs: 0 });
  const serviceKey = await loadOrCreateServiceKey(store.db, box, clock);
  const webhooks = new WebhookService(store.db, serviceKey, clock);
  const dispatchers: WebhookDispatcher[] = [];
  let refs = 0;
  return {
    store,
    clock,
    box,
    merchants,
    serviceKey,
    webhooks,
    async createMerchant(urls = {}) {
      const created = await merchants.create({
        name: 'Webhook Merchant',
        mode: 'sandbox',
        key: { type: 'HMAC-SHA256' },
        paymentWebhookUrl: urls.payment ?? null,
        payoutWebhookUrl: urls.payout ?? null,
      }, 'test');
      return { id: created.merchant.id, webhookSecret: created.webhookSecret };
    },
    async enqueue(input) {
      const ref = input.resourceRef ?? `0199aaaa-0000-7000-8000-${String(++refs).padStart(12, '0')}`;
      const { eventId } = await store.db.transaction().execute((trx) =>
        enqueueWebhookEvent(trx, {
          type: 'payment.succeeded',
          resourceKind: 'payment',
          record: paymentRecord(ref),
          webhookUrl: null,
          nowMs: clock.nowMs(),
          ...input,
          resourceRef: ref,
        }),
      );
      return eventId;
    },
    dispatcher(options = {}) {
      const dispatcher = new WebhookDispatcher({ store, box, serviceKey, clock, config: LOCAL_RECEIVER, random: () => 0.5, ...options });
      dispatchers.push(dispatcher);
      return dispatcher;
    },
    async close() {
      await Promise.all(dispatchers.map((d) => d.close()));
      await store.close();
    },
  };
}

/** The event row as stored, with numbers instead of bigints. */
export async function eventRow(bench: Bench, eventId: string) {
  const row = await bench.store.db.selectFrom('webhook_events').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow();
  return {
    ...row,
    attempt_count: Number(row.attempt_count),
    next_attempt_at_ms: Number(row.next_attempt_at_ms),
    locked_until_ms: row.locked_until_ms === null ? null : Number(row.locked_until_ms),
  };
}

export async function attemptRows(bench: Bench, eventId: string) {
  const rows = await bench.store.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('event_id', '=', eventId)
    .orderBy('attempt_no')
    .execute();
  return rows.map((r) => ({ ...r, attempt_no: Number(r.attempt_no), started_at_ms: Number(r.started_at_ms), http_status: r.http_status === null ? null : Number(r.http_status) }));
}
