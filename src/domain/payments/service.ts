// PaymentService: the pay-in module's one entry point. Creates payments (idempotent per
// merchantRef), answers status queries, refunds, applies what channels report (callbacks,
// reconciliation, sandbox completion) and feeds the checkout pages through CheckoutSource.
//
// Where each part lives: payment-request.ts (the request's rules, beside ../request-rules.ts shared
// with payouts), collections.ts (asking the channel for the collection), transitions.ts (status
// changes with their ledger entry, ledger/payments.ts, and event), reconciler.ts (overdue callbacks,
// expiry), refunds.ts, late-payments.ts, held-money.ts, payment-jobs.ts (the jobs that drive this
// service), payment-limits.ts (every limit and schedule), payment-context.ts (what it is handed).
import { UpstreamUnavailableError, type CollectionState } from '../../connectors/channel.js';
import { AppError, notFound } from '../../core/errors.js';
import type { Merchant } from '../../merchants/merchant-service.js';
import { newId } from '../../core/ids.js';
import { toMajor, type Currency } from '../../core/money.js';
import type { CheckoutSource, CheckoutView } from './checkout-view.js';
import { checkoutUrl, hashCheckoutToken, isWellFormedToken, newCheckoutToken } from './checkout-token.js';
import { requestCollection } from './collections.js';
import type { PaymentContext } from './payment-context.js';
import { HeldMoneyService } from './held-money.js';
import { returnLatePayment } from './late-payments.js';
import { monotonicMs, sleep } from '../../core/clock.js';
import { paymentJobs, type PaymentJobs } from './payment-jobs.js';
import {
  CLAIM_LEASE_MS,
  EXPIRY_CONFIRM_GRACE_MS,
  IN_FLIGHT_POLL_INTERVAL_MS,
  PAYMENT_TTL_MS,
  SANDBOX_COMPLETE_TIMEOUT_MS,
} from './payment-limits.js';
import {
  checkoutView,
  initiateResult,
  operatorPaymentView,
  paymentRecord,
  refundResult,
  type InitiateResult,
  type OperatorPaymentView,
  type PaymentRecord,
  type RefundResult,
} from './records.js';
import { Refunds } from './refunds.js';
import { collectionIsDue, findByRef, findByTokenHash, findForMerchant, PaymentRecordReads } from './repository.js';
import { PaymentIntakeBatch } from './intake-batch.js';
import { buildDraft, requestHash, requirePayinMethod, type InitiateRequest } from './payment-request.js';
import { oneReference, requireCurrency, type RecordQuery } from '../request-rules.js';
import { Reconciler } from './reconciler.js';
import type { PaymentsTable } from './payment-rows.js';
import { halfLeaseLeft, type ReservedSlot } from '../../core/pooled-job.js';
import { AMOUNT_MISMATCH, failureReasonOf } from '../failure-reasons.js';
import { markExpired, markFailed, markSucceeded, recordLatePayment } from './transitions.js';

export type PaymentQuery = RecordQuery;
export type SandboxOutcome = 'Success' | 'Failed';

export interface MethodTermsView {
  readonly method: string;
  readonly minAmount: number;
  readonly maxAmount: number;
  readonly fee: { readonly bps: number; readonly percent: number; readonly fixed: number };
}

export interface PayinTermsView extends MethodTermsView {
  readonly refundable: boolean;
}

export interface MethodsView {
  readonly currency: Currency;
  readonly payin: PayinTermsView[];
  readonly payout: MethodTermsView[];
}

/** Repeats an idempotent call to the sandbox bank while it does not answer, until the deadline. */
async function untilAnswered(deadlineMs: number, call: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof UpstreamUnavailableError)) throw error;
      if (monotonicMs() >= deadlineMs) throw new AppError('UNAVAILABLE', 'The sandbox bank did not answer; retry shortly.');
      await sleep(IN_FLIGHT_POLL_INTERVAL_MS);
    }
  }
}

export class PaymentService implements CheckoutSource {
  /** The background jobs that drive this service (payment-jobs.ts); the worker runs them. */
  readonly jobs: PaymentJobs;
  private readonly refunds: Refunds;
  private readonly reconciler: Reconciler;
  /** New payments' rows, committed together with those of concurrent requests (group commit). */
  private readonly intake: PaymentIntakeBatch;
  private readonly records: PaymentRecordReads;

  /** Late money held for the operator, and its resolution. */
  readonly held: HeldMoneyService;

  constructor(private readonly deps: PaymentContext) {
    this.held = new HeldMoneyService(deps);
    this.intake = new PaymentIntakeBatch(deps.db);
    this.records = new PaymentRecordReads(deps.db);
    this.refunds = new Refunds(deps);
    this.reconciler = new Reconciler(deps, (ref, state) => this.applyCollectionState(ref, state));
    this.jobs = paymentJobs(deps, { reconciler: this.reconciler, refunds: this.refunds });
  }

  /**
   * Creates a payment, or answers the original one when the merchant repeats the same request
   * under the same merchantRef. The row (with its checkout token) is all that is written; the
   * collection is asked for in the background: by this process's collection job straight after the
   * commit when one of its slots is free (the row is written with the job's lease and its first
   * attempt counted, as the job's claim would write them), else by the job's next claim.
   */
  async initiate(merchant: Merchant, request: InitiateRequest): Promise<InitiateResult> {
    const currency = requireCurrency(request.currency);
    const method = requirePayinMethod(currency, request.method);
    const bounds = await this.deps.fees.limitsFor(merchant.id, currency, method.method, 'payin');
    const draft = buildDraft(request, currency, method, bounds, merchant.mode, this.deps.webhookUrlCheck);
    const hash = requestHash(draft);
    const feeMinor = await this.deps.fees.feeFor(merchant.id, currency, method.method, 'payin', draft.amountMinor);
    const channel = this.deps.channels.channelFor(merchant, currency, method.method);
    const token = newCheckoutToken();
    const nowMs = BigInt(this.deps.clock.nowMs());
    const row: PaymentsTable = {
      transaction_ref: newId(),
      merchant_id: merchant.id,
      merchant_ref: draft.merchantRef,
      request_hash: hash,
      method: method.method,
      currency,
      amount_minor: draft.amountMinor,
      fee_minor: feeMinor,
      paid_amount_minor: null,
      status: 'Pending',
      failure_reason: null,
      payer_name: draft.payerName,
      payer_email: draft.payerEmail,
      payer_phone: draft.payerPhone,
      redirect_url: draft.redirectUrl,
      webhook_url: draft.webhookUrl,
      checkout_token_hash: hashCheckoutToken(token),
      checkout_token_enc: this.deps.box.seal(token),
      channel: channel.name,
      upstream_ref: null,
      collection_json: null,
      collection_state: 'requested',
      collection_attempts: 0n,
      collection_next_at_ms: nowMs,
      collection_lease_until_ms: null,
      reconcile_at_ms: null,
      refund_state: null,
      refund_ref: null,
      refund_upstream_ref: null,
      refund_attempts: 0n,
      refund_next_at_ms: null,
      created_at_ms: nowMs,
      updated_at_ms: nowMs,
      expires_at_ms: nowMs + BigInt(PAYMENT_TTL_MS),
      completed_at_ms: null,
      refunded_at_ms: null,
    };
    // Reserved only now, with nothing left to throw before the try: a slot never started nor released is lost to the job.
    const slot = this.jobs.collections.reserveSlot();
    if (slot) {
      row.collection_attempts = 1n;
      row.collection_lease_until_ms = nowMs + BigInt(CLAIM_LEASE_MS);
    }
    let inserted: boolean;
    try {
      inserted = await this.intake.insertIfNew(row);
    } catch (error) {
      slot?.release();
      throw error;
    }
    if (slot) this.handOverCollection(slot, inserted, row);
    if (inserted) return initiateResult(row, this.checkoutUrlOf(token));
    const original = await findForMerchant(this.deps.db, merchant.id, { merchantRef: draft.merchantRef });
    if (!original) throw new Error(`payments: merchantRef ${draft.merchantRef} conflicted but cannot be read`);
    if (original.request_hash !== hash) {
      throw new AppError('DUPLICATE_MERCHANT_REF', `merchantRef ${draft.merchantRef} was already used with a different request.`);
    }
    return initiateResult(original, this.checkoutUrlOf(this.deps.box.open(original.checkout_token_enc)));
  }

  async status(merchant: Merchant, query: PaymentQuery): Promise<PaymentRecord> {
    const row = await this.records.find(merchant.id, oneReference(query));
    if (!row) throw notFound('payment');
    return paymentRecord(row, this.deps.clock.nowMs());
  }

  /** Any merchant's payment, for the operator (admin API, CLI). */
  async operatorGet(transactionRef: string): Promise<OperatorPaymentView> {
    const row = await findByRef(this.deps.db, transactionRef);
    if (!row) throw notFound('payment');
    return operatorPaymentView(row, this.deps.clock.nowMs());
  }

  /** `actor`: who refunds from the console, for the audit log (the API's refunds are the merchant's own call). */
  async refund(merchant: Merchant, query: { readonly transactionRef: string }, actor?: string): Promise<RefundResult> {
    return refundResult(await this.refunds.refund(merchant.id, query.transactionRef, actor));
  }

  /** Every pay-in and payout method of a currency with this merchant's bounds and fees. */
  async methods(merchant: Merchant, currencyCode: string): Promise<MethodsView> {
    const currency = requireCurrency(currencyCode);
    // A live merchant sees only what a route with a ready connector serves; a sandbox merchant sees all.
    const terms = (await this.deps.fees.termsFor(merchant.id, currency)).filter(
      (t) => this.deps.channels.enabled?.(merchant, currency, t.method, t.direction) ?? true,
    );
    const view = (t: (typeof terms)[number]): MethodTermsView => ({
      method: t.method,
      minAmount: toMajor(t.bounds.minMinor),
      maxAmount: toMajor(t.bounds.maxMinor),
      fee: { bps: Number(t.fee.bps), percent: Number(t.fee.bps) / 100, fixed: toMajor(t.fee.fixedMinor) },
    });
    return {
      currency,
      payin: terms.filter((t) => t.direction === 'payin').map((t) => ({ ...view(t), refundable: t.refundable })),
      payout: terms.filter((t) => t.direction === 'payout').map(view),
    };
  }

  /**
   * Applies what a channel says about a payment's collection; safe to call any number of times
   * with the same news. PAID makes a pending payment Success (a PAID later than the expiry grace,
   * or for a payment already Expired or Failed, is late money); FAILED makes it Failed; EXPIRED
   * makes it Expired once its time has passed. `fromChannel`, when given, must be the payment's.
   * Returns the payment afterwards, or null when there is no such payment.
   */
  async applyCollectionState(transactionRef: string, state: CollectionState, fromChannel?: string): Promise<PaymentsTable | null> {
    const row = await findByRef(this.deps.db, transactionRef);
    if (!row) {
      this.deps.log?.warn({ transactionRef, status: state.status }, 'collection news for an unknown payment; ignored');
      return null;
    }
    const foreign = (fromChannel !== undefined && fromChannel !== row.channel) || (row.upstream_ref !== null && row.upstream_ref !== state.upstreamRef);
    if (foreign) {
      this.deps.log?.warn({ transactionRef, fromChannel, upstreamRef: state.upstreamRef }, 'collection news does not match the payment; ignored');
      return row;
    }
    switch (state.status) {
      case 'PAID':
        await this.applyPaid(row, state);
        break;
      case 'FAILED':
        if (row.status === 'Pending') await markFailed(this.deps, row, failureReasonOf(state.failureReason));
        break;
      case 'EXPIRED':
        if (row.status === 'Pending' && Number(row.expires_at_ms) <= this.deps.clock.nowMs()) await markExpired(this.deps, row);
        break;
      case 'PENDING':
        break;
    }
    return (await findByRef(this.deps.db, transactionRef)) ?? null;
  }

  /** Sandbox only: the payer pays or the bank declines, then the outcome is applied at once. */
  async sandboxComplete(merchant: Merchant, transactionRef: string, outcome: SandboxOutcome): Promise<PaymentRecord> {
    if (merchant.mode !== 'sandbox') {
      throw new AppError('METHOD_NOT_ENABLED', 'Sandbox completion is only for sandbox merchants; live payments are completed by the payer.');
    }
    const row = await findForMerchant(this.deps.db, merchant.id, { transactionRef });
    if (!row) throw notFound('payment');
    return paymentRecord(await this.completeAsPayer(row, outcome), this.deps.clock.nowMs());
  }

  async viewByToken(token: string): Promise<CheckoutView | null> {
    const row = await this.rowByToken(token);
    if (!row) return null;
    return checkoutView(row, await this.deps.merchants.get(row.merchant_id));
  }

  async sandboxCompleteByToken(token: string, outcome: SandboxOutcome): Promise<CheckoutView> {
    const row = await this.rowByToken(token);
    if (!row) throw new AppError('NOT_FOUND', 'No such checkout.');
    const merchant = await this.deps.merchants.get(row.merchant_id);
    if (merchant.mode !== 'sandbox') throw new AppError('FORBIDDEN', 'Only sandbox payments can be completed from the page.');
    return checkoutView(await this.completeAsPayer(row, outcome), merchant);
  }

  // Background work: the jobs of payment-jobs.ts, which the worker runs.

  /**
   * Starts the collection of a payment its intake wrote with the job's lease, in the slot reserved for
   * it, or gives the slot back: when no row was written (a repeated merchantRef), and when the intake
   * took half the lease or more (halfLeaseLeft), which it leaves to the claims once the lease has run out.
   */
  private handOverCollection(slot: ReservedSlot<PaymentsTable>, inserted: boolean, row: PaymentsTable): void {
    const leaseUntilMs = row.collection_lease_until_ms;
    const inTime = leaseUntilMs !== null && halfLeaseLeft(this.deps.clock.nowMs(), leaseUntilMs, CLAIM_LEASE_MS);
    // askForCollection takes the row as read before its claim, which counted the attempt it makes.
    if (inserted && inTime) slot.start({ ...row, collection_attempts: row.collection_attempts - 1n });
    else slot.release();
  }

  /** One step of the collection job, waited for: asks channels for the collections due, as far as slots are free. */
  requestDueCollections(): Promise<number> {
    return this.jobs.collections.runDue();
  }

  /** Waits for the rows every job has in flight; call after the worker stopped, so their answers are applied. */
  async closeJobs(): Promise<void> {
    await Promise.all(Object.values(this.jobs).map((job) => job.close()));
  }

  private async applyPaid(row: PaymentsTable, state: CollectionState): Promise<void> {
    if (row.status === 'Pending') {
      const inTime = this.deps.clock.nowMs() < Number(row.expires_at_ms) + EXPIRY_CONFIRM_GRACE_MS;
      const exact = (state.paidAmountMinor ?? row.amount_minor) === row.amount_minor;
      if (inTime && exact && (await markSucceeded(this.deps, row, state))) return;
      // Odd money (another sum than asked): never Success. The payment fails and the money is handled
      // like late money: sent back where the method refunds, else held for the operator.
      if (inTime && !exact) await markFailed(this.deps, row, AMOUNT_MISMATCH);
      if (!inTime) await markExpired(this.deps, row);
      const current = await findByRef(this.deps.db, row.transaction_ref);
      if (!current || current.status === 'Pending') throw new Error(`payments: ${row.transaction_ref} could not leave Pending`);
      row = current;
    }
    if (row.status !== 'Expired' && row.status !== 'Failed') return;
    const late = await recordLatePayment(this.deps, row, state);
    if (late?.disposition === 'refund_pending') await returnLatePayment(this.deps, late);
  }

  /**
   * The payer's action at the simulated bank, then the bank's answer applied without waiting for
   * its callback. Both bank calls are idempotent, so a call the bank did not answer is repeated
   * until SANDBOX_COMPLETE_TIMEOUT_MS has passed.
   */
  private async completeAsPayer(first: PaymentsTable, outcome: SandboxOutcome): Promise<PaymentsTable> {
    if (first.status !== 'Pending' && first.status !== 'Expired') return first;
    // The bank answers in real time, so the deadline is on the system clock, not the business clock.
    const deadlineMs = monotonicMs() + SANDBOX_COMPLETE_TIMEOUT_MS;
    const row = first.status === 'Pending' ? await this.ensureCollection(first, deadlineMs) : first;
    if (row.collection_state !== 'ready') return row;
    await untilAnswered(deadlineMs, () => this.payAtBank(row, outcome));
    return (await findByRef(this.deps.db, row.transaction_ref))!;
  }

  private async payAtBank(row: PaymentsTable, outcome: SandboxOutcome): Promise<void> {
    try {
      await this.deps.channels.sandboxPayer().completeCollection(row.transaction_ref, outcome);
    } catch (error) {
      // Already final at the bank (e.g. declining a payment it took late): nothing for the payer to do.
      if (!(error instanceof AppError && error.reason === 'CONFLICT')) throw error;
    }
    const state = await this.deps.channels.byName(row.channel).queryCollection(row.transaction_ref, row.upstream_ref);
    await this.applyCollectionState(row.transaction_ref, state);
  }

  /** Waits (bounded) until the payment's collection exists at the channel, asking for it whenever it is due. */
  private async ensureCollection(first: PaymentsTable, deadlineMs: number): Promise<PaymentsTable> {
    let row = first;
    while (row.status === 'Pending' && row.collection_state === 'requested') {
      if (collectionIsDue(row, this.deps.clock.nowMs())) await requestCollection(this.deps, row);
      else if (monotonicMs() >= deadlineMs) throw new AppError('UNAVAILABLE', 'The payment is still being prepared; retry shortly.');
      else await sleep(IN_FLIGHT_POLL_INTERVAL_MS);
      row = (await findByRef(this.deps.db, row.transaction_ref))!;
    }
    return row;
  }

  private async rowByToken(token: string): Promise<PaymentsTable | undefined> {
    if (!isWellFormedToken(token)) return undefined;
    return findByTokenHash(this.deps.db, hashCheckoutToken(token));
  }

  private checkoutUrlOf(token: string): string {
    return checkoutUrl(this.deps.publicBaseUrl, token);
  }
}
