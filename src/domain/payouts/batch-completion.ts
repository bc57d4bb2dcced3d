// A batch completes when its last accepted item becomes final. Each item's final transition lowers
// the batch's open_items inside its own transaction (outcomes.ts markFinal), and the batch row's
// lock orders those updates, so exactly one transition sees the count reach 0: that one records
// payout.batch_completed, in the same transaction, once.
import type { Executor } from '../../store/schema.js';
import { enqueueWebhookEvent } from '../../webhooks/outbox.js';
import { batchStatusRecord } from './batch-records.js';
import type { PayoutBatchesTable } from './batch-rows.js';

/** Called in the transaction that made one of the batch's payouts final. */
export async function noteBatchItemFinal(trx: Executor, batchId: string, nowMs: number): Promise<void> {
  await trx
    .updateTable('payout_batches')
    .set((eb) => ({ open_items: eb('open_items', '-', 1n) }))
    .where('id', '=', batchId)
    .where('open_items', '>', 0n)
    .execute();
  await completeBatchIfDone(trx, batchId, nowMs);
}

/** Marks the batch complete if nothing is open and it was not yet; the one caller that does enqueues the event. */
export async function completeBatchIfDone(trx: Executor, batchId: string, nowMs: number): Promise<void> {
  const completed = await trx
    .updateTable('payout_batches')
    .set({ completed_at_ms: BigInt(nowMs) })
    .where('id', '=', batchId)
    .where('open_items', '=', 0n)
    .where('completed_at_ms', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (completed) await enqueueBatchCompleted(trx, completed, nowMs);
}

async function enqueueBatchCompleted(trx: Executor, batch: PayoutBatchesTable, nowMs: number): Promise<void> {
  await enqueueWebhookEvent(trx, {
    merchantId: batch.merchant_id,
    type: 'payout.batch_completed',
    resourceKind: 'payout_batch',
    resourceRef: batch.id,
    record: { ...(await batchStatusRecord(trx, batch)) },
    webhookUrl: batch.webhook_url,
    nowMs,
  });
}
