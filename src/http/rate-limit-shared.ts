// The rate limit shared by every process on one database: a counter per bucket and Unix second,
// bumped by an atomic upsert. Requests arriving together share one statement, so a merchant's burst
// costs one round trip per batch, not one per request, and never holds a pool connection each.
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

/** Bounded so one flush stays a small statement. */
const MAX_TAKES_PER_FLUSH = 512;
/** A request over the limit waits for the next window, at most one second away. */
const RETRY_AFTER_SECONDS = 1;

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
 * A fixed one-second window: at most `perSecond` requests per bucket and second across all processes
 * (a burst straddling two seconds may get up to twice that, as with any fixed window).
 */
export class SharedRateLimiter implements RateLimiter {
  private readonly takes = new GroupBatch<PendingTake, number>(MAX_TAKES_PER_FLUSH, (batch) => this.retryAfter(batch));
  /** Windows before this one have been deleted by this process. */
  private prunedBeforeS = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  take(bucket: string, perSecond: number): Promise<number> {
    const windowS = Math.floor(this.clock.nowMs() / 1000);
    return this.takes.add({ bucket, windowS, perSecond });
  }

  /** Per take, in order: 0 when it is within its bucket's limit for the second, else the seconds to wait. */
  private async retryAfter(batch: readonly PendingTake[]): Promise<number[]> {
    const counts = await this.count(batch);
    return batch.map((take) => {
      // Positions within the window are handed out in arrival order: the counter's value before
      // this batch, plus one for each earlier take of the same bucket in it.
      const key = counterKey(take.bucket, take.windowS);
      const position = counts.get(key)! + 1;
      counts.set(key, position);
      return position <= take.perSecond ? 0 : RETRY_AFTER_SECONDS;
    });
  }

  /** Adds the batch to the counters; answers, per bucket and window, the count before this batch. */
  private async count(batch: readonly PendingTake[]): Promise<Map<string, number>> {
    const added = new Map<string, { bucket: string; window_s: bigint; n: bigint }>();
    for (const take of batch) {
      const key = counterKey(take.bucket, take.windowS);
      const row = added.get(key);
      if (row) row.n += 1n;
      else added.set(key, { bucket: take.bucket, window_s: BigInt(take.windowS), n: 1n });
    }
    await this.prune(Math.min(...batch.map((t) => t.windowS)));
    // Rows in one order in every process: two batches locking the same counters cannot deadlock.
    const values = [...added.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
    const rows = await bumpCounters.execute(
      this.db,
      values.flatMap((row) => [row.bucket, row.window_s, row.n]),
    );
    const before = new Map<string, number>();
    for (const row of rows) {
      const key = counterKey(row.bucket, Number(row.window_s));
      before.set(key, Number(row.n - added.get(key)!.n));
    }
    return before;
  }

  /** Once per second per process: past windows are never read again. */
  private async prune(currentS: number): Promise<void> {
    if (currentS <= this.prunedBeforeS) return;
    this.prunedBeforeS = currentS;
    await this.db.deleteFrom('rate_limit_windows').where('window_s', '<', BigInt(currentS)).execute();
  }
}
