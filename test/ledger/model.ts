// A second, deliberately naive implementation of the ledger's rules (contract section 9), in
// memory. The sequential property test runs the same actions through both and compares.
import type { Currency, Minor } from '../../src/core/money.js';
import type { Action, Status } from './workload.js';

interface Lot {
  readonly seq: number;
  readonly ref: string;
  remaining: Minor;
  readonly dueAtMs: number;
}

export interface ModelBalances {
  available: Minor;
  pending: Minor;
  held: Minor;
  credit: Minor;
  security: Minor;
}

interface Pair extends ModelBalances {
  line: Minor;
  lots: Lot[];
}

interface Reservation {
  readonly m: string;
  readonly c: Currency;
  readonly total: Minor;
  readonly fromCredit: Minor;
  status: 'held' | 'released' | 'completed';
}

const min = (a: Minor, b: Minor) => (a < b ? a : b);

export class LedgerModel {
  private readonly pairs = new Map<string, Pair>();
  private readonly reservations = new Map<string, Reservation>();
  private readonly posted = new Set<string>();
  private readonly refundSplits = new Map<string, { fromPending: Minor; fromAvailable: Minor }>();
  private lotSeq = 0;

  constructor(
    private nowMs: number,
    private readonly delayMs: (c: Currency) => number,
  ) {}

  balances(m: string, c: Currency): ModelBalances {
    const { available, pending, held, credit, security } = this.pair(m, c);
    return { available, pending, held, credit, security };
  }

  private pair(m: string, c: Currency): Pair {
    const key = `${m}/${c}`;
    if (!this.pairs.has(key)) this.pairs.set(key, { available: 0n, pending: 0n, held: 0n, credit: 0n, security: 0n, line: 0n, lots: [] });
    return this.pairs.get(key)!;
  }

  private addLot(p: Pair, ref: string, amount: Minor, dueAtMs: number): void {
    if (amount > 0n) p.lots.push({ seq: this.lotSeq++, ref, remaining: amount, dueAtMs });
  }

  private consume(p: Pair, amount: Minor, preferRef: string | null): void {
    const order = [...p.lots.filter((l) => l.ref === preferRef), ...p.lots.filter((l) => l.ref !== preferRef).reverse()];
    let left = amount;
    for (const lot of order) {
      const take = min(left, lot.remaining);
      lot.remaining -= take;
      left -= take;
    }
    if (left !== 0n) throw new Error('model: lots short');
    p.lots = p.lots.filter((l) => l.remaining > 0n);
  }

  /** Applies an action; returns the status the real ledger must report. */
  apply(a: Action): Status {
    switch (a.kind) {
      case 'advance':
        this.nowMs += a.ms;
        return 'ok';
      case 'settle':
        this.settle();
        return 'ok';
      case 'release':
      case 'complete':
        return this.close(a.ref, a.kind === 'release' ? 'released' : 'completed');
      case 'race':
        throw new Error('model: races have no single order');
      default: {
        const key = `${a.kind}:${a.ref}`;
        if (this.posted.has(key)) return 'replayed';
        const status = this.post(a);
        if (status === 'ok') this.posted.add(key);
        return status;
      }
    }
  }

  private post(a: Exclude<Action, { kind: 'advance' | 'settle' | 'release' | 'complete' | 'race' }>): Status {
    const p = this.pair(a.m, a.c);
    switch (a.kind) {
      case 'pay':
        p.pending += a.paid - a.fee;
        this.addLot(p, a.ref, a.paid - a.fee, this.nowMs + this.delayMs(a.c));
        return 'ok';
      case 'refund': {
        const fromPending = min(a.paid, p.pending);
        if (a.paid - fromPending > p.available) return 'INSUFFICIENT_BALANCE';
        p.pending -= fromPending;
        p.available -= a.paid - fromPending;
        this.consume(p, fromPending, a.paymentRef);
        this.refundSplits.set(a.ref, { fromPending, fromAvailable: a.paid - fromPending });
        return 'ok';
      }
      case 'reverse': {
        const split = this.refundSplits.get(a.ref)!;
        p.pending += split.fromPending;
        p.available += split.fromAvailable;
        this.addLot(p, a.paymentRef, split.fromPending, this.nowMs + this.delayMs(a.c));
        return 'ok';
      }
      case 'reserve': {
        const total = a.amount + a.fee;
        const fromAvailable = min(p.available, total);
        if (total - fromAvailable > p.credit) return 'INSUFFICIENT_BALANCE';
        p.available -= fromAvailable;
        p.credit -= total - fromAvailable;
        p.held += total;
        this.reservations.set(a.ref, { m: a.m, c: a.c, total, fromCredit: total - fromAvailable, status: 'held' });
        return 'ok';
      }
      case 'grant':
        p.line += a.amount;
        p.credit += a.amount;
        return 'ok';
      case 'lower':
        if (p.credit < a.amount) return 'INSUFFICIENT_BALANCE';
        p.line -= a.amount;
        p.credit -= a.amount;
        return 'ok';
      case 'deposit':
        if (p.available < a.amount) return 'INSUFFICIENT_BALANCE';
        p.available -= a.amount;
        p.security += a.amount;
        return 'ok';
      case 'withdraw':
        if (p.security < a.amount) return 'INSUFFICIENT_BALANCE';
        p.security -= a.amount;
        p.available += a.amount;
        return 'ok';
      case 'adjust':
        if (p[a.account] + a.amount < 0n) return 'INSUFFICIENT_BALANCE';
        p[a.account] += a.amount;
        if (a.account === 'pending' && a.amount > 0n) this.addLot(p, `adjustment:${a.ref}`, a.amount, this.nowMs);
        if (a.account === 'pending' && a.amount < 0n) this.consume(p, -a.amount, null);
        return 'ok';
    }
  }

  private close(ref: string, to: 'released' | 'completed'): Status {
    const r = this.reservations.get(ref)!;
    if (r.status !== 'held') return r.status === to ? 'replayed' : 'CONFLICT';
    r.status = to;
    const p = this.pair(r.m, r.c);
    p.held -= r.total;
    if (to === 'released') {
      const room = p.line - p.credit;
      const toCredit = min(r.fromCredit, room > 0n ? room : 0n);
      p.credit += toCredit;
      p.available += r.total - toCredit;
    }
    return 'ok';
  }

  private settle(): void {
    for (const p of this.pairs.values()) {
      const due = p.lots.filter((l) => l.dueAtMs <= this.nowMs);
      if (due.length === 0) continue;
      const total = due.reduce((s, l) => s + l.remaining, 0n);
      const used = p.line - p.credit;
      const repay = min(total, used > 0n ? used : 0n);
      p.pending -= total;
      p.credit += repay;
      p.available += total - repay;
      p.lots = p.lots.filter((l) => l.dueAtMs > this.nowMs);
    }
  }
}
