// Delivers due webhook events as a background job: claims them under a lease, keeps up to
// `concurrency` deliveries in flight (a slow receiver holds one slot, not the whole batch), and
// records results in batches. A crash anywhere leaves events pending or leased, never lost.
import type { Clock } from '../core/clock.js';
import type { SecretBox } from '../core/secrets.js';
import { SlotPool } from '../core/slot-pool.js';
import { sealedWebhookSecrets } from '../merchants/merchant-lookups.js';
import type { Store } from '../store/db.js';
import type { Job } from '../core/worker.js';
import { claimDueEvents, recordResults, type AttemptResult, type ClaimedEvent } from './queue.js';
import { WebhookSender, type DeliveryOutcome } from './sender.js';
import { deliveryHeaders, ServiceKeyring, type ServiceKey } from './signer.js';
import type { HostResolver, WebhookConfig } from './ssrf.js';

/**
 * Deliveries in flight. Each one waits mostly on its RSA signature (thread pool) and the receiver's
 * answer, not on this thread: with 32 the event loop sat idle a third of the time and drained about
 * 950 deliveries/s on the benchmark; 256 keeps it busy (about 1,560/s there).
 */
export const DEFAULT_CONCURRENCY = 256;
export const DEFAULT_LEASE_MS = 60_000;
const DEFAULT_IDLE_INTERVAL_MS = 250;
/** How long one run waits for deliveries to finish before recording what it has. */
const RESULT_WINDOW_MS = 25;

export interface DispatcherOptions {
  readonly store: Pick<Store, 'db' | 'kind'>;
  /** Opens the merchants' sealed webhook secrets. */
  readonly box: SecretBox;
  /** The keyring (the service: follows rotations), or one fixed key. */
  readonly serviceKey: ServiceKey | ServiceKeyring;
  readonly clock: Clock;
  readonly config: WebhookConfig;
  readonly concurrency?: number;
  /** Deadline of one delivery, connect to last byte; the contract's is 15 s. */
  readonly timeoutMs?: number;
  /** How long a claim keeps other dispatchers away; must comfortably exceed the timeout. */
  readonly leaseMs?: number;
  readonly idleIntervalMs?: number;
  readonly resolve?: HostResolver;
  /** Source of the retry jitter, in [0, 1). */
  readonly random?: () => number;
}

interface MerchantSecrets {
  readonly current: string;
  readonly previous: string | null;
}

const notSent = (error: string): DeliveryOutcome => ({ delivered: false, httpStatus: null, error, responseSnippet: null, durationMs: 0 });

export class WebhookDispatcher {
  readonly job: Job;
  private readonly sender: WebhookSender;
  private readonly slots: SlotPool;
  private readonly leaseMs: number;
  private readonly random: () => number;
  private completed: AttemptResult[] = [];
  private closing: Promise<void> | null = null;

  constructor(private readonly options: DispatcherOptions) {
    this.sender = new WebhookSender({ config: options.config, timeoutMs: options.timeoutMs, resolve: options.resolve });
    this.slots = new SlotPool(options.concurrency ?? DEFAULT_CONCURRENCY);
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.random = options.random ?? Math.random;
    if (this.leaseMs < 2 * this.sender.timeoutMs) throw new Error('webhooks: the lease must be at least twice the delivery timeout');
    this.job = {
      name: 'webhook-dispatch',
      idleIntervalMs: options.idleIntervalMs ?? DEFAULT_IDLE_INTERVAL_MS,
      runOnce: () => this.runOnce(),
      // A run that found nothing while every slot waits on a slow receiver: the next answer frees a
      // slot and has a result to record, so run again then rather than after the idle interval (a
      // backlog released at once used to wait up to that interval, a quarter of a second, to go on).
      wakeEarly: (withinMs) => (this.slots.busy > 0 ? this.slots.nextFinish(withinMs) : null),
    };
  }

  /** One worker step: start what is due, wait briefly for results, record them. Returns events started plus attempts recorded. */
  async runOnce(): Promise<number> {
    const started = await this.claimAndStart();
    await this.waitForResults();
    return started + (await this.flush());
  }

  /** Delivers everything due now and waits for it to be recorded; returns the attempts recorded. */
  async dispatchDue(): Promise<number> {
    let recorded = 0;
    for (;;) {
      const started = await this.claimAndStart();
      await this.slots.idle();
      recorded += await this.flush();
      if (started === 0) return recorded;
    }
  }

  /** Waits for deliveries in flight, records them, and closes the connections. Call after the worker stopped. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.slots.idle();
      await this.flush();
      await this.sender.close();
    })();
    return this.closing;
  }

  private async claimAndStart(): Promise<number> {
    const room = this.slots.free;
    // With deliveries still running, wait for a useful amount of room rather than claim in dribbles.
    if (room <= 0 || (this.slots.busy > 0 && room < Math.ceil(this.slots.size / 4))) return 0;
    const { db, kind } = this.options.store;
    const events = await claimDueEvents(db, kind, room, this.options.clock.nowMs(), this.leaseMs);
    if (events.length === 0) return 0;
    const secrets = await this.webhookSecrets(events);
    for (const event of events) this.start(event, secrets.get(event.merchantId));
    return events.length;
  }

  /**
   * The `whsec_` secrets of each merchant in the batch (the current one, and the replaced one while
   * its overlap lasts), read fresh so a rotation applies at once. A current secret that does not
   * open leaves the merchant out: its events fail their attempt instead of stalling the batch.
   */
  private async webhookSecrets(events: readonly ClaimedEvent[]): Promise<Map<string, MerchantSecrets>> {
    const ids = [...new Set(events.map((event) => event.merchantId))];
    const sealed = await sealedWebhookSecrets(this.options.store.db, ids, this.options.clock.nowMs());
    const secrets = new Map<string, MerchantSecrets>();
    for (const [merchantId, secret] of sealed) {
      try {
        const current = this.options.box.open(secret.current);
        let previous: string | null = null;
        try {
          previous = secret.previous === null ? null : this.options.box.open(secret.previous);
        } catch {
          // The replaced secret only adds a second signature; without it the current one still signs.
        }
        secrets.set(merchantId, { current, previous });
      } catch {
        // Reported through the attempt's error ("merchant webhook secret unreadable").
      }
    }
    return secrets;
  }

  private start(event: ClaimedEvent, secret: MerchantSecrets | undefined): void {
    void this.slots.run(async () => {
      // Read `completed` after the attempt: flush() may have swapped in a fresh list meanwhile.
      const result = await this.attempt(event, secret);
      this.completed.push(result);
    });
  }

  /** Never rejects: whatever goes wrong becomes the attempt's recorded error, and the event is retried. */
  private async attempt(event: ClaimedEvent, secret: MerchantSecrets | undefined): Promise<AttemptResult> {
    const startedAtMs = this.options.clock.nowMs();
    let outcome: DeliveryOutcome;
    try {
      outcome = await this.send(event, secret);
    } catch (error) {
      outcome = notSent(`not sent: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { event, outcome, startedAtMs, finishedAtMs: this.options.clock.nowMs() };
  }

  private send(event: ClaimedEvent, secret: MerchantSecrets | undefined): Promise<DeliveryOutcome> {
    if (!event.url) return Promise.resolve(notSent('no webhook URL'));
    if (secret === undefined) return Promise.resolve(notSent('merchant webhook secret unreadable'));
    const keys = this.options.serviceKey;
    const sign = async () =>
      deliveryHeaders({
        serviceKey: keys instanceof ServiceKeyring ? await keys.current() : keys,
        webhookSecret: secret.current,
        previousWebhookSecret: secret.previous,
        eventId: event.id,
        merchantId: event.merchantId,
        body: event.body,
        nowMs: this.options.clock.nowMs(),
      });
    return this.sender.deliver(event.url, event.body, sign);
  }

  private async waitForResults(): Promise<void> {
    const deadline = performance.now() + RESULT_WINDOW_MS;
    const enough = Math.ceil(this.slots.size / 2);
    while (this.slots.busy > 0 && this.completed.length < enough) {
      const remainingMs = deadline - performance.now();
      if (remainingMs <= 0) return;
      await this.slots.nextFinish(remainingMs);
    }
  }

  private async flush(): Promise<number> {
    if (this.completed.length === 0) return 0;
    const results = this.completed;
    this.completed = [];
    // If this write fails the events keep their lease and are retried once it runs out: at least once.
    await recordResults(this.options.store.db, results, this.random);
    return results.length;
  }
}
