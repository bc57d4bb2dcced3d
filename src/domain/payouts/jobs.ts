// The payout background job for the Worker. It claims its rows in the database with a lease, so any
// number of workers (processes) may run it side by side.
import type { Job } from '../../worker.js';
import type { PayoutService } from './service.js';

export function payoutJob(payouts: PayoutService, idleIntervalMs = 200): Job {
  return { name: 'payout-submissions', idleIntervalMs, runOnce: () => payouts.processDue() };
}

/** All payout jobs, in the order a worker should start them. */
export const allPayoutJobs = (payouts: PayoutService, idleIntervalMs?: number): Job[] => [payoutJob(payouts, idleIntervalMs)];
