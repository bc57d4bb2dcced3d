// The daily reconciliation: once the configured UTC hour has come, yesterday's statement of every
// connector with a statement API is fetched and imported, once per connector and day (the unique
// fetched day makes a second worker's attempt a no-op). Time comes from the Clock, so tests move it.
import type { Clock } from '../core/clock.js';
import type { Job } from '../core/worker.js';
import type { ReconciliationService } from './service.js';

/** How often the job looks again once the day's statements are in. */
export const DAILY_JOB_INTERVAL_MS = 60_000;
/** A connector whose statement could not be fetched or read is tried again this much later (this process). */
export const FAILED_FETCH_RETRY_MS = 15 * 60_000;
/** The audit log's and the runs' actor of fetched statements. */
export const DAILY_JOB_ACTOR = 'scheduler';
const HOUR_MS = 3_600_000;

export interface DailyJobOptions {
  readonly clock: Clock;
  /** The UTC hour (0-23) from which yesterday's statements are fetched. */
  readonly hourUtc: number;
  readonly log: { error(details: object, message: string): void };
}

export function dailyReconciliationJob(service: ReconciliationService, options: DailyJobOptions): Job {
  // A provider that failed is not asked again every minute: its retry time, in business time.
  const retryAtMs = new Map<string, number>();
  return {
    name: 'reconciliation-daily',
    idleIntervalMs: DAILY_JOB_INTERVAL_MS,
    async runOnce() {
      const hour = Math.floor((options.clock.nowMs() % 86_400_000) / HOUR_MS);
      if (hour < options.hourUtc) return 0;
      return service.fetchYesterday(DAILY_JOB_ACTOR, {
        due: (connector) => (retryAtMs.get(connector) ?? 0) <= options.clock.nowMs(),
        failed: (connector, error) => {
          retryAtMs.set(connector, options.clock.nowMs() + FAILED_FETCH_RETRY_MS);
          options.log.error({ err: error, connector }, "reconciliation: yesterday's statement could not be fetched or read; tried again in 15 minutes");
        },
      });
    },
  };
}
