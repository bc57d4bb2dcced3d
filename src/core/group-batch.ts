// Group commit for many small requests: items that arrive while a batch is being written wait for the
// next one, so concurrent callers share one statement (and one fsync) instead of each paying for its
// own. The one-time signature record and the shared rate limit both batch this way.

interface Pending<I, O> {
  readonly item: I;
  readonly settle: (outcome: O) => void;
  readonly fail: (error: unknown) => void;
}

export class GroupBatch<I, O> {
  private queue: Pending<I, O>[] = [];
  private flushing = false;

  /** `run` answers one outcome per item, in the items' order; a rejection fails the whole batch. */
  constructor(
    private readonly maxPerBatch: number,
    private readonly run: (items: readonly I[]) => Promise<readonly O[]>,
  ) {}

  add(item: I): Promise<O> {
    return new Promise((settle, fail) => {
      this.queue.push({ item, settle, fail });
      if (!this.flushing) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    if (this.flushing || this.queue.length === 0) return;
    this.flushing = true;
    const batch = this.queue.splice(0, this.maxPerBatch);
    try {
      const outcomes = await this.run(batch.map((pending) => pending.item));
      batch.forEach((pending, i) => pending.settle(outcomes[i]!));
    } catch (error) {
      for (const pending of batch) pending.fail(error);
    } finally {
      this.flushing = false;
      if (this.queue.length > 0) setImmediate(() => void this.flush());
    }
  }
}
