// The payment module on a real store with the real bank simulator and SimulatorChannel, all on one
// manual clock, and the real callback route on a small HTTP server so the simulator's signed
// callbacks arrive exactly as in production. Used by the service-level payment tests.
import Fastify, { type FastifyInstance } from 'fastify';
import { ChannelRegistry } from '../../src/connectors/registry.js';
import { SimulatorChannel } from '../../src/connectors/simulator/flows.js';
import { startSimulator, type SimulatorHandle } from '../../src/simulator/server.js';
import { callbackRoutes } from '../../src/api/callbacks.js';
import { ManualClock } from '../../src/core/clock.js';
import { FeeService } from '../../src/domain/fees.js';
import { MerchantService, type Merchant } from '../../src/merchants/merchant-service.js';
import type { Currency } from '../../src/core/money.js';
import { PaymentService } from '../../src/domain/payments/service.js';
import type { PaymentJobs } from '../../src/domain/payments/payment-jobs.js';
import type { InitiateRequest } from '../../src/domain/payments/payment-request.js';
import { SecretBox } from '../../src/core/secrets.js';
import { errorBody } from '../../src/http/envelope.js';
import { toAppError } from '../../src/http/errors.js';
import { LedgerService, type Balances } from '../../src/ledger/service.js';
import type { Db } from '../../src/store/schema.js';
import type { WebhookEventsTable } from '../../src/webhooks/webhook-rows.js';
import { openTestStore } from '../helpers/store.js';

type TestStore = Awaited<ReturnType<typeof openTestStore>>;

export const PUBLIC_BASE_URL = 'https://pay.example.test';
const SIM_KEY = 'sim-payments-test-key';
const SIM_CALLBACK_SECRET = 'sim-payments-test-secret';

export interface PaymentHarness {
  readonly store: TestStore;
  readonly db: Db;
  readonly clock: ManualClock;
  readonly merchants: MerchantService;
  readonly fees: FeeService;
  readonly ledger: LedgerService;
  readonly simulator: SimulatorHandle;
  readonly channels: ChannelRegistry;
  readonly payments: PaymentService;
  readonly jobs: PaymentJobs;
  /** The callback endpoint the simulator posts to (the real route). */
  readonly callbackUrl: string;
  createMerchant(mode?: 'sandbox' | 'live'): Promise<Merchant>;
  balances(merchantId: string, currency: Currency): Promise<Balances>;
  events(transactionRef: string): Promise<WebhookEventsTable[]>;
  close(): Promise<void>;
}

/** A valid create request for the method; `overrides` replace any field. */
export function paymentRequest(currency: Currency, method: string, overrides: Partial<InitiateRequest> = {}): InitiateRequest {
  const amounts: Record<Currency, number> = { INR: 1500.5, EGP: 250, NGN: 12_000, IDR: 150_000 };
  const phones: Record<Currency, string> = { INR: '919812345678', EGP: '01012345678', NGN: '2348031234567', IDR: '6281234567890' };
  return {
    merchantRef: `ref-${Math.random().toString(36).slice(2, 12)}`,
    method,
    currency,
    amount: amounts[currency],
    name: 'Asha Rao',
    email: 'asha@example.com',
    phone: phones[currency],
    redirectUrl: 'https://shop.example.com/return',
    ...overrides,
  };
}

async function startCallbackServer(registry: () => ChannelRegistry, payments: () => PaymentService): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ logger: false });
  app.decorateRequest('rawBody', null);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body as Buffer;
    try {
      done(null, JSON.parse((body as Buffer).toString('utf8')));
    } catch {
      done(null, undefined);
    }
  });
  app.setErrorHandler((error, _request, reply) => {
    const appError = toAppError(error);
    void reply.code(appError.status).send(errorBody(appError));
  });
  await app.register(async (scope) => {
    await scope.register(callbackRoutes, { channels: { byName: (name) => registry().byName(name) }, payments: payments() });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, url: `http://127.0.0.1:${port}` };
}

/** `channelTimeoutMs`: how long the channel waits for the simulator (a test holding requests needs long). */
export async function startPaymentHarness(options: { channelTimeoutMs?: number } = {}): Promise<PaymentHarness> {
  const store = await openTestStore();
  const clock = new ManualClock(Date.UTC(2025, 5, 2, 9, 0, 0));
  const box = new SecretBox(Buffer.alloc(32, 3).toString('base64'));
  const merchants = new MerchantService(store.db, box, clock, { rateLimitPerSecond: 50, credentialCacheMs: 0 });
  const fees = new FeeService(store.db, clock, { cacheMs: 0 });
  const ledger = new LedgerService(store, clock);

  let registry: ChannelRegistry | null = null;
  let payments: PaymentService | null = null;
  const callbacks = await startCallbackServer(() => registry!, () => payments!);
  const callbackUrl = `${callbacks.url}/v1/callbacks/simulator`;
  const simulator = await startSimulator({
    apiKey: SIM_KEY,
    callbackUrl,
    callbackSecret: SIM_CALLBACK_SECRET,
    clock,
    sweepIntervalMs: 20,
    callbackRetryDelaysMs: [20, 50],
  });
  const channel = new SimulatorChannel({ baseUrl: simulator.url, apiKey: SIM_KEY, callbackSecret: SIM_CALLBACK_SECRET, timeoutMs: options.channelTimeoutMs ?? 2_000, clock });
  registry = new ChannelRegistry({
    channel,
    server: simulator,
    setCallbackUrl: (url) => simulator.setCallbackUrl(url),
    close: async () => {
      await channel.close();
      await simulator.close();
    },
  });
  payments = new PaymentService({
    db: store.db,
    clock,
    box,
    merchants,
    fees,
    ledger,
    channels: registry,
    publicBaseUrl: PUBLIC_BASE_URL,
  });
  const channels = registry;
  const service = payments;

  return {
    store,
    db: store.db,
    clock,
    merchants,
    fees,
    ledger,
    simulator,
    channels,
    payments: service,
    jobs: service.jobs,
    callbackUrl,
    async createMerchant(mode = 'sandbox') {
      const created = await merchants.create({ name: `Shop ${mode}`, mode, key: { type: 'HMAC-SHA256' } }, 'test');
      return created.merchant;
    },
    balances: (merchantId, currency) => ledger.balances(merchantId, currency),
    events: (transactionRef) =>
      store.db.selectFrom('webhook_events').selectAll().where('resource_ref', '=', transactionRef).orderBy('id').execute(),
    async close() {
      await channels.close();
      await callbacks.app.close();
      await store.close();
    },
  };
}

/** Waits until `check` resolves to something truthy, polling; fails after `limitMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, limitMs = 5_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Lets in-flight callbacks land: the simulator retries quickly, so a short quiet period suffices. */
export const settle = (ms = 300): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

