// account/settlements: per UTC day of one currency, what the merchant's ledger entries moved:
// collected (gross paid in), refunded, paid out, fees, settled (pending to available) and the net
// change of its five balances. One grouped query over the range; days without movement are left out.
import { validationError } from '../core/errors.js';
import { toMajor, type Currency, type Minor } from '../core/money.js';
import { BALANCE_KINDS } from '../ledger/accounts.js';
import type { Executor } from '../store/schema.js';
import { MS_PER_DAY, parseRange, utcDay, type TimeRange } from './time-range.js';

/** The longest range one call (or one export) of settlements spans, and the default when none is given. */
export const SETTLEMENT_MAX_DAYS = 366;
export const SETTLEMENT_DEFAULT_DAYS = 31;

export interface SettlementQuery {
  readonly currency: Currency;
  readonly from?: string;
  readonly to?: string;
}

export interface SettlementDayMinor {
  readonly day: string;
  collectedMinor: Minor;
  refundedMinor: Minor;
  paidOutMinor: Minor;
  feesMinor: Minor;
  settledMinor: Minor;
  netMinor: Minor;
}

export interface SettlementDay {
  readonly date: string;
  readonly currency: Currency;
  readonly collected: number;
  readonly refunded: number;
  readonly paidOut: number;
  readonly fees: number;
  readonly settled: number;
  readonly net: number;
}

const BUCKETS = new Set<string>(BALANCE_KINDS);
const COLLECTIONS = new Set(['payment_credit', 'late_credit']);
const REFUNDS = new Set(['refund', 'refund_reversal']);

/** Adds one grouped sum (a day, an entry kind, an account kind) to the day's totals. */
function addTo(day: SettlementDayMinor, entryKind: string, accountKind: string, sum: Minor): void {
  if (COLLECTIONS.has(entryKind) && (accountKind === 'pending' || accountKind === 'fee_revenue')) day.collectedMinor += sum;
  if (REFUNDS.has(entryKind) && (accountKind === 'pending' || accountKind === 'available')) day.refundedMinor -= sum;
  if (entryKind === 'payout_complete' && accountKind === 'settlement') day.paidOutMinor += sum;
  if (accountKind === 'fee_revenue') day.feesMinor += sum;
  if (entryKind === 'settlement' && accountKind === 'pending') day.settledMinor -= sum;
  if (BUCKETS.has(accountKind)) day.netMinor += sum;
}

/** The range a settlements call covers: as given, else the last SETTLEMENT_DEFAULT_DAYS days up to now. */
export function settlementRange(query: Pick<SettlementQuery, 'from' | 'to'>, nowMs: number, maxDays: number | null): TimeRange {
  const given = parseRange(query);
  const toMs = given.toMs ?? (Math.floor(nowMs / MS_PER_DAY) + 1) * MS_PER_DAY;
  const fromMs = given.fromMs ?? toMs - SETTLEMENT_DEFAULT_DAYS * MS_PER_DAY;
  if (fromMs >= toMs) throw validationError('to', 'must be after from');
  if (maxDays !== null && toMs - fromMs > maxDays * MS_PER_DAY) throw validationError('from', `must be at most ${maxDays} days before to`);
  return { fromMs, toMs };
}

/** Totals per day in the range, newest day first. */
export async function settlementDays(db: Executor, merchantId: string, currency: Currency, range: TimeRange): Promise<SettlementDayMinor[]> {
  const rows = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_postings as p', 'p.entry_id', 'e.id')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .select((eb) => [
      eb(eb.ref('e.created_at_ms'), '/', BigInt(MS_PER_DAY)).as('day'),
      'e.kind as entry_kind',
      'a.kind as account_kind',
      eb.fn.sum<bigint>('p.amount_minor').as('total'),
    ])
    .where('e.merchant_id', '=', merchantId)
    .where('e.currency', '=', currency)
    .$if(range.fromMs !== null, (q) => q.where('e.created_at_ms', '>=', BigInt(range.fromMs!)))
    .$if(range.toMs !== null, (q) => q.where('e.created_at_ms', '<', BigInt(range.toMs!)))
    .groupBy(['day', 'e.kind', 'a.kind'])
    .execute();
  const days = new Map<string, SettlementDayMinor>();
  for (const row of rows) {
    const day = utcDay(Number(row.day) * MS_PER_DAY);
    let totals = days.get(day);
    if (!totals) {
      totals = { day, collectedMinor: 0n, refundedMinor: 0n, paidOutMinor: 0n, feesMinor: 0n, settledMinor: 0n, netMinor: 0n };
      days.set(day, totals);
    }
    addTo(totals, row.entry_kind, row.account_kind, BigInt(row.total));
  }
  return [...days.values()].sort((a, b) => (a.day < b.day ? 1 : -1));
}

export const settlementView = (currency: Currency, d: SettlementDayMinor): SettlementDay => ({
  date: d.day,
  currency,
  collected: toMajor(d.collectedMinor),
  refunded: toMajor(d.refundedMinor),
  paidOut: toMajor(d.paidOutMinor),
  fees: toMajor(d.feesMinor),
  settled: toMajor(d.settledMinor),
  net: toMajor(d.netMinor),
});
