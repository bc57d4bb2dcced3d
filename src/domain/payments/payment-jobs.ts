// The pay-in background jobs, defined beside the service they drive: PaymentService builds them
// (its `jobs`) and a worker runs them. Each claims its rows in the database, so any number of
// workers may run them side by side.
import { DEFAULT_JOB_CONCURRENCY, PooledJob } from '../../core/pooled-job.js';
import type { Job } from '../../core/worker.js';
import { askForCollection, claimDueCollections } from './collections.js';
import type { PaymentContext } from './payment-context.js';
import {
  COLLECTION_JOB_IDLE_MS,
  EXPIRY_JOB_IDLE_MS,
  LATE_RETURN_JOB_IDLE_MS,
  RECONCILIATION_JOB_IDLE_MS,
  REFUND_JOB_IDLE_MS,
} from './payment-limits.js';
import type { PaymentsTable } from './payment-rows.js';

export interface PaymentJobs {
  /**
   * Asks channels for new payments' collections; retries while a channel is unavailable. Claims
   * rows only for free slots, so one slow channel answer holds up that payment alone.
   */
  readonly collections: PooledJob<PaymentsTable>;
  /** Expires pending payments past their 30 minutes, after a last word with the channel. */
  readonly expiry: Job;
  /** Asks channels about pending payments whose callback is overdue. */
  readonly reconciliation: Job;
  /** Asks channels again about refunds whose answer was lost. */
  readonly refunds: Job;
  /** Returns late payments of refundable methods to their payers. */
  readonly latePayments: Job;
}

/** The service's batch steps the jobs repeat; each handles one bounded batch and says how much it did. */
export interface PaymentJobSteps {
  expireDue(): Promise<number>;
  reconcileDue(): Promise<number>;
  retryDueRefunds(): Promise<number>;
  returnDueLatePayments(): Promise<number>;
}

/** Every pay-in job, in the order a worker should start them. */
export function paymentJobs(ctx: PaymentContext, steps: PaymentJobSteps): PaymentJobs {
  return {
    collections: new PooledJob({
      name: 'payment-collections',
      idleIntervalMs: COLLECTION_JOB_IDLE_MS,
      concurrency: ctx.collectionConcurrency ?? DEFAULT_JOB_CONCURRENCY,
      claim: (limit) => claimDueCollections(ctx, limit),
      process: (row) => askForCollection(ctx, row),
    }),
    expiry: { name: 'payment-expiry', idleIntervalMs: EXPIRY_JOB_IDLE_MS, runOnce: () => steps.expireDue() },
    reconciliation: { name: 'payment-reconciliation', idleIntervalMs: RECONCILIATION_JOB_IDLE_MS, runOnce: () => steps.reconcileDue() },
    refunds: { name: 'payment-refunds', idleIntervalMs: REFUND_JOB_IDLE_MS, runOnce: () => steps.retryDueRefunds() },
    latePayments: { name: 'payment-late-returns', idleIntervalMs: LATE_RETURN_JOB_IDLE_MS, runOnce: () => steps.returnDueLatePayments() },
  };
}
