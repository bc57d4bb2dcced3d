// The retry schedule of contract section 8: when each attempt of an event is due, with jitter so
// that events failing together (a receiver outage) do not all come back at the same instant.

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;

/** Delay before attempt n+1, counted from the end of attempt n; the first attempt is immediate. */
export const RETRY_DELAYS_MS: readonly number[] = [
  0,
  5 * SECOND_MS,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  5 * HOUR_MS,
  10 * HOUR_MS,
  10 * HOUR_MS,
];

/** Attempts per schedule; after the last one fails the event is marked failed. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;

export const JITTER_RATIO = 0.1;

/**
 * The delay before the next attempt after `attemptsMade` attempts of the current schedule failed,
 * or null when the schedule is exhausted. `random` is in [0, 1).
 */
export function nextRetryDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new Error('schedule: attemptsMade must be a positive integer');
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  const baseMs = RETRY_DELAYS_MS[attemptsMade]!;
  const jitter = (random() * 2 - 1) * JITTER_RATIO;
  return Math.round(baseMs * (1 + jitter));
}
