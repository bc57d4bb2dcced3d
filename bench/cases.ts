// The benchmark cases, run in this order against each store. To add one, append a BenchCase:
// `prepare` sets up what it needs (merchants, payments, balances) outside the timed phase and returns the
// i-th request to send; the harness decides how many requests to pre-sign, signs each uniquely (see
// signing.ts), runs the load, and compares the result with `target` (contract section 13).
import type { BenchContext } from './context.js';
import type { RequestTemplate } from './signing.js';
import { MONEY_CASES } from './cases-money.js';
import { REPORTING_CASES } from './cases-reporting.js';
import { CURRENCIES } from '../src/core/money.js';
import { FLOORS } from './floor-verdict.js';

/** The cases' currencies are the service's (core/money.ts). */
export { CURRENCIES };

export interface CaseTarget {
  /** Minimum throughput as a fraction of the no-op route's, measured in the same run. */
  readonly ratio: number;
  /** Maximum 99th-percentile latency. */
  readonly p99Ms: number;
}

export interface BenchCase {
  /** Shown in the table and used as the key in results JSON and `--case` filters. */
  readonly name: string;
  /** One line: what a request does. */
  readonly description: string;
  /** The contract's target; null for the reference. */
  readonly target: CaseTarget | null;
  /**
   * Which server the load goes to. `noop` requests are sent unsigned and may repeat; `service` requests
   * are signed by the harness, each one once; `floor` requests too, to bench/floor-server.ts (the bare
   * signed read and, on SQLite, the bare payout the service's are measured against).
   */
  readonly server: 'service' | 'noop' | 'floor';
  /**
   * Expected throughput as a fraction of the no-op route's. Only sizes the pre-signed request list of a
   * first run; later runs use the previous result of the same case and store (bench/results/latest-*.json).
   */
  readonly expectedRatio: number;
  /**
   * Setup outside the timed phase; returns the i-th request (i = 0, 1, 2, ...; the harness asks for as many
   * as the run can need, in order).
   */
  prepare?(ctx: BenchContext): Promise<(i: number) => RequestTemplate>;
  /**
   * Instead of `prepare` and the harness's load: a case that measures on its own (webhook deliveries at a
   * receiver, an in-process ledger burst) and reports its figures in its own unit.
   */
  custom?(ctx: BenchContext, settings: CustomSettings): Promise<CustomMeasurement>;
  /**
   * The name of a case measured earlier in the run that this one repeats under other conditions (the
   * million stored payments): the verdict is then this case's throughput within 10 % of that one's.
   */
  readonly baseline?: string;
  /**
   * Runs on the twin service that holds the million seeded payments (bench/paired.ts), not on the run's
   * service: the seed, the repeats (each paired with its base on the run's service) and the big export.
   */
  readonly onTwin?: boolean;
  /** A measurement without a verdict of its own (INFO), e.g. a harsher variant of a repeated case. */
  readonly diagnostic?: boolean;
  /**
   * The bare floor case (server 'floor') whose figures in the same run decide whether a miss of this
   * one is out of reach on this machine (bench/floor-verdict.ts): it must do no more than this case.
   */
  readonly floor?: string;
  /**
   * A write case whose requests leave background work (collections, submissions, callbacks): after it,
   * the bench waits for that work to finish and notes the CPU per request including it ("all-in").
   */
  readonly allIn?: boolean;
  /** Only on these stores (the bare payout has a SQLite form only); every store when absent. */
  readonly stores?: readonly ('sqlite' | 'postgres')[];
  /**
   * Load it with this many connections instead of the run's (50): a light-load case that shows a call's
   * own latency, which at 50 closed-loop connections is only 50 / throughput (Little's law).
   */
  readonly connections?: number;
  /**
   * A custom case judged by a rate of its own that the machine's speed decides (webhook dispatch): the
   * bench measures the no-op's windows right before and after it and notes what they say (run.ts).
   */
  readonly noopAround?: boolean;
  /** Optional check after the load (e.g. "no balance ever negative"); returns the problems found. */
  verify?(ctx: BenchContext): Promise<string[]>;
  /**
   * Clean-up after the case's windows (and its check), outside any window, before the next case's
   * quiet start: ends what the case left running in the background. Answers how many records it ended.
   */
  finish?(ctx: BenchContext): Promise<number>;
}

/** What a custom case gets from the command line. */
export interface CustomSettings {
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /**
   * Marks the case's measured window for `--profile` (a no-op otherwise): call `start` when the window
   * opens and `stop` when it closes, so set-up stays out of the profile.
   */
  readonly window?: { start(): void; stop(): Promise<void> };
}

/** What a custom case measured. */
export interface CustomMeasurement {
  /** Operations counted over `seconds` (deliveries, reservations ...). */
  readonly operations: number;
  readonly seconds: number;
  /** The unit of the rate, e.g. 'deliveries/s'. */
  readonly unit: string;
  /** Per-operation latency (or lag), when the case has one. */
  readonly latencyMs: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number; readonly mean: number } | null;
  /** The absolute rate the contract asks for; null for a measurement without a target (verdict INFO). */
  readonly minPerSecond: number | null;
  /** Shown in the table's target column. */
  readonly targetLabel: string;
  /** Failed checks (make the verdict MISS). */
  readonly problems: string[];
  /** Why the target cannot be met on this machine whatever the service does, when that is so (a miss is then OUT OF REACH). */
  readonly outOfReach?: string | null;
  /** Anything else worth printing. */
  readonly notes: string[];
}

/** The reference: a Fastify route with JSON parsing and nothing else, sent requests of the same shape. */
export const NOOP_CASE: BenchCase = {
  name: 'no-op route',
  description: 'POST /noop on a bare Fastify server (logger off): the reference every ratio divides by.',
  target: null,
  server: 'noop',
  expectedRatio: 1,
  async prepare(ctx) {
    // Same body and header sizes as a signed balance request, with a placeholder merchant.
    const merchant = ctx.merchants[0]!;
    return (i) => ({ merchant, path: '/noop', body: { currency: CURRENCIES[i % CURRENCIES.length] } });
  },
};

/** Merchant i % M and currency (i / M) % 4: every merchant and currency, evenly. */
const spread = (ctx: BenchContext, i: number): { merchant: RequestTemplate['merchant']; currency: string } => {
  const merchants = ctx.merchants;
  return { merchant: merchants[i % merchants.length]!, currency: CURRENCIES[Math.floor(i / merchants.length) % CURRENCIES.length]! };
};

const accountBalance: BenchCase = {
  name: 'account/balance',
  description: 'Signed balance read, every merchant and currency in turn (signature check, one-time signature record, ledger read).',
  target: { ratio: 0.4, p99Ms: 10 },
  server: 'service',
  floor: FLOORS.signedRead,
  expectedRatio: 0.4,
  async prepare(ctx) {
    return (i) => {
      const { merchant, currency } = spread(ctx, i);
      return { merchant, path: 'account/balance', body: { currency } };
    };
  },
};

/**
 * The same requests to bench/floor-server.ts: the least a signed read must do (body, Timestamp window,
 * Signature, its durable one-time record by group commit, the balance row), written bare on the same
 * parts. Its ratio is the ceiling of any signed read on this machine with them (docs/benchmarks.md).
 */
const signedReadFloor: BenchCase = {
  ...accountBalance,
  name: FLOORS.signedRead,
  description: `${accountBalance.description} Sent to a bare server that does only what contract sections 6 and 12 require of it.`,
  server: 'floor',
  floor: undefined,
  diagnostic: true,
};

export const CASES: readonly BenchCase[] = [
  signedReadFloor,
  accountBalance,
  {
    name: 'payout/bankCode',
    description: 'Signed IDR bank list (about 150 entries), every merchant in turn (signature check, one-time signature record, static list).',
    target: { ratio: 0.4, p99Ms: 10 },
    server: 'service',
    floor: FLOORS.signedRead,
    expectedRatio: 0.4,
    async prepare(ctx) {
      return (i) => ({ merchant: ctx.merchants[i % ctx.merchants.length]!, path: 'payout/bankCode', body: { currency: 'IDR' } });
    },
  },
  ...MONEY_CASES,
  ...REPORTING_CASES,
];
