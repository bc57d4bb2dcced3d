// The operator's tools on payouts: the listing of payouts stuck in Processing, one payout with the
// job's bookkeeping, and a forced status query that applies the upstream's answer but never submits.
import { UpstreamUnavailableError, type PayoutState } from '../../connectors/channel.js';
import { MS_PER_SECOND } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { applyUpstreamState } from './outcomes.js';
import { LIVE_PAYOUT_STATUSES } from './payout-statuses.js';
import type { PayoutContext } from './payout-context.js';
import { DEFAULT_STUCK_AFTER_SECONDS, STUCK_PAGE_DEFAULT, STUCK_PAGE_MAX } from './payout-limits.js';
import { operatorView, type OperatorPayoutView } from './payout-records.js';
import { findPayoutByRef, neverSent, stuckPayouts } from './payout-repository.js';


/** What a forced status query found. */
export interface ForcedQueryResult {
  readonly payout: OperatorPayoutView;
  /** The upstream's answer, or null when it could not be asked (unavailable, or never submitted). */
  readonly upstream: { readonly status: string; readonly upstreamRef?: string; readonly failureReason?: string } | null;
  readonly note?: string;
}

/** Payouts in Processing unchanged for longer than the threshold, oldest first. */
export async function listStuckPayouts(
  ctx: PayoutContext,
  olderThanSeconds: number = DEFAULT_STUCK_AFTER_SECONDS,
  limit: number = STUCK_PAGE_DEFAULT,
): Promise<OperatorPayoutView[]> {
  if (!Number.isSafeInteger(olderThanSeconds) || olderThanSeconds < 0) throw new AppError('VALIDATION_FAILED', 'olderThanSeconds must be a whole number >= 0.');
  const nowMs = ctx.clock.nowMs();
  const rows = await stuckPayouts(ctx.db, nowMs, olderThanSeconds * MS_PER_SECOND, Math.min(Math.max(limit, 1), STUCK_PAGE_MAX));
  return rows.map((row) => operatorView(row, nowMs));
}

export async function operatorPayout(ctx: PayoutContext, transactionRef: string): Promise<OperatorPayoutView> {
  const row = await findPayoutByRef(ctx.db, transactionRef);
  if (!row) throw new AppError('NOT_FOUND', `No payout ${transactionRef}.`);
  return operatorView(row, ctx.clock.nowMs());
}

/**
 * Asks the upstream about a payout now and applies the answer. Never submits: a payout the
 * upstream does not know stays with the payout job, which resubmits only after its own check.
 */
export async function forcePayoutQuery(ctx: PayoutContext, transactionRef: string): Promise<ForcedQueryResult> {
  const row = await findPayoutByRef(ctx.db, transactionRef);
  if (!row) throw new AppError('NOT_FOUND', `No payout ${transactionRef}.`);
  const view = (): Promise<OperatorPayoutView> => operatorPayout(ctx, transactionRef);
  if (row.status === 'PendingApproval') {
    return { payout: await view(), upstream: null, note: 'Waiting for the merchant to approve it; never sent upstream until then.' };
  }
  if (!LIVE_PAYOUT_STATUSES.includes(row.status)) return { payout: await view(), upstream: null, note: 'The payout is final.' };
  if (neverSent(row)) {
    return { payout: await view(), upstream: null, note: 'Not submitted yet; the payout job will submit it.' };
  }
  let state: PayoutState;
  try {
    state = await ctx.channels.byName(row.channel).queryPayout(transactionRef);
  } catch (error) {
    if (!(error instanceof UpstreamUnavailableError)) throw error;
    return { payout: await view(), upstream: null, note: `The upstream did not answer: ${error.message}` };
  }
  await applyUpstreamState(ctx, row, state);
  // Make the payout job look at it again soon (next poll, or the recovery check of an UNKNOWN).
  await ctx.db
    .updateTable('payouts')
    .set({ next_action_at_ms: BigInt(ctx.clock.nowMs()) })
    .where('transaction_ref', '=', transactionRef)
    .where('status', 'in', LIVE_PAYOUT_STATUSES)
    .execute();
  return {
    payout: await view(),
    upstream: {
      status: state.status,
      ...(state.upstreamRef === undefined ? {} : { upstreamRef: state.upstreamRef }),
      ...(state.failureReason === undefined ? {} : { failureReason: state.failureReason }),
    },
  };
}
