// A background job whose claimed rows each take one slot of a SlotPool. It claims only as many rows
// as there are free slots, so every claimed row is worked on at once (its lease covers the call),
// and a slow upstream call holds one slot while the other rows go ahead. A caller that claims a row
// itself (the payout intake) may reserve a slot and start the row there once its claim commits.
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

/**
 * Whether a row its intake wrote with a lease of `leaseMs` until `leaseUntilMs` may still be started
 * from the intake's reserved slot: only while half the lease or more is left, so the call ends well
 * inside it. A slower intake (waiting for locks, say) gives the slot back and leaves the row to the
 * claims, which take it once the lease has run out, never beside a call of this one.
 */
export function halfLeaseLeft(nowMs: number, leaseUntilMs: bigint, leaseMs: number): boolean {
  return BigInt(nowMs) <= leaseUntilMs - BigInt(Math.floor(leaseMs / 2));
}

/**
 * A slot kept for a row its caller claims itself, in its own transaction (reserveSlot). Exactly one of
 * the two is called: `start` once the claim has committed, `release` when it did not claim the row.
 */
export interface ReservedSlot<T> {
  start(row: T): void;
  release(): void;
}

export class PooledJob<T> implements Job {
  readonly name: string;
  readonly idleIntervalMs: number;
  private readonly pool: SlotPool;
  private failures: unknown[] = [];
  /** Slots promised to claims still on their way to the database, and to rows handed over (reserveSlot). */
  private reserved = 0;
  /** A worker runs this job in this process: set by its first run, cleared by close(). */
  private running = false;

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
    this.running = true;
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
    this.running = false;
    return this.pool.idle();
  }

  /**
   * A free slot for a row that its caller claims in its own transaction (a payout's intake writes its
   * lease with the row), so the row is worked on as soon as that commits, with no claim of the job's.
   * Null unless a worker runs this job in this process (an API-only process leaves its rows to the
   * workers' claims) and a slot is free. A row started after close() is left alone: its lease runs
   * out and a later claim takes it over, as after a crash.
   */
  reserveSlot(): ReservedSlot<T> | null {
    if (!this.running || this.pool.free - this.reserved <= 0) return null;
    this.reserved += 1;
    let open = true;
    const settle = (): void => {
      if (!open) throw new Error(`${this.name}: a reserved slot was settled twice`);
      open = false;
      this.reserved -= 1;
    };
    return {
      start: (row) => {
        settle();
        if (this.running) this.pool.run(() => this.spec.process(row)).catch((error: unknown) => this.failures.push(error));
      },
      release: settle,
    };
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
