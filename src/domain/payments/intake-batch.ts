// Group commit for payment/initiate: the new rows of requests that arrive together go into the
// store in one INSERT, so they share one commit (one fsync) instead of paying for one each, with
// the same durability: no request is answered before its row is committed. Every rule that can
// refuse a request runs before its row joins a batch; the store can then only refuse a row for a
// merchantRef already taken, which the statement skips row by row (ON CONFLICT DO NOTHING). Should
// the statement fail anyway, each row is inserted again on its own, so one request's failure
// never becomes another's.
import { COMMIT_LINGER, GroupBatch } from '../../core/group-batch.js';
import type { Executor } from '../../store/schema.js';
import type { PaymentsTable } from './payment-rows.js';
import { insertAllIfNew, insertIfNew } from './repository.js';

/** Rows per statement: 35 columns each stays far below both stores' bound-parameter limits. */
export const MAX_PAYMENTS_PER_COMMIT = 128;

/** `inserted` false: the merchant already has a payment under this merchantRef. */
type InsertOutcome = { readonly inserted: boolean } | { readonly error: unknown };

export class PaymentIntakeBatch {
  private readonly batch = new GroupBatch<PaymentsTable, InsertOutcome>(MAX_PAYMENTS_PER_COMMIT, (rows) => this.insert(rows), COMMIT_LINGER);

  constructor(private readonly db: Executor) {}

  /** Inserts the row unless its merchantRef is taken; true when this call created it. Resolves after the commit. */
  async insertIfNew(row: PaymentsTable): Promise<boolean> {
    const outcome = await this.batch.add(row);
    if ('error' in outcome) throw outcome.error;
    return outcome.inserted;
  }

  private async insert(rows: readonly PaymentsTable[]): Promise<InsertOutcome[]> {
    try {
      const created = await insertAllIfNew(this.db, rows);
      return rows.map((row) => ({ inserted: created.has(row.transaction_ref) }));
    } catch (error) {
      if (rows.length === 1) return [{ error }];
      const outcomes: InsertOutcome[] = [];
      for (const row of rows) {
        try {
          outcomes.push({ inserted: await insertIfNew(this.db, row) });
        } catch (rowError) {
          outcomes.push({ error: rowError });
        }
      }
      return outcomes;
    }
  }
}
