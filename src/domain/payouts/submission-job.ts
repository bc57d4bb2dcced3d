// Steps 4 and 5 of a payout's life: the submission job and what it does with each payout. It claims
// due payouts with a lease in the database, so any number of workers may run it side by side, and
// sends each payout upstream at most once per transactionRef: it asks before it ever sends again.
import { UpstreamRefusedError, UpstreamUnavailableError, type Channel, type PayoutState, type PayoutSubmission } from '../../connectors/channel.js';
import type { Currency } from '../../core/money.js';
import { DEFAULT_JOB_CONCURRENCY, PooledJob } from '../../core/pooled-job.js';
import { applyUpstreamState, markFinal, markProcessing, nextPollDelayMs } from './outcomes.js';
import type { PayoutContext } from './payout-context.js';
import { PAYOUT_JOB_MAX_IDLE_MS, payoutLeaseMs, submitRetryDelayMs } from './payout-limits.js';
import { DEFAULT_FAILURE_REASON, failureReasonOf } from '../failure-reasons.js';
import { claimDuePayouts, moveToNextChannel, recordSubmitAttempt, releaseLease, type ClaimedPayout } from './payout-repository.js';
import { maskAccount } from './payout-request.js';
import type { PayoutsTable } from './payout-rows.js';
import { oneStatementOn, unitKeys, writeGroupOf } from '../../store/write-group.js';

/**
 * The payout job: claims due payouts only for free slots, so each claimed payout is with the
 * upstream at once and a slow upstream answer holds up that payout alone.
 */
export function payoutSubmissionJob(ctx: PayoutContext): PooledJob<ClaimedPayout> {
  const leaseMs = payoutLeaseMs(ctx);
  return new PooledJob({
    name: 'payout-submissions',
    idleIntervalMs: Math.min(ctx.idleIntervalMs ?? PAYOUT_JOB_MAX_IDLE_MS, PAYOUT_JOB_MAX_IDLE_MS),
    concurrency: ctx.concurrency ?? DEFAULT_JOB_CONCURRENCY,
    claim: (limit) => {
      const nowMs = ctx.clock.nowMs();
      return claimDuePayouts(ctx.db, ctx.storeKind, nowMs, nowMs + leaseMs, limit);
    },
    process: (row) => processClaimed(ctx, row),
  });
}

/** One claimed payout: first submission, recovery of an unknown outcome, or a poll. */
async function processClaimed(ctx: PayoutContext, claimed: ClaimedPayout): Promise<void> {
  const { firstAttemptRecorded, ...row } = claimed;
  const lease = row.locked_until_ms;
  if (lease === null) throw new Error(`payouts: ${row.transaction_ref} reached the job without a lease`);
  const channel = ctx.channels.byName(row.channel);
  try {
    // The claim (or the intake that handed it over) counted its first submission, committed with the lease: it may be sent at once.
    if (firstAttemptRecorded) return await send(ctx, row, channel, lease);
    // It may have reached the upstream (an unanswered or crashed submission): ask before sending again.
    const state = await channel.queryPayout(row.transaction_ref);
    if (row.status === 'Initiated' && state.status === 'UNKNOWN') return await submit(ctx, row, channel, lease);
    await applyAndReschedule(ctx, row, state, lease);
  } catch (error) {
    if (!(error instanceof UpstreamUnavailableError)) {
      ctx.log?.warn({ err: error, transactionRef: row.transaction_ref }, 'payout job step failed; retried after the lease');
      return;
    }
    await retryLater(ctx, row, lease);
  }
}

/** What the upstream is sent for a payout: the same fields on every attempt, keyed by transactionRef. */
export function payoutSubmission(row: PayoutsTable): PayoutSubmission {
  return {
    transactionRef: row.transaction_ref,
    currency: row.currency as Currency,
    method: row.method,
    amountMinor: row.amount_minor,
    bankCode: row.bank_code,
    account: row.account,
    name: row.beneficiary_name,
    phone: row.phone,
    email: row.email,
  };
}

/** A resubmission, after the upstream said it never received the payout: the attempt is counted first. */
async function submit(ctx: PayoutContext, row: PayoutsTable, channel: Channel, lease: bigint): Promise<void> {
  // Committed before the request leaves: from here on, the upstream may have the payout.
  if (!(await writeGroupOf(ctx.db).run((trx) => recordSubmitAttempt(trx, row, lease), oneStatementOn(unitKeys.payout(row.transaction_ref))))) return;
  await send(ctx, { ...row, submit_attempts: row.submit_attempts + 1n }, channel, lease);
}

/** Sends a payout whose attempt is already counted (`submitted.submit_attempts` includes it) and applies the answer. */
async function send(ctx: PayoutContext, submitted: PayoutsTable, channel: Channel, lease: bigint): Promise<void> {
  let state: PayoutState;
  try {
    state = await channel.submitPayout(payoutSubmission(submitted));
  } catch (error) {
    if (error instanceof UpstreamUnavailableError) return retryLater(ctx, submitted, lease);
    // Any other answer is the upstream's refusal at submission: the payout certainly did not leave.
    // A definitive refusal moves it to the next connector of its route, if any; else Initiated -> Failed.
    const where = { err: error, transactionRef: submitted.transaction_ref, account: maskAccount(submitted.account), channel: submitted.channel };
    if (error instanceof UpstreamRefusedError && (await moveToNextConnector(ctx, submitted, lease))) {
      ctx.log?.warn(where, 'upstream refused a payout at submission; it goes to the next connector of its route');
      return;
    }
    ctx.log?.warn(where, 'upstream rejected a payout at submission; it fails');
    const failureReason = error instanceof UpstreamRefusedError ? failureReasonOf(error.failureReason) : DEFAULT_FAILURE_REASON;
    await markFinal(ctx, submitted, 'Failed', { failureReason });
    return;
  }
  // A transfer the upstream answers as failed in its very answer to the submission never moved money
  // either (e.g. its own balance was short): like a refusal, it may go to the next connector.
  if (state.status === 'FAILED' && (await moveToNextConnector(ctx, submitted, lease))) {
    ctx.log?.warn(
      { transactionRef: submitted.transaction_ref, channel: submitted.channel, failureReason: state.failureReason },
      'upstream failed a payout in its answer to the submission; it goes to the next connector of its route',
    );
    return;
  }
  await applyAndReschedule(ctx, submitted, state, lease);
}

/** Applies the upstream's answer; a payout still in flight gets its next poll. */
async function applyAndReschedule(ctx: PayoutContext, row: PayoutsTable, state: PayoutState, lease: bigint): Promise<void> {
  if (state.status === 'SUCCESS' || state.status === 'FAILED') {
    await applyUpstreamState(ctx, row, state);
    return;
  }
  // Processing, its first poll scheduled and the lease given back, in one statement.
  if (state.status === 'PROCESSING' && row.status === 'Initiated' && (await markProcessing(ctx, row, state, lease))) return;
  if (state.status === 'UNKNOWN') {
    ctx.log?.warn({ transactionRef: row.transaction_ref, status: row.status }, 'upstream does not know a payout it accepted; keeps polling');
  }
  const queries = row.query_attempts + 1n;
  await writeGroupOf(ctx.db).run((trx) => releaseLease(trx, row.transaction_ref, lease, ctx.clock.nowMs() + nextPollDelayMs(ctx, row, Number(queries)), queries), oneStatementOn(unitKeys.payout(row.transaction_ref)));
}

/** The upstream did not answer: the outcome is unknown, so the next step is a query, after a backoff. */
async function retryLater(ctx: PayoutContext, row: PayoutsTable, lease: bigint): Promise<void> {
  const queries = row.query_attempts + 1n;
  const delayMs = row.status === 'Processing' ? nextPollDelayMs(ctx, row, Number(queries)) : submitRetryDelayMs(Number(queries));
  await writeGroupOf(ctx.db).run((trx) => releaseLease(trx, row.transaction_ref, lease, ctx.clock.nowMs() + delayMs, queries), oneStatementOn(unitKeys.payout(row.transaction_ref)));
}

/**
 * After a definitive refusal at submission: the payout, still Initiated and never accepted by that
 * upstream, is handed to the next connector of its route, to be submitted there afresh at once.
 */
async function moveToNextConnector(ctx: PayoutContext, row: PayoutsTable, lease: bigint): Promise<boolean> {
  const [next, ...rest] = (row.fallback_channels ?? '').split(',').filter((name) => name !== '');
  if (next === undefined) return false;
  return moveToNextChannel(ctx.db, row, lease, next, rest, ctx.clock.nowMs());
}
