// Reporting: what a merchant reads about its own money. Lists of its payments and payouts, its
// ledger statement and daily settlement totals, and CSV exports of each. Reads the payment, payout
// and ledger tables (never writes them); owns only the reports table.
import type { Clock } from '../core/clock.js';
import type { SecretBox } from '../core/secrets.js';
import type { Store } from '../store/db.js';
import { CursorCodec } from './cursor.js';
import { listPayments, listPayouts, type ListContext, type ListQuery } from './lists.js';

export interface ReportingOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly box: SecretBox;
}

export class ReportingService {
  private readonly lists: ListContext;

  constructor(private readonly options: ReportingOptions) {
    const nowMs = () => options.clock.nowMs();
    this.lists = { db: options.store.db, cursors: new CursorCodec(options.box.deriveKey('list-cursor'), nowMs), nowMs };
  }

  listPayments(merchantId: string, query: ListQuery) {
    return listPayments(this.lists, merchantId, query);
  }

  listPayouts(merchantId: string, query: ListQuery) {
    return listPayouts(this.lists, merchantId, query);
  }
}
