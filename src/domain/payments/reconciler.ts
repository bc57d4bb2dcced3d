// Asking channels instead of waiting for them: while a payment is pending, a callback that is
// overdue is replaced by a query (backing off from 2 to 10 minutes, and always one at expiry); at
// expiry the channel has the last word before the payment becomes Expired, so a payment paid in
// time whose callback was lost is never expired. Each due payment is claimed (a lease on its
// reconcile time) and asked about in its own slot of the job's pool; the answer sets its next time.
import { UpstreamUnavailableError, type CollectionState } from '../../connectors/channel.js';
import type { PaymentContext } from './payment-context.js';
import {
  CLAIM_LEASE_MS,
  EXPIRY_CONFIRM_GRACE_MS,
  EXPIRY_RETRY_MS,
  FIRST_RECONCILE_AFTER_MS,
  MAX_RECONCILE_GAP_MS,
} from './payment-limits.js';
import { claimReconciliation, expiredPending, reconciliationsDue } from './repository.js';
import type { PaymentsTable } from './payment-rows.js';
import { markExpired } from './transitions.js';

type Apply = (transactionRef: string, state: CollectionState) => Promise<PaymentsTable | null>;

export class Reconciler {
  constructor(
    private readonly deps: PaymentContext,
    private readonly apply: Apply,
  ) {}

  /** Claims up to `limit` pending payments past expiry for this worker. */
  claimDueExpiries(limit: number): Promise<PaymentsTable[]> {
    return this.claimAll(expiredPending(this.deps.db, this.deps.clock.nowMs(), limit));
  }

  /** Claims up to `limit` pending payments whose callback is overdue for this worker. */
  claimDueReconciliations(limit: number): Promise<PaymentsTable[]> {
    return this.claimAll(reconciliationsDue(this.deps.db, this.deps.clock.nowMs(), limit));
  }

  private async claimAll(reading: Promise<PaymentsTable[]>): Promise<PaymentsTable[]> {
    const due = await reading;
    const leaseUntilMs = this.deps.clock.nowMs() + CLAIM_LEASE_MS;
    const claimed = await Promise.all(due.map((row) => claimReconciliation(this.deps.db, row, leaseUntilMs)));
    return due.filter((_, i) => claimed[i]);
  }

  /** A claimed payment past expiry: the channel's last word, then Expired (or asked again shortly). */
  async settleAtExpiry(row: PaymentsTable): Promise<void> {
    if (row.collection_state === 'ready') {
      const state = await this.ask(row);
      if (state === 'unavailable') {
        const nowMs = this.deps.clock.nowMs();
        if (nowMs < Number(row.expires_at_ms) + EXPIRY_CONFIRM_GRACE_MS) {
          await this.scheduleNext(row, nowMs + EXPIRY_RETRY_MS);
          return;
        }
      } else if (state !== null && (state.status === 'PAID' || state.status === 'FAILED')) {
        const after = await this.apply(row.transaction_ref, state);
        if (after?.status !== 'Pending') return;
      }
    }
    await markExpired(this.deps, row);
  }

  /** A claimed payment whose callback is overdue: applies the channel's answer or sets the next time to ask. */
  async reconcile(row: PaymentsTable): Promise<void> {
    const state = await this.ask(row);
    if (state !== 'unavailable' && state !== null && (state.status === 'PAID' || state.status === 'FAILED')) {
      const after = await this.apply(row.transaction_ref, state);
      if (after?.status !== 'Pending') return;
    }
    const nowMs = this.deps.clock.nowMs();
    const sinceCreatedMs = nowMs - Number(row.created_at_ms);
    const gapMs = state === 'unavailable' ? EXPIRY_RETRY_MS : Math.min(MAX_RECONCILE_GAP_MS, Math.max(FIRST_RECONCILE_AFTER_MS, sinceCreatedMs));
    await this.scheduleNext(row, Math.min(nowMs + gapMs, Number(row.expires_at_ms)));
  }

  /** The channel's view of the collection; null when it does not know it, 'unavailable' when it did not answer. */
  private async ask(row: PaymentsTable): Promise<CollectionState | null | 'unavailable'> {
    try {
      return await this.deps.channels.byName(row.channel).queryCollection(row.transaction_ref, row.upstream_ref);
    } catch (error) {
      if (error instanceof UpstreamUnavailableError) return 'unavailable';
      this.deps.log?.warn({ err: error, transactionRef: row.transaction_ref }, 'channel could not report a collection');
      return null;
    }
  }

  private async scheduleNext(row: PaymentsTable, atMs: number): Promise<void> {
    await this.deps.db
      .updateTable('payments')
      .set({ reconcile_at_ms: BigInt(atMs) })
      .where('transaction_ref', '=', row.transaction_ref)
      .where('status', '=', 'Pending')
      .execute();
  }
}
