// The time limits and retry schedules of pay-in, in one place (contract sections 10 and 12).

/** A checkout URL works this long after creation; then the payment expires. */
export const PAYMENT_TTL_MS = 30 * 60_000;
/** A refund is accepted up to this long after the payment completed. */
export const REFUND_WINDOW_MS = 30 * 60_000;

/** Rows one run of a background job takes on; bounds memory and transaction length. */
export const JOB_BATCH_SIZE = 50;
/** How often an idle collection job looks for new payments. */
export const COLLECTION_JOB_IDLE_MS = 200;
/** How long a job's claim on a row lasts before another worker may take it over (a crashed worker). */
export const CLAIM_LEASE_MS = 60_000;

/** Backoff of the collection request after the channel was unavailable: 1 s, 2 s, 4 s ... capped at 60 s. */
export function collectionRetryDelayMs(attempts: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.min(attempts - 1, 6));
}

/** Backoff of a refund or late-payment refund whose outcome the channel left unknown: 5 s doubling to 10 min. */
export function refundRetryDelayMs(attempts: number): number {
  return Math.min(10 * 60_000, 5000 * 2 ** Math.min(attempts - 1, 7));
}

/** First reconciliation of a ready collection (callbacks normally arrive well before). */
export const FIRST_RECONCILE_AFTER_MS = 2 * 60_000;
/** Later reconciliations double the gap since the last one, up to this, and always one at expiry. */
export const MAX_RECONCILE_GAP_MS = 10 * 60_000;
/** After expiry, how long the service keeps asking an unreachable channel before it expires the payment anyway. */
export const EXPIRY_CONFIRM_GRACE_MS = 10 * 60_000;
/** Retry gap at expiry when the channel could not be asked. */
export const EXPIRY_RETRY_MS = 30_000;

/** Sandbox completion waits at most this long for the channel's answer before it reports the current record. */
export const SANDBOX_COMPLETE_TIMEOUT_MS = 5_000;
/** A second refund request while the first is with the channel waits at most this long for its outcome. */
export const REFUND_IN_FLIGHT_WAIT_MS = 5_000;
