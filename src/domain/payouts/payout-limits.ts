// Every limit the payout module works to (contract sections 5 and 12), named with its unit: the
// job's idle time and lease, the submission and poll schedules, and the operator listing's bounds.
import { backoffDelayMs, type Backoff } from '../retry-backoff.js';

/** The longest an idle payout job waits before it looks for due payouts again (a shorter worker idle applies). */
export const PAYOUT_JOB_MAX_IDLE_MS = 200;
/**
 * How long a worker's claim on a payout lasts. Longer than a channel request's deadline, so a live
 * worker never loses its row mid-call; a crashed worker's rows are taken over after it.
 */
export const PAYOUT_LEASE_MS = 30_000;

/** The lease a process's claims and intake hand-offs write: its context's setting (tests shorten it), else PAYOUT_LEASE_MS. */
export const payoutLeaseMs = (ctx: { readonly leaseMs?: number }): number => ctx.leaseMs ?? PAYOUT_LEASE_MS;

/** Retry of a submission (or a recovery query) after the upstream did not answer: 1 s doubling to 60 s. */
const SUBMIT_RETRY: Backoff = { firstDelayMs: 1_000, maxDelayMs: 60_000 };
export const submitRetryDelayMs = (attempts: number): number => backoffDelayMs(SUBMIT_RETRY, attempts - 1);

/** Polls of a Processing payout whose upstream sends no notice of its outcome (Paymob's): 2 s doubling to 5 min. */
const POLL: Backoff = { firstDelayMs: 2_000, maxDelayMs: 5 * 60_000 };
/**
 * Polls of a Processing payout whose upstream calls back (Channel.payoutCallbacks): only a backstop
 * for a lost callback, 30 s doubling to 5 min. A poll before the callback costs a request to the
 * provider and a write, and tells nothing the callback would not (docs/payouts.md, "Polling").
 */
const BACKSTOP_POLL: Backoff = { firstDelayMs: 30_000, maxDelayMs: 5 * 60_000 };
export const pollDelayMs = (queries: number, upstreamCallsBack: boolean): number => backoffDelayMs(upstreamCallsBack ? BACKSTOP_POLL : POLL, queries);

/** Default threshold of the operator's "stuck in Processing" listing. */
export const DEFAULT_STUCK_AFTER_SECONDS = 15 * 60;
/** Payouts the stuck listing answers: by default, and at the most. */
export const STUCK_PAGE_DEFAULT = 100;
export const STUCK_PAGE_MAX = 500;
