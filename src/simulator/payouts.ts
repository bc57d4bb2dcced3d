// The simulated bank's transfers (contract section 11): idempotent on our transactionRef, settled by
// the injected clock, with the magic account endings 0001 (invalid), 0002 (slow), 0003 (timeout).
import type { Clock } from '../core/clock.js';
import { isCurrency, type Currency, type Minor } from '../core/money.js';
import { PAYOUT_METHODS } from './instructions.js';
import type { PayoutBody, SubmitPayoutBody } from './protocol.js';
import { DueQueue } from './due-queue.js';
import { BankRefusal, evictOldest, transferRef } from './refs.js';
import type { BookOptions } from './collections.js';
import type { StatementRow } from './statements.js';
import { storedMinor, type StoredRecord } from './state-file.js';

/** How long an account ending 0002 stays PROCESSING. */
export const SLOW_PAYOUT_MS = 2 * 60 * 1000;

interface PayoutRecord {
  readonly transactionRef: string;
  readonly currency: Currency;
  readonly method: string;
  readonly amountMinor: Minor;
  readonly account: string;
  readonly settleAtMs: number;
  /** When the bank took it: the time its statement line carries. */
  readonly createdAtMs: number;
  status: 'PROCESSING' | 'SUCCESS' | 'FAILED';
  upstreamRef: string | null;
  failureReason: string | null;
}

export interface PayoutBookOptions extends BookOptions {
  /** How long a normal payout stays PROCESSING. */
  readonly payoutDelayMs: number;
}

export interface SubmitResult {
  readonly payout: PayoutBody;
  /** True for the first submission to an account ending 0003: the bank answers too late. */
  readonly answerLate: boolean;
}

/** The digits a magic ending is read from: a VPA's part before "@", else the account itself. */
const accountTail = (account: string): string => account.split('@')[0]!.slice(-4);

export class PayoutBook {
  private readonly records = new Map<string, PayoutRecord>();
  /** The transfers in processing by the time they settle, for the sweep. */
  private readonly settlements = new DueQueue();

  constructor(private readonly options: PayoutBookOptions) {}

  get size(): number {
    return this.records.size;
  }

  /** Every record as the state file keeps it, oldest first. */
  stored(): StoredRecord[] {
    return [...this.records.values()].map(storedPayout);
  }

  /**
   * Takes back the transfers of an earlier run (the state file's): one still processing settles at its
   * time, or at the next sweep if that has passed, and is reported then. A record that does not read
   * back is skipped.
   */
  restore(stored: readonly StoredRecord[]): void {
    for (const item of stored) {
      const record = restoredPayout(item);
      if (record === null) continue;
      this.records.set(record.transactionRef, record);
      if (record.status === 'PROCESSING') this.settlements.add(record.transactionRef, record.settleAtMs);
    }
  }

  /** A repeated submission of a transactionRef answers the existing transfer and executes nothing. */
  submit(request: SubmitPayoutBody): SubmitResult {
    this.options.stats.recordSubmission(request.transactionRef);
    const existing = this.records.get(request.transactionRef);
    if (existing) {
      this.refuseIfDifferent(existing, request);
      this.settleIfDue(existing);
      return { payout: this.view(existing), answerLate: false };
    }
    const record = this.execute(request);
    return { payout: this.view(record), answerLate: accountTail(record.account) === '0003' };
  }

  /** null when the bank never received a payout with this transactionRef. */
  get(transactionRef: string): PayoutBody | null {
    const record = this.records.get(transactionRef);
    if (!record) return null;
    this.settleIfDue(record);
    return this.view(record);
  }

  /** The statement lines of transfers taken within [fromMs, toMs); the reference is ours until the transfer has its own. */
  statementLines(fromMs: number, toMs: number): StatementRow[] {
    const rows: StatementRow[] = [];
    for (const record of this.records.values()) {
      if (record.createdAtMs < fromMs || record.createdAtMs >= toMs) continue;
      this.settleIfDue(record);
      rows.push({
        reference: record.upstreamRef ?? record.transactionRef,
        ourReference: record.transactionRef,
        type: 'payout',
        currency: record.currency,
        amountMinor: record.amountMinor,
        status: record.status,
        atMs: record.createdAtMs,
      });
    }
    return rows;
  }

  /** Completes every transfer whose time has come. */
  sweep(): void {
    for (const ref of this.settlements.takeDue(this.options.clock.nowMs())) {
      const record = this.records.get(ref);
      // A stale entry (finished since, or forgotten) is passed over by settleIfDue.
      if (record) this.settleIfDue(record);
    }
  }

  private execute(request: SubmitPayoutBody): PayoutRecord {
    const currency = this.checkedCurrency(request);
    const nowMs = this.options.clock.nowMs();
    const tail = accountTail(request.account);
    const record: PayoutRecord = {
      transactionRef: request.transactionRef,
      currency,
      method: request.method,
      amountMinor: BigInt(request.amountMinor),
      account: request.account,
      settleAtMs: nowMs + (tail === '0002' ? SLOW_PAYOUT_MS : this.options.payoutDelayMs),
      createdAtMs: nowMs,
      status: 'PROCESSING',
      upstreamRef: null,
      failureReason: null,
    };
    this.records.set(record.transactionRef, record);
    this.options.persist?.(storedPayout(record));
    this.options.stats.recordTransfer(record.transactionRef);
    evictOldest(this.records, this.options.retainRecords, (old) => old.status !== 'PROCESSING', (ref) => this.options.stats.forget(ref));
    if (tail === '0001') {
      this.finish(record, 'FAILED', null, 'INVALID_ACCOUNT');
    } else {
      this.settlements.add(record.transactionRef, record.settleAtMs);
      this.settleIfDue(record);
    }
    return record;
  }

  private checkedCurrency(request: SubmitPayoutBody): Currency {
    const currency = request.currency;
    if (!isCurrency(currency)) throw new BankRefusal(400, 'UNSUPPORTED_CURRENCY', `No payouts in ${currency}.`);
    if (!PAYOUT_METHODS[currency].includes(request.method)) {
      throw new BankRefusal(400, 'UNSUPPORTED_METHOD', `No ${request.method} payouts in ${currency}.`);
    }
    return currency;
  }

  private refuseIfDifferent(existing: PayoutRecord, request: SubmitPayoutBody): void {
    const same =
      existing.currency === request.currency &&
      existing.amountMinor === BigInt(request.amountMinor) &&
      existing.account === request.account;
    if (!same) throw new BankRefusal(409, 'REFERENCE_REUSED', `Payout ${request.transactionRef} exists with other details.`);
  }

  private settleIfDue(record: PayoutRecord): void {
    if (record.status === 'PROCESSING' && this.options.clock.nowMs() >= record.settleAtMs) {
      this.finish(record, 'SUCCESS', transferRef(record.currency, this.options.clock.nowMs()), null);
    }
  }

  private finish(record: PayoutRecord, status: 'SUCCESS' | 'FAILED', upstreamRef: string | null, failureReason: string | null): void {
    record.status = status;
    record.upstreamRef = upstreamRef;
    record.failureReason = failureReason;
    this.options.persist?.(storedPayout(record));
    this.options.onChange({ kind: 'payout', transactionRef: record.transactionRef, status, upstreamRef, failureReason });
  }

  private view(record: PayoutRecord): PayoutBody {
    return {
      transactionRef: record.transactionRef,
      status: record.status,
      upstreamRef: record.upstreamRef,
      failureReason: record.failureReason,
    };
  }
}

const storedPayout = (record: PayoutRecord): StoredRecord => ({ ...record, amountMinor: String(record.amountMinor) });

const PAYOUT_STATUSES: ReadonlySet<string> = new Set<PayoutRecord['status']>(['PROCESSING', 'SUCCESS', 'FAILED']);

function restoredPayout(item: StoredRecord): PayoutRecord | null {
  const { currency, method, amountMinor, account, settleAtMs, createdAtMs, status, upstreamRef, failureReason } = item;
  const amount = storedMinor(amountMinor);
  if (typeof currency !== 'string' || !isCurrency(currency) || typeof method !== 'string' || typeof account !== 'string') return null;
  if (amount === null || typeof settleAtMs !== 'number' || typeof createdAtMs !== 'number') return null;
  if (typeof status !== 'string' || !PAYOUT_STATUSES.has(status)) return null;
  return {
    transactionRef: item.transactionRef,
    currency,
    method,
    amountMinor: amount,
    account,
    settleAtMs,
    createdAtMs,
    status: status as PayoutRecord['status'],
    upstreamRef: typeof upstreamRef === 'string' ? upstreamRef : null,
    failureReason: typeof failureReason === 'string' ? failureReason : null,
  };
}
