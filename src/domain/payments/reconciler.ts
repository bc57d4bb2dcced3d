// Asking channels instead of waiting for them: while a payment is pending, a callback that is
// overdue is replaced by a query (backing off from 2 to 10 minutes, and always one at expiry); at
// expiry the channel has the last word before the payment becomes Expired, so a payment paid in
// time whose callback was lost is never expired. Each due payment is claimed and asked about in its
// own slot of the job's pool. A reconciliation's claim moves the reconcile time straight to the next
// regular one, which is also its lease, so an answer that changes nothing writes nothing; an expiry's
// claim is a lease of CLAIM_LEASE_MS, and its answer ends the payment or sets the next time.
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

  /** Claims up to `limit` pending payments past expiry for this worker, each for CLAIM_LEASE_MS. */
  async claimDueExpiries(limit: number): Promise<PaymentsTable[]> {
    const nowMs = this.deps.clock.nowMs();
    return this.claimAll(await expiredPending(this.deps.db, nowMs, limit), () => nowMs + CLAIM_LEASE_MS);
  }

  /**
   * Claims up to `limit` pending payments whose callback is overdue for this worker, each until its
   * next regular reconciliation (nextRegularMs): the claim is the rescheduling, so a payment the
   * channel still calls pending is written once per reconciliation, not twice. Each such write
   * changes an indexed column, so on PostgreSQL it adds an entry to every index of the row, which a
   * large table's vacuum may never clean (docs/benchmarks.md, sessions 13 and 35). A worker that dies
   * holding one leaves it to the next regular time; a callback can end the payment meanwhile.
   */
  async claimDueReconciliations(limit: number): Promise<PaymentsTable[]> {
    const nowMs = this.deps.clock.nowMs();
    return this.claimAll(await reconciliationsDue(this.deps.db, nowMs, limit), (row) => nextRegularMs(row, nowMs));
  }

  private async claimAll(due: readonly PaymentsTable[], leaseUntilMs: (row: PaymentsTable) => number): Promise<PaymentsTable[]> {
    const claimed = await Promise.all(
      due.map(async (row): Promise<PaymentsTable | null> => {
        const until = leaseUntilMs(row);
        return (await claimReconciliation(this.deps.db, row, until)) ? { ...row, reconcile_at_ms: BigInt(until) } : null;
      }),
    );
    return claimed.filter((row): row is PaymentsTable => row !== null);
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

  /**
   * A claimed payment whose callback is overdue (`row` as claimed: its reconcile time is already the
   * next regular one): applies the channel's answer; a channel that did not answer is asked again
   * sooner, after EXPIRY_RETRY_MS.
   */
  async reconcile(row: PaymentsTable): Promise<void> {
    const state = await this.ask(row);
    if (state === 'unavailable') {
      const retryAtMs = Math.min(this.deps.clock.nowMs() + EXPIRY_RETRY_MS, Number(row.expires_at_ms));
      if (row.reconcile_at_ms === null || retryAtMs < Number(row.reconcile_at_ms)) await this.scheduleNext(row, retryAtMs);
      return;
    }
    if (state !== null && (state.status === 'PAID' || state.status === 'FAILED')) await this.apply(row.transaction_ref, state);
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

/**
 * When a payment reconciled at `nowMs` is asked about next, if the channel still calls it pending:
 * as long after as the payment is old (FIRST_RECONCILE_AFTER_MS to MAX_RECONCILE_GAP_MS), and never
 * after its expiry, when the expiry job has the last word.
 */
export function nextRegularMs(row: Pick<PaymentsTable, 'created_at_ms' | 'expires_at_ms'>, nowMs: number): number {
  const gapMs = Math.min(MAX_RECONCILE_GAP_MS, Math.max(FIRST_RECONCILE_AFTER_MS, nowMs - Number(row.created_at_ms)));
  return Math.min(nowMs + gapMs, Number(row.expires_at_ms));
}
