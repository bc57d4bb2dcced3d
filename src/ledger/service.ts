// LedgerService: the one entry point payment, payout and operator code uses to move money.
// Flow operations take the caller's transaction, so the business change, its journal entry and its
// outbox event commit together; operator operations and the settlement job open their own.
import type { Clock } from '../core/clock.js';
import type { Currency } from '../core/money.js';
import type { Store } from '../store/db.js';
import type { Db, Executor } from '../store/schema.js';
import type { LedgerContext } from './context.js';
import type { PgRecordWrite } from './pg-posting.js';
import * as operator from './operator.js';
import * as payments from './payments.js';
import * as payouts from './payouts.js';
import { BalanceReads, merchantBalances, merchantJournal, type Balances, type JournalEntry, type JournalQuery } from './queries.js';
import { settleGroup, settlePending, type SettledGroup, type SettlementRun } from './settlement.js';
import { withTransaction } from '../store/transactions.js';
import type { Job } from '../core/worker.js';
import { journalRowsAtLeast, verifyLedger, verifyLedgerInThread, type Violation } from './verify.js';

export interface LedgerOptions {
  /** Settlement delay per currency; a currency not listed settles at the next run (sandbox default). */
  readonly settlementDelayMs?: Partial<Record<Currency, number>>;
  /** SQLite: journals of at least this many entries are verified in a thread (VERIFY_IN_THREAD_FROM_ENTRIES). */
  readonly verifyInThreadFrom?: number;
}

/**
 * From how many journal entries a SQLite ledger is verified in a thread of its own. Below it the
 * checks run in the service's thread, holding the event loop for at most about 50 ms (1.3 s for
 * 300,000 entries on the 2-core machine), less than starting the thread costs.
 */
export const VERIFY_IN_THREAD_FROM_ENTRIES = 10_000;

/** Settlement runs on whole seconds of business time; asking more often finds nothing new. */
const SETTLEMENT_MIN_IDLE_MS = 1000;

export class LedgerService {
  private readonly db: Db;
  private readonly ctx: LedgerContext;
  /** The SQLite file the verifier's thread reads, when there is one. */
  private readonly sqliteFile: string | null;
  private readonly verifyInThreadFrom: number;
  /** The verifier's thread at work, if one is. */
  private verifying: Promise<Violation[]> | null = null;
  private readonly balanceReads: BalanceReads;

  constructor(store: Pick<Store, 'db' | 'kind'> & Partial<Pick<Store, 'sqliteFile'>>, clock: Clock, options: LedgerOptions = {}) {
    const delays = { ...options.settlementDelayMs };
    for (const [currency, delayMs] of Object.entries(delays)) {
      if (!Number.isSafeInteger(delayMs) || delayMs < 0) throw new Error(`ledger: settlement delay of ${currency} must be >= 0 ms`);
    }
    this.db = store.db;
    this.sqliteFile = store.sqliteFile ?? null;
    this.verifyInThreadFrom = options.verifyInThreadFrom ?? VERIFY_IN_THREAD_FROM_ENTRIES;
    this.balanceReads = new BalanceReads(store.db);
    this.ctx = { storeKind: store.kind, clock, settlementDelayMs: (currency) => delays[currency] ?? 0 };
  }

  // Flow operations: inside the caller's transaction.

  reserveForPayout(trx: Executor, input: payouts.PayoutReservation, options?: { readonly lockFirst?: boolean }): Promise<payouts.Reservation> {
    return payouts.reserveForPayout(trx, this.ctx, input, options);
  }

  /** PostgreSQL: reserveWithRecord for many payouts in one statement (ledger/payouts.ts reserveManyWithRecord). */
  reserveManyWithRecord(
    trx: Executor,
    items: readonly { readonly input: payouts.PayoutReservation; readonly record: PgRecordWrite }[],
  ): Promise<payouts.ManyRecordReservation[]> {
    return payouts.reserveManyWithRecord(trx, this.ctx, items);
  }

  /** The payout row and its reservation, both or neither (ledger/payouts.ts reserveWithRecord). */
  reserveWithRecord(trx: Executor, input: payouts.PayoutReservation, record: PgRecordWrite): Promise<payouts.RecordReservation> {
    return payouts.reserveWithRecord(trx, this.ctx, input, record);
  }

  releaseReservation(trx: Executor, ref: string): Promise<payouts.Reservation> {
    return payouts.releaseReservation(trx, this.ctx, ref);
  }

  /** completeReservation for many payouts, on PostgreSQL in one statement (ledger/payouts.ts completeReservations). */
  completeReservations(trx: Executor, completions: readonly payouts.Completion[]): Promise<payouts.Reservation[]> {
    return payouts.completeReservations(trx, this.ctx, completions);
  }

  completeReservation(trx: Executor, ref: string): Promise<payouts.Reservation> {
    return payouts.completeReservation(trx, this.ctx, ref);
  }

  creditPayment(trx: Executor, input: payments.PaymentCredit): Promise<payments.PaymentCreditResult> {
    return payments.creditPayment(trx, this.ctx, input);
  }

  recordUnallocated(trx: Executor, input: payments.UnallocatedPayment) {
    return payments.recordUnallocated(trx, this.ctx, input);
  }

  creditLatePayment(trx: Executor, input: payments.PaymentCredit): Promise<payments.PaymentCreditResult> {
    return payments.creditLatePayment(trx, this.ctx, input);
  }

  returnUnallocated(trx: Executor, input: payments.UnallocatedPayment) {
    return payments.returnUnallocated(trx, this.ctx, input);
  }

  debitRefund(trx: Executor, input: payments.RefundDebit): Promise<payments.RefundDebitResult> {
    return payments.debitRefund(trx, this.ctx, input);
  }

  /** Undoes a refund the upstream refused: the money goes back where debitRefund took it from. */
  reverseRefund(trx: Executor, input: payments.RefundReversal): Promise<payments.RefundDebitResult> {
    return payments.reverseRefund(trx, this.ctx, input);
  }

  /** Settles one merchant and currency inside the caller's transaction. */
  settleMerchant(trx: Executor, merchantId: string, currency: Currency): Promise<SettledGroup | null> {
    return settleGroup(trx, this.ctx, merchantId, currency);
  }

  // Background job and operator tools: each in transactions of their own.

  /** The background job that moves due pending lots to available; settles at most once a second. */
  settlementJob(idleIntervalMs: number): Job {
    return {
      name: 'ledger-settlement',
      idleIntervalMs: Math.max(idleIntervalMs, SETTLEMENT_MIN_IDLE_MS),
      runOnce: async () => (await this.settlePending()).groups.length,
    };
  }

  settlePending(): Promise<SettlementRun> {
    return settlePending(this.db, this.ctx);
  }

  grantCredit(move: operator.OperatorMove): Promise<operator.OperatorResult> {
    return withTransaction(this.db, (trx) => operator.grantCredit(trx, this.ctx, move));
  }

  lowerCredit(move: operator.OperatorMove): Promise<operator.OperatorResult> {
    return withTransaction(this.db, (trx) => operator.lowerCredit(trx, this.ctx, move));
  }

  moveToSecurity(move: operator.OperatorMove): Promise<operator.OperatorResult> {
    return withTransaction(this.db, (trx) => operator.moveToSecurity(trx, this.ctx, move));
  }

  releaseSecurity(move: operator.OperatorMove): Promise<operator.OperatorResult> {
    return withTransaction(this.db, (trx) => operator.releaseSecurity(trx, this.ctx, move));
  }

  adjust(adjustment: operator.Adjustment): Promise<operator.OperatorResult> {
    return withTransaction(this.db, (trx) => operator.adjust(trx, this.ctx, adjustment));
  }

  // Reads.

  /** A merchant's five balances; inside a transaction when `db` is one, else batched with concurrent reads. */
  balances(merchantId: string, currency: Currency, db?: Executor): Promise<Balances> {
    return db === undefined ? this.balanceReads.read(merchantId, currency) : merchantBalances(db, merchantId, currency);
  }

  journal(merchantId: string, query: JournalQuery = {}): Promise<JournalEntry[]> {
    return merchantJournal(this.db, merchantId, query);
  }

  /**
   * Every invariant of the books re-derived from the rows (verify.ts). On SQLite in a thread of its
   * own (verifyLedgerInThread), so a long journal does not stop the service answering.
   */
  async verify(): Promise<Violation[]> {
    if (this.sqliteFile !== null && (await journalRowsAtLeast(this.db, this.verifyInThreadFrom))) {
      // One thread at a time: callers that ask while one reads the journal share its answer.
      const file = this.sqliteFile;
      this.verifying ??= verifyLedgerInThread(file).finally(() => (this.verifying = null));
      return this.verifying;
    }
    return verifyLedger(this.db, this.ctx.storeKind);
  }

  settlementDelayMs(currency: Currency): number {
    return this.ctx.settlementDelayMs(currency);
  }
}

export type { Balances, JournalEntry, JournalQuery, SettledGroup, SettlementRun, Violation };
export type { ManyRecordReservation, PayoutReservation, Reservation } from './payouts.js';
export type { PaymentCredit, PaymentCreditResult, RefundDebit, RefundDebitResult, RefundReversal, UnallocatedPayment } from './payments.js';
export type { Adjustment, AdjustableKind, OperatorMove, OperatorResult } from './operator.js';
