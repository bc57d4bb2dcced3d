// Group commit for many small requests: items that arrive while a batch is being written wait for the
// next one, so concurrent callers share one statement (and one fsync) instead of each paying for its
// own. The write group, payment/initiate's rows, the one-time signature record, the shared rate limit
// and the balance and payment reads all batch this way.
//
// A batch may linger: when the batch before it was large (the process is busy), the next one waits a
// little (`lingerMs`) for more items before it is written, instead of going at the next turn of the
// event loop. Under load that makes batches larger and commits fewer, for a millisecond more per item;
// when batches are small (a quiet process) nothing waits, and a full batch never waits.

/** When a batch waits for company: after a batch of at least `busyAt` items, the next waits `lingerMs`. */
export interface Linger {
  readonly lingerMs: number;
  readonly busyAt: number;
}

/**
 * The linger of the batches that commit (the write group, payment/initiate's rows): after a batch of
 * 4 or more, 1 ms. What it bought on the 2-core bench machine is in docs/benchmarks.md, session 23.
 */
export const COMMIT_LINGER: Linger = { lingerMs: 1, busyAt: 4 };

interface Pending<I, O> {
  readonly item: I;
  readonly settle: (outcome: O) => void;
  readonly fail: (error: unknown) => void;
}

export class GroupBatch<I, O> {
  private queue: Pending<I, O>[] = [];
  private flushing = false;
  /** A flush is due (an immediate or a linger timer); a second is never scheduled beside it. */
  private scheduled: 'immediate' | NodeJS.Timeout | null = null;
  private lastSize = 0;

  /** `run` answers one outcome per item, in the items' order; a rejection fails the whole batch. */
  constructor(
    private readonly maxPerBatch: number,
    private readonly run: (items: readonly I[]) => Promise<readonly O[]>,
    private readonly linger?: Linger,
  ) {}

  add(item: I): Promise<O> {
    return new Promise((settle, fail) => {
      this.queue.push({ item, settle, fail });
      if (this.flushing) return;
      if (this.queue.length >= this.maxPerBatch && this.scheduled !== null && this.scheduled !== 'immediate') {
        // A full batch does not wait out the linger.
        clearTimeout(this.scheduled);
        this.scheduled = null;
      }
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled !== null) return;
    const linger = this.linger;
    if (linger !== undefined && this.lastSize >= linger.busyAt && this.queue.length < this.maxPerBatch) {
      this.scheduled = setTimeout(() => this.due(), linger.lingerMs);
    } else {
      this.scheduled = 'immediate';
      setImmediate(() => this.due());
    }
  }

  private due(): void {
    this.scheduled = null;
    void this.flush();
  }

  private async flush(): Promise<void> {
    if (this.flushing || this.queue.length === 0) return;
    this.flushing = true;
    const batch = this.queue.splice(0, this.maxPerBatch);
    this.lastSize = batch.length;
    try {
      const outcomes = await this.run(batch.map((pending) => pending.item));
      batch.forEach((pending, i) => pending.settle(outcomes[i]!));
    } catch (error) {
      for (const pending of batch) pending.fail(error);
    } finally {
      this.flushing = false;
      if (this.queue.length > 0) this.schedule();
    }
  }
}
