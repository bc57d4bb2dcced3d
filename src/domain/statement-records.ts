// Our records as an upstream's statement lists them (reconciliation, docs/reconciliation.md): pay-ins,
// payouts and refunds on one connector, with the amount and status a statement line is compared with.
// Read-only; the payments and payouts modules own these tables, this is the one read of them for
// reconciliation, kept beside them so their columns' meaning stays in the domain.
import type { StatementKind, StatementStatus } from '../connectors/statement.js';
import type { Db } from '../store/schema.js';
import type { PaymentStatus } from './payments/checkout-view.js';
import type { PaymentsTable } from './payments/payment-rows.js';
import type { PayoutStatus, PayoutsTable } from './payouts/payout-rows.js';

export interface OurStatementRecord {
  readonly kind: StatementKind;
  readonly transactionRef: string;
  readonly merchantId: string;
  readonly upstreamRef: string | null;
  readonly currency: string;
  /** A pay-in: what was paid, else what was asked; a refund: the amount sent back; a payout: its amount. */
  readonly amountMinor: bigint;
  /** Our status as stored (a refund: its refund state). */
  readonly status: string;
  /** What a statement should say of it; null when the upstream cannot know it yet (a payout waiting for approval). */
  readonly mappedStatus: StatementStatus | null;
}

const PAYMENT_STATEMENT_STATUS: Readonly<Record<PaymentStatus, StatementStatus>> = {
  Pending: 'PENDING',
  Success: 'SUCCESS',
  Failed: 'FAILED',
  Expired: 'EXPIRED',
  // A refunded pay-in was paid; its refund is a line of its own.
  Refund: 'SUCCESS',
};

const PAYOUT_STATEMENT_STATUS: Readonly<Record<PayoutStatus, StatementStatus | null>> = {
  PendingApproval: null,
  Initiated: 'PENDING',
  Processing: 'PENDING',
  Success: 'SUCCESS',
  Failed: 'FAILED',
};

const REFUND_STATEMENT_STATUS: Readonly<Record<string, StatementStatus>> = { requested: 'PENDING', done: 'SUCCESS', rejected: 'FAILED' };

type PaymentRow = Pick<PaymentsTable, 'transaction_ref' | 'merchant_id' | 'upstream_ref' | 'currency' | 'amount_minor' | 'paid_amount_minor' | 'status' | 'refund_state' | 'refund_upstream_ref'>;
type PayoutRow = Pick<PayoutsTable, 'transaction_ref' | 'merchant_id' | 'upstream_ref' | 'currency' | 'amount_minor' | 'status'>;

const PAYMENT_COLUMNS = ['transaction_ref', 'merchant_id', 'channel', 'upstream_ref', 'currency', 'amount_minor', 'paid_amount_minor', 'status', 'refund_state', 'refund_upstream_ref'] as const;
const PAYOUT_COLUMNS = ['transaction_ref', 'merchant_id', 'channel', 'upstream_ref', 'currency', 'amount_minor', 'status'] as const;
/** Bounded IN lists, well under both stores' bound-parameter limits. */
const CHUNK = 500;

const paymentRecord = (row: PaymentRow): OurStatementRecord => ({
  kind: 'payment',
  transactionRef: row.transaction_ref,
  merchantId: row.merchant_id,
  upstreamRef: row.upstream_ref,
  currency: row.currency,
  amountMinor: BigInt(row.paid_amount_minor ?? row.amount_minor),
  status: row.status,
  mappedStatus: PAYMENT_STATEMENT_STATUS[row.status],
});

const refundRecord = (row: PaymentRow): OurStatementRecord | null =>
  row.refund_state === null
    ? null
    : {
        kind: 'refund',
        transactionRef: row.transaction_ref,
        merchantId: row.merchant_id,
        upstreamRef: row.refund_upstream_ref,
        currency: row.currency,
        // Refunds are of the whole paid amount.
        amountMinor: BigInt(row.paid_amount_minor ?? row.amount_minor),
        status: row.refund_state,
        mappedStatus: REFUND_STATEMENT_STATUS[row.refund_state] ?? null,
      };

const payoutRecord = (row: PayoutRow): OurStatementRecord => ({
  kind: 'payout',
  transactionRef: row.transaction_ref,
  merchantId: row.merchant_id,
  upstreamRef: row.upstream_ref,
  currency: row.currency,
  amountMinor: BigInt(row.amount_minor),
  status: row.status,
  mappedStatus: PAYOUT_STATEMENT_STATUS[row.status],
});

const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};

/** Rows of one connector's, checked after the read (see find). */
const on =
  (connector: string) =>
  (row: { readonly channel: string }): boolean =>
    row.channel === connector;

/** find's lookups, each by one reference column (exported for the plan test). */
export const findQueries = {
  paymentsByRef: (db: Db, refs: readonly string[]) => db.selectFrom('payments').select(PAYMENT_COLUMNS).where('transaction_ref', 'in', refs),
  payoutsByRef: (db: Db, refs: readonly string[]) => db.selectFrom('payouts').select(PAYOUT_COLUMNS).where('transaction_ref', 'in', refs),
  paymentsByUpstreamRef: (db: Db, refs: readonly string[]) => db.selectFrom('payments').select(PAYMENT_COLUMNS).where('upstream_ref', 'in', refs),
  paymentsByRefundRef: (db: Db, refs: readonly string[]) => db.selectFrom('payments').select(PAYMENT_COLUMNS).where('refund_upstream_ref', 'in', refs),
  payoutsByUpstreamRef: (db: Db, refs: readonly string[]) => db.selectFrom('payouts').select(PAYOUT_COLUMNS).where('upstream_ref', 'in', refs),
};

export class StatementRecords {
  constructor(private readonly db: Db) {}

  /**
   * Our records on `connector` that a statement of [fromMs, toMs) must list: pay-ins created then that
   * the upstream opened (they have its reference), payouts created then that were sent (a payout the
   * upstream refused outright without a reference of its own need not be listed), refunds completed
   * then with the upstream's refund reference.
   */
  async expected(connector: string, fromMs: number, toMs: number, kinds: readonly StatementKind[]): Promise<OurStatementRecord[]> {
    const from = BigInt(fromMs);
    const to = BigInt(toMs);
    const records: OurStatementRecord[] = [];
    if (kinds.includes('payment')) {
      const rows = await this.db
        .selectFrom('payments')
        .select(PAYMENT_COLUMNS)
        .where('channel', '=', connector)
        .where('created_at_ms', '>=', from)
        .where('created_at_ms', '<', to)
        .where('upstream_ref', 'is not', null)
        .execute();
      records.push(...rows.map(paymentRecord));
    }
    if (kinds.includes('refund')) {
      // The connector is checked on the rows read: asked in the query, SQLite without statistics read
      // the connector's payments through payments_channel_created instead of the refunds of the window.
      const rows = await this.db
        .selectFrom('payments')
        .select(PAYMENT_COLUMNS)
        .where('refunded_at_ms', '>=', from)
        .where('refunded_at_ms', '<', to)
        .where('refund_upstream_ref', 'is not', null)
        .execute();
      records.push(...rows.filter(on(connector)).flatMap((row) => refundRecord(row) ?? []));
    }
    if (kinds.includes('payout')) {
      const rows = await this.db
        .selectFrom('payouts')
        .select(PAYOUT_COLUMNS)
        .where('channel', '=', connector)
        .where('created_at_ms', '>=', from)
        .where('created_at_ms', '<', to)
        .where('submit_attempts', '>=', 1n)
        .where((eb) => eb.or([eb('status', '!=', 'Failed'), eb('upstream_ref', 'is not', null)]))
        .execute();
      records.push(...rows.map(payoutRecord));
    }
    return records;
  }

  /**
   * Our records on `connector` of these transactionRefs or upstream references, whenever created. Each
   * read looks the references up by their own index and the connector is checked on the rows read:
   * asked in the query, SQLite without statistics (as the service runs it) read every payment or payout
   * of the connector through its (channel, created) index for each chunk instead (docs/benchmarks.md,
   * session 36).
   */
  async find(connector: string, transactionRefs: readonly string[], upstreamRefs: readonly string[]): Promise<OurStatementRecord[]> {
    const records: OurStatementRecord[] = [];
    const ours = on(connector);
    for (const refs of chunks([...new Set(transactionRefs)])) {
      const payments = (await findQueries.paymentsByRef(this.db, refs).execute()).filter(ours);
      for (const row of payments) records.push(paymentRecord(row), ...[refundRecord(row)].filter((r): r is OurStatementRecord => r !== null));
      const payouts = (await findQueries.payoutsByRef(this.db, refs).execute()).filter(ours);
      records.push(...payouts.map(payoutRecord));
    }
    for (const refs of chunks([...new Set(upstreamRefs)])) {
      // Two reads rather than an OR, so each uses its own index.
      const payments = (await findQueries.paymentsByUpstreamRef(this.db, refs).execute()).filter(ours);
      records.push(...payments.map(paymentRecord));
      const refunded = (await findQueries.paymentsByRefundRef(this.db, refs).execute()).filter(ours);
      records.push(...refunded.flatMap((row) => [refundRecord(row)].filter((r): r is OurStatementRecord => r !== null)));
      const payouts = (await findQueries.payoutsByUpstreamRef(this.db, refs).execute()).filter(ours);
      records.push(...payouts.map(payoutRecord));
    }
    return records;
  }
}
