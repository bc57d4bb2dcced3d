// The rate limit shared by every process on one database: a counter per bucket and Unix second,
// bumped by an atomic upsert. Requests arriving together share one statement, and a process leases a
// tenth of a bucket's second at a time, so a steady stream of a merchant's requests costs one round
// trip per lease, not one per request, and never holds a pool connection each.
import type { Clock } from '../core/clock.js';
import type { Db } from '../store/schema.js';
import { GroupBatch } from '../core/group-batch.js';
import { HotBatchQuery } from '../store/hot-query.js';
import type { RateLimiter } from './rate-limit.js';

interface PendingTake {
  readonly bucket: string;
  readonly windowS: number;
  readonly perSecond: number;
}

/** Permits of one bucket's second this process has counted in the database but not yet handed out. */
interface Lease {
  readonly windowS: number;
  left: number;
}

/** Bounded so one flush stays a small statement. */
const MAX_TAKES_PER_FLUSH = 512;
/** A request over the limit waits for the next window, at most one second away. */
const RETRY_AFTER_SECONDS = 1;
/**
 * A counting round trip also reserves this share of the bucket's limit for the process's next
 * requests in the same second (rounded down: nothing under a limit of 10, so small limits stay exact
 * across processes). Never more than the limit passes; with several processes, up to this share per
 * other process may sit unused in their leases while this one is refused.
 */
export const LEASE_DIVISOR = 10;
/** A process serving this many buckets in one second forgets its leases (they only save round trips). */
const MAX_LEASES = 100_000;

/** The upsert of a batch's counters, compiled once per number of counters. */
const bumpCounters = new HotBatchQuery(3, (db, count, values) =>
  db
    .insertInto('rate_limit_windows')
    .values(
      Array.from({ length: count }, (_, i) => ({
        bucket: values[i * 3] as string,
        window_s: values[i * 3 + 1] as bigint,
        n: values[i * 3 + 2] as bigint,
      })),
    )
    .onConflict((oc) => oc.columns(['bucket', 'window_s']).doUpdateSet((eb) => ({ n: eb('rate_limit_windows.n', '+', eb.ref('excluded.n')) })))
    .returning(['bucket', 'window_s', 'n']),
);

const counterKey = (bucket: string, windowS: number): string => `${windowS} ${bucket}`;

/**
 * One bucket's second in a flush: its takes (indexes into the flush) in arrival order, and what the
 * upsert adds. The lease is sized by the limit of the bucket's first take in the flush; each take is
 * judged against its own limit, as the merchant's limit stood when it arrived.
 */
interface Counted {
  readonly bucket: string;
  readonly windowS: number;
  readonly takes: number[];
  readonly perSecond: number;
  readonly spare: number;
}

/**
 * A fixed one-second window: at most `perSecond` requests per bucket and second across all processes
 * (a burst straddling two seconds may get up to twice that, as with any fixed window).
 */
export class SharedRateLimiter implements RateLimiter {
  private readonly takes = new GroupBatch<PendingTake, number>(MAX_TAKES_PER_FLUSH, (batch) => this.retryAfter(batch));
  private readonly leases = new Map<string, Lease>();
  /** Buckets this process saw refused, with the second they were refused in (mayHaveRoom). */
  private readonly spent = new Map<string, number>();
  /** Windows before this one have been deleted by this process. */
  private prunedBeforeS = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  mayHaveRoom(bucket: string): boolean {
    const spentInS = this.spent.get(bucket);
    if (spentInS === undefined) return true;
    if (spentInS === Math.floor(this.clock.nowMs() / 1000)) return false;
    this.spent.delete(bucket);
    return true;
  }

  take(bucket: string, perSecond: number): number | Promise<number> {
    const take: PendingTake = { bucket, windowS: Math.floor(this.clock.nowMs() / 1000), perSecond };
    return this.fromLease(take) ? 0 : this.takes.add(take);
  }

  /** Hands out one of this process's leased permits for the take's bucket and second, if it holds one. */
  private fromLease(take: PendingTake): boolean {
    const lease = this.leases.get(take.bucket);
    if (lease === undefined || lease.windowS !== take.windowS || lease.left === 0) return false;
    lease.left -= 1;
    return true;
  }

  /** Per take, in order: 0 when it is within its bucket's limit for the second, else the seconds to wait. */
  private async retryAfter(batch: readonly PendingTake[]): Promise<number[]> {
    const outcomes = new Array<number>(batch.length).fill(0);
    const counted = new Map<string, Counted>();
    batch.forEach((take, i) => {
      // A take queued before an earlier flush brought its lease back is served from that lease.
      if (this.fromLease(take)) return;
      const key = counterKey(take.bucket, take.windowS);
      const spare = Math.floor(take.perSecond / LEASE_DIVISOR);
      const entry = counted.get(key);
      if (entry) entry.takes.push(i);
      else counted.set(key, { bucket: take.bucket, windowS: take.windowS, takes: [i], perSecond: take.perSecond, spare });
    });
    if (counted.size === 0) return outcomes;
    const before = await this.count(counted);
    for (const [key, entry] of counted) {
      // Positions within the window are handed out in arrival order after the counter's value before
      // this flush; what the limit leaves of the spare becomes this process's lease.
      const start = before.get(key)!;
      entry.takes.forEach((i, k) => {
        outcomes[i] = start + k + 1 <= batch[i]!.perSecond ? 0 : RETRY_AFTER_SECONDS;
      });
      if (outcomes[entry.takes[entry.takes.length - 1]!] !== 0) this.markSpent(entry.bucket, entry.windowS);
      const leased = Math.min(entry.spare, entry.perSecond - start - entry.takes.length);
      if (leased > 0) this.lease(entry.bucket, entry.windowS, leased);
    }
    return outcomes;
  }

  private markSpent(bucket: string, windowS: number): void {
    if (this.spent.size >= MAX_LEASES) this.spent.clear();
    this.spent.set(bucket, windowS);
  }

  private lease(bucket: string, windowS: number, permits: number): void {
    const held = this.leases.get(bucket);
    if (held !== undefined && held.windowS === windowS) {
      held.left += permits;
      return;
    }
    if (this.leases.size >= MAX_LEASES) this.leases.clear();
    this.leases.set(bucket, { windowS, left: permits });
  }

  /** Adds each bucket's takes and spare to its counter; answers, per bucket and window, the count before. */
  private async count(counted: ReadonlyMap<string, Counted>): Promise<Map<string, number>> {
    const currentS = Math.min(...[...counted.values()].map((entry) => entry.windowS));
    await this.prune(currentS);
    // Rows in one order in every process: two flushes locking the same counters cannot deadlock.
    const keys = [...counted.keys()].sort();
    const rows = await bumpCounters.execute(
      this.db,
      keys.flatMap((key) => {
        const entry = counted.get(key)!;
        return [entry.bucket, BigInt(entry.windowS), BigInt(entry.takes.length + entry.spare)];
      }),
    );
    const before = new Map<string, number>();
    for (const row of rows) {
      const key = counterKey(row.bucket, Number(row.window_s));
      const entry = counted.get(key)!;
      before.set(key, Number(row.n) - entry.takes.length - entry.spare);
    }
    return before;
  }

  /** Once per second per process: past windows are never read again, here or in the database. */
  private async prune(currentS: number): Promise<void> {
    if (currentS <= this.prunedBeforeS) return;
    this.prunedBeforeS = currentS;
    for (const [bucket, lease] of this.leases) if (lease.windowS < currentS) this.leases.delete(bucket);
    await this.db.deleteFrom('rate_limit_windows').where('window_s', '<', BigInt(currentS)).execute();
  }
}
