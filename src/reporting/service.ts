// Reporting: what a merchant reads about its own money. Lists of its payments and payouts, its
// ledger statement and daily settlement totals, and CSV exports of each. Reads the payment, payout
// and ledger tables (never writes them); owns only the reports table.
import type { Clock } from '../core/clock.js';
import type { SecretBox } from '../core/secrets.js';
import type { Store } from '../store/db.js';
import { CursorCodec } from './cursor.js';
import { listPayments, listPayouts, type ListContext, type ListQuery } from './lists.js';
import { settlementDays, settlementRange, settlementView, SETTLEMENT_MAX_DAYS, type SettlementQuery } from './settlements.js';
import { statement, type StatementContext, type StatementQuery } from './statement.js';

export interface ReportingOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly box: SecretBox;
}

export class ReportingService {
  private readonly lists: ListContext;
  private readonly statements: StatementContext;

  constructor(private readonly options: ReportingOptions) {
    const nowMs = () => options.clock.nowMs();
    const cursors = new CursorCodec(options.box.deriveKey('list-cursor'), nowMs);
    this.lists = { db: options.store.db, cursors, nowMs };
    this.statements = { db: options.store.db, storeKind: options.store.kind, cursors };
  }

  statement(merchantId: string, query: StatementQuery) {
    return statement(this.statements, merchantId, query);
  }

  async settlements(merchantId: string, query: SettlementQuery) {
    const range = settlementRange(query, this.options.clock.nowMs(), SETTLEMENT_MAX_DAYS);
    const days = await settlementDays(this.options.store.db, merchantId, query.currency, range);
    return { currency: query.currency, days: days.map((day) => settlementView(query.currency, day)) };
  }

  listPayments(merchantId: string, query: ListQuery) {
    return listPayments(this.lists, merchantId, query);
  }

  listPayouts(merchantId: string, query: ListQuery) {
    return listPayouts(this.lists, merchantId, query);
  }
}
