// The pay-in background jobs for the Worker. Each claims its rows in the database, so any number of
// workers may run them side by side.
import type { Job } from '../../core/worker.js';
import type { PaymentService } from './service.js';

export interface PaymentJobs {
  /** Asks channels for new payments' collections; retries while a channel is unavailable. */
  readonly collections: Job;
  /** Expires pending payments past their 30 minutes, after a last word with the channel. */
  readonly expiry: Job;
  /** Asks channels about pending payments whose callback is overdue. */
  readonly reconciliation: Job;
  /** Asks channels again about refunds whose answer was lost. */
  readonly refunds: Job;
  /** Returns late payments of refundable methods to their payers. */
  readonly latePayments: Job;
}

export function paymentJobs(payments: PaymentService): PaymentJobs {
  return {
    collections: payments.collectionJob,
    expiry: { name: 'payment-expiry', idleIntervalMs: 1_000, runOnce: () => payments.expireDue() },
    reconciliation: { name: 'payment-reconciliation', idleIntervalMs: 5_000, runOnce: () => payments.reconcileDue() },
    refunds: { name: 'payment-refunds', idleIntervalMs: 1_000, runOnce: () => payments.retryDueRefunds() },
    latePayments: { name: 'payment-late-returns', idleIntervalMs: 5_000, runOnce: () => payments.returnDueLatePayments() },
  };
}

/** All of them, in the order a worker should start them. */
export const allPaymentJobs = (payments: PaymentService): Job[] => Object.values(paymentJobs(payments));
