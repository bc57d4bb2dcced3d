// The one retry schedule of payments and payouts: a first delay that doubles per attempt up to a
// ceiling. Each caller names its own first delay and ceiling, so every schedule is a pair of limits.

export interface Backoff {
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
}

/** firstDelayMs * 2^step, capped at maxDelayMs; step 0 is the first retry (a negative step counts as 0). */
export function backoffDelayMs(schedule: Backoff, step: number): number {
  const delayMs = schedule.firstDelayMs * 2 ** Math.max(step, 0);
  return Math.min(schedule.maxDelayMs, delayMs);
}
