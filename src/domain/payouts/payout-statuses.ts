// The payout state machine as data: where each status may go next. Status updates take their
// WHERE from it and assert it afterwards, so no code path can move a payout along another edge.
import { FINAL_PAYOUT_STATUSES, PAYOUT_STATUSES, type PayoutStatus } from './payout-rows.js';

/** Where each status may go next. Final statuses go nowhere. */
export const PAYOUT_TRANSITIONS: Readonly<Record<PayoutStatus, readonly PayoutStatus[]>> = {
  // Only intake creates it (above the approval threshold); approval, rejection or the timeout ends it.
  PendingApproval: ['Initiated', 'Failed'],
  Initiated: ['Processing', 'Success', 'Failed'],
  Processing: ['Success', 'Failed'],
  Success: [],
  Failed: [],
};

for (const status of PAYOUT_STATUSES) {
  if ((PAYOUT_TRANSITIONS[status].length === 0) !== FINAL_PAYOUT_STATUSES.includes(status)) {
    throw new Error(`payouts: the transition graph and the final statuses disagree about ${status}`);
  }
}

/** The statuses a payout may reach `to` from: the WHERE of the status update to `to`. */
export const statusesBefore = (to: PayoutStatus): PayoutStatus[] => PAYOUT_STATUSES.filter((from) => PAYOUT_TRANSITIONS[from].includes(to));

/**
 * Statuses the submission job acts on: those with somewhere to go, except PendingApproval, which
 * waits for the merchant (or the approval expiry job) and must never reach an upstream.
 */
export const LIVE_PAYOUT_STATUSES: readonly PayoutStatus[] = PAYOUT_STATUSES.filter(
  (status) => PAYOUT_TRANSITIONS[status].length > 0 && status !== 'PendingApproval',
);

/** The statuses an upstream's news or the submission job may move a payout from to `to`: never PendingApproval. */
export const upstreamStatusesBefore = (to: PayoutStatus): PayoutStatus[] => statusesBefore(to).filter((from) => LIVE_PAYOUT_STATUSES.includes(from));

/**
 * Called after an update to `to` changed the row. The caller's copy is older than the row it
 * changed, and statuses only move forward, so it too must be a status `to` may follow.
 */
export function assertTransition(from: PayoutStatus, to: PayoutStatus, transactionRef: string): void {
  if (!PAYOUT_TRANSITIONS[from].includes(to)) throw new Error(`payouts: ${transactionRef} moved ${from} -> ${to}, which is not a payout transition`);
}
