// A background job whose claimed rows each take one slot of a SlotPool. It claims only as many rows
// as there are free slots, so every claimed row is worked on at once (its lease covers the call),
// and a slow upstream call holds one slot while the other rows go ahead.
import { SlotPool } from './slot-pool.js';
import type { Job } from './worker.js';

/** Slots of a pooled job unless configured (UPSTREAM_CONCURRENCY). */
export const DEFAULT_JOB_CONCURRENCY = 16;

export interface PooledJobSpec<T> {
  readonly name: string;
  /** Pause between runs when nothing was due; also the longest a run waits for a busy slot to free. */
  readonly idleIntervalMs: number;
  /** Rows worked on at once by this process. */
  readonly concurrency: number;
  /** Claims up to `limit` due rows for this process (a lease in the database); may return fewer. */
  claim(limit: number): Promise<readonly T[]>;
  /** Works on one claimed row. A rejection leaves the row to be taken over once its lease runs out. */
  process(row: T): Promise<unknown>;
}

export class PooledJob<T> implements Job {
  readonly name: string;
  readonly idleIntervalMs: number;
  private readonly pool: SlotPool;
  private failures: unknown[] = [];
  /** Slots promised to claims still on their way to the database. */
  private reserved = 0;

  constructor(private readonly spec: PooledJobSpec<T>) {
    this.name = spec.name;
    this.idleIntervalMs = spec.idleIntervalMs;
    this.pool = new SlotPool(spec.concurrency);
  }

  /**
   * One worker step: reports rows that failed since the last step (the worker logs the error),
   * starts what is due in the free slots and, when every slot is busy, waits for one to free.
   * Returns rows started plus rows finished meanwhile.
   */
  async runOnce(): Promise<number> {
    const failures = this.failures;
    this.failures = [];
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${this.name}: ${failures.length} rows failed`);
    const before = this.pool.finished;
    const started = await this.claimAndStart();
    for (const task of started) task.catch((error: unknown) => this.failures.push(error));
    if (this.pool.free === 0) await this.pool.nextFinish(this.idleIntervalMs);
    return started.length + (this.pool.finished - before);
  }

  /** Works on what is due now, as far as slots are free, and waits for it; rejects with a row's failure. */
  async runDue(): Promise<number> {
    const started = await this.claimAndStart();
    await Promise.all(started);
    return started.length;
  }

  /** Waits for the rows in flight; call after the worker stopped. */
  close(): Promise<void> {
    return this.pool.idle();
  }

  private async claimAndStart(): Promise<Promise<unknown>[]> {
    const free = this.pool.free - this.reserved;
    if (free <= 0) return [];
    this.reserved += free;
    let rows: readonly T[];
    try {
      rows = await this.spec.claim(free);
    } finally {
      this.reserved -= free;
    }
    if (rows.length > free) throw new Error(`${this.name}: claimed ${rows.length} rows for ${free} free slots`);
    return rows.map((row) => this.pool.run(() => this.spec.process(row)));
  }
}
