// Signed notifications from the simulated bank to the service: one POST per state change, retried
// with short backoff while the service is down, and bent by the fault switches (drop, duplicate,
// delay, bad signature).
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { isoFromMs, type Clock } from '../core/clock.js';
import { newId } from '../core/ids.js';
import type { SimulatorFaults, SimulatorStats } from './faults.js';
import { EVENT_ID_HEADER, signCallback, SIGNATURE_HEADER, TIMESTAMP_HEADER, type CallbackPayload } from './protocol.js';

export const DEFAULT_CALLBACK_RETRY_DELAYS_MS: readonly number[] = [200, 1_000, 3_000, 5_000];
const DEFAULT_ATTEMPT_TIMEOUT_MS = 5_000;

export interface CallbackSenderOptions {
  readonly callbackUrl: string;
  readonly secret: string;
  readonly clock: Clock;
  readonly faults: SimulatorFaults;
  readonly stats: SimulatorStats;
  /** Pause before each retry; its length is the number of retries after the first attempt. */
  readonly retryDelaysMs: readonly number[];
  /** How long one attempt may wait for the answer's headers, and then between its body's chunks (default 5 s). */
  readonly attemptTimeoutMs?: number;
  /** Where a delivery that failed for an unexpected reason is reported. */
  readonly logError: (error: unknown, message: string) => void;
}

export class CallbackSender {
  private callbackUrl: string;
  private readonly agent = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
  private readonly stopping = new AbortController();
  private readonly deliveries = new Set<Promise<void>>();

  constructor(private readonly options: CallbackSenderOptions) {
    this.callbackUrl = new URL(options.callbackUrl).toString();
  }

  setCallbackUrl(url: string): void {
    this.callbackUrl = new URL(url).toString();
  }

  /** Queues the notification; delivery happens in the background. */
  send(payload: CallbackPayload): void {
    const { faults, stats, clock } = this.options;
    stats.callbacksQueued += 1;
    if (faults.dropCallbacks) {
      stats.callbacksDropped += 1;
      return;
    }
    const eventId = newId();
    const rawBody = Buffer.from(JSON.stringify({ eventId, ...payload, occurredAt: isoFromMs(clock.nowMs()) }));
    const copies = faults.duplicateCallbacks ? 2 : 1;
    for (let copy = 0; copy < copies; copy += 1) {
      const delivery = this.deliver(eventId, rawBody, faults.callbackDelayMs).finally(() => this.deliveries.delete(delivery));
      this.deliveries.add(delivery);
    }
  }

  /** Abandons pending deliveries (a request in flight is cut off with its connection) and closes connections. */
  async close(): Promise<void> {
    this.stopping.abort();
    await this.agent.destroy();
    await Promise.allSettled([...this.deliveries]);
  }

  private async deliver(eventId: string, rawBody: Buffer, delayMs: number): Promise<void> {
    const { retryDelaysMs, stats } = this.options;
    try {
      if (delayMs > 0) await sleep(delayMs, undefined, { signal: this.stopping.signal });
      for (let attempt = 0; attempt <= retryDelaysMs.length; attempt += 1) {
        if (attempt > 0) await sleep(retryDelaysMs[attempt - 1]!, undefined, { signal: this.stopping.signal });
        if (await this.attempt(eventId, rawBody)) {
          stats.callbacksDelivered += 1;
          return;
        }
      }
      stats.callbacksAbandoned += 1;
    } catch (error) {
      if (this.stopping.signal.aborted) return;
      stats.callbacksAbandoned += 1;
      this.options.logError(error, 'simulator: callback delivery failed');
    }
  }

  /** One POST; true on a 2xx answer. Each attempt is signed afresh with the current time. */
  private async attempt(eventId: string, rawBody: Buffer): Promise<boolean> {
    const { faults, stats, clock, secret } = this.options;
    const timestamp = String(Math.floor(clock.nowMs() / 1000));
    let signature = signCallback(secret, timestamp, rawBody);
    if (faults.badSignatureCallbacks > 0) {
      faults.badSignatureCallbacks -= 1;
      signature = signCallback(`${secret}-wrong`, timestamp, rawBody);
    }
    stats.callbackAttempts += 1;
    try {
      const response = await request(this.callbackUrl, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          [EVENT_ID_HEADER]: eventId,
          [TIMESTAMP_HEADER]: timestamp,
          [SIGNATURE_HEADER]: signature,
        },
        body: rawBody,
        // undici's own timers, not a signal per attempt: AbortSignal.any over a timeout signal cost the
        // bank about 40 µs of CPU a callback, plus the garbage, at thousands of callbacks a second.
        headersTimeout: this.options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
        bodyTimeout: this.options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
      });
      await response.body.dump();
      return response.statusCode >= 200 && response.statusCode < 300;
    } catch (error) {
      if (this.stopping.signal.aborted) throw error;
      return false;
    }
  }
}
