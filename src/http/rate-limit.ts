// Per-merchant request rate limit, behind one interface with two stores: a token bucket in this
// process's memory (one process, the SQLite default), or per-second counters in the shared database
// (several API processes on PostgreSQL), chosen by RATE_LIMIT_STORE.
import type { Clock } from '../core/clock.js';
import type { Store } from '../store/db.js';
import { SharedRateLimiter } from './rate-limit-shared.js';

/** Where request counts live: this process's memory, or the shared database (several processes). */
export type RateLimitStore = 'memory' | 'database';

export interface RateLimiter {
  /** Counts one request in `bucket`; 0 when it may proceed, else the seconds to wait before retrying. */
  take(bucket: string, perSecond: number): number | Promise<number>;
  /**
   * False when this process already knows `bucket` has no request left for now; true when it may have
   * (nothing spent, no I/O). Read routes start their read before the limit is taken only when it is
   * true, so a merchant over its limit costs no reads.
   */
  mayHaveRoom(bucket: string, perSecond: number): boolean;
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

const MAX_BUCKETS = 100_000;

/** What `bucket` holds at `nowMs`, refilled at `perSecond` up to one second's worth. */
function tokensAt(bucket: Bucket, nowMs: number, perSecond: number): number {
  const elapsedMs = Math.max(0, nowMs - bucket.updatedMs);
  return Math.min(perSecond, bucket.tokens + (elapsedMs * perSecond) / 1000);
}

/** Refills at `perSecond` with a burst of one second's worth; counts only this process's requests. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly clock: Clock) {}

  mayHaveRoom(key: string, perSecond: number): boolean {
    const bucket = this.buckets.get(key);
    return bucket === undefined || tokensAt(bucket, this.clock.nowMs(), perSecond) >= 1;
  }

  take(key: string, perSecond: number): number {
    const nowMs = this.clock.nowMs();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.clear();
      bucket = { tokens: perSecond, updatedMs: nowMs };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = tokensAt(bucket, nowMs, perSecond);
    bucket.updatedMs = nowMs;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
  }
}

export function createRateLimiter(kind: RateLimitStore, store: Store, clock: Clock): RateLimiter {
  return kind === 'database' ? new SharedRateLimiter(store.db, clock) : new MemoryRateLimiter(clock);
}
