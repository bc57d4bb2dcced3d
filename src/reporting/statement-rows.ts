// The statement's reads: a merchant's postings to its five balances in one currency, newest first by
// (entry time, entry id, account id), with the balance of each bucket after every movement. Balances
// after are walked backwards from the cached balances, so a page costs its own rows, never the history.
import { sql, type SqlBool } from 'kysely';
import type { Currency, Minor } from '../core/money.js';
import { accountId, BALANCE_KINDS, merchantAccount, platformAccount, type BalanceKind } from '../ledger/accounts.js';
import type { Executor } from '../store/schema.js';
import type { TimeRange } from './time-range.js';

export type Buckets = Record<BalanceKind, Minor>;

/** Where a statement walk stands: the last movement served, and each bucket's balance just before it. */
export interface StatementPosition {
  readonly createdAtMs: bigint;
  readonly entryId: string;
  readonly accountId: string;
  readonly balances: Buckets;
}

export interface Movement {
  readonly entryId: string;
  readonly type: string;
  readonly ref: string;
  readonly bucket: BalanceKind;
  readonly amountMinor: Minor;
  /** What the platform earned in this entry (its fee revenue posting); 0 for most kinds. */
  readonly feeMinor: Minor;
  readonly balanceAfterMinor: Minor;
  readonly paymentRef: string | null;
  readonly payoutRef: string | null;
  readonly createdAtMs: bigint;
}

const bucketIds = (merchantId: string, currency: Currency) =>
  new Map(BALANCE_KINDS.map((kind) => [accountId(merchantAccount(merchantId, currency, kind)), kind] as const));

/** The buckets' balances at the end of the range (`to`, or now): the cached balances less every later posting. */
export async function openingBalances(db: Executor, merchantId: string, currency: Currency, range: TimeRange): Promise<Buckets> {
  const ids = bucketIds(merchantId, currency);
  const balances = Object.fromEntries(BALANCE_KINDS.map((kind) => [kind, 0n])) as Buckets;
  const cached = await db.selectFrom('ledger_accounts').select(['id', 'balance_minor']).where('id', 'in', [...ids.keys()]).execute();
  for (const row of cached) balances[ids.get(row.id)!] = row.balance_minor;
  if (range.toMs === null) return balances;
  const later = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_postings as p', 'p.entry_id', 'e.id')
    .select(['p.account_id', (eb) => eb.fn.sum<bigint>('p.amount_minor').as('total')])
    .where('e.merchant_id', '=', merchantId)
    .where('e.currency', '=', currency)
    .where('e.created_at_ms', '>=', BigInt(range.toMs))
    .where('p.account_id', 'in', [...ids.keys()])
    .groupBy('p.account_id')
    .execute();
  for (const row of later) balances[ids.get(row.account_id)!] -= BigInt(row.total);
  return balances;
}

/** Entry kinds whose ref is the payment's transactionRef, and those whose ref is the payout's. */
const PAYMENT_REF_KINDS = new Set(['payment_credit', 'unallocated_payment', 'late_credit', 'late_return']);
const REFUND_KINDS = new Set(['refund', 'refund_reversal']);
const PAYOUT_REF_KINDS = new Set(['payout_reserve', 'payout_release', 'payout_complete']);

/**
 * Up to `limit` movements strictly after `position` (older), the position after the last one, and
 * whether more follow. `position` null starts at the end of the range with `opening` balances.
 */
export async function movementPage(
  db: Executor,
  merchantId: string,
  currency: Currency,
  range: TimeRange,
  start: { position: StatementPosition | null; opening: Buckets },
  limit: number,
): Promise<{ movements: Movement[]; position: StatementPosition | null; more: boolean }> {
  const ids = bucketIds(merchantId, currency);
  const at = start.position;
  const rows = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_postings as p', 'p.entry_id', 'e.id')
    .select(['e.id', 'e.kind', 'e.ref', 'e.created_at_ms', 'p.account_id', 'p.amount_minor'])
    .where('e.merchant_id', '=', merchantId)
    .where('e.currency', '=', currency)
    .where('p.account_id', 'in', [...ids.keys()])
    .$if(range.fromMs !== null, (q) => q.where('e.created_at_ms', '>=', BigInt(range.fromMs!)))
    .$if(range.toMs !== null, (q) => q.where('e.created_at_ms', '<', BigInt(range.toMs!)))
    .$if(at !== null, (q) =>
      q.where((eb) =>
        eb.or([
          sql<SqlBool>`e.created_at_ms < ${at!.createdAtMs}`,
          sql<SqlBool>`e.created_at_ms = ${at!.createdAtMs} AND e.id < ${at!.entryId}`,
          sql<SqlBool>`e.created_at_ms = ${at!.createdAtMs} AND e.id = ${at!.entryId} AND p.account_id < ${at!.accountId}`,
        ]),
      ),
    )
    .orderBy('e.created_at_ms', 'desc')
    .orderBy('e.id', 'desc')
    .orderBy('p.account_id', 'desc')
    .limit(limit + 1)
    .execute();
  const more = rows.length > limit;
  if (more) rows.pop();
  if (rows.length === 0) return { movements: [], position: null, more };
  const entryIds = [...new Set(rows.map((r) => r.id))];
  const fees = await feesOf(db, currency, entryIds);
  const refunds = await refundedPayments(db, merchantId, rows.filter((r) => REFUND_KINDS.has(r.kind)).map((r) => r.ref));
  const balances = { ...(at?.balances ?? start.opening) };
  const movements = rows.map((row): Movement => {
    const bucket = ids.get(row.account_id)!;
    const balanceAfterMinor = balances[bucket];
    balances[bucket] -= row.amount_minor;
    const paymentRef = PAYMENT_REF_KINDS.has(row.kind) ? row.ref : REFUND_KINDS.has(row.kind) ? (refunds.get(row.ref) ?? null) : null;
    return {
      entryId: row.id,
      type: row.kind,
      ref: row.ref,
      bucket,
      amountMinor: row.amount_minor,
      feeMinor: fees.get(row.id) ?? 0n,
      balanceAfterMinor,
      paymentRef,
      payoutRef: PAYOUT_REF_KINDS.has(row.kind) ? row.ref : null,
      createdAtMs: row.created_at_ms,
    };
  });
  const last = rows[rows.length - 1]!;
  return { movements, position: { createdAtMs: last.created_at_ms, entryId: last.id, accountId: last.account_id, balances }, more };
}

async function feesOf(db: Executor, currency: Currency, entryIds: string[]): Promise<Map<string, Minor>> {
  const rows = await db
    .selectFrom('ledger_postings')
    .select(['entry_id', 'amount_minor'])
    .where('account_id', '=', accountId(platformAccount(currency, 'fee_revenue')))
    .where('entry_id', 'in', entryIds)
    .execute();
  return new Map(rows.map((r) => [r.entry_id, r.amount_minor]));
}

/** The payment each refund reference belongs to (its current refund; see docs/reporting.md). */
async function refundedPayments(db: Executor, merchantId: string, refundRefs: string[]): Promise<Map<string, string>> {
  if (refundRefs.length === 0) return new Map();
  const rows = await db
    .selectFrom('payments')
    .select(['transaction_ref', 'refund_ref'])
    .where('merchant_id', '=', merchantId)
    .where('refund_ref', 'in', refundRefs)
    .execute();
  return new Map(rows.map((r) => [r.refund_ref!, r.transaction_ref]));
}
