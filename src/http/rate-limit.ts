// Per-merchant request rate limit: a token bucket per merchant and instance, refilled at the
// merchant's requests-per-second with a burst of one second's worth. Kept in memory because it
// must be cheap on every request; with N API instances a merchant can reach N times its limit.
interface Bucket {
  tokens: number;
  updatedMs: number;
}

const MAX_BUCKETS = 100_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** Returns 0 when the request may proceed, else the seconds to wait before retrying. */
  take(key: string, perSecond: number, nowMs: number): number {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.clear();
      bucket = { tokens: perSecond, updatedMs: nowMs };
      this.buckets.set(key, bucket);
    }
    const elapsedMs = Math.max(0, nowMs - bucket.updatedMs);
    bucket.tokens = Math.min(perSecond, bucket.tokens + (elapsedMs * perSecond) / 1000);
    bucket.updatedMs = nowMs;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
  }
}
