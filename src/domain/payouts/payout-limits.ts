// The payout job's timing (contract sections 5 and 12), in one place.

/** How often an idle payout job looks for due payouts. */
export const DEFAULT_PAYOUT_JOB_IDLE_MS = 200;
/**
 * How long a worker's claim on a payout lasts. Longer than a channel request's deadline, so a live
 * worker never loses its row mid-call; a crashed worker's rows are taken over after it.
 */
export const PAYOUT_LEASE_MS = 30_000;

/** Retry of a submission (or a recovery query) after the upstream did not answer: 1 s doubling to 60 s. */
export function submitRetryDelayMs(attempts: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.min(Math.max(attempts - 1, 0), 6));
}

/** Polls of a Processing payout (callbacks usually arrive first): 2 s doubling to 5 min. */
export function pollDelayMs(queries: number): number {
  return Math.min(5 * 60_000, 2000 * 2 ** Math.min(Math.max(queries, 0), 8));
}

/** Default threshold of the operator's "stuck in Processing" listing. */
export const DEFAULT_STUCK_AFTER_SECONDS = 15 * 60;
