// How long webhook events are kept. Every payment and payout that reaches a final status writes an
// event (its body as sent, and one row per delivery attempt), so without an end the events table is
// the one that grows fastest and never shrinks: 100 payments a second is 8.6 million events a day.
// Once the retention has passed since an event was created, and its delivery is over (delivered,
// given up on, or never sent for want of a URL), this job deletes it with its attempts. An event
// still being retried is never deleted, however old. The records themselves (payments, payouts, the
// ledger) are never touched: their status query answers for as long as they exist.
//
// The job deletes at most CHUNK_EVENTS events a transaction, oldest first, each chunk group-committed
// with the writes of the moment (so requests go on between chunks), and CHUNKS_PER_RUN chunks a run;
// the worker runs it again at once while it finds work, so a backlog (retention switched on over a
// year of events) drains steadily instead of in one long hold of the store.
import type { Clock } from '../core/clock.js';
import { DAY_MS } from '../core/days.js';
import type { Job } from '../core/worker.js';
import { isPostgres, type Db, type Executor } from '../store/schema.js';
import { writeGroupOf } from '../store/write-group.js';

/** Events deleted per transaction, with their attempts (eight a failed event, more after resends). */
export const CHUNK_EVENTS = 250;
/** Chunks per run: the worker calls again at once while a run deleted something. */
export const CHUNKS_PER_RUN = 8;
/** How often an idle job looks for expired events (the worker lengthens it while it finds none). */
export const RETENTION_CHECK_INTERVAL_MS = 60_000;

/**
 * The oldest `limit` events created before `beforeMs` whose delivery is over, oldest first. Read on
 * `webhook_events_created`: the status is only a filter (a condition on it that an index could serve
 * would invite the planner to read every final event through the status index and sort them).
 */
export function expiredEventsQuery(db: Executor, beforeMs: bigint, limit: number) {
  return db
    .selectFrom('webhook_events')
    .select('id')
    .where('created_at_ms', '<', beforeMs)
    .where('status', '<>', 'pending')
    .orderBy('created_at_ms')
    .limit(limit);
}

export interface RetentionOptions {
  readonly db: Db;
  readonly clock: Clock;
  /** Days an event is kept after it was created; at least 1 (0 turns the job off where it is made). */
  readonly retentionDays: number;
  readonly idleIntervalMs?: number;
  readonly chunkEvents?: number;
  readonly chunksPerRun?: number;
}

export class WebhookRetentionJob implements Job {
  readonly name = 'webhook-retention';
  readonly idleIntervalMs: number;
  private readonly chunkEvents: number;
  private readonly chunksPerRun: number;

  constructor(private readonly options: RetentionOptions) {
    if (!Number.isInteger(options.retentionDays) || options.retentionDays < 1) throw new Error('webhook retention: retentionDays must be a whole number of days, 1 or more');
    this.idleIntervalMs = options.idleIntervalMs ?? RETENTION_CHECK_INTERVAL_MS;
    this.chunkEvents = options.chunkEvents ?? CHUNK_EVENTS;
    this.chunksPerRun = options.chunksPerRun ?? CHUNKS_PER_RUN;
  }

  /** The creation time before which a finished event is deleted. */
  cutoffMs(): number {
    return this.options.clock.nowMs() - this.options.retentionDays * DAY_MS;
  }

  /** Deletes up to chunksPerRun chunks of expired events; answers how many events it deleted. */
  async runOnce(): Promise<number> {
    const beforeMs = BigInt(this.cutoffMs());
    let deleted = 0;
    for (let chunk = 0; chunk < this.chunksPerRun; chunk++) {
      const count = await this.deleteChunk(beforeMs);
      deleted += count;
      if (count < this.chunkEvents) break;
    }
    return deleted;
  }

  /**
   * One chunk in one transaction: the attempts of the chosen events, then the events, each only while
   * still not pending. A resend racing the purge either finds the event gone (404, as for any unknown
   * event) or made it pending first, and then it stays. On PostgreSQL the chosen rows are locked
   * first, so a resend that comes between the two deletes waits for this commit; rows another worker's
   * purge (or a resend) holds are skipped, not waited for.
   */
  private deleteChunk(beforeMs: bigint): Promise<number> {
    const { db } = this.options;
    return writeGroupOf(db).run(
      async (trx) => {
        const chosen = expiredEventsQuery(trx, beforeMs, this.chunkEvents);
        const rows = await (isPostgres(trx) ? chosen.forUpdate().skipLocked() : chosen).execute();
        if (rows.length === 0) return 0;
        const ids = rows.map((row) => row.id);
        await trx.deleteFrom('webhook_attempts').where('event_id', 'in', ids).execute();
        const result = await trx.deleteFrom('webhook_events').where('id', 'in', ids).where('status', '<>', 'pending').executeTakeFirst();
        return Number(result.numDeletedRows);
      },
      { keys: ['webhook event retention'] },
    );
  }
}
