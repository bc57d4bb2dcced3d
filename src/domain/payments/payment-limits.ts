// The time limits, batch sizes and retry schedules of pay-in, in one place (contract sections 10
// and 12). Every limit the payment module works to is named here, with its unit in its name.
import { backoffDelayMs, type Backoff } from '../retry-backoff.js';

/** A checkout URL works this long after creation; then the payment expires. */
export const PAYMENT_TTL_MS = 30 * 60_000;
/** A refund is accepted up to this long after the payment completed. */
export const REFUND_WINDOW_MS = 30 * 60_000;

/** How long a job's claim on a row lasts before another worker may take it over (a crashed worker). */
export const CLAIM_LEASE_MS = 60_000;

/** How often each idle pay-in job looks for work. */
export const COLLECTION_JOB_IDLE_MS = 200;
export const EXPIRY_JOB_IDLE_MS = 1_000;
export const RECONCILIATION_JOB_IDLE_MS = 5_000;
export const REFUND_JOB_IDLE_MS = 1_000;
export const LATE_RETURN_JOB_IDLE_MS = 5_000;

/** Backoff of the collection request after the channel was unavailable: 1 s, 2 s, 4 s ... capped at 60 s. */
const COLLECTION_RETRY: Backoff = { firstDelayMs: 1_000, maxDelayMs: 60_000 };
export const collectionRetryDelayMs = (attempts: number): number => backoffDelayMs(COLLECTION_RETRY, attempts - 1);

/** Backoff of a refund or late-payment refund whose outcome the channel left unknown: 5 s doubling to 10 min. */
const REFUND_RETRY: Backoff = { firstDelayMs: 5_000, maxDelayMs: 10 * 60_000 };
export const refundRetryDelayMs = (attempts: number): number => backoffDelayMs(REFUND_RETRY, attempts - 1);

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
/** While a request waits for the channel's answer (sandbox completion, a refund in flight), it looks again this often. */
export const IN_FLIGHT_POLL_INTERVAL_MS = 50;
/** A refund request re-reads the payment at most this often when it lost a race to another refund call. */
export const REFUND_RACE_MAX_ROUNDS = 3;

