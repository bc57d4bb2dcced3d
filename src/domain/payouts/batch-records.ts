// How a payout batch is shown: the intake answer (stored, and given again to a repeat of the same
// batch), and the status record that payout/batchStatus answers and payout.batch_completed carries.
import crypto from 'node:crypto';
import { isoFromMs } from '../../core/clock.js';
import type { FieldProblem } from '../../core/errors.js';
import type { Executor } from '../../store/schema.js';
import { PAYOUT_STATUSES } from './payout-rows.js';
import type { PayoutBatchesTable } from './batch-rows.js';

/** Most items a batch may carry. */
export const BATCH_MAX_ITEMS = 1000;
/** The status a refused item shows in batchStatus: it never became a payout. */
export const REFUSED = 'Refused';

/** One item's fate at intake, in the order the merchant sent the items. */
export type BatchItemResult =
  | {
      readonly index: number;
      readonly merchantRef: string;
      readonly result: 'accepted';
      readonly transactionRef: string;
      readonly amount: number;
      readonly fee: number;
      /** PendingApproval above the merchant's approval threshold (approvals.ts), else Initiated. */
      readonly status: 'Initiated' | 'PendingApproval';
    }
  | {
      readonly index: number;
      /** Absent when the item had no usable merchantRef. */
      readonly merchantRef?: string;
      readonly result: 'refused';
      /** The reason a single payout/initiate of this body would have been refused with. */
      readonly reason: string;
      readonly detail: string;
      readonly errors?: FieldProblem[];
    };

/** The answer of payout/batch. */
export interface PayoutBatchAnswer {
  readonly batchId: string;
  readonly merchantRef: string;
  readonly atomic: boolean;
  readonly itemCount: number;
  readonly accepted: number;
  readonly refused: number;
  readonly createdAt: string;
  readonly items: BatchItemResult[];
}

export interface BatchItemStatus {
  readonly index: number;
  readonly merchantRef?: string;
  readonly transactionRef?: string;
  /** The payout's status, or Refused for an item refused at intake. */
  readonly status: string;
  /** Failed payouts: why (INVALID_ACCOUNT ...); refused items: the intake reason. */
  readonly failureReason?: string;
}

/** payout/batchStatus and the body of payout.batch_completed. */
export interface PayoutBatchStatus {
  readonly batchId: string;
  readonly merchantRef: string;
  readonly itemCount: number;
  readonly accepted: number;
  readonly refused: number;
  /** True once every accepted item is final (Success or Failed). */
  readonly completed: boolean;
  readonly createdAt: string;
  readonly completedAt?: string;
  /** Items per status, every status named (0 when none), Refused included. */
  readonly counts: Record<string, number>;
  readonly items: BatchItemStatus[];
}

/** The batch's identity for idempotency: its body with keys sorted, hashed. */
export function batchRequestHash(body: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const batchAnswerOf = (batch: PayoutBatchesTable): PayoutBatchAnswer => JSON.parse(batch.answer_json) as PayoutBatchAnswer;

/** The batch with every item's current status, read in `db` (the caller's transaction when completing). */
export async function batchStatusRecord(db: Executor, batch: PayoutBatchesTable): Promise<PayoutBatchStatus> {
  const rows = await db
    .selectFrom('payouts')
    .select(['transaction_ref', 'status', 'failure_reason'])
    .where('batch_id', '=', batch.id)
    .execute();
  const byRef = new Map(rows.map((row) => [row.transaction_ref, row]));
  const counts: Record<string, number> = Object.fromEntries([...PAYOUT_STATUSES, REFUSED].map((status) => [status, 0]));
  const answer = batchAnswerOf(batch);
  const items = answer.items.map((item): BatchItemStatus => {
    if (item.result === 'refused') {
      counts[REFUSED]! += 1;
      return { index: item.index, ...(item.merchantRef === undefined ? {} : { merchantRef: item.merchantRef }), status: REFUSED, failureReason: item.reason };
    }
    const row = byRef.get(item.transactionRef);
    if (!row) throw new Error(`payouts: batch ${batch.id} lists ${item.transactionRef}, which is not one of its payouts`);
    counts[row.status] = (counts[row.status] ?? 0) + 1;
    return {
      index: item.index,
      merchantRef: item.merchantRef,
      transactionRef: item.transactionRef,
      status: row.status,
      ...(row.failure_reason === null ? {} : { failureReason: row.failure_reason }),
    };
  });
  return {
    batchId: batch.id,
    merchantRef: batch.merchant_ref,
    itemCount: Number(batch.item_count),
    accepted: Number(batch.accepted_count),
    refused: Number(batch.item_count - batch.accepted_count),
    completed: batch.completed_at_ms !== null,
    createdAt: isoFromMs(batch.created_at_ms),
    ...(batch.completed_at_ms === null ? {} : { completedAt: isoFromMs(batch.completed_at_ms) }),
    counts,
    items,
  };
}
