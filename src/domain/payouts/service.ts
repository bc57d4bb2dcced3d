// PayoutService: the payout module's one entry point. Accepts payouts (idempotent per merchantRef,
// record and reservation in one transaction), answers status queries, submits them upstream from
// the payout job at most once per transactionRef, applies what channels report, and gives the
// operator the stuck listing and a forced status query.
import { UpstreamUnavailableError, type Channel, type PayoutState } from '../../channels/channel.js';
import type { LedgerService } from '../../ledger/service.js';
import { withTransaction } from '../../store/transactions.js';
import { DEFAULT_JOB_CONCURRENCY, PooledJob } from '../../core/pooled-job.js';
import type { StoreKind } from '../../store/db.js';
import type { Db } from '../../store/schema.js';
import type { Clock } from '../../core/clock.js';
import { AppError, notFound } from '../../core/errors.js';
import type { FeeService } from '../fees.js';
import { newId } from '../../core/ids.js';
import type { Merchant } from '../merchants.js';
import type { Currency } from '../../core/money.js';
import type { WebhookUrlCheck } from '../payments/payment-request.js';
import {
  DEFAULT_PAYOUT_JOB_IDLE_MS,
  DEFAULT_STUCK_AFTER_SECONDS,
  PAYOUT_LEASE_MS,
  pollDelayMs,
  submitRetryDelayMs,
} from './payout-limits.js';
import { operatorView, payoutInitiateResult, payoutRecord, type OperatorPayoutView, type PayoutInitiateResult, type PayoutRecord } from './payout-records.js';
import {
  claimDuePayouts,
  findPayoutByRef,
  findPayoutForMerchant,
  insertPayoutIfNew,
  recordSubmitAttempt,
  releaseLease,
  stuckPayouts,
} from './payout-repository.js';
import { buildPayoutDraft, maskAccount, payoutRequestHash, requireCurrency, requirePayoutMethod, type PayoutInitiateRequest } from './payout-request.js';
import type { PayoutsTable } from './tables.js';
import { markFinal, markProcessing } from './outcomes.js';

export type PayoutQuery = { readonly transactionRef?: string; readonly merchantRef?: string };

export interface PayoutChannels {
  /** The channel that pays this merchant's payouts of this currency and method (sandbox: the simulator). */
  channelFor(merchant: Merchant, currency: Currency, method: string): Channel;
  /** The channel a stored payout went through, by the name recorded on it. */
  byName(name: string): Channel;
}

export interface PayoutLog {
  warn(details: object, message: string): void;
}

export interface PayoutDeps {
  readonly db: Db;
  readonly storeKind: StoreKind;
  readonly clock: Clock;
  readonly fees: FeeService;
  readonly ledger: LedgerService;
  readonly channels: PayoutChannels;
  readonly log?: PayoutLog;
  readonly webhookUrlCheck?: WebhookUrlCheck;
  /** The payout job's lease per claimed row (default PAYOUT_LEASE_MS); must exceed a channel request's deadline. */
  readonly leaseMs?: number;
  /** Payouts the job works on at once in this process (default DEFAULT_JOB_CONCURRENCY). */
  readonly concurrency?: number;
  /** The job's pause when nothing is due (default DEFAULT_PAYOUT_JOB_IDLE_MS). */
  readonly idleIntervalMs?: number;
}

/** What a forced status query found. */
export interface ForcedQueryResult {
  readonly payout: OperatorPayoutView;
  /** The upstream's answer, or null when it could not be asked (unavailable, or never submitted). */
  readonly upstream: { readonly status: string; readonly upstreamRef?: string; readonly failureReason?: string } | null;
  readonly note?: string;
}

export const MAX_STUCK_PAGE = 500;

function oneReference(query: PayoutQuery): { transactionRef: string } | { merchantRef: string } {
  const { transactionRef, merchantRef } = query;
  if ((transactionRef === undefined) === (merchantRef === undefined)) {
    throw new AppError('VALIDATION_FAILED', 'Send exactly one of transactionRef and merchantRef.', [
      { field: transactionRef === undefined ? 'transactionRef' : 'merchantRef', problem: 'exactly one of transactionRef and merchantRef is required' },
    ]);
  }
  return transactionRef !== undefined ? { transactionRef } : { merchantRef: merchantRef! };
}

export class PayoutService {
  /**
   * The payout job: claims due payouts only for free slots, so each claimed payout is with the
   * upstream at once and a slow upstream answer holds up that payout alone.
   */
  readonly job: PooledJob<PayoutsTable>;

  constructor(private readonly deps: PayoutDeps) {
    this.job = new PooledJob({
      name: 'payout-submissions',
      idleIntervalMs: deps.idleIntervalMs ?? DEFAULT_PAYOUT_JOB_IDLE_MS,
      concurrency: deps.concurrency ?? DEFAULT_JOB_CONCURRENCY,
      claim: (limit) => {
        const nowMs = this.deps.clock.nowMs();
        return claimDuePayouts(this.deps.db, this.deps.storeKind, nowMs, nowMs + (this.deps.leaseMs ?? PAYOUT_LEASE_MS), limit);
      },
      process: (row) => this.processClaimed(row),
    });
  }

  /**
   * Accepts a payout, or answers the original when the merchant repeats the same request under the
   * same merchantRef. The record and the reservation of amount + fee commit together (the
   * reservation last, so the merchant's balance rows are locked only until the commit); when the
   * balance is short nothing is written. The upstream is asked later by the payout job.
   */
  async initiate(merchant: Merchant, request: PayoutInitiateRequest): Promise<PayoutInitiateResult> {
    const currency = requireCurrency(request.currency);
    const method = requirePayoutMethod(currency, request.method);
    const bounds = await this.deps.fees.limitsFor(merchant.id, currency, method.method, 'payout');
    const draft = buildPayoutDraft(request, currency, method, bounds, merchant.mode, this.deps.webhookUrlCheck);
    const hash = payoutRequestHash(draft);
    const feeMinor = await this.deps.fees.feeFor(merchant.id, currency, method.method, 'payout', draft.amountMinor);
    const channel = this.deps.channels.channelFor(merchant, currency, method.method);
    const row = await withTransaction(this.deps.db, async (trx) => {
      const nowMs = BigInt(this.deps.clock.nowMs());
      const fresh: PayoutsTable = {
        transaction_ref: newId(),
        merchant_id: merchant.id,
        merchant_ref: draft.merchantRef,
        request_hash: hash,
        currency,
        method: method.method,
        amount_minor: draft.amountMinor,
        fee_minor: feeMinor,
        bank_code: draft.bankCode,
        beneficiary_name: draft.name,
        account: draft.account,
        phone: draft.phone,
        email: draft.email,
        webhook_url: draft.webhookUrl,
        status: 'Initiated',
        failure_reason: null,
        upstream_ref: null,
        channel: channel.name,
        submit_attempts: 0n,
        query_attempts: 0n,
        next_action_at_ms: nowMs,
        locked_until_ms: null,
        created_at_ms: nowMs,
        updated_at_ms: nowMs,
        completed_at_ms: null,
      };
      if (!(await insertPayoutIfNew(trx, fresh))) {
        const original = await findPayoutForMerchant(trx, merchant.id, { merchantRef: draft.merchantRef });
        if (!original) throw new Error(`payouts: merchantRef ${draft.merchantRef} conflicted but cannot be read`);
        if (original.request_hash !== hash) {
          throw new AppError('DUPLICATE_MERCHANT_REF', `merchantRef ${draft.merchantRef} was already used with a different payout request.`);
        }
        return original;
      }
      await this.deps.ledger.reserveForPayout(trx, {
        merchantId: merchant.id,
        currency,
        amountMinor: draft.amountMinor,
        feeMinor,
        ref: fresh.transaction_ref,
      });
      return fresh;
    });
    return payoutInitiateResult(row);
  }

  async status(merchant: Merchant, query: PayoutQuery): Promise<PayoutRecord> {
    const row = await findPayoutForMerchant(this.deps.db, merchant.id, oneReference(query));
    if (!row) throw notFound('payout');
    return payoutRecord(row);
  }

  /**
   * Applies what a channel says about a payout (callbacks, polls, forced queries); safe to repeat.
   * SUCCESS / FAILED make a live payout final; PROCESSING moves Initiated to Processing; UNKNOWN
   * changes nothing. Returns the payout afterwards, or null when there is no such payout.
   */
  async applyPayoutState(transactionRef: string, state: PayoutState, fromChannel?: string): Promise<PayoutsTable | null> {
    const row = await findPayoutByRef(this.deps.db, transactionRef);
    if (!row) {
      this.deps.log?.warn({ transactionRef, status: state.status }, 'payout news for an unknown payout; ignored');
      return null;
    }
    const foreign =
      (fromChannel !== undefined && fromChannel !== row.channel) ||
      (row.upstream_ref !== null && state.upstreamRef !== undefined && row.upstream_ref !== state.upstreamRef);
    if (foreign) {
      this.deps.log?.warn({ transactionRef, fromChannel, upstreamRef: state.upstreamRef }, 'payout news does not match the payout; ignored');
      return row;
    }
    await this.applyState(row, state);
    return (await findPayoutByRef(this.deps.db, transactionRef)) ?? null;
  }

  // Background work (see jobs.ts).

  /** One step of the payout job, waited for: claims due payouts for the free slots and submits, recovers or polls each. */
  processDue(): Promise<number> {
    return this.job.runDue();
  }

  // Operator tools.

  /** Payouts in Processing unchanged for longer than the threshold, oldest first. */
  async stuck(olderThanSeconds: number = DEFAULT_STUCK_AFTER_SECONDS, limit = 100): Promise<OperatorPayoutView[]> {
    if (!Number.isSafeInteger(olderThanSeconds) || olderThanSeconds < 0) throw new AppError('VALIDATION_FAILED', 'olderThanSeconds must be a whole number >= 0.');
    const nowMs = this.deps.clock.nowMs();
    const rows = await stuckPayouts(this.deps.db, nowMs, olderThanSeconds * 1000, Math.min(Math.max(limit, 1), MAX_STUCK_PAGE));
    return rows.map((row) => operatorView(row, nowMs));
  }

  async operatorGet(transactionRef: string): Promise<OperatorPayoutView> {
    const row = await findPayoutByRef(this.deps.db, transactionRef);
    if (!row) throw new AppError('NOT_FOUND', `No payout ${transactionRef}.`);
    return operatorView(row, this.deps.clock.nowMs());
  }

  /**
   * Asks the upstream about a payout now and applies the answer. Never submits: a payout the
   * upstream does not know stays with the payout job, which resubmits only after its own check.
   */
  async forceQuery(transactionRef: string): Promise<ForcedQueryResult> {
    const row = await findPayoutByRef(this.deps.db, transactionRef);
    if (!row) throw new AppError('NOT_FOUND', `No payout ${transactionRef}.`);
    const view = async (): Promise<OperatorPayoutView> => operatorView((await findPayoutByRef(this.deps.db, transactionRef))!, this.deps.clock.nowMs());
    if (row.status === 'Success' || row.status === 'Failed') return { payout: await view(), upstream: null, note: 'The payout is final.' };
    if (row.status === 'Initiated' && row.submit_attempts === 0n) {
      return { payout: await view(), upstream: null, note: 'Not submitted yet; the payout job will submit it.' };
    }
    let state: PayoutState;
    try {
      state = await this.deps.channels.byName(row.channel).queryPayout(transactionRef);
    } catch (error) {
      if (!(error instanceof UpstreamUnavailableError)) throw error;
      return { payout: await view(), upstream: null, note: `The upstream did not answer: ${error.message}` };
    }
    await this.applyState(row, state);
    // Make the payout job look at it again soon (next poll, or the recovery check of an UNKNOWN).
    await this.deps.db
      .updateTable('payouts')
      .set({ next_action_at_ms: BigInt(this.deps.clock.nowMs()) })
      .where('transaction_ref', '=', transactionRef)
      .where('status', 'in', ['Initiated', 'Processing'])
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

  private async applyState(row: PayoutsTable, state: PayoutState): Promise<void> {
    switch (state.status) {
      case 'SUCCESS':
        await markFinal(this.deps, row, 'Success', state);
        return;
      case 'FAILED':
        await markFinal(this.deps, row, 'Failed', state);
        return;
      case 'PROCESSING':
        if (row.status === 'Initiated') await markProcessing(this.deps, row, state);
        return;
      case 'UNKNOWN':
        return;
    }
  }

  /** One claimed payout: first submission, recovery of an unknown outcome, or a poll. */
  private async processClaimed(row: PayoutsTable): Promise<void> {
    const lease = row.locked_until_ms!;
    const channel = this.deps.channels.byName(row.channel);
    try {
      if (row.status === 'Initiated' && row.submit_attempts === 0n) return await this.submit(row, channel, lease);
      // It may have reached the upstream (an unanswered or crashed submission): ask before sending again.
      const state = await channel.queryPayout(row.transaction_ref);
      if (row.status === 'Initiated' && state.status === 'UNKNOWN') return await this.submit(row, channel, lease);
      await this.applyAndReschedule(row, state, lease);
    } catch (error) {
      if (!(error instanceof UpstreamUnavailableError)) {
        this.deps.log?.warn({ err: error, transactionRef: row.transaction_ref }, 'payout job step failed; retried after the lease');
        return;
      }
      await this.retryLater(row, lease);
    }
  }

  private async submit(row: PayoutsTable, channel: Channel, lease: bigint): Promise<void> {
    // Committed before the request leaves: from here on, the upstream may have the payout.
    if (!(await recordSubmitAttempt(this.deps.db, row, lease))) return;
    const submitted = { ...row, submit_attempts: row.submit_attempts + 1n };
    let state: PayoutState;
    try {
      state = await channel.submitPayout({
        transactionRef: row.transaction_ref,
        currency: row.currency as Currency,
        method: row.method,
        amountMinor: row.amount_minor,
        bankCode: row.bank_code,
        account: row.account,
        name: row.beneficiary_name,
        phone: row.phone,
        email: row.email,
      });
    } catch (error) {
      if (error instanceof UpstreamUnavailableError) return this.retryLater(submitted, lease);
      // Any other answer is the upstream's refusal at submission: Initiated -> Failed.
      this.deps.log?.warn(
        { err: error, transactionRef: row.transaction_ref, account: maskAccount(row.account), channel: row.channel },
        'upstream rejected a payout at submission; it fails',
      );
      await markFinal(this.deps, submitted, 'Failed', { failureReason: 'UPSTREAM_REJECTED' });
      return;
    }
    await this.applyAndReschedule(submitted, state, lease);
  }

  /** Applies the upstream's answer; a payout still in flight gets its next poll. */
  private async applyAndReschedule(row: PayoutsTable, state: PayoutState, lease: bigint): Promise<void> {
    if (state.status === 'SUCCESS' || state.status === 'FAILED') {
      await this.applyState(row, state);
      return;
    }
    if (state.status === 'PROCESSING' && row.status === 'Initiated' && (await markProcessing(this.deps, row, state))) {
      await releaseLease(this.deps.db, row.transaction_ref, lease, this.deps.clock.nowMs() + pollDelayMs(0), 0n);
      return;
    }
    if (state.status === 'UNKNOWN') {
      this.deps.log?.warn({ transactionRef: row.transaction_ref, status: row.status }, 'upstream does not know a payout it accepted; keeps polling');
    }
    const queries = row.query_attempts + 1n;
    await releaseLease(this.deps.db, row.transaction_ref, lease, this.deps.clock.nowMs() + pollDelayMs(Number(queries)), queries);
  }

  /** The upstream did not answer: the outcome is unknown, so the next step is a query, after a backoff. */
  private async retryLater(row: PayoutsTable, lease: bigint): Promise<void> {
    const queries = row.query_attempts + 1n;
    const delay = row.status === 'Processing' ? pollDelayMs(Number(queries)) : submitRetryDelayMs(Number(queries));
    await releaseLease(this.deps.db, row.transaction_ref, lease, this.deps.clock.nowMs() + delay, queries);
  }
}
