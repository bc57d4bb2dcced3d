// Row types of payout batches (migration 0010): one row per payout/batch call that was accepted.
// Its items are ordinary payouts pointing back at it (payouts.batch_id); the refused ones live
// only in the stored answer. Integer columns are bigint on both stores.

export interface PayoutBatchesTable {
  /** UUID v7, the batchId. */
  id: string;
  merchant_id: string;
  /** The batch's own merchantRef, unique per merchant among batches (its idempotency key). */
  merchant_ref: string;
  /** sha256 hex of the batch body: a repeated merchantRef is "the same batch" when this matches. */
  request_hash: string;
  /** 1 when the merchant asked for all-or-nothing (such a batch is stored only when every item was accepted). */
  atomic: bigint;
  /** Where payout.batch_completed goes; null: the merchant's default payout webhook URL. */
  webhook_url: string | null;
  item_count: bigint;
  accepted_count: bigint;
  /**
   * Accepted items not yet final. Every final transition of an item lowers it in its own
   * transaction, so the row lock orders them and exactly one sees it reach 0.
   */
  open_items: bigint;
  /** The intake answer exactly as first given (JSON): a repeat of the same batch gets it again. */
  answer_json: string;
  created_at_ms: bigint;
  /** When the last item became final (and payout.batch_completed was recorded). */
  completed_at_ms: bigint | null;
}

export interface PayoutBatchTables {
  payout_batches: PayoutBatchesTable;
}
