// Pending lots: the pieces of a merchant's `pending` balance and when each may settle. The lots of a
// merchant and currency always sum to its pending balance (verify checks it). Every change to them
// happens while the transaction holds that merchant's pending row, so they need no locks of their own.
import { newId } from '../core/ids.js';
import type { Currency, Minor } from '../core/money.js';
import type { Executor } from '../store/schema.js';

/** Lots read per round trip while consuming; bounds memory, not the amount consumed. */
const CONSUME_PAGE_SIZE = 100;

export interface NewLot {
  readonly merchantId: string;
  readonly currency: Currency;
  readonly ref: string;
  readonly amountMinor: Minor;
  readonly dueAtMs: number;
  readonly nowMs: number;
}

export async function addLot(db: Executor, lot: NewLot): Promise<void> {
  if (lot.amountMinor <= 0n) throw new Error('ledger: a pending lot must be positive');
  await db
    .insertInto('ledger_pending_lots')
    .values({
      id: newId(),
      merchant_id: lot.merchantId,
      currency: lot.currency,
      ref: lot.ref,
      remaining_minor: lot.amountMinor,
      due_at_ms: BigInt(lot.dueAtMs),
      created_at_ms: BigInt(lot.nowMs),
    })
    .execute();
}

interface LotRow {
  readonly id: string;
  readonly remaining_minor: bigint;
}

/** Takes `amountMinor` off one lot: shrinks it, or deletes it once nothing remains. Returns what it took. */
async function takeFromLot(db: Executor, lot: LotRow, amountMinor: Minor): Promise<Minor> {
  if (amountMinor >= lot.remaining_minor) {
    await db.deleteFrom('ledger_pending_lots').where('id', '=', lot.id).execute();
    return lot.remaining_minor;
  }
  await db
    .updateTable('ledger_pending_lots')
    .set({ remaining_minor: lot.remaining_minor - amountMinor })
    .where('id', '=', lot.id)
    .execute();
  return amountMinor;
}

/**
 * Removes `amountMinor` from a merchant's lots when money leaves `pending` other than by settling
 * (a refund, a negative adjustment): first the lots of `preferRef` (the refunded payment's own
 * money), then the newest, so money that is already due still settles on time.
 */
export async function consumeLots(
  db: Executor,
  merchantId: string,
  currency: Currency,
  amountMinor: Minor,
  preferRef: string | null,
): Promise<void> {
  let leftMinor = amountMinor;
  const base = () =>
    db
      .selectFrom('ledger_pending_lots')
      .select(['id', 'remaining_minor'])
      .where('merchant_id', '=', merchantId)
      .where('currency', '=', currency);
  if (preferRef !== null) {
    for (const lot of await base().where('ref', '=', preferRef).orderBy('id').execute()) {
      if (leftMinor === 0n) return;
      leftMinor -= await takeFromLot(db, lot, leftMinor);
    }
  }
  while (leftMinor > 0n) {
    const page = await base().orderBy('id', 'desc').limit(CONSUME_PAGE_SIZE).execute();
    // pending == sum(lots) is an invariant; running out of lots first means it was broken.
    if (page.length === 0) throw new Error(`ledger: pending lots of ${merchantId}/${currency} are short by ${leftMinor}`);
    for (const lot of page) {
      if (leftMinor === 0n) return;
      leftMinor -= await takeFromLot(db, lot, leftMinor);
    }
  }
}

export interface DueLots {
  readonly ids: readonly string[];
  readonly totalMinor: Minor;
  readonly lastId: string;
}

export const dueLotsQuery = (db: Executor, merchantId: string, currency: Currency, nowMs: number, limit: number) =>
  db
    .selectFrom('ledger_pending_lots')
    .select(['id', 'remaining_minor'])
    .where('merchant_id', '=', merchantId)
    .where('currency', '=', currency)
    .where('due_at_ms', '<=', BigInt(nowMs))
    .orderBy('due_at_ms')
    .orderBy('id')
    .limit(limit);

/**
 * The lots of a merchant and currency that are due at `nowMs`, soonest due first, at most `limit` of
 * them: a range of `ledger_pending_lots_group_due` (0024), which ends where the lots not yet due begin.
 */
export async function dueLots(
  db: Executor,
  merchantId: string,
  currency: Currency,
  nowMs: number,
  limit: number,
): Promise<DueLots | null> {
  const rows = await dueLotsQuery(db, merchantId, currency, nowMs, limit).execute();
  const last = rows[rows.length - 1];
  if (!last) return null;
  return { ids: rows.map((r) => r.id), totalMinor: rows.reduce((sum, r) => sum + r.remaining_minor, 0n), lastId: last.id };
}

export async function deleteLots(db: Executor, ids: readonly string[]): Promise<void> {
  const deleted = await db.deleteFrom('ledger_pending_lots').where('id', 'in', ids).executeTakeFirst();
  if (deleted.numDeletedRows !== BigInt(ids.length)) throw new Error('ledger: settled lots changed under the settlement');
}

/**
 * Due lots read to find the groups with money due, soonest due first. A run settles the groups among
 * them; groups whose lots are further down the queue (only after a long pause, when more than this
 * many are due) come up in the next runs, as the ones before them are settled and deleted.
 */
export const DUE_LOTS_SCANNED = 10_000;

/** The merchant and currency of the `limit` lots due soonest at `nowMs`: a range of `ledger_pending_lots_due` in its order. */
const dueSoonest = (db: Executor, nowMs: number, limit: number) =>
  db.selectFrom('ledger_pending_lots').select(['merchant_id', 'currency']).where('due_at_ms', '<=', BigInt(nowMs)).orderBy('due_at_ms').limit(limit);

/**
 * Merchant and currency pairs that have money due to settle, among the DUE_LOTS_SCANNED lots due
 * soonest: a range of `ledger_pending_lots_due`, read in its order. Asked for the distinct pairs of all
 * due lots at once, SQLite read every lot through the merchants' index instead (197 ms a run over
 * 200,000 lots with 100 due; docs/benchmarks.md, session 36).
 */
export const groupsWithDueLotsQuery = (db: Executor, nowMs: number, limit: number) =>
  db
    .selectFrom(dueSoonest(db, nowMs, DUE_LOTS_SCANNED).as('due'))
    .select(['merchant_id', 'currency'])
    .distinct()
    .limit(limit);

/** Whether any lot is due at `nowMs`. */
export async function anyLotDue(db: Executor, nowMs: number): Promise<boolean> {
  return (await dueSoonest(db, nowMs, 1).executeTakeFirst()) !== undefined;
}

/** Merchant and currency pairs that have money due to settle (see groupsWithDueLotsQuery). */
export async function groupsWithDueLots(
  db: Executor,
  nowMs: number,
  limit: number,
): Promise<{ merchantId: string; currency: Currency }[]> {
  const rows = await groupsWithDueLotsQuery(db, nowMs, limit).execute();
  return rows.map((r) => ({ merchantId: r.merchant_id, currency: r.currency as Currency }));
}
