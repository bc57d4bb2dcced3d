// Property tests: random interleavings of every ledger operation over several merchants and
// currencies. Sequentially against an in-memory model (exact balances); concurrently with several
// workers (on PostgreSQL real row locking), checking conservation and every order-independent sum.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Currency } from '../../src/core/money.js';
import { accountBalance, currencyTotal, insertMerchant, openLedger, type LedgerFixture } from './helpers.js';
import { LedgerModel } from './model.js';
import { CHANNEL, commandArb, expectedTotals, Worker, type Outcome, type WorkerEnv } from './workload.js';
import { usingPostgres } from '../helpers/store.js';

const MERCHANTS_PER_RUN = 3;
const CURRENCIES: readonly Currency[] = ['INR', 'NGN'];
const DELAYS_MS: Partial<Record<Currency, number>> = { INR: 1000, NGN: 0 };
const WORKERS = 4;
const pg = usingPostgres();
/** Generous: the runs take seconds, but the test machine is shared and can be very busy. */
const PROPERTY_TIMEOUT_MS = 180_000;

// One store per property: each run gets merchants of its own, which keeps a run's expectations
// separate while the verifier still checks everything every run has written so far.
let f: LedgerFixture;
let run = 0;
beforeAll(async () => {
  f = await openLedger([], { settlementDelayMs: DELAYS_MS });
});
afterAll(async () => f.close());

async function freshMerchants(): Promise<WorkerEnv> {
  run += 1;
  const merchants = Array.from({ length: MERCHANTS_PER_RUN }, (_, i) => `mch_r${run}_${i}`);
  for (const m of merchants) await insertMerchant(f.db, m);
  return { db: f.db, ledger: f.ledger, clock: f.clock, merchants, currencies: CURRENCIES };
}

async function assertBooksBalance(): Promise<void> {
  expect(await f.ledger.verify()).toEqual([]);
  for (const currency of CURRENCIES) expect(await currencyTotal(f.db, currency)).toBe(0n);
}

const show = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

describe('ledger against a model, one operation at a time', () => {
  it('agrees with the model on every status and every balance', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb(MERCHANTS_PER_RUN, CURRENCIES.length), { minLength: 10, maxLength: 60 }), async (commands) => {
        const env = await freshMerchants();
        // Lots of earlier runs may fall due during this one; settling them is not this model's business.
        const model = new LedgerModel(f.clock.nowMs(), (c) => DELAYS_MS[c] ?? 0);
        const worker = new Worker(env, `r${run}w0`);
        for (const command of commands) {
          const action = worker.resolve(command);
          if (!action || action.kind === 'race') continue;
          const expected = model.apply(action);
          const outcome = await worker.execute(action);
          expect(outcome.status, show(action)).toBe(expected);
        }
        for (const m of env.merchants) {
          for (const c of CURRENCIES) expect(await f.ledger.balances(m, c)).toEqual(model.balances(m, c));
        }
        await assertBooksBalance();
      }),
      { numRuns: pg ? 15 : 30 },
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('ledger under concurrent workers', () => {
  it('conserves money, never goes negative and loses no update', async () => {
    const workload = fc.array(fc.array(commandArb(MERCHANTS_PER_RUN, CURRENCIES.length), { minLength: 5, maxLength: 30 }), {
      minLength: WORKERS,
      maxLength: WORKERS,
    });
    await fc.assert(
      fc.asyncProperty(workload, async (perWorker) => {
        const env = await freshMerchants();
        const platformBefore = await platformBalances();
        const runWorker = async (commands: (typeof perWorker)[number], index: number): Promise<Outcome[]> => {
          const worker = new Worker(env, `r${run}w${index}`);
          const outcomes: Outcome[] = [];
          for (const command of commands) {
            const action = worker.resolve(command);
            if (action) outcomes.push(await worker.execute(action));
          }
          return outcomes;
        };
        // allSettled, not all: a worker that throws must not leave the others writing into the next run.
        const settled = await Promise.allSettled(perWorker.map(runWorker));
        const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
        if (failed) throw failed.reason;
        const outcomes = settled.flatMap((s) => (s.status === 'fulfilled' ? s.value : []));
        await assertBooksBalance();
        await assertOrderIndependentSums(env, outcomes, platformBefore);
      }),
      { numRuns: pg ? 12 : 20 },
    );
  }, PROPERTY_TIMEOUT_MS);
});

type PlatformSnapshot = Map<Currency, { clearing: bigint; fee: bigint; settlement: bigint; adjustments: bigint }>;

async function platformBalances(): Promise<PlatformSnapshot> {
  const snapshot: PlatformSnapshot = new Map();
  for (const c of CURRENCIES) {
    snapshot.set(c, {
      clearing: await accountBalance(f.db, `p:${c}:upstream_clearing:${CHANNEL}`),
      fee: await accountBalance(f.db, `p:${c}:fee_revenue`),
      settlement: await accountBalance(f.db, `p:${c}:settlement`),
      adjustments: await accountBalance(f.db, `p:${c}:adjustments`),
    });
  }
  return snapshot;
}

async function assertOrderIndependentSums(env: WorkerEnv, outcomes: readonly Outcome[], platformBefore: PlatformSnapshot): Promise<void> {
  const { pairs, platform } = expectedTotals(outcomes);
  for (const m of env.merchants) {
    for (const c of CURRENCIES) {
      const want = pairs.get(`${m}/${c}`) ?? { held: 0n, line: 0n, security: 0n, worth: 0n };
      const b = await f.ledger.balances(m, c);
      const line = -(await accountBalance(f.db, `m:${m}:${c}:credit_line`));
      const subject = `${m}/${c}`;
      expect({ subject, held: b.held, line, worth: b.available + b.pending + b.held + b.security + b.credit - line }).toEqual({
        subject,
        held: want.held,
        line: want.line,
        worth: want.worth,
      });
    }
  }
  const platformAfter = await platformBalances();
  for (const c of CURRENCIES) {
    const want = platform.get(c) ?? { clearing: 0n, fee: 0n, settlement: 0n, adjustments: 0n };
    const before = platformBefore.get(c)!;
    const after = platformAfter.get(c)!;
    expect({
      clearing: after.clearing - before.clearing,
      fee: after.fee - before.fee,
      settlement: after.settlement - before.settlement,
      adjustments: after.adjustments - before.adjustments,
    }).toEqual(want);
  }
  // Every race between release and complete of one reservation has exactly one winner.
  for (const o of outcomes) {
    if (o.race) expect(o.race.filter((s) => s === 'ok').length).toBeLessThanOrEqual(1);
  }
}
