// Intake of a payout batch: each item is checked as payout/initiate would check it, then the
// accepted ones are stored with their reservations in ONE transaction (with the batch row and its
// answer), so a thousand items cost one commit, not a thousand. Inside it, each item's row and
// reservation sit behind a savepoint: an item short of balance is rolled back alone and the rest
// go on, so every item is all-or-nothing and the batch is whole or absent after a crash.
import { sql } from 'kysely';
import { isoFromMs } from '../../core/clock.js';
import { AppError, type FieldProblem } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { toMajor } from '../../core/money.js';
import type { Merchant } from '../../merchants/merchant-service.js';
import type { Executor } from '../../store/schema.js';
import { withTransaction } from '../../store/transactions.js';
import { checkWebhookUrl } from '../request-rules.js';
import { completeBatchIfDone } from './batch-completion.js';
import { batchAnswerOf, type BatchItemResult, type PayoutBatchAnswer } from './batch-records.js';
import type { PayoutBatchesTable } from './batch-rows.js';
import { preparePayout, storePayout, type PreparedPayout } from './intake.js';
import type { PayoutContext } from './payout-context.js';
import type { PayoutInitiateRequest } from './payout-request.js';

/** One item as the route hands it over: a body its schema let through, or the schema's refusal. */
export type BatchItemInput =
  | { readonly index: number; readonly request: PayoutInitiateRequest }
  | { readonly index: number; readonly merchantRef?: string; readonly refused: AppError };

export interface PayoutBatchRequest {
  readonly merchantRef: string;
  readonly atomic: boolean;
  readonly webhookUrl?: string;
  readonly items: readonly BatchItemInput[];
  /** batchRequestHash of the whole body as sent. */
  readonly requestHash: string;
}

type Checked = { readonly index: number; readonly prepared: PreparedPayout } | Extract<BatchItemResult, { result: 'refused' }>;

const refusal = (index: number, merchantRef: string | undefined, error: AppError): Extract<BatchItemResult, { result: 'refused' }> => ({
  index,
  ...(merchantRef === undefined ? {} : { merchantRef }),
  result: 'refused',
  reason: error.reason,
  detail: error.detail,
  ...(error.errors && error.errors.length > 0 ? { errors: [...error.errors] } : {}),
});

/**
 * Accepts a batch, or answers the original when the merchant repeats the same batch body under the
 * same merchantRef (another body: 409 DUPLICATE_MERCHANT_REF). Atomic batches are refused whole
 * (400 BATCH_REFUSED, nothing stored) when any item would be refused.
 */
export async function acceptBatch(ctx: PayoutContext, merchant: Merchant, request: PayoutBatchRequest): Promise<PayoutBatchAnswer> {
  const existing = await findBatch(ctx.db, merchant.id, request.merchantRef);
  if (existing) return replay(existing, request);
  const webhookUrl = checkWebhookUrl(request.webhookUrl, merchant.mode, ctx.webhookUrlCheck);
  const checked = await checkItems(ctx, merchant, request.items);
  if (request.atomic) refuseIfAny(checked);
  const batchId = newId();
  const stored = await withTransaction(ctx.db, async (trx) => {
    const nowMs = ctx.clock.nowMs();
    const inserted = await trx
      .insertInto('payout_batches')
      .values({
        id: batchId,
        merchant_id: merchant.id,
        merchant_ref: request.merchantRef,
        request_hash: request.requestHash,
        atomic: request.atomic ? 1n : 0n,
        webhook_url: webhookUrl,
        item_count: BigInt(checked.length),
        accepted_count: 0n,
        open_items: 0n,
        answer_json: '{}',
        created_at_ms: BigInt(nowMs),
        completed_at_ms: null,
      })
      .onConflict((oc) => oc.columns(['merchant_id', 'merchant_ref']).doNothing())
      .returning('id')
      .executeTakeFirst();
    // A concurrent call with this merchantRef committed first: answered as a repeat, below.
    if (!inserted) return null;
    const results: BatchItemResult[] = [];
    for (const item of checked) results.push('prepared' in item ? await storeItem(trx, ctx, merchant, item.index, item.prepared, batchId) : item);
    if (request.atomic) refuseIfAny(results);
    const accepted = results.filter((r) => r.result === 'accepted').length;
    const answer: PayoutBatchAnswer = {
      batchId,
      merchantRef: request.merchantRef,
      atomic: request.atomic,
      itemCount: results.length,
      accepted,
      refused: results.length - accepted,
      createdAt: isoFromMs(nowMs),
      items: results,
    };
    await trx
      .updateTable('payout_batches')
      .set({ accepted_count: BigInt(accepted), open_items: BigInt(accepted), answer_json: JSON.stringify(answer) })
      .where('id', '=', batchId)
      .execute();
    // Nothing accepted: every item is already final, so the batch completes now.
    if (accepted === 0) await completeBatchIfDone(trx, batchId, nowMs);
    return answer;
  });
  if (stored) return stored;
  const original = await findBatch(ctx.db, merchant.id, request.merchantRef);
  if (!original) throw new Error(`payouts: batch merchantRef ${request.merchantRef} conflicted but cannot be read`);
  return replay(original, request);
}

export async function findBatch(db: Executor, merchantId: string, merchantRef: string): Promise<PayoutBatchesTable | undefined> {
  return db.selectFrom('payout_batches').selectAll().where('merchant_id', '=', merchantId).where('merchant_ref', '=', merchantRef).executeTakeFirst();
}

function replay(original: PayoutBatchesTable, request: PayoutBatchRequest): PayoutBatchAnswer {
  if (original.request_hash !== request.requestHash) {
    throw new AppError('DUPLICATE_MERCHANT_REF', `Batch merchantRef ${request.merchantRef} was already used with a different batch.`);
  }
  return batchAnswerOf(original);
}

/**
 * Step 1 for every item, before any transaction: the rules of payout/initiate, the fee and the
 * route. An item repeating an earlier item's merchantRef is refused: one merchantRef, one payout.
 */
async function checkItems(ctx: PayoutContext, merchant: Merchant, items: readonly BatchItemInput[]): Promise<Checked[]> {
  const seen = new Set<string>();
  const checked: Checked[] = [];
  for (const item of items) {
    if ('refused' in item) {
      checked.push(refusal(item.index, item.merchantRef, item.refused));
      continue;
    }
    const { merchantRef } = item.request;
    if (seen.has(merchantRef)) {
      checked.push(refusal(item.index, merchantRef, new AppError('DUPLICATE_MERCHANT_REF', `merchantRef ${merchantRef} appears earlier in this batch.`)));
      continue;
    }
    seen.add(merchantRef);
    try {
      checked.push({ index: item.index, prepared: await preparePayout(ctx, merchant, item.request) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      checked.push(refusal(item.index, merchantRef, error));
    }
  }
  return checked;
}

/** Steps 2 and 3 for one item behind a savepoint: its row and reservation both, or neither. */
async function storeItem(
  trx: Executor,
  ctx: PayoutContext,
  merchant: Merchant,
  index: number,
  prepared: PreparedPayout,
  batchId: string,
): Promise<BatchItemResult> {
  const { merchantRef } = prepared.draft;
  await sql`SAVEPOINT batch_item`.execute(trx);
  try {
    const { row } = await storePayout(trx, ctx, merchant, prepared, batchId);
    await sql`RELEASE SAVEPOINT batch_item`.execute(trx);
    // A merchantRef the merchant already used for a payout (alone or in another batch) is never a second payout.
    if (!row) return refusal(index, merchantRef, new AppError('DUPLICATE_MERCHANT_REF', `merchantRef ${merchantRef} was already used for a payout.`));
    return {
      index,
      merchantRef,
      result: 'accepted',
      transactionRef: row.transaction_ref,
      amount: toMajor(row.amount_minor),
      fee: toMajor(row.fee_minor),
      status: 'Initiated',
    };
  } catch (error) {
    if (!(error instanceof AppError && error.reason === 'INSUFFICIENT_BALANCE')) throw error;
    await sql`ROLLBACK TO SAVEPOINT batch_item`.execute(trx);
    await sql`RELEASE SAVEPOINT batch_item`.execute(trx);
    return refusal(index, merchantRef, error);
  }
}

/** Atomic batches: one refused item refuses the whole batch, listing every item's problems. */
function refuseIfAny(results: readonly (Checked | BatchItemResult)[]): void {
  const problems: FieldProblem[] = [];
  for (const result of results) {
    if (!('result' in result) || result.result !== 'refused') continue;
    const itemProblems = result.errors && result.errors.length > 0 ? result.errors : [{ field: '', problem: result.detail }];
    for (const p of itemProblems) {
      problems.push({ field: p.field ? `items.${result.index}.${p.field}` : `items.${result.index}`, problem: `${result.reason}: ${p.problem}` });
    }
  }
  if (problems.length === 0) return;
  const count = new Set(results.filter((r) => 'result' in r && r.result === 'refused').map((r) => r.index)).size;
  throw new AppError('BATCH_REFUSED', `${count} of ${results.length} items would be refused, so nothing in this atomic batch was accepted.`, problems);
}
