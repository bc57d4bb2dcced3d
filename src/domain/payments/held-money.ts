// Held money: late payments the service kept in suspense (not refundable, or the channel refused),
// listed for the operator and resolved once, either returned to the payer or credited to the merchant.
import { UpstreamUnavailableError } from '../../connectors/channel.js';
import { withTransaction } from '../../store/transactions.js';
import type { Executor } from '../../store/schema.js';
import { enqueueWebhookEvent } from '../../webhooks/outbox.js';
import { recordAudit } from '../../audit/audit-log.js';
import { isoFromMs } from '../../core/clock.js';
import { AppError, validationError } from '../../core/errors.js';
import { formatMinor, toMajor, type Currency, type Minor } from '../../core/money.js';
import type { PaymentContext } from './payment-context.js';
import { methodRefundable, paymentRecord } from './records.js';
import { findByRef } from './repository.js';
import type { LateDisposition, LatePaymentsTable, PaymentsTable } from './payment-rows.js';

export const HELD_STATUSES = ['open', 'returning', 'returned', 'credited'] as const;
export type HeldStatus = (typeof HELD_STATUSES)[number];
/** Held late money listed per page: the default and the most one page may ask for. */
export const HELD_PAGE_DEFAULT = 50;
export const HELD_PAGE_MAX = 200;
const MAX_NOTE_LENGTH = 500;

const DISPOSITION: Readonly<Record<HeldStatus, LateDisposition>> = { open: 'held', returning: 'returning', returned: 'returned', credited: 'credited' };
const STATUS_OF = new Map<LateDisposition, HeldStatus>(HELD_STATUSES.map((status) => [DISPOSITION[status], status]));

export interface HeldMoneyItem {
  readonly transactionRef: string;
  readonly merchantId: string;
  readonly merchantRef: string;
  readonly currency: string;
  readonly method: string;
  readonly paymentStatus: string;
  /** Always "late": money for a payment that had expired or failed. */
  readonly reason: 'late';
  /** The amount the payment asked for, and what arrived (they differ for an under- or overpayment). */
  readonly amountAsked: number;
  readonly amountHeld: number;
  readonly amountMismatch: boolean;
  readonly receivedAt: string;
  readonly status: HeldStatus;
  /** Why the service held it instead of returning it itself (the channel's refusal), if it tried. */
  readonly heldBecause: string | null;
  readonly resolvedBy: string | null;
  readonly resolvedAt: string | null;
  readonly note: string | null;
  /** Set once credited: the fee kept and what reached the merchant's pending balance. */
  readonly fee: number | null;
  readonly credited: number | null;
  /** Set once returned: the channel's refund reference. */
  readonly refundRef: string | null;
}

export interface HeldResolution {
  readonly item: HeldMoneyItem;
  /** True when the item was already resolved this way: nothing happened this time. */
  readonly replayed: boolean;
}

export interface HeldQuery {
  readonly merchantId?: string;
  readonly status?: HeldStatus;
  readonly limit?: number;
  /** The transactionRef of the last item of the previous page. */
  readonly cursor?: string;
}

type HeldRow = LatePaymentsTable & Pick<PaymentsTable, 'merchant_ref' | 'amount_minor' | 'status'>;

function itemOf(row: HeldRow): HeldMoneyItem {
  const credited = row.credited_fee_minor === null ? null : row.paid_amount_minor - row.credited_fee_minor;
  return {
    transactionRef: row.transaction_ref,
    merchantId: row.merchant_id,
    merchantRef: row.merchant_ref,
    currency: row.currency,
    method: row.method,
    paymentStatus: row.status,
    reason: 'late',
    amountAsked: toMajor(row.amount_minor),
    amountHeld: toMajor(row.paid_amount_minor),
    amountMismatch: row.amount_minor !== row.paid_amount_minor,
    receivedAt: isoFromMs(row.created_at_ms),
    status: STATUS_OF.get(row.disposition)!,
    heldBecause: row.last_error,
    resolvedBy: row.resolved_by,
    resolvedAt: row.resolved_at_ms === null ? null : isoFromMs(row.resolved_at_ms),
    note: row.resolution_note,
    fee: row.credited_fee_minor === null ? null : toMajor(row.credited_fee_minor),
    credited: credited === null ? null : toMajor(credited),
    refundRef: row.disposition === 'returned' ? row.refund_upstream_ref : null,
  };
}

function heldRows(db: Executor) {
  return db
    .selectFrom('late_payments as l')
    .innerJoin('payments as p', 'p.transaction_ref', 'l.transaction_ref')
    .selectAll('l')
    .select(['p.merchant_ref', 'p.amount_minor', 'p.status'])
    .where('l.disposition', 'in', HELD_STATUSES.map((s) => DISPOSITION[s]));
}

function checkNote(note: string): string {
  const trimmed = note.trim();
  if (trimmed.length === 0) throw validationError('reason', 'is required');
  if (trimmed.length > MAX_NOTE_LENGTH) throw validationError('reason', `must be at most ${MAX_NOTE_LENGTH} characters`);
  return trimmed;
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, MAX_NOTE_LENGTH);

/** The pay-in fee a late credit keeps: the one fixed at creation, capped at what arrived (as for a payment that succeeds). */
const lateFee = (payment: PaymentsTable, paidMinor: Minor): Minor => (payment.fee_minor > paidMinor ? paidMinor : payment.fee_minor);

export class HeldMoneyService {
  constructor(private readonly deps: PaymentContext) {}

  /** Newest payment first. */
  async list(query: HeldQuery): Promise<{ items: HeldMoneyItem[]; nextCursor: string | null }> {
    const limit = query.limit ?? HELD_PAGE_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1 || limit > HELD_PAGE_MAX) throw validationError('limit', `must be 1 to ${HELD_PAGE_MAX}`);
    const rows = await heldRows(this.deps.db)
      .$if(query.merchantId !== undefined, (qb) => qb.where('l.merchant_id', '=', query.merchantId!))
      .$if(query.status !== undefined, (qb) => qb.where('l.disposition', '=', DISPOSITION[query.status!]))
      .$if(query.cursor !== undefined, (qb) => qb.where('l.transaction_ref', '<', query.cursor!))
      .orderBy('l.transaction_ref', 'desc')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    return { items: page.map(itemOf), nextCursor: rows.length > limit ? page[page.length - 1]!.transaction_ref : null };
  }

  async get(transactionRef: string, db: Executor = this.deps.db): Promise<HeldMoneyItem> {
    return itemOf(await this.row(transactionRef, db));
  }

  /**
   * Pays the held money to the merchant as the late payment it was: the payment's fee is kept, the
   * rest goes to pending and settles like any payment; payment.late_credited is announced. The
   * payment itself stays Expired (or Failed).
   */
  async credit(transactionRef: string, actor: string, reason: string): Promise<HeldResolution> {
    const note = checkNote(reason);
    return withTransaction(this.deps.db, async (trx) => {
      const nowMs = this.deps.clock.nowMs();
      const late = await this.row(transactionRef, trx);
      const payment = (await findByRef(trx, transactionRef))!;
      const feeMinor = lateFee(payment, late.paid_amount_minor);
      const claimed = await trx
        .updateTable('late_payments')
        .set({ disposition: 'credited', resolved_by: actor, resolved_at_ms: BigInt(nowMs), resolution_note: note, credited_fee_minor: feeMinor, updated_at_ms: BigInt(nowMs) })
        .where('transaction_ref', '=', transactionRef)
        .where('disposition', '=', 'held')
        .executeTakeFirst();
      if (claimed.numUpdatedRows !== 1n) return this.answerExisting(transactionRef, 'credited', trx);
      const currency = late.currency as Currency;
      const credit = { merchantId: late.merchant_id, currency, paidMinor: late.paid_amount_minor, feeMinor, channel: late.channel, ref: transactionRef };
      await this.deps.ledger.creditLatePayment(trx, credit);
      const item = await this.get(transactionRef, trx);
      const lateCredit = { paidAmount: item.amountHeld, fee: item.fee, credited: item.credited, receivedAt: item.receivedAt, creditedAt: item.resolvedAt };
      await enqueueWebhookEvent(trx, {
        merchantId: late.merchant_id,
        type: 'payment.late_credited',
        resourceKind: 'payment',
        resourceRef: transactionRef,
        record: { ...paymentRecord(payment, nowMs), lateCredit },
        webhookUrl: payment.webhook_url,
        nowMs,
      });
      const details = { currency, amount: formatMinor(late.paid_amount_minor), fee: formatMinor(feeMinor), reason: note };
      await recordAudit(trx, { actor, action: 'held_money.credit', target: transactionRef, merchantId: late.merchant_id, details, nowMs });
      return { item, replayed: false };
    });
  }

  /**
   * Sends the held money back to the payer through its channel. The item is claimed (returning)
   * before the channel is asked, so a credit cannot race it; the journal entry and the audit row
   * commit with `returned` once the channel confirmed. Without an answer the item stays returning
   * and a repeat asks again (a channel refunds a collection at most once); a refusal reopens it.
   */
  async returnToPayer(transactionRef: string, actor: string, reason: string): Promise<HeldResolution> {
    const note = checkNote(reason);
    const late = await this.row(transactionRef);
    if (late.disposition === 'returned') return { item: itemOf(late), replayed: true };
    if (late.disposition === 'credited') throw new AppError('CONFLICT', `The money of ${transactionRef} was already credited to the merchant.`);
    if (!methodRefundable(late)) {
      throw new AppError(
        'PAYMENT_NOT_REFUNDABLE',
        `${late.currency} ${late.method} money cannot be sent back through the channel; credit it to the merchant, or return it outside the service.`,
      );
    }
    if (late.disposition === 'held') {
      const resolved = await this.claimReturn(transactionRef, actor, note);
      if (resolved) return resolved;
    }
    let refundRef: string;
    try {
      ({ refundRef } = await this.deps.channels.byName(late.channel).refund({ transactionRef, upstreamRef: late.upstream_ref, amountMinor: late.paid_amount_minor }));
    } catch (error) {
      if (error instanceof UpstreamUnavailableError) {
        throw new AppError('UNAVAILABLE', 'The channel did not answer; the return is under way. Repeat the call to ask the channel again.');
      }
      await this.reopen(transactionRef, describe(error));
      throw new AppError('PAYMENT_NOT_REFUNDABLE', `The channel refused to return the money: ${describe(error)}`);
    }
    return this.completeReturn(transactionRef, refundRef);
  }

  /** Takes the item for a return; answers the existing resolution when someone else resolved it first. */
  private async claimReturn(transactionRef: string, actor: string, note: string): Promise<HeldResolution | null> {
    const nowMs = BigInt(this.deps.clock.nowMs());
    const claimed = await this.deps.db
      .updateTable('late_payments')
      .set({ disposition: 'returning', resolved_by: actor, resolution_note: note, updated_at_ms: nowMs })
      .where('transaction_ref', '=', transactionRef)
      .where('disposition', '=', 'held')
      .executeTakeFirst();
    if (claimed.numUpdatedRows === 1n || (await this.row(transactionRef)).disposition === 'returning') return null;
    return this.answerExisting(transactionRef, 'returned', this.deps.db);
  }

  private async reopen(transactionRef: string, why: string): Promise<void> {
    await this.deps.db
      .updateTable('late_payments')
      .set({ disposition: 'held', resolved_by: null, resolution_note: null, last_error: why, updated_at_ms: BigInt(this.deps.clock.nowMs()) })
      .where('transaction_ref', '=', transactionRef)
      .where('disposition', '=', 'returning')
      .execute();
  }

  private completeReturn(transactionRef: string, refundRef: string): Promise<HeldResolution> {
    return withTransaction(this.deps.db, async (trx) => {
      const nowMs = this.deps.clock.nowMs();
      const done = await trx
        .updateTable('late_payments')
        .set({ disposition: 'returned', refund_upstream_ref: refundRef, resolved_at_ms: BigInt(nowMs), updated_at_ms: BigInt(nowMs) })
        .where('transaction_ref', '=', transactionRef)
        .where('disposition', '=', 'returning')
        .executeTakeFirst();
      if (done.numUpdatedRows !== 1n) return this.answerExisting(transactionRef, 'returned', trx);
      const late = await this.row(transactionRef, trx);
      const currency = late.currency as Currency;
      await this.deps.ledger.returnUnallocated(trx, { currency, paidMinor: late.paid_amount_minor, channel: late.channel, ref: transactionRef, merchantId: late.merchant_id });
      const details = { currency, amount: formatMinor(late.paid_amount_minor), refundRef, reason: late.resolution_note };
      await recordAudit(trx, { actor: late.resolved_by!, action: 'held_money.return', target: transactionRef, merchantId: late.merchant_id, details, nowMs });
      return { item: itemOf(late), replayed: false };
    });
  }

  /** The item was resolved by someone else: the same resolution is a replay, another one a conflict. */
  private async answerExisting(transactionRef: string, wanted: HeldStatus, db: Executor): Promise<HeldResolution> {
    const item = await this.get(transactionRef, db);
    if (item.status === wanted) return { item, replayed: true };
    throw new AppError('CONFLICT', `The money of ${transactionRef} is already ${item.status}; it cannot be ${wanted} as well.`);
  }

  private async row(transactionRef: string, db: Executor = this.deps.db): Promise<HeldRow> {
    const row = await heldRows(db).where('l.transaction_ref', '=', transactionRef).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', `No held money for payment ${transactionRef}.`);
    return row;
  }
}
