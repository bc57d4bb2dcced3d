// The schedules and the payout state machine where money moves, as the contract and the docs state
// them: retries and polls double from their first delay to their ceiling, and a payout moves only
// Initiated -> Processing -> Success | Failed or Initiated -> Failed, never out of a final status.
import { describe, expect, it } from 'vitest';
import { collectionRetryDelayMs, refundRetryDelayMs } from '../../src/domain/payments/payment-limits.js';
import { pollDelayMs, submitRetryDelayMs } from '../../src/domain/payouts/payout-limits.js';
import { assertTransition, LIVE_PAYOUT_STATUSES, PAYOUT_TRANSITIONS, statusesBefore, upstreamStatusesBefore } from '../../src/domain/payouts/payout-statuses.js';
import { PAYOUT_STATUSES } from '../../src/domain/payouts/payout-rows.js';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;

describe('retry schedules', () => {
  it('retries a payout submission after 1 s, doubling to at most 60 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map(submitRetryDelayMs)).toEqual([1, 2, 4, 8, 16, 32, 60, 60].map((s) => s * SECOND_MS));
  });

  it('polls a Processing payout of an upstream without callbacks after 2 s, doubling to at most 5 minutes', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 80].map((queries) => pollDelayMs(queries, false))).toEqual([2, 4, 8, 16, 32, 64, 128, 256, 300, 300].map((s) => s * SECOND_MS));
  });

  it('polls a Processing payout of an upstream that calls back only as a backstop: after 30 s, doubling to at most 5 minutes', () => {
    expect([0, 1, 2, 3, 4, 80].map((queries) => pollDelayMs(queries, true))).toEqual([30, 60, 120, 240, 300, 300].map((s) => s * SECOND_MS));
  });

  it('retries a collection request after 1 s, doubling to at most 60 s', () => {
    expect([1, 2, 7, 1000].map(collectionRetryDelayMs)).toEqual([SECOND_MS, 2 * SECOND_MS, MINUTE_MS, MINUTE_MS]);
  });

  it('asks again about a refund after 5 s, doubling to at most 10 minutes', () => {
    expect([1, 2, 7, 8, 1000].map(refundRetryDelayMs)).toEqual([5, 10, 320, 600, 600].map((s) => s * SECOND_MS));
  });
});

describe('the payout state machine', () => {
  it('lets a payout reach each status only from the statuses the contract allows', () => {
    expect(statusesBefore('PendingApproval')).toEqual([]);
    expect(statusesBefore('Initiated')).toEqual(['PendingApproval']);
    expect(statusesBefore('Processing')).toEqual(['Initiated']);
    expect(statusesBefore('Success')).toEqual(['Initiated', 'Processing']);
    expect(statusesBefore('Failed')).toEqual(['PendingApproval', 'Initiated', 'Processing']);
    // The submission job and the upstream's news never act on a payout waiting for approval.
    expect(LIVE_PAYOUT_STATUSES).toEqual(['Initiated', 'Processing']);
    expect(upstreamStatusesBefore('Failed')).toEqual(['Initiated', 'Processing']);
  });

  it('refuses every other move, including any move out of a final status', () => {
    for (const from of PAYOUT_STATUSES) {
      for (const to of PAYOUT_STATUSES) {
        const allowed = PAYOUT_TRANSITIONS[from].includes(to);
        const move = () => assertTransition(from, to, 'po-test');
        if (allowed) expect(move).not.toThrow();
        else expect(move).toThrow(/not a payout transition/);
      }
    }
    expect(() => assertTransition('Success', 'Failed', 'po-test')).toThrow();
    expect(() => assertTransition('Processing', 'Initiated', 'po-test')).toThrow();
  });
});
