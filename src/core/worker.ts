// Background work: each job does a bounded batch per run and says how much it did. The runner
// repeats a job at once while it finds work and waits when idle, so a backlog drains quickly. Several
// workers may run the same job: jobs claim their rows in the database, never in memory.
//
// An idle service should cost next to nothing. Polling every job at its own interval did not: eleven
// jobs asked the database about 45 times a second, about 4 % of a core in the service and more in
// PostgreSQL's backends, on a service doing nothing (docs/architecture.md, "An idle service sleeps").
// So a job that keeps finding nothing waits twice as long each time, up to `maxIdleMs`, and anything
// that may have made work (a state-changing request answered, another job's run that handled rows)
// wakes the jobs that were backing off at once and starts their waits over from their own intervals.

export interface Job {
  readonly name: string;
  /** Pause between runs when the previous run found nothing to do (the first of an idle stretch). */
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

/** Something happened that may have made work for the background jobs (a state change committed). */
export class WorkSignal {
  private readonly listeners = new Set<() => void>();

  notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` on every notify until the returned function is called. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export interface WorkerOptions {
  /**
   * The longest an idle job waits between runs: its wait doubles from its own interval up to this
   * (never below the interval itself). Unset: every job waits its own interval, as before backoff.
   */
  readonly maxIdleMs?: number;
  /** Wakes the jobs that are backing off; the worker subscribes while it runs. */
  readonly activity?: WorkSignal;
}

export class Worker {
  private running = false;
  private readonly loops: Promise<void>[] = [];
  private readonly wakers = new Set<() => void>();
  /** The wakers of the jobs waiting longer than their own interval (backing off): a nudge calls them. */
  private readonly backingOff = new Set<() => void>();
  /** Counts nudges: a job that sees it changed since its last pause starts its backoff over. */
  private nudges = 0;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly jobs: readonly Job[],
    private readonly log: JobLogger,
    private readonly options: WorkerOptions = {},
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.options.activity?.subscribe(() => this.nudge()) ?? null;
    for (const job of this.jobs) this.loops.push(this.loop(job));
  }

  /** Stops after the runs in progress finish. */
  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const wake of this.wakers) wake();
    await Promise.all(this.loops);
  }

  /**
   * Work may be waiting: every job backing off runs at once, and every job's next idle stretch starts
   * from its own interval again. Cheap when no job is backing off (the usual case under load).
   */
  nudge(): void {
    this.nudges += 1;
    if (this.backingOff.size === 0) return;
    for (const wake of [...this.backingOff]) wake();
  }

  private async loop(job: Job): Promise<void> {
    const longestMs = Math.max(job.idleIntervalMs, this.options.maxIdleMs ?? job.idleIntervalMs);
    let waitMs = job.idleIntervalMs;
    let seenNudges = this.nudges;
    while (this.running) {
      let handled = 0;
      try {
        handled = await job.runOnce();
      } catch (error) {
        this.log.error({ err: error, job: job.name }, 'background job failed; retrying after its interval');
      }
      if (handled > 0) {
        // What this job did may be work for the others (a paid payment's webhook, say).
        waitMs = job.idleIntervalMs;
        this.nudge();
        seenNudges = this.nudges;
        continue;
      }
      if (!this.running) break;
      if (this.nudges !== seenNudges) waitMs = job.idleIntervalMs;
      seenNudges = this.nudges;
      await this.pause(waitMs, waitMs > job.idleIntervalMs, job.wakeEarly?.(waitMs) ?? null);
      waitMs = this.nudges !== seenNudges ? job.idleIntervalMs : Math.min(2 * waitMs, longestMs);
    }
  }

  private pause(ms: number, nudgeable: boolean, early: Promise<void> | null): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        this.backingOff.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
      if (nudgeable) this.backingOff.add(wake);
      early?.then(wake, wake);
    });
  }
}
