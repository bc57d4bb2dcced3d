// The payout background job for the Worker. It claims its rows in the database with a lease, so any
// number of workers (processes) may run it side by side; PayoutService owns it (see its `job`).
import type { Job } from '../../core/worker.js';
import type { PayoutService } from './service.js';

/** All payout jobs, in the order a worker should start them. */
export const allPayoutJobs = (payouts: PayoutService): Job[] => [payouts.job];
