// Intake of a payout batch: each item is checked as payout/initiate would check it, then the
// accepted ones are stored with their reservations in ONE transaction (with the batch row and its
// answer), so a thousand items cost one commit, not a thousand. Inside it an item short of balance
// is removed alone (the ledger wrote nothing for it) and the rest go on, so every item is stored
// with its reservation or not at all, and the batch is whole or absent after a crash.
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
import { announceIfPending, newPayoutRow, payoutTerms, preparePayout, reservePayout, type PayoutOrigin, type PreparedPayout } from './intake.js';
import { checkBeneficiaryName } from './name-check.js';
import type { NameEnquiry } from './name-enquiry.js';
import { deleteUncommittedPayouts, insertPayoutsIfNew } from './payout-repository.js';
import type { PayoutsTable } from './payout-rows.js';
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
export async function acceptBatch(
  ctx: PayoutContext,
  merchant: Merchant,
  request: PayoutBatchRequest,
  names: NameEnquiry,
  keyId: string | null = null,
): Promise<PayoutBatchAnswer> {
  const existing = await findBatch(ctx.db, merchant.id, request.merchantRef);
  if (existing) return replay(existing, request);
  const webhookUrl = checkWebhookUrl(request.webhookUrl, merchant.mode, ctx.webhookUrlCheck);
  const checked = await checkItems(ctx, merchant, request.items, names);
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
    const results = await storeItems(trx, ctx, merchant, checked, { batchId, keyId }, BigInt(nowMs));
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
async function checkItems(ctx: PayoutContext, merchant: Merchant, items: readonly BatchItemInput[], names: NameEnquiry): Promise<Checked[]> {
  const seen = new Set<string>();
  const terms = payoutTerms(ctx, merchant);
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
      // An item asking for a name check gets one as initiate would; a merchantRef already used is
      // refused when the rows go in, so no item stands for an earlier payout.
      const prepared = await preparePayout(ctx, merchant, item.request, terms, async (draft) => ({ check: await checkBeneficiaryName(names, merchant, draft) }));
      if ('original' in prepared) throw new Error('payouts: a batch item was answered as an earlier payout');
      checked.push({ index: item.index, prepared });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      checked.push(refusal(item.index, merchantRef, error));
    }
  }
  return checked;
}

/**
 * Steps 2 and 3 for every checked item inside the batch's transaction. The rows go in with a few
 * multi-row inserts (an item whose merchantRef is already a payout is not inserted and is refused);
 * then each row gets its reservation in the order sent. The ledger writes nothing when it refuses
 * one for a short balance, so removing that item's row leaves the item entirely absent. An item
 * above the merchant's approval threshold is stored in PendingApproval, exactly as payout/initiate
 * would store it, and announced with payout.pending_approval once its funds are reserved.
 */
async function storeItems(
  trx: Executor,
  ctx: PayoutContext,
  merchant: Merchant,
  checked: readonly Checked[],
  origin: PayoutOrigin,
  nowMs: bigint,
): Promise<BatchItemResult[]> {
  const rows = new Map<number, PayoutsTable>();
  for (const item of checked) if ('prepared' in item) rows.set(item.index, newPayoutRow(merchant, item.prepared, nowMs, origin));
  const inserted = await insertPayoutsIfNew(trx, [...rows.values()]);
  const results: BatchItemResult[] = [];
  const short: string[] = [];
  for (const item of checked) {
    const row = rows.get(item.index);
    if (!('prepared' in item) || !row) {
      results.push(item as Extract<BatchItemResult, { result: 'refused' }>);
      continue;
    }
    const { merchantRef } = item.prepared.draft;
    // A merchantRef the merchant already used for a payout (alone or in another batch) is never a second payout.
    if (!inserted.has(row.transaction_ref)) {
      results.push(refusal(item.index, merchantRef, new AppError('DUPLICATE_MERCHANT_REF', `merchantRef ${merchantRef} was already used for a payout.`)));
      continue;
    }
    try {
      // The first reservation locks the merchant's balances until the commit; the rest find them locked.
      await reservePayout(trx, ctx, row, { lockFirst: true });
    } catch (error) {
      if (!(error instanceof AppError && error.reason === 'INSUFFICIENT_BALANCE')) throw error;
      short.push(row.transaction_ref);
      results.push(refusal(item.index, merchantRef, error));
      continue;
    }
    await announceIfPending(trx, row);
    results.push({
      index: item.index,
      merchantRef,
      result: 'accepted',
      transactionRef: row.transaction_ref,
      amount: toMajor(row.amount_minor),
      fee: toMajor(row.fee_minor),
      status: row.status === 'PendingApproval' ? 'PendingApproval' : 'Initiated',
    });
  }
  await deleteUncommittedPayouts(trx, short);
  return results;
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
