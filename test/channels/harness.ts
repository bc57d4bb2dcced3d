// A bank simulator on a random port, a SimulatorChannel talking to it over HTTP, and a tiny
// callback receiver standing in for the service; all on one manual clock.
import http from 'node:http';
import { ManualClock } from '../../src/core/clock.js';
import { SimulatorChannel } from '../../src/connectors/simulator/flows.js';
import { startSimulator, type SimulatorHandle } from '../../src/simulator/server.js';
import type { CreateCollectionRequest, PayoutSubmission } from '../../src/connectors/channel.js';
import type { Currency } from '../../src/core/money.js';
import { newId } from '../../src/core/ids.js';

export interface ReceivedCallback {
  readonly headers: http.IncomingHttpHeaders;
  readonly rawBody: Buffer;
  readonly status: number;
}

export class CallbackReceiver {
  readonly received: ReceivedCallback[] = [];
  /** Decides the status of each answer; 503 plays a service that is down, 401 one that refuses. */
  answer: (headers: http.IncomingHttpHeaders, rawBody: Buffer) => number = () => 200;
  private server: http.Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        const status = this.answer(request.headers, rawBody);
        this.received.push({ headers: request.headers, rawBody, status });
        response.writeHead(status, { 'content-type': 'text/plain' }).end('SUCCESS');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1/callbacks/simulator`;
  }

  /** Callbacks about one transaction, in arrival order. */
  about(transactionRef: string): ReceivedCallback[] {
    return this.received.filter((callback) => callback.rawBody.toString().includes(transactionRef));
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export interface Harness {
  readonly clock: ManualClock;
  readonly simulator: SimulatorHandle;
  readonly channel: SimulatorChannel;
  readonly receiver: CallbackReceiver;
  readonly apiKey: string;
  readonly callbackSecret: string;
  close(): Promise<void>;
}

export const CHANNEL_TIMEOUT_MS = 500;

export async function startHarness(options: { payoutDelayMs?: number } = {}): Promise<Harness> {
  const clock = new ManualClock(Date.UTC(2025, 5, 1, 12, 0, 0));
  const receiver = new CallbackReceiver();
  await receiver.start();
  const apiKey = 'sim-test-key';
  const callbackSecret = 'sim-test-callback-secret';
  const simulator = await startSimulator({
    apiKey,
    callbackUrl: receiver.url,
    callbackSecret,
    clock,
    payoutDelayMs: options.payoutDelayMs ?? 3_000,
    timeoutHoldMs: CHANNEL_TIMEOUT_MS * 4,
    sweepIntervalMs: 20,
    callbackRetryDelaysMs: [20, 50, 100],
  });
  const channel = new SimulatorChannel({ baseUrl: simulator.url, apiKey, callbackSecret, timeoutMs: CHANNEL_TIMEOUT_MS, clock });
  return {
    clock,
    simulator,
    channel,
    receiver,
    apiKey,
    callbackSecret,
    close: async () => {
      await channel.close();
      await simulator.close();
      await receiver.close();
    },
  };
}

/** Waits until `check` returns a value (not undefined/false), polling; fails after `limitMs`. */
export async function eventually<T>(check: () => T | undefined | false, limitMs = 5_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function collectionRequest(clock: ManualClock, currency: Currency, method: string, amountMinor: bigint): CreateCollectionRequest {
  return {
    transactionRef: newId(),
    merchantId: 'mch_TestMerchant1',
    currency,
    method,
    amountMinor,
    payerName: 'Asha Rao',
    payerEmail: 'asha@example.com',
    payerPhone: '+6281234567890',
    expiresAtMs: clock.nowMs() + 30 * 60 * 1000,
    redirectUrl: 'https://merchant.example/return',
  };
}

export function payoutSubmission(account: string, overrides: Partial<PayoutSubmission> = {}): PayoutSubmission {
  return {
    transactionRef: newId(),
    currency: 'INR',
    method: 'BANK',
    amountMinor: 50_000n,
    bankCode: 'HDFC0001234',
    account,
    name: 'Ravi Kumar',
    phone: '+919812345678',
    email: 'ravi@example.com',
    ...overrides,
  };
}
