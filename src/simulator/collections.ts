// The simulated bank's pay-ins: collections created per method, paid or declined by the payer
// action, expired by the clock, and refunded where the method allows it. State lives in memory, and
// in the bank's state file when it has one (state-file.ts): every change is handed to `persist`.
import type { Clock } from '../core/clock.js';
import { isCurrency, type Currency, type Minor } from '../core/money.js';
import { buildInstructions, COLLECTION_METHODS, payCodeOf, supportsRefund } from './instructions.js';
import type { CallbackPayload, CollectionBody, CollectionStatus, CreateCollectionBody, InstructionsBody, RefundResultBody } from './protocol.js';
import { DueQueue } from './due-queue.js';
import { BankRefusal, collectionRef, evictOldest, randomDigits, refundRef } from './refs.js';
import type { SimulatorStats } from './faults.js';
import type { StatementRow } from './statements.js';
import { storedMinor, type StoredRecord } from './state-file.js';

interface CollectionRecord {
  readonly transactionRef: string;
  readonly upstreamRef: string;
  readonly currency: Currency;
  readonly method: string;
  readonly amountMinor: Minor;
  readonly expiresAtMs: number;
  readonly instructions: InstructionsBody;
  /** When the bank opened it: the time its statement line carries. */
  readonly createdAtMs: number;
  status: CollectionStatus;
  paidAmountMinor: Minor | null;
  failureReason: string | null;
  refund: RefundResultBody | null;
  refundedAtMs: number | null;
}

export interface BookOptions {
  readonly clock: Clock;
  readonly stats: SimulatorStats;
  /** How many records the bank remembers before it forgets the oldest. */
  readonly retainRecords: number;
  readonly onChange: (payload: CallbackPayload) => void;
  /** Called with a record's new state each time it changes, to keep it across restarts. */
  readonly persist?: (record: StoredRecord) => void;
}

const PAY_CODE_ATTEMPTS = 8;

export class CollectionBook {
  private readonly records = new Map<string, CollectionRecord>();
  /** The pending collections by expiry, for the sweep. */
  private readonly expiries = new DueQueue();
  private readonly payCodes = new Set<string>();

  constructor(private readonly options: BookOptions) {}

  /** Idempotent on transactionRef: the same request answers the collection created first. */
  create(request: CreateCollectionBody): CollectionBody {
    const existing = this.records.get(request.transactionRef);
    if (existing) {
      const same = existing.currency === request.currency && existing.method === request.method && existing.amountMinor === BigInt(request.amountMinor);
      if (!same) throw new BankRefusal(409, 'REFERENCE_REUSED', `Collection ${request.transactionRef} exists with other details.`);
      return this.view(existing);
    }
    const currency = request.currency;
    if (!isCurrency(currency)) throw new BankRefusal(400, 'UNSUPPORTED_CURRENCY', `No collections in ${currency}.`);
    if (!COLLECTION_METHODS[currency].includes(request.method)) {
      throw new BankRefusal(400, 'UNSUPPORTED_METHOD', `No ${request.method} collections in ${currency}.`);
    }
    const record = this.newRecord(request, currency);
    this.records.set(record.transactionRef, record);
    this.persist(record);
    this.expiries.add(record.transactionRef, record.expiresAtMs);
    this.options.stats.collectionsCreated += 1;
    evictOldest(this.records, this.options.retainRecords, () => true, (_ref, old) => this.forget(old));
    return this.view(record);
  }

  get size(): number {
    return this.records.size;
  }

  /** Every record as the state file keeps it, oldest first. */
  stored(): StoredRecord[] {
    return [...this.records.values()].map(storedCollection);
  }

  /**
   * Takes back the records of an earlier run (the state file's), as they were: pending ones expire on
   * time, their account numbers and codes stay taken. A record that does not read back is skipped.
   */
  restore(stored: readonly StoredRecord[]): void {
    for (const item of stored) {
      const record = restoredCollection(item);
      if (record === null) continue;
      this.records.set(record.transactionRef, record);
      const code = payCodeOf(record.instructions);
      if (code !== null) this.payCodes.add(code);
      if (record.status === 'PENDING') this.expiries.add(record.transactionRef, record.expiresAtMs);
    }
  }

  get(transactionRef: string): CollectionBody {
    return this.view(this.settled(transactionRef));
  }

  /** The payer pays (Success, optionally another amount) or the bank declines (Failed). */
  complete(transactionRef: string, outcome: 'Success' | 'Failed', paidAmountMinor?: Minor): CollectionBody {
    const record = this.settled(transactionRef);
    if (outcome === 'Success') this.pay(record, paidAmountMinor ?? record.amountMinor);
    else this.decline(record);
    return this.view(record);
  }

  /** A full refund, once per collection; repeating it answers the first refund. */
  refund(transactionRef: string, amountMinor: Minor): RefundResultBody {
    const record = this.settled(transactionRef);
    if (record.refund) return record.refund;
    if (!supportsRefund(record.currency, record.method)) {
      throw new BankRefusal(422, 'REFUND_NOT_SUPPORTED', `${record.currency} ${record.method} payments cannot be refunded.`);
    }
    if (record.status !== 'PAID' || record.paidAmountMinor === null) {
      throw new BankRefusal(422, 'NOT_PAID', `Collection ${transactionRef} is ${record.status}, not PAID.`);
    }
    if (amountMinor !== record.paidAmountMinor) {
      throw new BankRefusal(422, 'AMOUNT_MISMATCH', `Only the full paid amount ${record.paidAmountMinor} can be refunded.`);
    }
    record.refundedAtMs = this.options.clock.nowMs();
    record.refund = {
      refundRef: refundRef(this.options.clock.nowMs()),
      transactionRef,
      amountMinor: String(amountMinor),
      status: 'SUCCESS',
    };
    this.options.stats.refunds += 1;
    this.persist(record);
    return record.refund;
  }

  /** The statement lines of collections opened, and refunds made, within [fromMs, toMs). */
  statementLines(fromMs: number, toMs: number): StatementRow[] {
    const rows: StatementRow[] = [];
    for (const record of this.records.values()) {
      this.expireIfDue(record);
      if (record.createdAtMs >= fromMs && record.createdAtMs < toMs) {
        const amount = record.paidAmountMinor ?? record.amountMinor;
        rows.push({ reference: record.upstreamRef, ourReference: record.transactionRef, type: 'collection', currency: record.currency, amountMinor: amount, status: record.status, atMs: record.createdAtMs });
      }
      const at = record.refundedAtMs;
      if (record.refund && at !== null && at >= fromMs && at < toMs) {
        const refund = record.refund;
        rows.push({ reference: refund.refundRef, ourReference: record.transactionRef, type: 'refund', currency: record.currency, amountMinor: BigInt(refund.amountMinor), status: refund.status, atMs: at });
      }
    }
    return rows;
  }

  /** Expires every pending collection whose time has passed. */
  sweep(): void {
    for (const ref of this.expiries.takeDue(this.options.clock.nowMs())) {
      const record = this.records.get(ref);
      // A stale entry (paid since, forgotten, or the ref opened again) is passed over by expireIfDue.
      if (record) this.expireIfDue(record);
    }
  }

  private newRecord(request: CreateCollectionBody, currency: Currency): CollectionRecord {
    const upstreamRef = collectionRef(this.options.clock.nowMs());
    const input = { ...request, currency, upstreamRef, amountMinor: BigInt(request.amountMinor) };
    let instructions = buildInstructions(input, randomDigits);
    for (let attempt = 1; attempt < PAY_CODE_ATTEMPTS && this.payCodeTaken(instructions); attempt += 1) {
      instructions = buildInstructions(input, randomDigits);
    }
    if (this.payCodeTaken(instructions)) throw new Error('simulator: could not issue a unique account number or code');
    const code = payCodeOf(instructions);
    if (code !== null) this.payCodes.add(code);
    return {
      transactionRef: request.transactionRef,
      upstreamRef,
      currency,
      method: request.method,
      amountMinor: input.amountMinor,
      expiresAtMs: request.expiresAtMs,
      instructions,
      createdAtMs: this.options.clock.nowMs(),
      status: 'PENDING',
      paidAmountMinor: null,
      failureReason: null,
      refund: null,
      refundedAtMs: null,
    };
  }

  private payCodeTaken(instructions: InstructionsBody): boolean {
    const code = payCodeOf(instructions);
    return code !== null && this.payCodes.has(code);
  }

  /** Money that arrives after expiry is still taken (late payment); the service decides what to do. */
  private pay(record: CollectionRecord, paidAmountMinor: Minor): void {
    if (record.status === 'PAID') return;
    if (record.status === 'FAILED') throw new BankRefusal(409, 'ALREADY_FINAL', `Collection ${record.transactionRef} was declined.`);
    record.paidAmountMinor = paidAmountMinor;
    this.transition(record, 'PAID', null);
  }

  private decline(record: CollectionRecord): void {
    if (record.status === 'FAILED') return;
    if (record.status !== 'PENDING') {
      throw new BankRefusal(409, 'ALREADY_FINAL', `Collection ${record.transactionRef} is ${record.status}.`);
    }
    this.transition(record, 'FAILED', 'PAYER_DECLINED');
  }

  private settled(transactionRef: string): CollectionRecord {
    const record = this.records.get(transactionRef);
    if (!record) throw new BankRefusal(404, 'NOT_FOUND', `No collection ${transactionRef}.`);
    this.expireIfDue(record);
    return record;
  }

  private expireIfDue(record: CollectionRecord): void {
    if (record.status === 'PENDING' && this.options.clock.nowMs() >= record.expiresAtMs) {
      this.transition(record, 'EXPIRED', null);
    }
  }

  private transition(record: CollectionRecord, status: CollectionStatus, failureReason: string | null): void {
    record.status = status;
    record.failureReason = failureReason;
    this.persist(record);
    this.options.onChange({
      kind: 'collection',
      transactionRef: record.transactionRef,
      upstreamRef: record.upstreamRef,
      status,
      paidAmountMinor: record.paidAmountMinor === null ? null : String(record.paidAmountMinor),
      failureReason,
    });
  }

  private persist(record: CollectionRecord): void {
    this.options.persist?.(storedCollection(record));
  }

  private forget(record: CollectionRecord): void {
    const code = payCodeOf(record.instructions);
    if (code !== null) this.payCodes.delete(code);
  }

  private view(record: CollectionRecord): CollectionBody {
    return {
      transactionRef: record.transactionRef,
      upstreamRef: record.upstreamRef,
      currency: record.currency,
      method: record.method,
      amountMinor: String(record.amountMinor),
      status: record.status,
      paidAmountMinor: record.paidAmountMinor === null ? null : String(record.paidAmountMinor),
      failureReason: record.failureReason,
      instructions: record.instructions,
      refundRef: record.refund?.refundRef ?? null,
    };
  }
}

function storedCollection(record: CollectionRecord): StoredRecord {
  return {
    ...record,
    amountMinor: String(record.amountMinor),
    paidAmountMinor: record.paidAmountMinor === null ? null : String(record.paidAmountMinor),
  };
}

const COLLECTION_STATUSES: ReadonlySet<string> = new Set<CollectionStatus>(['PENDING', 'PAID', 'FAILED', 'EXPIRED']);

function restoredCollection(item: StoredRecord): CollectionRecord | null {
  const { upstreamRef, currency, method, amountMinor, expiresAtMs, instructions, createdAtMs, status, paidAmountMinor, failureReason, refund, refundedAtMs } = item;
  const amount = storedMinor(amountMinor);
  const paid = paidAmountMinor === null ? null : storedMinor(paidAmountMinor);
  if (typeof upstreamRef !== 'string' || typeof currency !== 'string' || !isCurrency(currency) || typeof method !== 'string') return null;
  if (amount === null || typeof expiresAtMs !== 'number' || typeof createdAtMs !== 'number') return null;
  if (typeof status !== 'string' || !COLLECTION_STATUSES.has(status) || typeof instructions !== 'object' || instructions === null) return null;
  if (paidAmountMinor !== null && paid === null) return null;
  return {
    transactionRef: item.transactionRef,
    upstreamRef,
    currency,
    method,
    amountMinor: amount,
    expiresAtMs,
    instructions: instructions as InstructionsBody,
    createdAtMs,
    status: status as CollectionStatus,
    paidAmountMinor: paid,
    failureReason: typeof failureReason === 'string' ? failureReason : null,
    refund: typeof refund === 'object' && refund !== null ? (refund as RefundResultBody) : null,
    refundedAtMs: typeof refundedAtMs === 'number' ? refundedAtMs : null,
  };
}
