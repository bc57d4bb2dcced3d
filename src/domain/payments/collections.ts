// Asking the channel for a payment's collection (virtual account, QR payload, reference code) in
// the background, so payment/initiate never waits on an upstream: claimed per row, retried with
// backoff while the channel is unavailable, and the payment fails if the channel refuses it.
import { UpstreamRefusedError, UpstreamUnavailableError } from '../../connectors/channel.js';
import { DEFAULT_FAILURE_REASON, failureReasonOf } from '../failure-reasons.js';
import type { Currency } from '../../core/money.js';
import type { PaymentContext } from './payment-context.js';
import { CLAIM_LEASE_MS, collectionRetryDelayMs, FIRST_RECONCILE_AFTER_MS } from './payment-limits.js';
import { claimCollection, collectionsDue } from './repository.js';
import type { PaymentsTable } from './payment-rows.js';
import { markFailed } from './transitions.js';
import { HotQuery } from '../../store/hot-query.js';
import { oneStatementOn, unitKeys, writeGroupOf } from '../../store/write-group.js';

/**
 * Every payment's collection, written once the channel answered: compiled once (store/hot-query.ts),
 * and on PostgreSQL planned with each call's values, as the claim is (repository.ts collectionClaim).
 */
const collectionReady = new HotQuery(
  4,
  (db, instructionsJson: string, upstreamRef: string, reconcileAtMs: bigint, transactionRef: string) =>
    db
      .updateTable('payments')
      .set({ collection_state: 'ready', collection_json: instructionsJson, upstream_ref: upstreamRef, reconcile_at_ms: reconcileAtMs })
      .where('transaction_ref', '=', transactionRef)
      .where('collection_state', '=', 'requested'),
  { preparedOnServer: false },
);

export type CollectionOutcome = 'ready' | 'retrying' | 'refused' | 'not-claimed';

/** Claims up to `limit` payments whose collection is due, for this worker only. */
export async function claimDueCollections(deps: PaymentContext, limit: number): Promise<PaymentsTable[]> {
  const nowMs = deps.clock.nowMs();
  const due = await collectionsDue(deps.db, nowMs, limit);
  if (due.length === 0) return [];
  // Every claim of the run in one commit: each is a conditional update of its own row.
  const claimed = await deps.db.transaction().execute(async (trx) => {
    const won: boolean[] = [];
    for (const row of due) won.push(await claimCollection(trx, row, nowMs + CLAIM_LEASE_MS));
    return won;
  });
  return due.filter((_, i) => claimed[i]);
}

/** Asks the channel for one payment's collection if no other worker is doing so right now. */
export async function requestCollection(deps: PaymentContext, row: PaymentsTable): Promise<CollectionOutcome> {
  if (!(await claimCollection(deps.db, row, deps.clock.nowMs() + CLAIM_LEASE_MS))) return 'not-claimed';
  return askForCollection(deps, row);
}

/** Asks the channel for the collection of a payment this worker claimed (`row` as read before the claim). */
export async function askForCollection(deps: PaymentContext, row: PaymentsTable): Promise<Exclude<CollectionOutcome, 'not-claimed'>> {
  const attempts = Number(row.collection_attempts) + 1;
  const channel = deps.channels.byName(row.channel);
  try {
    // The channel keys collections by transactionRef, so asking again after a lost answer is safe.
    const collection = await channel.createCollection({
      transactionRef: row.transaction_ref,
      merchantId: row.merchant_id,
      currency: row.currency as Currency,
      method: row.method,
      amountMinor: row.amount_minor,
      payerName: row.payer_name,
      payerEmail: row.payer_email,
      payerPhone: row.payer_phone,
      expiresAtMs: Number(row.expires_at_ms),
      redirectUrl: row.redirect_url,
    });
    const readyAtMs = deps.clock.nowMs();
    const firstReconcileMs = Math.min(readyAtMs + FIRST_RECONCILE_AFTER_MS, Number(row.expires_at_ms));
    // Shares its commit with the other collections (and writes) finishing at the same time.
    await writeGroupOf(deps.db).run(
      (trx) => collectionReady.affected(trx, JSON.stringify(collection.instructions), collection.upstreamRef, BigInt(firstReconcileMs), row.transaction_ref),
      oneStatementOn(unitKeys.payment(row.transaction_ref)),
    );
    return 'ready';
  } catch (error) {
    if (error instanceof UpstreamUnavailableError) {
      await deps.db
        .updateTable('payments')
        // Due again after the backoff, no longer held: the lease covered this attempt only.
        .set({ collection_next_at_ms: BigInt(deps.clock.nowMs() + collectionRetryDelayMs(attempts)), collection_lease_until_ms: null })
        .where('transaction_ref', '=', row.transaction_ref)
        .where('collection_state', '=', 'requested')
        .execute();
      return 'retrying';
    }
    // Any other answer is the channel's refusal: the payer can never pay this payment.
    deps.log?.warn({ err: error, transactionRef: row.transaction_ref, channel: row.channel }, 'channel refused a collection; payment fails');
    await deps.db
      .updateTable('payments')
      .set({ collection_state: 'failed' })
      .where('transaction_ref', '=', row.transaction_ref)
      .where('collection_state', '=', 'requested')
      .execute();
    await markFailed(deps, row, error instanceof UpstreamRefusedError ? failureReasonOf(error.failureReason) : DEFAULT_FAILURE_REASON);
    return 'refused';
  }
}
