// Random ledger workloads for the property tests: fast-check commands, a worker that turns them
// into concrete actions and runs them, and per merchant/currency sums of what succeeded, which do
// not depend on the order concurrent workers happened to commit in.
import fc from 'fast-check';
import { AppError } from '../../src/core/errors.js';
import type { ManualClock } from '../../src/core/clock.js';
import type { Currency, Minor } from '../../src/core/money.js';
import type { AdjustableKind } from '../../src/ledger/operator.js';
import type { LedgerService } from '../../src/ledger/service.js';
import type { Database, Db } from '../../src/store/schema.js';
import type { Transaction } from 'kysely';
import { withTransaction } from '../../src/store/transactions.js';

export const CHANNEL = 'sim';

export type Command =
  | { readonly t: 'pay'; readonly m: number; readonly c: number; readonly paid: bigint; readonly feeBps: bigint }
  | { readonly t: 'refund' | 'reverse'; readonly pick: number }
  | { readonly t: 'reserve'; readonly m: number; readonly c: number; readonly amount: bigint; readonly fee: bigint }
  | { readonly t: 'release' | 'complete' | 'race'; readonly pick: number }
  | { readonly t: 'settle' }
  | { readonly t: 'advance'; readonly ms: number }
  | { readonly t: 'grant' | 'lower' | 'deposit' | 'withdraw'; readonly m: number; readonly c: number; readonly amount: bigint }
  | { readonly t: 'adjust'; readonly m: number; readonly c: number; readonly account: AdjustableKind; readonly amount: bigint }
  | { readonly t: 'replay'; readonly pick: number };

/** A command resolved against the worker's history: every reference and amount is concrete. */
export type Action =
  | { readonly kind: 'pay'; readonly m: string; readonly c: Currency; readonly ref: string; readonly paid: Minor; readonly fee: Minor }
  | { readonly kind: 'refund' | 'reverse'; readonly m: string; readonly c: Currency; readonly ref: string; readonly paymentRef: string; readonly paid: Minor }
  | { readonly kind: 'reserve'; readonly m: string; readonly c: Currency; readonly ref: string; readonly amount: Minor; readonly fee: Minor }
  | { readonly kind: 'release' | 'complete' | 'race'; readonly ref: string }
  | { readonly kind: 'settle' }
  | { readonly kind: 'advance'; readonly ms: number }
  | { readonly kind: 'grant' | 'lower' | 'deposit' | 'withdraw'; readonly m: string; readonly c: Currency; readonly ref: string; readonly amount: Minor }
  | { readonly kind: 'adjust'; readonly m: string; readonly c: Currency; readonly ref: string; readonly account: AdjustableKind; readonly amount: Minor };

/** What happened: done, found already done, or refused with a reason. */
export type Status = 'ok' | 'replayed' | 'INSUFFICIENT_BALANCE' | 'CONFLICT';

export interface Outcome {
  readonly action: Action;
  readonly status: Status;
  /** For race: the two statuses, release first. */
  readonly race?: readonly [Status, Status];
}

const small = (max: number) => fc.bigInt({ min: 1n, max: BigInt(max) });

export function commandArb(merchants: number, currencies: number): fc.Arbitrary<Command> {
  const m = fc.nat({ max: merchants - 1 });
  const c = fc.nat({ max: currencies - 1 });
  const pick = fc.nat({ max: 1000 });
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({ t: fc.constant('pay' as const), m, c, paid: small(500_00), feeBps: fc.bigInt({ min: 0n, max: 500n }) }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('refund' as const), pick }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('reverse' as const), pick }) },
    { weight: 5, arbitrary: fc.record({ t: fc.constant('reserve' as const), m, c, amount: small(300_00), fee: fc.bigInt({ min: 0n, max: 5_00n }) }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('release' as const), pick }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('complete' as const), pick }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('race' as const), pick }) },
    { weight: 2, arbitrary: fc.constant({ t: 'settle' as const }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 1500 }) }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constantFrom('grant' as const, 'lower' as const), m, c, amount: small(400_00) }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constantFrom('deposit' as const, 'withdraw' as const), m, c, amount: small(100_00) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        t: fc.constant('adjust' as const),
        m,
        c,
        account: fc.constantFrom<AdjustableKind>('available', 'pending', 'security'),
        amount: fc.bigInt({ min: -200_00n, max: 400_00n }).filter((a) => a !== 0n),
      }),
    },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('replay' as const), pick }) },
  );
}

const reasonOf = (error: unknown): Status => {
  if (error instanceof AppError && (error.reason === 'INSUFFICIENT_BALANCE' || error.reason === 'CONFLICT')) return error.reason;
  throw error;
};

export interface WorkerEnv {
  readonly db: Db;
  readonly ledger: LedgerService;
  readonly clock: ManualClock;
  readonly merchants: readonly string[];
  readonly currencies: readonly Currency[];
}

/** Runs one worker's commands in order; each action in its own transaction, as the flows will. */
export class Worker {
  private readonly payments: Action[] = [];
  private readonly refunds: Action[] = [];
  private readonly reservations: string[] = [];
  private readonly succeeded: Action[] = [];
  private seq = 0;

  constructor(
    private readonly env: WorkerEnv,
    private readonly id: string,
  ) {}

  private ref(prefix: string): string {
    this.seq += 1;
    return `${prefix}-${this.id}-${this.seq}`;
  }

  resolve(cmd: Command): Action | null {
    const { merchants, currencies } = this.env;
    const at = <T>(list: readonly T[], pick: number): T | null => (list.length === 0 ? null : list[pick % list.length]!);
    switch (cmd.t) {
      case 'pay':
        return { kind: 'pay', m: merchants[cmd.m]!, c: currencies[cmd.c]!, ref: this.ref('pay'), paid: cmd.paid, fee: (cmd.paid * cmd.feeBps) / 10_000n };
      case 'refund': {
        const payment = at(this.payments, cmd.pick);
        if (!payment || payment.kind !== 'pay') return null;
        return { kind: 'refund', m: payment.m, c: payment.c, ref: `refund-${payment.ref}`, paymentRef: payment.ref, paid: payment.paid };
      }
      case 'reverse': {
        const refund = at(this.refunds, cmd.pick);
        return refund && refund.kind === 'refund' ? { ...refund, kind: 'reverse' } : null;
      }
      case 'reserve':
        return { kind: 'reserve', m: merchants[cmd.m]!, c: currencies[cmd.c]!, ref: this.ref('po'), amount: cmd.amount, fee: cmd.fee };
      case 'release':
      case 'complete':
      case 'race': {
        const ref = at(this.reservations, cmd.pick);
        return ref === null ? null : { kind: cmd.t, ref };
      }
      case 'settle':
        return { kind: 'settle' };
      case 'advance':
        return { kind: 'advance', ms: cmd.ms };
      case 'grant':
      case 'lower':
      case 'deposit':
      case 'withdraw':
        return { kind: cmd.t, m: merchants[cmd.m]!, c: currencies[cmd.c]!, ref: this.ref(cmd.t), amount: cmd.amount };
      case 'adjust':
        return { kind: 'adjust', m: merchants[cmd.m]!, c: currencies[cmd.c]!, ref: this.ref('adj'), account: cmd.account, amount: cmd.amount };
      case 'replay':
        return at(this.succeeded, cmd.pick);
    }
  }

  async execute(action: Action): Promise<Outcome> {
    const outcome = await this.run(action);
    if (outcome.status === 'ok') {
      if (action.kind === 'pay') this.payments.push(action);
      if (action.kind === 'refund') this.refunds.push(action);
      if (action.kind === 'reserve') this.reservations.push(action.ref);
      if (action.kind !== 'settle' && action.kind !== 'advance' && action.kind !== 'race') this.succeeded.push(action);
    }
    return outcome;
  }

  private async tx(work: (trx: Transaction<Database>) => Promise<{ replayed: boolean }>): Promise<Status> {
    try {
      // As the flows do: a deadlock or serialization victim is retried, not reported as an outcome.
      const result = await withTransaction(this.env.db, work);
      return result.replayed ? 'replayed' : 'ok';
    } catch (error) {
      return reasonOf(error);
    }
  }

  private async operator(work: () => Promise<{ replayed: boolean }>): Promise<Status> {
    try {
      return (await work()).replayed ? 'replayed' : 'ok';
    } catch (error) {
      return reasonOf(error);
    }
  }

  private async run(action: Action): Promise<Outcome> {
    const { ledger, clock } = this.env;
    const done = (status: Status): Outcome => ({ action, status });
    switch (action.kind) {
      case 'pay':
        return done(await this.tx((trx) => ledger.creditPayment(trx, { merchantId: action.m, currency: action.c, paidMinor: action.paid, feeMinor: action.fee, channel: CHANNEL, ref: action.ref })));
      case 'refund':
        return done(await this.tx((trx) => ledger.debitRefund(trx, { merchantId: action.m, currency: action.c, paidMinor: action.paid, channel: CHANNEL, ref: action.ref, paymentRef: action.paymentRef })));
      case 'reverse':
        return done(await this.tx((trx) => ledger.reverseRefund(trx, { merchantId: action.m, currency: action.c, channel: CHANNEL, ref: action.ref, paymentRef: action.paymentRef })));
      case 'reserve':
        return done(await this.tx((trx) => ledger.reserveForPayout(trx, { merchantId: action.m, currency: action.c, amountMinor: action.amount, feeMinor: action.fee, ref: action.ref })));
      case 'release':
        return done(await this.tx((trx) => ledger.releaseReservation(trx, action.ref)));
      case 'complete':
        return done(await this.tx((trx) => ledger.completeReservation(trx, action.ref)));
      case 'race': {
        const [released, completed] = await Promise.all([
          this.tx((trx) => ledger.releaseReservation(trx, action.ref)),
          this.tx((trx) => ledger.completeReservation(trx, action.ref)),
        ]);
        return { action, status: 'ok', race: [released, completed] };
      }
      case 'settle':
        await ledger.settlePending();
        return done('ok');
      case 'advance':
        clock.advance(action.ms);
        return done('ok');
      default:
        return done(await this.operator(() => this.operatorMove(action)));
    }
  }

  private operatorMove(action: Extract<Action, { kind: 'grant' | 'lower' | 'deposit' | 'withdraw' | 'adjust' }>) {
    const { ledger } = this.env;
    const move = { merchantId: action.m, currency: action.c, amountMinor: action.amount, reason: 'property test', actor: 'test', ref: action.ref };
    switch (action.kind) {
      case 'grant':
        return ledger.grantCredit(move);
      case 'lower':
        return ledger.lowerCredit(move);
      case 'deposit':
        return ledger.moveToSecurity(move);
      case 'withdraw':
        return ledger.releaseSecurity(move);
      case 'adjust':
        return ledger.adjust({ ...move, account: action.account });
    }
  }
}

/** Per merchant/currency sums of successful effects; none depends on commit order. */
export interface Expected {
  held: Minor;
  line: Minor;
  security: Minor;
  /** available + pending + held + security + credit - line: the merchant's own money. */
  worth: Minor;
}

export interface PlatformExpected {
  clearing: Minor;
  fee: Minor;
  settlement: Minor;
  adjustments: Minor;
}

export function expectedTotals(outcomes: readonly Outcome[]): { pairs: Map<string, Expected>; platform: Map<Currency, PlatformExpected> } {
  const pairs = new Map<string, Expected>();
  const platform = new Map<Currency, PlatformExpected>();
  const reservations = new Map<string, Extract<Action, { kind: 'reserve' }>>();
  const pair = (m: string, c: Currency) => {
    const key = `${m}/${c}`;
    if (!pairs.has(key)) pairs.set(key, { held: 0n, line: 0n, security: 0n, worth: 0n });
    return pairs.get(key)!;
  };
  const plat = (c: Currency) => {
    if (!platform.has(c)) platform.set(c, { clearing: 0n, fee: 0n, settlement: 0n, adjustments: 0n });
    return platform.get(c)!;
  };
  const close = (ref: string, how: 'release' | 'complete') => {
    const r = reservations.get(ref)!;
    const p = pair(r.m, r.c);
    p.held -= r.amount + r.fee;
    if (how === 'complete') {
      p.worth -= r.amount + r.fee;
      plat(r.c).settlement += r.amount;
      plat(r.c).fee += r.fee;
    }
  };
  for (const o of outcomes) if (o.action.kind === 'reserve' && o.status === 'ok') reservations.set(o.action.ref, o.action);
  for (const { action: a, status, race } of outcomes) {
    if (a.kind === 'race') {
      if (race![0] === 'ok') close(a.ref, 'release');
      if (race![1] === 'ok') close(a.ref, 'complete');
      continue;
    }
    if (status !== 'ok') continue;
    switch (a.kind) {
      case 'pay':
        pair(a.m, a.c).worth += a.paid - a.fee;
        plat(a.c).clearing -= a.paid;
        plat(a.c).fee += a.fee;
        break;
      case 'refund':
        pair(a.m, a.c).worth -= a.paid;
        plat(a.c).clearing += a.paid;
        break;
      case 'reverse':
        pair(a.m, a.c).worth += a.paid;
        plat(a.c).clearing -= a.paid;
        break;
      case 'reserve':
        pair(a.m, a.c).held += a.amount + a.fee;
        break;
      case 'release':
      case 'complete':
        close(a.ref, a.kind);
        break;
      case 'grant':
        pair(a.m, a.c).line += a.amount;
        break;
      case 'lower':
        pair(a.m, a.c).line -= a.amount;
        break;
      case 'deposit':
        pair(a.m, a.c).security += a.amount;
        break;
      case 'withdraw':
        pair(a.m, a.c).security -= a.amount;
        break;
      case 'adjust':
        pair(a.m, a.c).worth += a.amount;
        if (a.account === 'security') pair(a.m, a.c).security += a.amount;
        plat(a.c).adjustments -= a.amount;
        break;
    }
  }
  return { pairs, platform };
}
