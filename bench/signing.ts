// Pre-signing of the request lists, before any timed phase, on worker threads (an RSA-2048 SHA-512
// signature costs the client about 1 ms; the server's verify about 22 µs).
//
// Every request of a run is to be a first use of its Signature (contract section 6: a repeat is answered
// too, but takes another path through the one-time check and another rate budget), and both key types
// are deterministic, so every request must have a distinct (key, body, Timestamp). RequestSigner guarantees that for everything it signs in one run:
// - per (merchant, body text) it hands out Timestamps one second apart, from `now - back` to `now + ahead`
//   (the service accepts ±300 s; `back` leaves time for signing and sending before the oldest expires);
// - when a (merchant, body) has used the whole window, the body gets a suffix of JSON whitespace (space,
//   tab, CR, LF: insignificant to JSON, but part of the signed bytes), a different one per round.
// Within one suffix round the Timestamps strictly increase with the counter (and `now` never goes back),
// so two requests can never share a (body, Timestamp), across cases too.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { MerchantKey } from '../sdk/src/signing.js';
import type { PreparedRequest } from './load.js';
import type { WorkerMessage, WorkerReply } from './sign-worker.js';

export type KeyType = MerchantKey['type'];

export interface BenchMerchant {
  readonly id: string;
  readonly name: string;
  readonly keyType: KeyType;
  readonly key: MerchantKey;
  /** Index of this merchant's key in the signer. */
  readonly keyIndex: number;
}

/** What a case asks to send; the signer makes it unique and signs it. */
export interface RequestTemplate {
  readonly merchant: BenchMerchant;
  /** `payout/bankCode` (under /v1/api/) or an absolute path starting with `/`. */
  readonly path: string;
  /** Serialized with JSON.stringify; a string is sent as is. */
  readonly body: object | string;
}

const WINDOW_BACK_SECONDS = 100;
const WINDOW_AHEAD_SECONDS = 280;
const WINDOW = WINDOW_BACK_SECONDS + WINDOW_AHEAD_SECONDS + 1;
const CHUNK = 256;
const WHITESPACE = [' ', '\t', '\n', '\r'];

/** Bijective base-4 numeral in JSON whitespace: 0 → '', and every n has its own string. */
export function whitespaceSuffix(n: number): string {
  let text = '';
  while (n > 0) {
    n -= 1;
    text += WHITESPACE[n % 4];
    n = Math.floor(n / 4);
  }
  return text;
}

export const apiPath = (path: string): string => (path.startsWith('/') ? path : `/v1/api/${path}`);

export class RequestSigner {
  private readonly counters = new Map<string, number>();
  private readonly keys: MerchantKey[] = [];
  private readonly pending = new Map<number, { resolve: (signatures: string[]) => void; reject: (error: Error) => void }>();
  private nextJob = 0;
  private lastNow = 0;

  private constructor(private readonly workers: Worker[]) {
    for (const worker of workers) {
      worker.on('message', (reply: WorkerReply) => {
        const waiter = this.pending.get(reply.job);
        if (!waiter) return;
        this.pending.delete(reply.job);
        if (reply.signatures) waiter.resolve(reply.signatures);
        else waiter.reject(new Error(reply.error ?? 'signing failed'));
      });
      worker.on('error', (error) => {
        for (const waiter of this.pending.values()) waiter.reject(error);
        this.pending.clear();
      });
    }
  }

  /** One worker per core: signing runs while the servers idle, so it may use them all. */
  static start(threads = os.availableParallelism()): RequestSigner {
    const url = new URL('./sign-worker.ts', import.meta.url).href;
    // Workers do not inherit tsx's loader from --import; register it before importing the TypeScript file.
    const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url)}); });`;
    const workers = Array.from({ length: Math.max(1, threads) }, () => new Worker(bootstrap, { eval: true }));
    return new RequestSigner(workers);
  }

  /** Makes a merchant's key known to every worker; returns its index. */
  register(key: MerchantKey): number {
    const index = this.keys.length;
    this.keys.push(key);
    for (const worker of this.workers) worker.postMessage({ kind: 'key', index, key } satisfies WorkerMessage);
    return index;
  }

  /** Signs the templates in order; each result is unique within this signer's lifetime (see above). */
  async sign(templates: readonly RequestTemplate[]): Promise<PreparedRequest[]> {
    const now = Math.max(this.lastNow, Math.floor(Date.now() / 1000));
    this.lastNow = now;
    const bodies: string[] = [];
    const timestamps: string[] = [];
    const keyIndexes: number[] = [];
    for (const template of templates) {
      const text = typeof template.body === 'string' ? template.body : JSON.stringify(template.body);
      const counterKey = `${template.merchant.keyIndex}\u0000${text}`;
      const count = this.counters.get(counterKey) ?? 0;
      this.counters.set(counterKey, count + 1);
      bodies.push(text + whitespaceSuffix(Math.floor(count / WINDOW)));
      timestamps.push(String(now - WINDOW_BACK_SECONDS + (count % WINDOW)));
      keyIndexes.push(template.merchant.keyIndex);
    }

    const signatures: string[] = new Array(templates.length);
    let nextChunk = 0;
    const runWorker = async (worker: Worker): Promise<void> => {
      while (nextChunk < templates.length) {
        const from = nextChunk;
        const to = Math.min(templates.length, from + CHUNK);
        nextChunk = to;
        const job = this.nextJob++;
        const result = new Promise<string[]>((resolve, reject) => this.pending.set(job, { resolve, reject }));
        worker.postMessage({
          kind: 'sign',
          job,
          keys: keyIndexes.slice(from, to),
          bodies: bodies.slice(from, to),
          timestamps: timestamps.slice(from, to),
        } satisfies WorkerMessage);
        const chunk = await result;
        for (let i = 0; i < chunk.length; i++) signatures[from + i] = chunk[i]!;
      }
    };
    await Promise.all(this.workers.map(runWorker));

    return templates.map((template, i) => ({
      path: apiPath(template.path),
      body: bodies[i]!,
      headers: {
        'Content-Type': 'application/json',
        MerchantID: template.merchant.id,
        Timestamp: timestamps[i]!,
        Signature: signatures[i]!,
      },
    }));
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}
