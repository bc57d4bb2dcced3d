// Settlement: moves pending money whose delay has passed to `available`, repaying used credit
// first. One transaction per merchant and currency, so one slow merchant never holds up the rest.
import type { Currency, Minor } from '../core/money.js';
import type { Db, Executor } from '../store/schema.js';
import { merchantAccount, readMerchantBalances } from './accounts.js';
import { minMinor, type LedgerContext } from './context.js';
import { postJournal } from './journal.js';
import { anyLotDue, deleteLots, dueLots, groupsWithDueLots } from './lots.js';
import { withTransaction } from '../store/transactions.js';

/** Limits of one settlement run; a run that hits them leaves the rest for the next run. */
export const SETTLE_MAX_GROUPS = 500;
export const SETTLE_MAX_LOTS_PER_GROUP = 1000;

export interface SettledGroup {
  readonly merchantId: string;
  readonly currency: Currency;
  readonly settledMinor: Minor;
  readonly repaidCreditMinor: Minor;
  readonly lotCount: number;
}

/**
 * Settles the due lots of one merchant and currency: pending -due, credit +repay, available
 * +(due - repay), where repay = min(due, credit in use). Returns null when nothing is due. The
 * entry's ref names the last lot it settles (due latest), and the lots are deleted in the same transaction,
 * so a retried or concurrent run cannot settle the same money twice.
 */
export async function settleGroup(
  db: Executor,
  ctx: LedgerContext,
  merchantId: string,
  currency: Currency,
): Promise<SettledGroup | null> {
  const nowMs = ctx.clock.nowMs();
  const kinds = ['available', 'credit', 'credit_line', 'pending'] as const;
  const balances = await readMerchantBalances(db, ctx.storeKind, merchantId, currency, kinds, true);
  const due = await dueLots(db, merchantId, currency, nowMs, SETTLE_MAX_LOTS_PER_GROUP);
  if (!due) return null;
  if (due.totalMinor > balances.pending) {
    throw new Error(`ledger: due lots of ${merchantId}/${currency} exceed its pending balance`);
  }
  const creditUsedMinor = -balances.credit_line - balances.credit;
  const repaidCreditMinor = minMinor(due.totalMinor, creditUsedMinor > 0n ? creditUsedMinor : 0n);
  await deleteLots(db, due.ids);
  const posted = await postJournal(db, {
    kind: 'settlement',
    ref: `${merchantId}:${currency}:${due.lastId}`,
    merchantId,
    currency,
    nowMs,
    postings: [
      { account: merchantAccount(merchantId, currency, 'pending'), amountMinor: -due.totalMinor },
      { account: merchantAccount(merchantId, currency, 'credit'), amountMinor: repaidCreditMinor },
      { account: merchantAccount(merchantId, currency, 'available'), amountMinor: due.totalMinor - repaidCreditMinor },
    ],
  });
  if (posted.replayed) throw new Error(`ledger: settlement ${due.lastId} posted twice`);
  return { merchantId, currency, settledMinor: due.totalMinor, repaidCreditMinor, lotCount: due.ids.length };
}

export interface SettlementRun {
  readonly groups: readonly SettledGroup[];
  /** True when the run stopped at its limits and more may be due. */
  readonly more: boolean;
}

/**
 * The background job: settles every merchant and currency with money due, each in its own transaction.
 * `more` says whether money that was due when the run began is still waiting: a group with more due lots
 * than one batch takes, more groups than one run takes, or groups beyond the lots the run looked among
 * (DUE_LOTS_SCANNED in lots.ts).
 */
export async function settlePending(db: Db, ctx: LedgerContext): Promise<SettlementRun> {
  const startedMs = ctx.clock.nowMs();
  const candidates = await groupsWithDueLots(db, startedMs, SETTLE_MAX_GROUPS);
  const groups: SettledGroup[] = [];
  for (const { merchantId, currency } of candidates) {
    const settled = await withTransaction(db, (trx) => settleGroup(trx, ctx, merchantId, currency));
    if (settled) groups.push(settled);
  }
  return { groups, more: candidates.length > 0 && (await anyLotDue(db, startedMs)) };
}
