// The operator's money tools: credit lines, security deposits and manual adjustments. Each runs in
// its own transaction, needs a reason, and leaves an audit row beside its journal entry.
import { recordAudit } from '../audit/audit-log.js';
import { notFound, validationError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { formatMinor, type Currency, type Minor } from '../core/money.js';
import { merchantExists } from '../merchants/merchant-lookups.js';
import type { Executor } from '../store/schema.js';
import { merchantAccount, platformAccount, readMerchantBalances, type MerchantAccountKind } from './accounts.js';
import type { LedgerContext } from './context.js';
import { postJournal, type EntryKind, type Posting } from './journal.js';
import { addLot, consumeLots } from './lots.js';

export const MAX_REASON_LENGTH = 500;
export const ADJUSTABLE_KINDS = ['available', 'pending', 'security'] as const;
export type AdjustableKind = (typeof ADJUSTABLE_KINDS)[number];

export interface OperatorMove {
  readonly merchantId: string;
  readonly currency: Currency;
  /** Positive, except for adjustments, where the sign says which way the money goes. */
  readonly amountMinor: Minor;
  readonly reason: string;
  readonly actor: string;
  /** Idempotency key: the same ref never posts twice. Defaults to a fresh id. */
  readonly ref?: string;
}

export interface Adjustment extends OperatorMove {
  readonly account: AdjustableKind;
}

export interface OperatorResult {
  readonly entryId: string;
  readonly replayed: boolean;
}

function checkReason(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed.length === 0) throw validationError('reason', 'is required');
  if (trimmed.length > MAX_REASON_LENGTH) throw validationError('reason', `must be at most ${MAX_REASON_LENGTH} characters`);
  return trimmed;
}

async function assertMerchantExists(db: Executor, merchantId: string): Promise<void> {
  if (!(await merchantExists(db, merchantId))) throw notFound('merchant');
}

/** Posts one operator entry with its audit row; postings are built from the merchant's accounts. */
async function postOperatorEntry(
  db: Executor,
  ctx: LedgerContext,
  kind: EntryKind,
  move: OperatorMove,
  postings: readonly Posting[],
): Promise<OperatorResult> {
  const reason = checkReason(move.reason);
  await assertMerchantExists(db, move.merchantId);
  const nowMs = ctx.clock.nowMs();
  const posted = await postJournal(db, {
    kind,
    ref: move.ref ?? newId(),
    merchantId: move.merchantId,
    currency: move.currency,
    reason,
    actor: move.actor,
    nowMs,
    postings,
  });
  if (!posted.replayed) {
    await recordAudit(db, {
      actor: move.actor,
      action: `ledger.${kind}`,
      target: move.merchantId,
      merchantId: move.merchantId,
      details: { entryId: posted.entryId, currency: move.currency, amount: formatMinor(move.amountMinor), reason },
      nowMs,
    });
  }
  return posted;
}

function positive(amountMinor: Minor): Minor {
  if (amountMinor <= 0n) throw validationError('amount', 'must be positive');
  return amountMinor;
}

const account = (move: OperatorMove, kind: MerchantAccountKind) => merchantAccount(move.merchantId, move.currency, kind);

/** The line grows by the amount and so does the unused part, `credit`. */
export function grantCredit(db: Executor, ctx: LedgerContext, move: OperatorMove): Promise<OperatorResult> {
  const amountMinor = positive(move.amountMinor);
  return postOperatorEntry(db, ctx, 'credit_grant', move, [
    { account: account(move, 'credit_line'), amountMinor: -amountMinor },
    { account: account(move, 'credit'), amountMinor },
  ]);
}

/** Only the unused part of a line can be withdrawn: INSUFFICIENT_BALANCE when credit is short. */
export function lowerCredit(db: Executor, ctx: LedgerContext, move: OperatorMove): Promise<OperatorResult> {
  const amountMinor = positive(move.amountMinor);
  return postOperatorEntry(db, ctx, 'credit_lower', move, [
    { account: account(move, 'credit'), amountMinor: -amountMinor },
    { account: account(move, 'credit_line'), amountMinor },
  ]);
}

export function moveToSecurity(db: Executor, ctx: LedgerContext, move: OperatorMove): Promise<OperatorResult> {
  const amountMinor = positive(move.amountMinor);
  return postOperatorEntry(db, ctx, 'security_deposit', move, [
    { account: account(move, 'available'), amountMinor: -amountMinor },
    { account: account(move, 'security'), amountMinor },
  ]);
}

export function releaseSecurity(db: Executor, ctx: LedgerContext, move: OperatorMove): Promise<OperatorResult> {
  const amountMinor = positive(move.amountMinor);
  return postOperatorEntry(db, ctx, 'security_release', move, [
    { account: account(move, 'security'), amountMinor: -amountMinor },
    { account: account(move, 'available'), amountMinor },
  ]);
}

/**
 * A correction against the platform's adjustments account. Adjusting `pending` also adjusts its
 * lots: money added is due at once, money taken comes off the newest lots.
 */
export async function adjust(db: Executor, ctx: LedgerContext, adjustment: Adjustment): Promise<OperatorResult> {
  const { merchantId, currency, amountMinor } = adjustment;
  if (!(ADJUSTABLE_KINDS as readonly string[]).includes(adjustment.account)) {
    throw validationError('account', `must be one of ${ADJUSTABLE_KINDS.join(', ')}`);
  }
  if (amountMinor === 0n) throw validationError('amount', 'must not be zero');
  if (adjustment.account === 'pending') {
    // Holds the pending row, which is what guards this merchant's lots.
    await readMerchantBalances(db, ctx.storeKind, merchantId, currency, ['pending'], true);
  }
  const posted = await postOperatorEntry(db, ctx, 'adjustment', adjustment, [
    { account: account(adjustment, adjustment.account), amountMinor },
    { account: platformAccount(currency, 'adjustments'), amountMinor: -amountMinor },
  ]);
  if (posted.replayed || adjustment.account !== 'pending') return posted;
  const nowMs = ctx.clock.nowMs();
  if (amountMinor > 0n) {
    await addLot(db, { merchantId, currency, ref: `adjustment:${posted.entryId}`, amountMinor, dueAtMs: nowMs, nowMs });
  } else {
    await consumeLots(db, merchantId, currency, -amountMinor, null);
  }
  return posted;
}
