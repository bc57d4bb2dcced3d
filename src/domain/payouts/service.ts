// PayoutService: the payout module's one entry point for routes, callbacks, the worker and the
// operator tools. It holds no logic of its own; each step of a payout's life has its file:
//
//   1. rules        payout-request.ts   method, bank code and account per currency, the request hash;
//                   ../request-rules.ts the rules shared with pay-in: currency, amount, webhook URL
//      name check   name-check.ts       with nameCheck: true, the holder resolved (name-enquiry.ts) and
//                                       compared (name-match.ts) before anything is stored
//   2. intake       intake.ts           the payout row and its reservation commit in one transaction
//   3. reservation  ledger/payouts.ts   reserveForPayout, called from intake.ts: amount + fee to held
//   4. job          submission-job.ts   claims due payouts with a lease, only for free slots
//   5. submission   submission-job.ts   sends at most once per transactionRef, asks before resending,
//                                       polls Processing payouts (payout-limits.ts has the schedules)
//   6. outcome      outcomes.ts         status updates along payout-statuses.ts's graph; a final one
//                                       completes or releases the reservation (ledger/payouts.ts)
//   7. events       payout-events.ts    payout.succeeded / payout.failed in the outcome's transaction
//
// Batches: batch-intake.ts checks every item as step 1 does and runs steps 2 and 3 for all of them in
// one transaction; batch-completion.ts records payout.batch_completed when the last item is final.
//
// Maker-checker (approvals.ts): above a merchant's threshold, intake creates the payout in
// PendingApproval; another key's approve makes it Initiated (step 4 on), reject or the expiry job
// ends it Failed through step 6's closePayout.
//
// Beside them: payout-records.ts (how a payout is shown), payout-repository.ts (reads and leases),
// payout-operator.ts (stuck listing, forced query), payout-context.ts (what the module is handed).
import type { PayoutState } from '../../connectors/channel.js';
import { notFound } from '../../core/errors.js';
import type { PooledJob } from '../../core/pooled-job.js';
import type { Merchant } from '../../merchants/merchant-service.js';
import { oneReference, type RecordQuery } from '../request-rules.js';
import {
  approvalExpiryJob,
  approvalView,
  approvePayout,
  rejectPayout,
  setApprovalSetting,
  type Approver,
  type PayoutApprovalView,
} from './approvals.js';
import { acceptBatch, type PayoutBatchRequest } from './batch-intake.js';
import { batchStatusRecord, type PayoutBatchAnswer, type PayoutBatchStatus } from './batch-records.js';
import { acceptPayout } from './intake.js';
import { NameEnquiry, type AccountInquiryRequest, type AccountInquiryResult } from './name-enquiry.js';
import { applyChannelNews } from './outcomes.js';
import type { PayoutContext } from './payout-context.js';
import { forcePayoutQuery, listStuckPayouts, operatorPayout, type ForcedQueryResult } from './payout-operator.js';
import { payoutInitiateResult, payoutRecord, type OperatorPayoutView, type PayoutInitiateResult, type PayoutRecord } from './payout-records.js';
import { findPayoutForMerchant, type ClaimedPayout } from './payout-repository.js';
import type { PayoutInitiateRequest } from './payout-request.js';
import { payoutSubmissionJob } from './submission-job.js';
import type { PayoutsTable } from './payout-rows.js';

export type { ForcedQueryResult } from './payout-operator.js';
export type { PayoutApprovalView } from './approvals.js';
export type { PayoutChannels, PayoutContext, PayoutLog } from './payout-context.js';
export type PayoutQuery = RecordQuery;

export interface PayoutJobs {
  /** Submits due payouts, recovers unknown outcomes and polls those in flight (submission-job.ts). */
  readonly submissions: PooledJob<ClaimedPayout>;
  /** Fails pending approvals past their deadline with APPROVAL_EXPIRED (approvals.ts). */
  readonly approvalExpiry: PooledJob<PayoutsTable>;
}

export class PayoutService {
  /** The background jobs that drive this service; the worker runs them. */
  readonly jobs: PayoutJobs;
  /** Account name enquiry with its short-lived cache (name-enquiry.ts); also the name check's. */
  private readonly names: NameEnquiry;

  constructor(private readonly ctx: PayoutContext) {
    this.jobs = { submissions: payoutSubmissionJob(ctx), approvalExpiry: approvalExpiryJob(ctx) };
    this.names = new NameEnquiry(ctx);
  }

  /**
   * Steps 1 to 3: checks the request (and the beneficiary's name, when asked) and accepts the payout
   * with its reservation (or answers the original). `keyId`, the signing key, is kept for maker-checker.
   */
  async initiate(merchant: Merchant, request: PayoutInitiateRequest, keyId: string | null = null): Promise<PayoutInitiateResult> {
    return payoutInitiateResult(await acceptPayout(this.ctx, merchant, request, this.names, keyId, this.jobs.submissions));
  }

  /** payout/accountInquiry: the holder of an account, as the connector that would pay it resolves it. */
  accountInquiry(merchant: Merchant, request: AccountInquiryRequest): Promise<AccountInquiryResult> {
    return this.names.inquire(merchant, request);
  }

  /** A batch of payouts: each item checked and accepted as by initiate, in one transaction (batch-intake.ts). */
  batch(merchant: Merchant, request: PayoutBatchRequest, keyId: string | null = null): Promise<PayoutBatchAnswer> {
    return acceptBatch(this.ctx, merchant, request, this.names, keyId);
  }

  /** A batch by its merchantRef or batchId, with counts per status and every item's status. */
  async batchStatus(merchant: Merchant, query: { readonly merchantRef: string } | { readonly batchId: string }): Promise<PayoutBatchStatus> {
    const base = this.ctx.db.selectFrom('payout_batches').selectAll().where('merchant_id', '=', merchant.id);
    const batch = await ('batchId' in query ? base.where('id', '=', query.batchId) : base.where('merchant_ref', '=', query.merchantRef)).executeTakeFirst();
    if (!batch) throw notFound('payout batch');
    return batchStatusRecord(this.ctx.db, batch);
  }

  /** PendingApproval -> Initiated, signed with another key than the creator's. */
  async approve(approver: Approver, transactionRef: string, reason?: string): Promise<PayoutRecord> {
    return payoutRecord(await approvePayout(this.ctx, approver, transactionRef, reason ?? null));
  }

  /** PendingApproval -> Failed (REJECTED_BY_MERCHANT), funds released. */
  async reject(approver: Approver, transactionRef: string, reason?: string): Promise<PayoutRecord> {
    return payoutRecord(await rejectPayout(this.ctx, approver, transactionRef, reason ?? null));
  }

  /** The approval expiry job once, waited for. */
  expireApprovals(): Promise<number> {
    return this.jobs.approvalExpiry.runDue();
  }

  async status(merchant: Merchant, query: PayoutQuery): Promise<PayoutRecord> {
    const row = await findPayoutForMerchant(this.ctx.db, merchant.id, oneReference(query));
    if (!row) throw notFound('payout');
    return payoutRecord(row);
  }

  /** Step 6 from a channel's callback; safe to repeat. Returns the payout afterwards, or null when there is no such payout. */
  applyPayoutState(transactionRef: string, state: PayoutState, fromChannel?: string): Promise<PayoutsTable | null> {
    return applyChannelNews(this.ctx, transactionRef, state, fromChannel);
  }

  /** Steps 4 and 5 once, waited for: claims due payouts for the free slots and submits, recovers or polls each. */
  processDue(): Promise<number> {
    return this.jobs.submissions.runDue();
  }

  /** Waits for the upstream calls in flight; call after the worker stopped, so their answers are applied. */
  async closeJobs(): Promise<void> {
    await Promise.all([this.jobs.submissions.close(), this.jobs.approvalExpiry.close()]);
  }

  // Operator tools (payout-operator.ts, and the approval setting of approvals.ts).

  approvalSetting(merchantId: string): Promise<PayoutApprovalView> {
    return approvalView(this.ctx.db, merchantId);
  }

  setApprovalSetting(
    merchantId: string,
    input: { readonly thresholdAmount: Readonly<Record<string, number | null | undefined>> | null; readonly timeoutSeconds?: number },
    actor: string,
  ): Promise<PayoutApprovalView> {
    return setApprovalSetting(this.ctx.db, this.ctx.clock.nowMs(), merchantId, input, actor);
  }

  stuck(olderThanSeconds?: number, limit?: number): Promise<OperatorPayoutView[]> {
    return listStuckPayouts(this.ctx, olderThanSeconds, limit);
  }

  operatorGet(transactionRef: string): Promise<OperatorPayoutView> {
    return operatorPayout(this.ctx, transactionRef);
  }

  forceQuery(transactionRef: string): Promise<ForcedQueryResult> {
    return forcePayoutQuery(this.ctx, transactionRef);
  }
}
