// Background work: each job does a bounded batch per run and says how much it did. The runner
// repeats a job at once while it finds work and waits its interval when idle, so a backlog drains
// quickly and an idle service costs nothing. Several workers may run the same job: jobs claim
// their rows in the database, never in memory.
export interface Job {
  readonly name: string;
  /** Pause between runs when the previous run found nothing to do. */
  readonly idleIntervalMs: number;
  /** Processes at most one batch; returns how many items it handled. */
  runOnce(): Promise<number>;
  /**
   * Asked when a run found nothing to do: a promise that resolves as soon as the job may have work
   * again before its interval is over (a delivery it has in flight finished), or null. The runner
   * then runs it at once instead of waiting out the interval.
   */
  wakeEarly?(withinMs: number): Promise<void> | null;
}

export interface JobLogger {
  error(details: object, message: string): void;
}

export class Worker {
  private running = false;
  private readonly loops: Promise<void>[] = [];
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly jobs: readonly Job[],
    private readonly log: JobLogger,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    for (const job of this.jobs) this.loops.push(this.loop(job));
  }

  /** Stops after the runs in progress finish. */
  async stop(): Promise<void> {
    this.running = false;
    for (const wake of this.wakers) wake();
    await Promise.all(this.loops);
  }

  private async loop(job: Job): Promise<void> {
    while (this.running) {
      let handled = 0;
      try {
        handled = await job.runOnce();
      } catch (error) {
        this.log.error({ err: error, job: job.name }, 'background job failed; retrying after its interval');
      }
      if (handled === 0 && this.running) await this.pause(job.idleIntervalMs, job.wakeEarly?.(job.idleIntervalMs) ?? null);
    }
  }

  private pause(ms: number, early: Promise<void> | null): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
      early?.then(wake, wake);
    });
  }
}
