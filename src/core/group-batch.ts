// Group commit for many small requests: items that arrive while a batch is being written wait for the
// next one, so concurrent callers share one statement (and one fsync) instead of each paying for its
// own. The one-time signature record, the shared rate limit and the write group all batch this way.
//
// An item may be patient (background work that no caller is waiting on: a job's bookkeeping). A batch
// of patient items alone waits up to `lingerMs` for company before it is written, so that the jobs'
// small writes ride in the commits of the requests instead of each job's handful paying a commit (on
// SQLite a synchronous fsync of the main thread) of its own. Any impatient item, or a full batch,
// starts the batch at once, patient items included.

interface Pending<I, O> {
  readonly item: I;
  readonly patient: boolean;
  readonly settle: (outcome: O) => void;
  readonly fail: (error: unknown) => void;
}

export interface GroupBatchOptions {
  /** How long a batch holding only patient items waits for more (0: never waits). */
  readonly lingerMs?: number;
}

export class GroupBatch<I, O> {
  private queue: Pending<I, O>[] = [];
  private flushing = false;
  private impatient = 0;
  private linger: NodeJS.Timeout | null = null;
  private immediate = false;
  private readonly lingerMs: number;

  /** `run` answers one outcome per item, in the items' order; a rejection fails the whole batch. */
  constructor(
    private readonly maxPerBatch: number,
    private readonly run: (items: readonly I[]) => Promise<readonly O[]>,
    options: GroupBatchOptions = {},
  ) {
    this.lingerMs = options.lingerMs ?? 0;
  }

  /** Queues `item` for the next batch; `patient` items alone wait up to lingerMs for company. */
  add(item: I, patient = false): Promise<O> {
    return new Promise((settle, fail) => {
      this.queue.push({ item, patient, settle, fail });
      if (!patient) this.impatient += 1;
      this.schedule();
    });
  }

  /** A batch may start now: an impatient item waits, the batch is full, or nothing lingers. */
  private ready(): boolean {
    return this.impatient > 0 || this.queue.length >= this.maxPerBatch || this.lingerMs === 0;
  }

  private schedule(): void {
    if (this.flushing || this.queue.length === 0) return;
    if (this.ready()) {
      if (this.linger !== null) {
        clearTimeout(this.linger);
        this.linger = null;
      }
      if (!this.immediate) {
        this.immediate = true;
        setImmediate(() => {
          this.immediate = false;
          void this.flush(false);
        });
      }
    } else if (this.linger === null) {
      this.linger = setTimeout(() => {
        this.linger = null;
        void this.flush(true);
      }, this.lingerMs);
    }
  }

  /** `lingered`: the linger is over, so patient items alone go too. */
  private async flush(lingered: boolean): Promise<void> {
    if (this.flushing || this.queue.length === 0) return;
    if (!lingered && !this.ready()) {
      // Those that made it ready left with an earlier batch: what remains waits for company.
      this.schedule();
      return;
    }
    this.flushing = true;
    if (this.linger !== null) {
      clearTimeout(this.linger);
      this.linger = null;
    }
    const batch = this.queue.splice(0, this.maxPerBatch);
    for (const pending of batch) if (!pending.patient) this.impatient -= 1;
    try {
      const outcomes = await this.run(batch.map((pending) => pending.item));
      batch.forEach((pending, i) => pending.settle(outcomes[i]!));
    } catch (error) {
      for (const pending of batch) pending.fail(error);
    } finally {
      this.flushing = false;
      this.schedule();
    }
  }
}
