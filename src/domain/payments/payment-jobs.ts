// The pay-in background jobs, defined beside the service they drive: PaymentService builds them
// (its `jobs`) and a worker runs them. Each claims its rows in the database, only as many as its
// pool has free slots, so any number of workers may run them side by side and one slow channel
// answer holds up one row, never the job.
import { DEFAULT_JOB_CONCURRENCY, PooledJob } from '../../core/pooled-job.js';
import { askForCollection, claimDueCollections } from './collections.js';
import { claimDueLatePayments, sendBack } from './late-payments.js';
import type { PaymentContext } from './payment-context.js';
import {
  COLLECTION_JOB_IDLE_MS,
  EXPIRY_JOB_IDLE_MS,
  LATE_RETURN_JOB_IDLE_MS,
  RECONCILIATION_JOB_IDLE_MS,
  REFUND_JOB_IDLE_MS,
} from './payment-limits.js';
import type { LatePaymentsTable, PaymentsTable } from './payment-rows.js';
import type { Reconciler } from './reconciler.js';
import type { Refunds } from './refunds.js';

export interface PaymentJobs {
  /** Asks channels for new payments' collections; retries while a channel is unavailable. */
  readonly collections: PooledJob<PaymentsTable>;
  /** Expires pending payments past their 30 minutes, after a last word with the channel. */
  readonly expiry: PooledJob<PaymentsTable>;
  /** Asks channels about pending payments whose callback is overdue. */
  readonly reconciliation: PooledJob<PaymentsTable>;
  /** Asks channels again about refunds whose answer was lost. */
  readonly refunds: PooledJob<PaymentsTable>;
  /** Returns late payments of refundable methods to their payers. */
  readonly latePayments: PooledJob<LatePaymentsTable>;
}

/** What the jobs drive besides the plain functions of collections.ts and late-payments.ts. */
export interface PaymentJobParts {
  readonly reconciler: Reconciler;
  readonly refunds: Refunds;
}

/** Every pay-in job, in the order a worker should start them; each has its own pool of slots. */
export function paymentJobs(ctx: PaymentContext, parts: PaymentJobParts): PaymentJobs {
  const concurrency = ctx.upstreamConcurrency ?? DEFAULT_JOB_CONCURRENCY;
  const { reconciler, refunds } = parts;
  return {
    collections: new PooledJob({
      name: 'payment-collections',
      idleIntervalMs: COLLECTION_JOB_IDLE_MS,
      concurrency,
      claim: (limit) => claimDueCollections(ctx, limit),
      process: (row) => askForCollection(ctx, row),
    }),
    expiry: new PooledJob({
      name: 'payment-expiry',
      idleIntervalMs: EXPIRY_JOB_IDLE_MS,
      concurrency,
      claim: (limit) => reconciler.claimDueExpiries(limit),
      process: (row) => reconciler.settleAtExpiry(row),
    }),
    reconciliation: new PooledJob({
      name: 'payment-reconciliation',
      idleIntervalMs: RECONCILIATION_JOB_IDLE_MS,
      concurrency,
      claim: (limit) => reconciler.claimDueReconciliations(limit),
      process: (row) => reconciler.reconcile(row),
    }),
    refunds: new PooledJob({
      name: 'payment-refunds',
      idleIntervalMs: REFUND_JOB_IDLE_MS,
      concurrency,
      claim: (limit) => refunds.claimDue(limit),
      process: (row) => refunds.retryClaimed(row),
    }),
    latePayments: new PooledJob({
      name: 'payment-late-returns',
      idleIntervalMs: LATE_RETURN_JOB_IDLE_MS,
      concurrency,
      claim: (limit) => claimDueLatePayments(ctx, limit),
      process: (late) => sendBack(ctx, late),
    }),
  };
}
