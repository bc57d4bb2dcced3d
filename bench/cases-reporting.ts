// The reporting read case of contract section 13: payment/list, a signed keyset page of 50 payment
// records, first pages and cursored pages in turn. Appended to CASES in bench/cases.ts.
import type { BenchCase } from './cases.js';
import { FLOORS } from './floor-verdict.js';
import { retireLeftoverPayments } from './leftovers.js';
import { listFloorSecondPage } from './list-floor.js';
import type { HttpResult } from './context.js';
import type { BenchMerchant } from './signing.js';

/** 100 per merchant of the default 20: a full first page and a full second page each. */
const LIST_PAYMENTS = 2000;
const PAGE_LIMIT = 50;
const SETUP_CONCURRENCY = 32;

function created(result: HttpResult, what: string): any {
  if (result.status !== 200) throw new Error(`bench set-up: ${what} answered ${result.status} ${JSON.stringify(result.body)}`);
  return result.body.data;
}

const paymentList: BenchCase = {
  name: 'payment/list',
  description:
    `Signed payment/list with limit ${PAGE_LIMIT} over ${LIST_PAYMENTS.toLocaleString('en-US')} payments created through the API in set-up: ` +
    'first pages and second pages (with the first page\'s cursor) in turn, every merchant in turn.',
  target: { ratio: 0.4, p99Ms: 10 },
  server: 'service',
  floor: FLOORS.listPage,
  expectedRatio: 0.4,
  async prepare(ctx) {
    const merchants = ctx.merchants;
    for (let start = 0; start < LIST_PAYMENTS; start += SETUP_CONCURRENCY) {
      const batch = Array.from({ length: Math.min(SETUP_CONCURRENCY, LIST_PAYMENTS - start) }, (_, k) => start + k);
      await Promise.all(
        batch.map(async (i) => {
          const body = {
            merchantRef: `bl-${i}`,
            method: 'NATIVE',
            currency: 'INR',
            amount: 500,
            name: 'Bench Payer',
            email: 'payer@example.com',
            phone: '919876543210',
            redirectUrl: 'https://merchant.example/return',
          };
          created(await ctx.call(merchants[i % merchants.length]!, 'payment/initiate', body), 'payment/initiate');
        }),
      );
    }
    const cursors = new Map<BenchMerchant, string>();
    for (const merchant of merchants) {
      const first = created(await ctx.call(merchant, 'payment/list', { limit: PAGE_LIMIT }), 'payment/list');
      if (first.nextCursor) cursors.set(merchant, first.nextCursor);
    }
    return (i) => {
      const merchant = merchants[Math.floor(i / 2) % merchants.length]!;
      const cursor = i % 2 === 1 ? cursors.get(merchant) : undefined;
      return { merchant, path: 'payment/list', body: cursor === undefined ? { limit: PAGE_LIMIT } : { limit: PAGE_LIMIT, cursor } };
    };
  },
  finish: retireLeftoverPayments,
};

/**
 * The same calls from 4 connections: at 50 closed-loop connections every request waits behind the
 * others (mean latency = 50 / throughput), so the p99 there says how busy the service is, not how long
 * a merchant's list call takes. This case shows the latter against the read budget (p99 <= 10 ms),
 * with no throughput target of its own; the 50-connection case keeps its full target.
 */
const paymentListLight: BenchCase = {
  ...paymentList,
  name: 'payment/list, 4 connections',
  description: `${paymentList.description} From 4 connections: a list call's own latency, not a saturated queue.`,
  target: { ratio: 0, p99Ms: 10 },
  connections: 4,
  // The floors run at 50 connections: their p99 says nothing of a 4-connection call's.
  floor: undefined,
};

/**
 * The same calls to the bare list page of bench/list-floor.ts: the least a server does for a signed page
 * of 50 records (signature, one-time record, one keyset read, the records written), over rows of the same
 * sizes that the floor seeds itself, 100 per merchant. First and second pages in turn, as above.
 */
const listPageFloor: BenchCase = {
  name: FLOORS.listPage,
  description:
    `The payment/list calls (limit ${PAGE_LIMIT}, first and second pages in turn, every merchant in turn) sent to a bare server that only verifies, ` +
    'records the signature, reads the page by one keyset query over its own rows and writes the records.',
  target: paymentList.target,
  server: 'floor',
  diagnostic: true,
  expectedRatio: 0.4,
  async prepare(ctx) {
    const merchants = ctx.merchants;
    return (i) => {
      const merchant = merchants[Math.floor(i / 2) % merchants.length]!;
      const cursor = i % 2 === 1 ? listFloorSecondPage(merchant.id, PAGE_LIMIT) : null;
      return { merchant, path: 'payment/list', body: cursor === null ? { limit: PAGE_LIMIT } : { limit: PAGE_LIMIT, cursor } };
    };
  },
};

export const REPORTING_CASES: readonly BenchCase[] = [listPageFloor, paymentList, paymentListLight];
