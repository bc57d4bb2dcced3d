// A fixed number of slots for background calls that may be slow (upstream requests, webhook
// deliveries): each task holds one slot while it runs, so one slow call never holds up the others.
export class SlotPool {
  private readonly running = new Set<Promise<void>>();
  private readonly waiters = new Set<() => void>();
  private finishedCount = 0;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`slot pool: size must be a positive integer, got ${size}`);
  }

  get busy(): number {
    return this.running.size;
  }

  get free(): number {
    return this.size - this.running.size;
  }

  /** Tasks finished since the pool was made; a caller compares two readings to see progress. */
  get finished(): number {
    return this.finishedCount;
  }

  /** Starts `task` in a free slot (the caller checks `free` first); the answer settles as the task does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running.size >= this.size) throw new Error('slot pool: no free slot');
    const outcome = Promise.resolve().then(task);
    const slot: Promise<void> = outcome.then(
      () => this.release(slot),
      () => this.release(slot),
    );
    this.running.add(slot);
    return outcome;
  }

  /** Resolves when some task finishes or after `timeoutMs`, whichever is first; at once when none runs. */
  nextFinish(timeoutMs: number): Promise<void> {
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, timeoutMs);
      this.waiters.add(wake);
    });
  }

  /** Resolves once no task is running, including tasks started meanwhile. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  private release(slot: Promise<void>): void {
    this.running.delete(slot);
    this.finishedCount += 1;
    for (const wake of [...this.waiters]) wake();
  }
}
