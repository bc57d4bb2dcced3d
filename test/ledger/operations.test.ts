// Every ledger operation, on the store the run selects (SQLite, or PostgreSQL with TEST_STORE=postgres).
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { merchantAccount } from '../../src/ledger/accounts.js';
import { postJournal } from '../../src/ledger/journal.js';
import type { PgReservedRecord } from '../../src/ledger/pg-posting.js';
import type { Executor } from '../../src/store/schema.js';
import { usingPostgres } from '../helpers/store.js';
import { accountBalance, currencyTotal, fund, insertMerchant, openLedger, type LedgerFixture } from './helpers.js';

const INR = 'INR' as const;
const PLATFORM = ['p:INR:fee_revenue', 'p:INR:upstream_clearing:sim', 'p:INR:settlement', 'p:INR:adjustments'];

// One store for the file (migrating one per test costs more than the tests); each test has merchants
// of its own and reads platform accounts as changes since it started.
let f: LedgerFixture;
let M = '';
let OTHER = '';
let testNo = 0;
let platformAtStart = new Map<string, bigint>();
const platformDelta = async (id: string) => (await accountBalance(f.db, id)) - platformAtStart.get(id)!;
/** Business references are unique per test, as they are per payment in real life. */
const r = (ref: string) => `${M}:${ref}`;
const ownGroups = <T extends { merchantId: string }>(run: { groups: readonly T[] }) => run.groups.filter((g) => g.merchantId === M);
const tx = <T>(work: (trx: Executor) => Promise<T>): Promise<T> => f.db.transaction().execute(work);

const expectReason = async (promise: Promise<unknown>, reason: string) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).reason).toBe(reason);
};

async function expectClean(): Promise<void> {
  expect(await f.ledger.verify()).toEqual([]);
  expect(await currencyTotal(f.db, INR)).toBe(0n);
}

const credit = (ref: string, paidMinor: bigint, feeMinor = 0n) =>
  tx((trx) => f.ledger.creditPayment(trx, { merchantId: M, currency: INR, paidMinor, feeMinor, channel: 'sim', ref }));

const reserve = (ref: string, amountMinor: bigint, feeMinor = 0n) =>
  tx((trx) => f.ledger.reserveForPayout(trx, { merchantId: M, currency: INR, amountMinor, feeMinor, ref }));

beforeAll(async () => {
  f = await openLedger([], { settlementDelayMs: { INR: 60_000 } });
});
afterAll(async () => f.close());
beforeEach(async () => {
  testNo += 1;
  M = `mch_t${testNo}`;
  OTHER = `mch_o${testNo}`;
  await insertMerchant(f.db, M);
  await insertMerchant(f.db, OTHER);
  platformAtStart = new Map(await Promise.all(PLATFORM.map(async (id) => [id, await accountBalance(f.db, id)] as const)));
});

describe('a successful payment', () => {
  it('credits pending net of its fee, the fee to revenue, and debits the channel clearing', async () => {
    const result = await credit(r('pay-1'), 100_00n, 2_00n);
    expect(result).toMatchObject({ netMinor: 98_00n, replayed: false });
    expect(await f.ledger.balances(M, INR)).toEqual({ available: 0n, pending: 98_00n, held: 0n, credit: 0n, security: 0n });
    expect(await platformDelta('p:INR:fee_revenue')).toBe(2_00n);
    expect(await platformDelta('p:INR:upstream_clearing:sim')).toBe(-100_00n);
    await expectClean();
  });

  it('posts once for the same payment reference', async () => {
    await credit(r('pay-1'), 100_00n, 2_00n);
    const again = await credit(r('pay-1'), 100_00n, 2_00n);
    expect(again.replayed).toBe(true);
    expect((await f.ledger.balances(M, INR)).pending).toBe(98_00n);
    await expectClean();
  });

  it('commits or vanishes with the transaction that carries it', async () => {
    await expect(
      tx(async (trx) => {
        await f.ledger.creditPayment(trx, { merchantId: M, currency: INR, paidMinor: 50_00n, feeMinor: 0n, channel: 'sim', ref: r('pay-x') });
        throw new Error('the business change failed');
      }),
    ).rejects.toThrow('the business change failed');
    expect((await f.ledger.balances(M, INR)).pending).toBe(0n);
    expect(await f.ledger.journal(M)).toEqual([]);
    await expectClean();
  });
});

describe('settlement', () => {
  it('moves pending to available only after the currency delay', async () => {
    await credit(r('pay-1'), 100_00n);
    expect(ownGroups(await f.ledger.settlePending())).toEqual([]);
    f.clock.advance(60_000);
    const run = await f.ledger.settlePending();
    expect(ownGroups(run)).toEqual([{ merchantId: M, currency: INR, settledMinor: 100_00n, repaidCreditMinor: 0n, lotCount: 1 }]);
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 100_00n, pending: 0n });
    expect(ownGroups(await f.ledger.settlePending())).toEqual([]);
    await expectClean();
  });

  it('repays used credit before anything reaches available', async () => {
    await f.ledger.grantCredit({ merchantId: M, currency: INR, amountMinor: 500_00n, reason: 'line', actor: 't' });
    await reserve(r('po-1'), 300_00n);
    await tx((trx) => f.ledger.completeReservation(trx, r('po-1')));
    expect(await f.ledger.balances(M, INR)).toMatchObject({ credit: 200_00n, available: 0n });
    await credit(r('pay-1'), 400_00n);
    f.clock.advance(60_000);
    const run = await f.ledger.settlePending();
    expect(ownGroups(run)[0]).toMatchObject({ settledMinor: 400_00n, repaidCreditMinor: 300_00n });
    expect(await f.ledger.balances(M, INR)).toMatchObject({ credit: 500_00n, available: 100_00n, pending: 0n });
    await expectClean();
  });
});

describe('payout reservation', () => {
  it('takes amount + fee from available first, then from credit, into held', async () => {
    await fund(f.ledger, M, INR, 100_00n);
    await f.ledger.grantCredit({ merchantId: M, currency: INR, amountMinor: 1_000_00n, reason: 'line', actor: 't' });
    const reserved = await reserve(r('po-1'), 145_00n, 5_00n);
    expect(reserved).toMatchObject({ fromAvailableMinor: 100_00n, fromCreditMinor: 50_00n, status: 'held', replayed: false });
    expect(await f.ledger.balances(M, INR)).toEqual({ available: 0n, pending: 0n, held: 150_00n, credit: 950_00n, security: 0n });
    await expectClean();
  });

  it('refuses with INSUFFICIENT_BALANCE when available + credit is short, and changes nothing', async () => {
    await fund(f.ledger, M, INR, 100_00n);
    await expectReason(reserve(r('po-1'), 100_00n, 1n), 'INSUFFICIENT_BALANCE');
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 100_00n, held: 0n });
    await expectClean();
  });

  it('answers a retried reserve with the original split, even once the balance is gone', async () => {
    await fund(f.ledger, M, INR, 100_00n);
    await reserve(r('po-1'), 100_00n);
    const again = await reserve(r('po-1'), 100_00n);
    expect(again).toMatchObject({ fromAvailableMinor: 100_00n, fromCreditMinor: 0n, replayed: true });
    await expectReason(reserve(r('po-1'), 99_00n), 'CONFLICT');
    expect((await f.ledger.balances(M, INR)).held).toBe(100_00n);
    await expectClean();
  });

  it('a payout decided from a balance a concurrent payout just spent draws on credit instead of failing', async () => {
    await fund(f.ledger, M, INR, 100_00n);
    await f.ledger.grantCredit({ merchantId: M, currency: INR, amountMinor: 100_00n, reason: 'line', actor: 't' });
    const first = await f.db.startTransaction().execute();
    await f.ledger.reserveForPayout(first, { merchantId: M, currency: INR, amountMinor: 80_00n, feeMinor: 0n, ref: r('po-1') });
    // The second reads available = 100 (the first is not committed) and then waits for its row lock.
    const second = reserve(r('po-2'), 50_00n);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.commit().execute();
    expect(await second).toMatchObject({ fromAvailableMinor: 20_00n, fromCreditMinor: 30_00n, replayed: false });
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 0n, credit: 70_00n, held: 130_00n });
    await expectClean();
  });

  it('release returns the money where it came from', async () => {
    await fund(f.ledger, M, INR, 100_00n);
    await f.ledger.grantCredit({ merchantId: M, currency: INR, amountMinor: 1_000_00n, reason: 'line', actor: 't' });
    await reserve(r('po-1'), 300_00n);
    await tx((trx) => f.ledger.releaseReservation(trx, r('po-1')));
    expect(await f.ledger.balances(M, INR)).toEqual({ available: 100_00n, pending: 0n, held: 0n, credit: 1_000_00n, security: 0n });
    expect((await tx((trx) => f.ledger.releaseReservation(trx, r('po-1')))).replayed).toBe(true);
    await expectReason(tx((trx) => f.ledger.completeReservation(trx, r('po-1'))), 'CONFLICT');
    await expectClean();
  });

  it('release sends credit already repaid by a settlement to available, never above the line', async () => {
    await f.ledger.grantCredit({ merchantId: M, currency: INR, amountMinor: 200_00n, reason: 'line', actor: 't' });
    await reserve(r('po-1'), 200_00n);
    await credit(r('pay-1'), 150_00n);
    f.clock.advance(60_000);
    await f.ledger.settlePending();
    expect(await f.ledger.balances(M, INR)).toMatchObject({ credit: 150_00n, available: 0n, held: 200_00n });
    await tx((trx) => f.ledger.releaseReservation(trx, r('po-1')));
    expect(await f.ledger.balances(M, INR)).toMatchObject({ credit: 200_00n, available: 150_00n, held: 0n });
    await expectClean();
  });

  it('complete sends the amount to settlement and the fee to revenue, once', async () => {
    await fund(f.ledger, M, INR, 200_00n);
    await reserve(r('po-1'), 100_00n, 3_00n);
    await tx((trx) => f.ledger.completeReservation(trx, r('po-1')));
    expect((await tx((trx) => f.ledger.completeReservation(trx, r('po-1')))).replayed).toBe(true);
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 97_00n, held: 0n });
    expect(await platformDelta('p:INR:settlement')).toBe(100_00n);
    expect(await platformDelta('p:INR:fee_revenue')).toBe(3_00n);
    await expectReason(tx((trx) => f.ledger.releaseReservation(trx, r('po-1'))), 'CONFLICT');
    await expectReason(tx((trx) => f.ledger.completeReservation(trx, r('po-unknown'))), 'NOT_FOUND');
    await expectClean();
  });
});

/** A stand-in for the payouts table: the statement writes the row, unless one conflicts on (merchant, label). */
const standIn = (table: string): PgReservedRecord => ({
  table,
  conflictColumns: ['merchant_id', 'label'],
  columns: [
    ['ref', 'text'],
    ['merchant_id', 'text'],
    ['label', 'text'],
    ['n', 'bigint'],
  ],
});

describe('payout reservation with the row it is for, in one statement', () => {
  const THING = standIn('reserved_things');
  const things = async () =>
    (await sql<{ ref: string; label: string }>`SELECT ref, label FROM reserved_things WHERE merchant_id = ${M} ORDER BY ref`.execute(f.db)).rows;
  const reservationRows = async () => (await f.db.selectFrom('ledger_reservations').select('ref').where('merchant_id', '=', M).execute()).length;
  const withThing = (ref: string, label: string, amountMinor: bigint, feeMinor = 0n) =>
    tx((trx) =>
      f.ledger.reserveWithRecord(trx, { merchantId: M, currency: INR, amountMinor, feeMinor, ref }, { shape: THING, values: [ref, M, label, 7n] }),
    );

  beforeAll(async () => {
    await sql`CREATE TABLE reserved_things (ref TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, label TEXT NOT NULL, n BIGINT NOT NULL, UNIQUE (merchant_id, label))`.execute(f.db);
  });

  it('writes the row, the reservation and its entry together', async () => {
    await fund(f.ledger, M, INR, 100_00n);
    await f.ledger.grantCredit({ merchantId: M, currency: INR, amountMinor: 50_00n, reason: 'line', actor: 't' });
    if (usingPostgres()) {
      // Before the merchant's first reservation its held account does not exist: the one statement
      // writes nothing, and the caller goes step by step.
      expect(await withThing(r('po-0'), 'first', 1_00n)).toEqual({ outcome: 'step_by_step' });
      expect({ things: await things(), reservations: await reservationRows() }).toEqual({ things: [], reservations: 0 });
    }
    await reserve(r('po-1'), 10_00n);

    const done = await withThing(r('po-2'), 'second', 95_00n, 2_00n);
    expect(done).toMatchObject({ outcome: 'reserved', reservation: { ref: r('po-2'), fromAvailableMinor: 90_00n, fromCreditMinor: 7_00n, replayed: false } });
    expect(await things()).toEqual([{ ref: r('po-2'), label: 'second' }]);
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 0n, credit: 43_00n, held: 107_00n });
    await expectClean();
  });

  it.runIf(!usingPostgres())("on SQLite writes the merchant's first reservation with its row too, opening held", async () => {
    await fund(f.ledger, M, INR, 100_00n);
    const first = await withThing(r('po-0'), 'first', 10_00n, 1_00n);
    expect(first).toMatchObject({ outcome: 'reserved', reservation: { ref: r('po-0'), fromAvailableMinor: 11_00n, fromCreditMinor: 0n, replayed: false } });
    expect(await things()).toEqual([{ ref: r('po-0'), label: 'first' }]);
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 89_00n, held: 11_00n });
    await expectClean();
  });

  it('writes nothing when a row conflicts, or when available + credit fall short', async () => {
    await fund(f.ledger, M, INR, 100_00n);
    await reserve(r('po-1'), 10_00n);
    expect((await withThing(r('po-2'), 'taken', 20_00n)).outcome).toBe('reserved');

    expect(await withThing(r('po-3'), 'taken', 20_00n)).toEqual({ outcome: 'record_exists' });
    const short = await withThing(r('po-4'), 'new', 70_00n, 1n);
    expect(short.outcome).toBe('short');
    expect(short.outcome === 'short' && short.refusal.reason).toBe('INSUFFICIENT_BALANCE');
    // Short and conflicting at once: short, and the caller looks for the existing row itself.
    expect((await withThing(r('po-5'), 'taken', 70_00n, 1n)).outcome).toBe('short');

    expect(await things()).toEqual([{ ref: r('po-2'), label: 'taken' }]);
    expect(await reservationRows()).toBe(2);
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 70_00n, held: 30_00n });
    await expectClean();
  });

  it.runIf(usingPostgres())('decides on the balance as a concurrent reservation committed it, not as the statement began', async () => {
    await fund(f.ledger, M, INR, 100_00n);
    await reserve(r('po-1'), 10_00n);
    const first = await f.db.startTransaction().execute();
    await f.ledger.reserveForPayout(first, { merchantId: M, currency: INR, amountMinor: 60_00n, feeMinor: 0n, ref: r('po-2') });
    // Waits for the first's lock on the balance rows; by then only 30 are left.
    const second = withThing(r('po-3'), 'late', 40_00n);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.commit().execute();
    expect((await second).outcome).toBe('short');
    expect(await things()).toEqual([]);
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 30_00n, held: 70_00n });
    await expectClean();
  });
});

describe.runIf(usingPostgres())('many payout reservations with their rows, in one statement (PostgreSQL)', () => {
  const MANY = standIn('many_things');
  const item = (merchantId: string, ref: string, label: string, amountMinor: bigint, feeMinor = 0n) => ({
    input: { merchantId, currency: INR, amountMinor, feeMinor, ref },
    record: { shape: MANY, values: [ref, merchantId, label, 7n] },
  });
  const labels = async (merchantId: string) =>
    (await sql<{ label: string }>`SELECT label FROM many_things WHERE merchant_id = ${merchantId} ORDER BY label`.execute(f.db)).rows.map((row) => row.label);
  const heldRefs = async (merchantId: string) =>
    (await f.db.selectFrom('ledger_reservations').select('ref').where('merchant_id', '=', merchantId).orderBy('ref').execute()).map((row) => row.ref);
  const entryOf = async (ref: string) =>
    f.db.selectFrom('ledger_entries').select(['kind', 'posting_count']).where('ref', '=', ref).where('kind', '=', 'payout_reserve').executeTakeFirst();

  beforeAll(async () => {
    await sql`CREATE TABLE many_things (ref TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, label TEXT NOT NULL, n BIGINT NOT NULL, UNIQUE (merchant_id, label))`.execute(f.db);
  });

  it('splits each over available, then credit, in arrival order per merchant, as one at a time would', async () => {
    await fund(f.ledger, M, INR, 100_00n);
    await f.ledger.grantCredit({ merchantId: M, currency: INR, amountMinor: 50_00n, reason: 'line', actor: 't' });
    await fund(f.ledger, OTHER, INR, 30_00n);
    await reserve(r('opening'), 1_00n); // opens M's held account
    await tx((trx) => f.ledger.reserveForPayout(trx, { merchantId: OTHER, currency: INR, amountMinor: 1_00n, feeMinor: 0n, ref: `${OTHER}:opening` }));

    const answers = await tx((trx) =>
      f.ledger.reserveManyWithRecord(trx, [
        item(M, r('a'), 'a', 60_00n, 1_00n), // 61 of M's 99 available
        item(OTHER, `${OTHER}:x`, 'x', 20_00n), // another merchant's balance, in the same statement
        item(M, r('b'), 'b', 40_00n), // the last 38 of available and 2 of credit
        item(M, r('c'), 'c', 10_00n, 50n), // 10.50 of credit
      ]),
    );
    expect(answers).toMatchObject([
      { outcome: 'reserved', reservation: { ref: r('a'), fromAvailableMinor: 61_00n, fromCreditMinor: 0n, replayed: false } },
      { outcome: 'reserved', reservation: { ref: `${OTHER}:x`, fromAvailableMinor: 20_00n, fromCreditMinor: 0n } },
      { outcome: 'reserved', reservation: { ref: r('b'), fromAvailableMinor: 38_00n, fromCreditMinor: 2_00n } },
      { outcome: 'reserved', reservation: { ref: r('c'), fromAvailableMinor: 0n, fromCreditMinor: 10_50n } },
    ]);
    expect(await labels(M)).toEqual(['a', 'b', 'c']);
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 0n, credit: 37_50n, held: 112_50n });
    expect(await f.ledger.balances(OTHER, INR)).toMatchObject({ available: 9_00n, held: 21_00n });
    // Each entry counts the postings it has: held and available, held and both, held and credit.
    expect(await entryOf(r('a'))).toEqual({ kind: 'payout_reserve', posting_count: 2n });
    expect(await entryOf(r('b'))).toEqual({ kind: 'payout_reserve', posting_count: 3n });
    expect(await entryOf(r('c'))).toEqual({ kind: 'payout_reserve', posting_count: 2n });
    await expectClean();
  });

  it('writes nothing for a taken key, a repeat within the call, a merchant without held yet, or from the first it cannot cover on', async () => {
    await fund(f.ledger, M, INR, 100_00n);
    await fund(f.ledger, OTHER, INR, 100_00n);
    await reserve(r('opening'), 10_00n); // 90 left
    await tx((trx) => f.ledger.reserveWithRecord(trx, { merchantId: M, currency: INR, amountMinor: 1_00n, feeMinor: 0n, ref: r('t') }, { shape: MANY, values: [r('t'), M, 'taken', 7n] }));

    const answers = await tx((trx) =>
      f.ledger.reserveManyWithRecord(trx, [
        item(M, r('p'), 'taken', 5_00n), // a committed row has this key
        item(M, r('q'), 'q', 30_00n), // 30 of the 89
        item(M, r('q2'), 'q', 30_00n), // the same key as the item before it
        item(OTHER, `${OTHER}:first`, 'first', 5_00n), // OTHER has no held account yet
        item(M, r('big'), 'big', 70_00n), // 59 left: short
        item(M, r('small'), 'small', 10_00n), // would fit one at a time, after the short one
      ]),
    );
    expect(answers.map((answer) => answer.outcome)).toEqual(['record_exists', 'reserved', 'retry', 'step_by_step', 'retry', 'retry']);
    expect(await labels(M)).toEqual(['q', 'taken']);
    expect(await labels(OTHER)).toEqual([]);
    expect(await heldRefs(M)).toEqual([r('opening'), r('q'), r('t')].sort());
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 59_00n, held: 41_00n });
    expect(await f.ledger.balances(OTHER, INR)).toMatchObject({ available: 100_00n, held: 0n });

    // What the caller does with a retry: the item alone, after the call, decides as one at a time would.
    expect((await tx((trx) => f.ledger.reserveWithRecord(trx, item(M, r('big'), 'big', 70_00n).input, item(M, r('big'), 'big', 70_00n).record))).outcome).toBe('short');
    expect((await tx((trx) => f.ledger.reserveWithRecord(trx, item(M, r('small'), 'small', 10_00n).input, item(M, r('small'), 'small', 10_00n).record))).outcome).toBe('reserved');
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 49_00n, held: 51_00n });
    await expectClean();
  });

  it('throws, for the caller to roll back, when a key it found free was taken while it waited for the balances', async () => {
    await fund(f.ledger, M, INR, 100_00n);
    await reserve(r('opening'), 10_00n);
    const first = await f.db.startTransaction().execute();
    // Holds M's balance rows and writes the key "late" the statement will find free in its snapshot.
    await f.ledger.reserveWithRecord(first, { merchantId: M, currency: INR, amountMinor: 1_00n, feeMinor: 0n, ref: r('l1') }, { shape: MANY, values: [r('l1'), M, 'late', 7n] });
    const many = tx((trx) => f.ledger.reserveManyWithRecord(trx, [item(M, r('l2'), 'late', 2_00n), item(M, r('l3'), 'other', 3_00n)]));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.commit().execute();
    await expect(many).rejects.toThrow(/taken while the statement ran/);
    expect(await labels(M)).toEqual(['late']);
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 89_00n, held: 11_00n });
    await expectClean();
  });
});

describe('completions of many payouts together', () => {
  const completion = (merchantId: string, currency: 'INR' | 'EGP', ref: string, amountMinor: bigint, feeMinor: bigint) => ({ ref, merchantId, currency, amountMinor, feeMinor });
  const reserveIn = (currency: 'INR' | 'EGP', ref: string, amountMinor: bigint, feeMinor: bigint) =>
    tx((trx) => f.ledger.reserveForPayout(trx, { merchantId: M, currency, amountMinor, feeMinor, ref }));

  it("completes each, a currency's first completions one by one (opening its platform accounts), and the books balance", async () => {
    // EGP has seen no completion in this file's store: its settlement and fee revenue do not exist yet.
    const EGP = 'EGP' as const;
    await fund(f.ledger, M, EGP, 1_000_00n);
    await reserveIn(EGP, r('e1'), 100_00n, 2_00n);
    await reserveIn(EGP, r('e2'), 50_00n, 0n);
    await reserveIn(EGP, r('e3'), 10_00n, 1_00n);
    await reserveIn(EGP, r('e4'), 20_00n, 1_00n);
    const first = await tx((trx) => f.ledger.completeReservations(trx, [completion(M, EGP, r('e1'), 100_00n, 2_00n), completion(M, EGP, r('e2'), 50_00n, 0n)]));
    expect(first.map((c) => [c.ref, c.status, c.replayed])).toEqual([
      [r('e1'), 'completed', false],
      [r('e2'), 'completed', false],
    ]);
    // Now the accounts exist: on PostgreSQL these two go in one statement.
    const second = await tx((trx) => f.ledger.completeReservations(trx, [completion(M, EGP, r('e3'), 10_00n, 1_00n), completion(M, EGP, r('e4'), 20_00n, 1_00n)]));
    expect(second.map((c) => [c.ref, c.status, c.fromAvailableMinor])).toEqual([
      [r('e3'), 'completed', 11_00n],
      [r('e4'), 'completed', 21_00n],
    ]);
    const entries = await f.db.selectFrom('ledger_entries').select(['ref', 'posting_count']).where('kind', '=', 'payout_complete').where('merchant_id', '=', M).orderBy('ref').execute();
    // A fee-less completion has two postings: held and settlement.
    expect(entries.map((e) => [e.ref, e.posting_count])).toEqual([
      [r('e1'), 3n],
      [r('e2'), 2n],
      [r('e3'), 3n],
      [r('e4'), 3n],
    ]);
    expect(await f.ledger.balances(M, EGP)).toMatchObject({ available: 816_00n, held: 0n });
    expect(await accountBalance(f.db, 'p:EGP:settlement')).toBe(180_00n);
    expect(await accountBalance(f.db, 'p:EGP:fee_revenue')).toBe(4_00n);
    expect(await f.ledger.verify()).toEqual([]);
    expect(await currencyTotal(f.db, EGP)).toBe(0n);
  });

  it('throws, writing what the caller must roll back, for a reservation no longer held or holding other amounts', async () => {
    await fund(f.ledger, M, INR, 1_000_00n);
    await fund(f.ledger, OTHER, INR, 1_000_00n);
    await reserve(r('h1'), 10_00n, 1_00n);
    await reserve(r('h2'), 20_00n, 1_00n);
    await tx((trx) => f.ledger.completeReservations(trx, [completion(M, INR, r('h1'), 10_00n, 1_00n)]));
    await expect(tx((trx) => f.ledger.completeReservations(trx, [completion(M, INR, r('h2'), 20_00n, 1_00n), completion(M, INR, r('h1'), 10_00n, 1_00n)]))).rejects.toThrow();
    await expect(tx((trx) => f.ledger.completeReservations(trx, [completion(M, INR, r('h2'), 25_00n, 1_00n), completion(OTHER, INR, r('none'), 1_00n, 0n)]))).rejects.toThrow();
    // Nothing of the failed calls is left: h2 is still held, with its money.
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 968_00n, held: 21_00n });
    await expectClean();
  });
});

describe('refund', () => {
  const refund = (ref: string, paidMinor: bigint, paymentRef: string) =>
    tx((trx) => f.ledger.debitRefund(trx, { merchantId: M, currency: INR, paidMinor, channel: 'sim', ref, paymentRef }));

  it('takes the paid amount from pending first, then available; the fee is not returned', async () => {
    await fund(f.ledger, M, INR, 50_00n);
    await credit(r('pay-1'), 100_00n, 2_00n);
    const refunded = await refund(r('ref-1'), 100_00n, r('pay-1'));
    expect(refunded).toMatchObject({ fromPendingMinor: 98_00n, fromAvailableMinor: 2_00n, replayed: false });
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 48_00n, pending: 0n });
    expect(await platformDelta('p:INR:fee_revenue')).toBe(2_00n);
    expect(await platformDelta('p:INR:upstream_clearing:sim')).toBe(0n);
    expect(await refund(r('ref-1'), 100_00n, r('pay-1'))).toMatchObject({ fromPendingMinor: 98_00n, fromAvailableMinor: 2_00n, replayed: true });
    await expectClean();
  });

  it('is refused with INSUFFICIENT_BALANCE when pending and available together are short', async () => {
    await credit(r('pay-1'), 100_00n, 2_00n);
    await expectReason(refund(r('ref-1'), 100_00n, r('pay-1')), 'INSUFFICIENT_BALANCE');
    expect((await f.ledger.balances(M, INR)).pending).toBe(98_00n);
    await expectClean();
  });

  it('is undone exactly when the upstream refuses it, once', async () => {
    await fund(f.ledger, M, INR, 50_00n);
    await credit(r('pay-1'), 100_00n, 2_00n);
    await refund(r('ref-1'), 100_00n, r('pay-1'));
    const reverse = () =>
      tx((trx) => f.ledger.reverseRefund(trx, { merchantId: M, currency: INR, channel: 'sim', ref: r('ref-1'), paymentRef: r('pay-1') }));
    expect(await reverse()).toMatchObject({ fromPendingMinor: 98_00n, fromAvailableMinor: 2_00n, replayed: false });
    expect((await reverse()).replayed).toBe(true);
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 50_00n, pending: 98_00n });
    expect(await platformDelta('p:INR:upstream_clearing:sim')).toBe(-100_00n);
    await expectReason(
      tx((trx) => f.ledger.reverseRefund(trx, { merchantId: M, currency: INR, channel: 'sim', ref: r('ref-none'), paymentRef: r('pay-1') })),
      'NOT_FOUND',
    );
    await expectClean();
  });

  it("consumes the refunded payment's own pending money, so other money still settles on time", async () => {
    await credit(r('pay-old'), 100_00n);
    f.clock.advance(30_000);
    await credit(r('pay-new'), 100_00n);
    await refund(r('ref-old'), 100_00n, r('pay-old'));
    f.clock.advance(30_000);
    // pay-old was due now but was refunded; pay-new is not due for another 30 s.
    expect(ownGroups(await f.ledger.settlePending())).toEqual([]);
    f.clock.advance(30_000);
    expect(ownGroups(await f.ledger.settlePending())[0]).toMatchObject({ settledMinor: 100_00n });
    await expectClean();
  });
});

describe('operator tools', () => {
  const move = (amountMinor: bigint, extra: object = {}) => ({ merchantId: M, currency: INR, amountMinor, reason: 'ops', actor: 't', ...extra });

  it('grants and lowers credit; only the unused part can be lowered', async () => {
    await f.ledger.grantCredit(move(300_00n));
    await f.ledger.lowerCredit(move(100_00n));
    expect((await f.ledger.balances(M, INR)).credit).toBe(200_00n);
    await reserve(r('po-1'), 150_00n);
    await expectReason(f.ledger.lowerCredit(move(51_00n)), 'INSUFFICIENT_BALANCE');
    await f.ledger.lowerCredit(move(50_00n));
    expect(await accountBalance(f.db, `m:${M}:INR:credit_line`)).toBe(-150_00n);
    await expectClean();
  });

  it('moves funds into and out of the security deposit', async () => {
    await fund(f.ledger, M, INR, 100_00n);
    await f.ledger.moveToSecurity(move(60_00n));
    await expectReason(f.ledger.moveToSecurity(move(41_00n)), 'INSUFFICIENT_BALANCE');
    await expectReason(f.ledger.releaseSecurity(move(61_00n)), 'INSUFFICIENT_BALANCE');
    await f.ledger.releaseSecurity(move(10_00n));
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 50_00n, security: 50_00n });
    await expectClean();
  });

  it('adjusts with a mandatory reason, never below zero, and audits it', async () => {
    await expectReason(f.ledger.adjust({ ...move(10_00n), account: 'available', reason: '  ' }), 'VALIDATION_FAILED');
    await f.ledger.adjust({ ...move(10_00n), account: 'available' });
    await expectReason(f.ledger.adjust({ ...move(-11_00n), account: 'available' }), 'INSUFFICIENT_BALANCE');
    await f.ledger.adjust({ ...move(-4_00n), account: 'available' });
    expect((await f.ledger.balances(M, INR)).available).toBe(6_00n);
    expect(await platformDelta('p:INR:adjustments')).toBe(-6_00n);
    const audits = await f.db.selectFrom('audit_log').selectAll().where('target', '=', M).execute();
    expect(audits.map((a) => a.action)).toEqual(['ledger.adjustment', 'ledger.adjustment']);
    await expectClean();
  });

  it('adjusts pending together with its lots', async () => {
    await credit(r('pay-1'), 100_00n);
    await f.ledger.adjust({ ...move(-30_00n), account: 'pending' });
    await f.ledger.adjust({ ...move(5_00n), account: 'pending' });
    await expectClean();
    expect(ownGroups(await f.ledger.settlePending())[0]).toMatchObject({ settledMinor: 5_00n });
    f.clock.advance(60_000);
    expect(ownGroups(await f.ledger.settlePending())[0]).toMatchObject({ settledMinor: 70_00n });
    await expectClean();
  });

  it('posts an operator move once per idempotency key', async () => {
    const first = await f.ledger.grantCredit(move(100_00n, { ref: r('ticket-42') }));
    const second = await f.ledger.grantCredit(move(100_00n, { ref: r('ticket-42') }));
    expect(second).toEqual({ entryId: first.entryId, replayed: true });
    expect((await f.ledger.balances(M, INR)).credit).toBe(100_00n);
  });

  it('refuses an unknown merchant', async () => {
    await expectReason(f.ledger.grantCredit({ ...move(1n), merchantId: 'mch_nobody' }), 'NOT_FOUND');
  });
});

describe('journal', () => {
  it("lists a merchant's entries newest first with their postings, page by page", async () => {
    await fund(f.ledger, M, INR, 100_00n);
    await credit(r('pay-1'), 10_00n, 1_00n);
    await reserve(r('po-1'), 20_00n);
    await fund(f.ledger, OTHER, INR, 1n);
    const page1 = await f.ledger.journal(M, { limit: 2 });
    expect(page1.map((e) => e.kind)).toEqual(['payout_reserve', 'payment_credit']);
    expect(page1[1]!.postings).toEqual([
      { accountId: `m:${M}:INR:pending`, kind: 'pending', channel: null, merchantId: M, amountMinor: 9_00n },
      { accountId: 'p:INR:fee_revenue', kind: 'fee_revenue', channel: null, merchantId: null, amountMinor: 1_00n },
      { accountId: 'p:INR:upstream_clearing:sim', kind: 'upstream_clearing', channel: 'sim', merchantId: null, amountMinor: -10_00n },
    ]);
    const page2 = await f.ledger.journal(M, { limit: 2, before: page1[1]!.id });
    expect(page2.map((e) => [e.kind, e.reason])).toEqual([['adjustment', 'test funding']]);
  });
});

describe('verify', () => {
  // These tests corrupt the books on purpose, so each gets a store of its own.
  let shared: LedgerFixture;
  beforeEach(async () => {
    shared = f;
    f = await openLedger([M, OTHER], { settlementDelayMs: { INR: 60_000 } });
  });
  afterEach(async () => {
    await f.close();
    f = shared;
  });

  it('reports a cached balance that differs from its postings', async () => {
    await credit(r('pay-1'), 10_00n);
    await f.db.updateTable('ledger_accounts').set({ balance_minor: 11_00n }).where('id', '=', `m:${M}:INR:pending`).execute();
    const codes = (await f.ledger.verify()).map((v) => v.code).sort();
    expect(codes).toEqual(['BALANCE_MISMATCH', 'CURRENCY_NOT_ZERO', 'PENDING_LOTS_MISMATCH']);
  });

  it('reports an entry missing a posting', async () => {
    const { entryId } = await credit(r('pay-1'), 10_00n, 1_00n);
    await f.db.deleteFrom('ledger_postings').where('entry_id', '=', entryId).where('account_id', '=', 'p:INR:fee_revenue').execute();
    const violations = await f.ledger.verify();
    expect(violations).toContainEqual({ code: 'ENTRY_UNBALANCED', subject: entryId, detail: 'postings sum to -100' });
  });

  it('reports held money without an open reservation', async () => {
    await fund(f.ledger, M, INR, 10_00n);
    await reserve(r('po-1'), 10_00n);
    await f.db.updateTable('ledger_reservations').set({ status: 'completed' }).execute();
    expect((await f.ledger.verify()).map((v) => v.code)).toEqual(['HELD_MISMATCH']);
  });

  it('is backed by the database: a negative merchant balance cannot be written at all', async () => {
    await fund(f.ledger, M, INR, 10_00n);
    await expect(
      f.db.updateTable('ledger_accounts').set({ balance_minor: -1n }).where('id', '=', `m:${M}:INR:available`).execute(),
    ).rejects.toThrow();
  });
});

// postJournal itself: a guarded debit the balance does not cover is INSUFFICIENT_BALANCE and the
// caller's rollback leaves nothing; an account used for the first time is opened beside the others.
describe('an entry posted directly', () => {
  const account = (kind: 'available' | 'held' | 'security') => merchantAccount(M, INR, kind);
  const entry = (ref: string, postings: { account: ReturnType<typeof account>; amountMinor: bigint }[]) => ({
    kind: 'adjustment' as const,
    ref: r(ref),
    merchantId: M,
    currency: INR,
    postings,
    nowMs: f.clock.nowMs(),
  });

  it('refuses a guarded debit the balance does not cover with INSUFFICIENT_BALANCE, and the rollback leaves nothing', async () => {
    await fund(f.ledger, M, INR, 10_00n);
    const before = await f.ledger.balances(M, INR);
    const short = entry('short', [
      { account: account('available'), amountMinor: -10_01n },
      { account: account('held'), amountMinor: 10_01n },
    ]);
    await expectReason(tx((trx) => postJournal(trx, short)), 'INSUFFICIENT_BALANCE');
    expect(await f.ledger.balances(M, INR)).toEqual(before);
    expect(await f.db.selectFrom('ledger_entries').select('id').where('ref', '=', r('short')).execute()).toEqual([]);
    await expectClean();
  });

  it('moves every balance of the entry, opening an account used for the first time beside the others', async () => {
    await fund(f.ledger, M, INR, 30_00n);
    await reserve(r('po-1'), 5_00n);
    // available and held exist by now; security does not yet.
    expect(await f.db.selectFrom('ledger_accounts').select('id').where('id', '=', `m:${M}:INR:security`).execute()).toEqual([]);
    const posted = await tx((trx) =>
      postJournal(
        trx,
        entry('three', [
          { account: account('available'), amountMinor: -12_00n },
          { account: account('security'), amountMinor: 7_00n },
          { account: account('held'), amountMinor: 5_00n },
        ]),
      ),
    );
    expect(posted.replayed).toBe(false);
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 13_00n, held: 10_00n, security: 7_00n });
    // The same (kind, ref) again is a replay and moves nothing.
    const again = await tx((trx) => postJournal(trx, entry('three', [{ account: account('available'), amountMinor: -1_00n }, { account: account('held'), amountMinor: 1_00n }])));
    expect(again).toEqual({ entryId: posted.entryId, replayed: true });
    expect(await f.ledger.balances(M, INR)).toMatchObject({ available: 13_00n, held: 10_00n, security: 7_00n });
  });
});
