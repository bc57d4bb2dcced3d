// Pay-in money: a successful payment credits `pending` net of its fee, a refund takes the paid
// amount back (pending first, then available) and is undone if the upstream refuses it, and money
// nobody can claim waits in suspense until the operator credits it or the channel returns it.
// Called through LedgerService by the pay-in module, in the transaction of the payment's change:
// credit and suspense from domain/payments/transitions.ts, refunds from refunds.ts, the operator's
// resolution of held money from held-money.ts.
import { AppError } from '../core/errors.js';
import type { Currency, Minor } from '../core/money.js';
import type { Executor } from '../store/schema.js';
import { accountId, clearingAccount, merchantAccount, platformAccount, readMerchantBalances, type AccountRef } from './accounts.js';
import { assertNonNegative, assertPositive, minMinor, type LedgerContext } from './context.js';
import { entryPostings, findEntry, insufficientBalance, postJournal, type EntryKind } from './journal.js';
import { addLot, consumeLots } from './lots.js';

export interface PaymentCredit {
  readonly merchantId: string;
  readonly currency: Currency;
  readonly paidMinor: Minor;
  readonly feeMinor: Minor;
  /** The upstream channel the money arrived through (its clearing account is debited). */
  readonly channel: string;
  /** The payment's transactionRef. */
  readonly ref: string;
}

export interface PaymentCreditResult {
  readonly entryId: string;
  readonly netMinor: Minor;
  readonly replayed: boolean;
}

/** upstream clearing -paid, merchant pending +(paid - fee), fee revenue +fee. */
export function creditPayment(db: Executor, ctx: LedgerContext, input: PaymentCredit): Promise<PaymentCreditResult> {
  return creditNetOfFee(db, ctx, 'payment_credit', clearingAccount(input.currency, input.channel), input);
}

/** Held late money credited by the operator as the payment it was meant for: suspense -paid, pending +(paid - fee), fee revenue +fee. */
export function creditLatePayment(db: Executor, ctx: LedgerContext, input: PaymentCredit): Promise<PaymentCreditResult> {
  return creditNetOfFee(db, ctx, 'late_credit', platformAccount(input.currency, 'suspense'), input);
}

/** Pays a merchant `paid - fee` into pending from `source`, with a pending lot due after the settlement delay. */
async function creditNetOfFee(db: Executor, ctx: LedgerContext, kind: EntryKind, source: AccountRef, input: PaymentCredit): Promise<PaymentCreditResult> {
  assertPositive('paidMinor', input.paidMinor);
  assertNonNegative('feeMinor', input.feeMinor);
  if (input.feeMinor > input.paidMinor) throw new Error('ledger: a payment fee cannot exceed the paid amount');
  const nowMs = ctx.clock.nowMs();
  const netMinor = input.paidMinor - input.feeMinor;
  const posted = await postJournal(db, {
    kind,
    ref: input.ref,
    merchantId: input.merchantId,
    currency: input.currency,
    nowMs,
    postings: [
      { account: source, amountMinor: -input.paidMinor },
      { account: merchantAccount(input.merchantId, input.currency, 'pending'), amountMinor: netMinor },
      { account: platformAccount(input.currency, 'fee_revenue'), amountMinor: input.feeMinor },
    ],
  });
  if (!posted.replayed && netMinor > 0n) {
    const dueAtMs = nowMs + ctx.settlementDelayMs(input.currency);
    await addLot(db, { merchantId: input.merchantId, currency: input.currency, ref: input.ref, amountMinor: netMinor, dueAtMs, nowMs });
  }
  return { ...posted, netMinor };
}

export interface UnallocatedPayment {
  readonly currency: Currency;
  readonly paidMinor: Minor;
  readonly channel: string;
  readonly ref: string;
  readonly merchantId: string | null;
}

/** Money that arrived for a payment that can no longer take it (paid after expiry): clearing -> suspense. */
export async function recordUnallocated(db: Executor, ctx: LedgerContext, input: UnallocatedPayment) {
  assertPositive('paidMinor', input.paidMinor);
  return postJournal(db, {
    kind: 'unallocated_payment',
    ref: input.ref,
    merchantId: input.merchantId,
    currency: input.currency,
    nowMs: ctx.clock.nowMs(),
    postings: [
      { account: clearingAccount(input.currency, input.channel), amountMinor: -input.paidMinor },
      { account: platformAccount(input.currency, 'suspense'), amountMinor: input.paidMinor },
    ],
  });
}

/** Held late money the channel sent back to the payer: suspense -paid, clearing(channel) +paid. */
export async function returnUnallocated(db: Executor, ctx: LedgerContext, input: UnallocatedPayment) {
  assertPositive('paidMinor', input.paidMinor);
  return postJournal(db, {
    kind: 'late_return',
    ref: input.ref,
    merchantId: input.merchantId,
    currency: input.currency,
    nowMs: ctx.clock.nowMs(),
    postings: [
      { account: platformAccount(input.currency, 'suspense'), amountMinor: -input.paidMinor },
      { account: clearingAccount(input.currency, input.channel), amountMinor: input.paidMinor },
    ],
  });
}

export interface RefundDebit {
  readonly merchantId: string;
  readonly currency: Currency;
  /** The full paid amount of the payment; the fee is not returned to the merchant. */
  readonly paidMinor: Minor;
  readonly channel: string;
  /** The refund's own reference (idempotency). */
  readonly ref: string;
  /** The refunded payment's transactionRef: its pending lot is consumed first. */
  readonly paymentRef: string;
}

export interface RefundDebitResult {
  readonly entryId: string;
  readonly fromPendingMinor: Minor;
  readonly fromAvailableMinor: Minor;
  readonly replayed: boolean;
}

/** merchant pending -p, available -(paid - p), upstream clearing +paid; p = min(paid, pending). */
export async function debitRefund(db: Executor, ctx: LedgerContext, input: RefundDebit): Promise<RefundDebitResult> {
  assertPositive('paidMinor', input.paidMinor);
  const { merchantId, currency } = input;
  const balances = await readMerchantBalances(db, ctx.storeKind, merchantId, currency, ['available', 'pending'], true);
  const fromPendingMinor = minMinor(input.paidMinor, balances.pending);
  const fromAvailableMinor = input.paidMinor - fromPendingMinor;
  if (fromAvailableMinor > balances.available) {
    const replay = await refundReplay(db, input);
    if (replay) return replay;
    throw insufficientBalance('The refund exceeds the pending and available balances.');
  }
  const posted = await postJournal(db, {
    kind: 'refund',
    ref: input.ref,
    merchantId,
    currency,
    nowMs: ctx.clock.nowMs(),
    postings: [
      { account: merchantAccount(merchantId, currency, 'pending'), amountMinor: -fromPendingMinor },
      { account: merchantAccount(merchantId, currency, 'available'), amountMinor: -fromAvailableMinor },
      { account: clearingAccount(currency, input.channel), amountMinor: input.paidMinor },
    ],
  });
  if (posted.replayed) return (await refundReplay(db, input))!;
  if (fromPendingMinor > 0n) await consumeLots(db, merchantId, currency, fromPendingMinor, input.paymentRef);
  return { entryId: posted.entryId, fromPendingMinor, fromAvailableMinor, replayed: false };
}

/** The refund posted under `ref`, as debitRefund answered it; null when there is none. */
async function refundReplay(db: Executor, input: Pick<RefundDebit, 'merchantId' | 'currency' | 'ref'>): Promise<RefundDebitResult | null> {
  const entry = await findEntry(db, 'refund', input.ref);
  if (!entry) return null;
  const postings = await entryPostings(db, entry.id);
  const taken = (kind: 'pending' | 'available') =>
    -(postings.get(accountId(merchantAccount(input.merchantId, input.currency, kind))) ?? 0n);
  return { entryId: entry.id, fromPendingMinor: taken('pending'), fromAvailableMinor: taken('available'), replayed: true };
}

export interface RefundReversal {
  readonly merchantId: string;
  readonly currency: Currency;
  readonly channel: string;
  /** The refused refund's own reference, as given to debitRefund. */
  readonly ref: string;
  /** The refunded payment's transactionRef: the money returned to pending is its lot again. */
  readonly paymentRef: string;
}

/**
 * The upstream refused a refund: its debit is undone exactly (pending +p, available +a, clearing
 * -paid). The pending part settles after a fresh settlement delay, never earlier than the rule says.
 */
export async function reverseRefund(db: Executor, ctx: LedgerContext, input: RefundReversal): Promise<RefundDebitResult> {
  const refund = await refundReplay(db, input);
  if (!refund) throw AppError.fault('NOT_FOUND', `No refund ${input.ref} to reverse.`);
  const { merchantId, currency } = input;
  const paidMinor = refund.fromPendingMinor + refund.fromAvailableMinor;
  const nowMs = ctx.clock.nowMs();
  const posted = await postJournal(db, {
    kind: 'refund_reversal',
    ref: input.ref,
    merchantId,
    currency,
    nowMs,
    postings: [
      { account: merchantAccount(merchantId, currency, 'pending'), amountMinor: refund.fromPendingMinor },
      { account: merchantAccount(merchantId, currency, 'available'), amountMinor: refund.fromAvailableMinor },
      { account: clearingAccount(currency, input.channel), amountMinor: -paidMinor },
    ],
  });
  if (!posted.replayed && refund.fromPendingMinor > 0n) {
    const dueAtMs = nowMs + ctx.settlementDelayMs(currency);
    await addLot(db, { merchantId, currency, ref: input.paymentRef, amountMinor: refund.fromPendingMinor, dueAtMs, nowMs });
  }
  return { entryId: posted.entryId, fromPendingMinor: refund.fromPendingMinor, fromAvailableMinor: refund.fromAvailableMinor, replayed: posted.replayed };
}
