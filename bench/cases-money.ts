// The money-moving cases of contract section 13: payment/initiate, payment/status, payout/initiate over
// 100 merchants and for one hot merchant, the ledger's hot-merchant reservations in-process, and webhook
// dispatch to a receiver in this process. Appended to CASES in bench/cases.ts; see docs/benchmarks.md.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createHistogram, performance, type RecordableHistogram } from 'node:perf_hooks';
import { newId } from '../src/core/ids.js';
import { AppError } from '../src/core/errors.js';
import { systemClock } from '../src/core/clock.js';
import { fundMerchant } from './ledger-burst.js';
import { LedgerService } from '../src/ledger/service.js';
import { MIGRATIONS } from '../src/migrations.js';
import { openStore, type Store } from '../src/store/db.js';
import type { BenchCase, CustomMeasurement } from './cases.js';
import type { BenchContext, HttpResult } from './context.js';
import { BENCH_PG_URL, dropSchema } from './service.js';
import { snapshot } from './cpu.js';
import { FLOORS } from './floor-verdict.js';
import { rsaSignMicroseconds, webhookOutOfReach, webhookReach } from './webhook-reach.js';
import { retireLeftoverPayments } from './leftovers.js';
import type { BenchMerchant, RequestTemplate } from './signing.js';

const REDIRECT_URL = 'https://merchant.example/return';

/** Pay-in bodies in three currencies and methods, each within its default bounds. */
const PAYIN_VARIANTS = [
  { currency: 'IDR', method: 'BNI', amount: 50_000, phone: '6281234567890' },
  { currency: 'INR', method: 'NATIVE', amount: 500, phone: '919876543210' },
  { currency: 'NGN', method: 'TRANSFER', amount: 5_000, phone: '2348012345678' },
] as const;

function payinBody(merchantRef: string, variantIndex: number): object {
  const v = PAYIN_VARIANTS[variantIndex % PAYIN_VARIANTS.length]!;
  return {
    merchantRef,
    method: v.method,
    currency: v.currency,
    amount: v.amount,
    name: 'Bench Payer',
    email: 'payer@example.com',
    phone: v.phone,
    redirectUrl: REDIRECT_URL,
  };
}

/** IDR TRANSFER to BCA; the account never ends in 0001/0002/0003 (the simulator's failure accounts). */
const PAYOUT_AMOUNT_IDR = 10_000;
function payoutBody(merchantRef: string, i: number): object {
  return {
    merchantRef,
    currency: 'IDR',
    method: 'TRANSFER',
    amount: PAYOUT_AMOUNT_IDR,
    bankCode: '00014',
    name: 'Bench Beneficiary',
    account: `8800${String(i % 100_000).padStart(5, '0')}9`,
    phone: '6281234567890',
    email: 'beneficiary@example.com',
  };
}

/** Runs `fn` over `items` with at most `concurrency` in flight. */
async function inPool<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return out;
}

const expectOk = (what: string, result: HttpResult): any => {
  if (result.status !== 200 || result.body?.code !== '200') {
    throw new Error(`${what} answered ${result.status}: ${JSON.stringify(result.body).slice(0, 300)}`);
  }
  return result.body.data;
};

/** Creates `count` payments through the API (spread over the merchants and variants); returns their refs. */
async function createPayments(
  ctx: BenchContext,
  merchants: readonly BenchMerchant[],
  count: number,
  prefix: string,
  extra: object = {},
): Promise<{ merchant: BenchMerchant; transactionRef: string }[]> {
  return inPool(
    Array.from({ length: count }, (_, i) => i),
    32,
    async (i) => {
      const merchant = merchants[i % merchants.length]!;
      const body = { ...payinBody(`${prefix}-${i}`, Math.floor(i / merchants.length)), ...extra };
      const data = expectOk('payment/initiate', await ctx.call(merchant, 'payment/initiate', body));
      return { merchant, transactionRef: String(data.transactionRef) };
    },
  );
}

/** Tops a merchant's IDR available up through the operator API (an adjustment; idempotent by key). */
async function fundIdr(ctx: BenchContext, merchantId: string, amount: number): Promise<void> {
  expectOk(
    `POST /admin/merchants/${merchantId}/adjustments`,
    await ctx.admin('POST', `/merchants/${merchantId}/adjustments`, {
      currency: 'IDR',
      account: 'available',
      amount,
      reason: 'benchmark funding',
      idempotencyKey: `bench-fund-${merchantId}`,
    }),
  );
}

const BALANCE_FIELDS = ['available', 'pending', 'held', 'credit', 'security'] as const;

/** Problems with one merchant's balances in one currency (read through the operator API). */
async function negativeBalances(ctx: BenchContext, merchantId: string, currency: string): Promise<string[]> {
  const result = await ctx.admin('GET', `/merchants/${merchantId}/balances?currency=${currency}`);
  if (result.status !== 200) return [`balances of ${merchantId} ${currency}: HTTP ${result.status}`];
  const data = result.body?.data ?? {};
  return BALANCE_FIELDS.filter((field) => !(Number(data[field]) >= 0)).map((field) => `${merchantId} ${currency} ${field} = ${data[field]}`);
}

/** GET /admin/ledger/verify: its violations as problems. */
async function ledgerViolations(ctx: BenchContext): Promise<string[]> {
  const result = await ctx.admin('GET', '/ledger/verify');
  if (result.status !== 200) return [`GET /admin/ledger/verify answered ${result.status}`];
  const violations: { code: string; subject: string; detail: string }[] = result.body?.data?.violations ?? [];
  return violations.slice(0, 10).map((v) => `ledger verify: ${v.code} ${v.subject}: ${v.detail}`);
}

/** Every balance of the given merchants in every currency, plus the ledger verifier. */
async function checkMoney(ctx: BenchContext, merchantIds: readonly string[]): Promise<string[]> {
  const problems = (
    await inPool(
      merchantIds.flatMap((id) => ['IDR', 'INR', 'NGN', 'EGP'].map((currency) => ({ id, currency }))),
      8,
      ({ id, currency }) => negativeBalances(ctx, id, currency),
    )
  ).flat();
  return [...problems.slice(0, 10), ...(await ledgerViolations(ctx))];
}

const histogramMs = (h: RecordableHistogram) => ({
  p50: h.percentile(50) / 1e6,
  p90: h.percentile(90) / 1e6,
  p99: h.percentile(99) / 1e6,
  max: h.max / 1e6,
  mean: h.mean / 1e6,
});

// ---------------------------------------------------------------------------------------------------

const paymentInitiate: BenchCase = {
  name: 'payment/initiate',
  allIn: true,
  description:
    'Signed payment creation, a fresh merchantRef each, IDR BNI 50,000 / INR NATIVE 500 / NGN TRANSFER 5,000 in turn over every merchant ' +
    '(authentication, validation, fee, payment + checkout token + outbox row in one commit).',
  target: { ratio: 0.25, p99Ms: 20 },
  server: 'service',
  floor: FLOORS.payment,
  expectedRatio: 0.25,
  async prepare(ctx) {
    const merchants = ctx.merchants;
    return (i) => ({ merchant: merchants[i % merchants.length]!, path: 'payment/initiate', body: payinBody(`bi-${i}`, Math.floor(i / merchants.length)) });
  },
  finish: retireLeftoverPayments,
};

/**
 * The same requests sent to the bare payment of bench/payment-floor.ts instead of the service: the least
 * a server does for a payment (signature, one-time record and payment row group-committed, the
 * collection requested from a bank simulator of its own and its answer written back), on the run's
 * store. Its rate and all-in cost say what `payment/initiate`'s line can reach on this machine.
 */
const paymentFloorCase: BenchCase = {
  name: FLOORS.payment,
  allIn: true,
  description:
    'The payment/initiate requests sent to a bare server that only verifies, records the signature and writes the payment row in one group commit, ' +
    'then requests the collection from its own bank simulator and writes the answer back, group-committed the same way.',
  target: { ratio: 0.25, p99Ms: 20 },
  server: 'floor',
  diagnostic: true,
  expectedRatio: 0.25,
  prepare: paymentInitiate.prepare,
};

const STATUS_PAYMENTS = 1000;

const paymentStatus: BenchCase = {
  name: 'payment/status',
  description: `Signed status lookup by transactionRef over ${STATUS_PAYMENTS.toLocaleString('en-US')} payments created through the API in set-up, every merchant in turn.`,
  target: { ratio: 0.4, p99Ms: 10 },
  server: 'service',
  floor: FLOORS.signedRead,
  expectedRatio: 0.4,
  async prepare(ctx) {
    const refs = await createPayments(ctx, ctx.merchants, STATUS_PAYMENTS, 'bs');
    return (i) => {
      const ref = refs[i % refs.length]!;
      return { merchant: ref.merchant, path: 'payment/status', body: { transactionRef: ref.transactionRef } };
    };
  },
};

const PAYOUT_MERCHANTS = 100;
/** Enough for 100,000 payouts of 10,000 IDR plus fee per merchant: far more than any window sends. */
const PAYOUT_FUNDING_IDR = 1_200_000_000;

const payoutSpread: BenchCase = {
  name: 'payout/initiate 100 merchants',
  allIn: true,
  description:
    `Signed IDR TRANSFER payout of ${PAYOUT_AMOUNT_IDR.toLocaleString('en-US')} to BCA, a fresh merchantRef each, over ${PAYOUT_MERCHANTS} merchants ` +
    'funded through the operator API (reservation of amount + fee, payout + outbox row in one commit; the worker submits to the simulator meanwhile).',
  target: { ratio: 0.2, p99Ms: 20 },
  server: 'service',
  floor: FLOORS.payoutSpread,
  expectedRatio: 0.2,
  async prepare(ctx) {
    // A repeat of the case in the same run (the million-payment one) reuses the funded merchants.
    let merchants = ctx.shared.get('payoutMerchants') as BenchMerchant[] | undefined;
    if (!merchants) {
      merchants = await ctx.createMerchants(PAYOUT_MERCHANTS, { namePrefix: 'Payout Merchant' });
      await inPool(merchants, 8, (m) => fundIdr(ctx, m.id, PAYOUT_FUNDING_IDR));
      ctx.shared.set('payoutMerchants', merchants);
    }
    const funded = merchants;
    return (i) => ({ merchant: funded[i % funded.length]!, path: 'payout/initiate', body: payoutBody(`ps-${i}`, i) });
  },
  async verify(ctx) {
    const merchants = (ctx.shared.get('payoutMerchants') as BenchMerchant[] | undefined) ?? [];
    return checkMoney(ctx, merchants.map((m) => m.id));
  },
};

/** A hot merchant's IDR funding: 1,000,000 payouts of 10,000 + fee. */
const HOT_FUNDING_IDR = 12_000_000_000;
const HOT_SAMPLE_MS = 100;

interface HotState {
  merchant: BenchMerchant;
  sampler: NodeJS.Timeout;
  samples: number;
  problems: string[];
}

const payoutHot: BenchCase = {
  name: 'payout/initiate hot merchant',
  allIn: true,
  description:
    'Signed IDR TRANSFER payouts, all from one merchant (RSA key): every request contends for the same balance rows. ' +
    `Its balances are sampled every ${HOT_SAMPLE_MS} ms during the case and checked after it with the ledger verifier.`,
  target: { ratio: 0.1, p99Ms: 50 },
  server: 'service',
  floor: FLOORS.payoutHot,
  expectedRatio: 0.1,
  async prepare(ctx) {
    // Funded for a million payouts: a repeat of the case in the same run reuses it.
    let merchant = ctx.shared.get('hotMerchant') as BenchMerchant | undefined;
    if (!merchant) {
      [merchant] = await ctx.createMerchants(1, { keyTypes: ['RSA-SHA512'], namePrefix: 'Hot Merchant' });
      await fundIdr(ctx, merchant!.id, HOT_FUNDING_IDR);
      ctx.shared.set('hotMerchant', merchant);
    }
    const state: HotState = { merchant: merchant!, samples: 0, problems: [], sampler: undefined as unknown as NodeJS.Timeout };
    // "No balance ever negative": watch the hot merchant's balances through the run, not only at its end.
    let busy = false;
    state.sampler = setInterval(() => {
      if (busy) return;
      busy = true;
      void negativeBalances(ctx, state.merchant.id, 'IDR')
        .then((problems) => {
          state.samples += 1;
          if (problems.length && state.problems.length < 10) state.problems.push(...problems.map((p) => `during the run: ${p}`));
        })
        .catch(() => undefined)
        .finally(() => (busy = false));
    }, HOT_SAMPLE_MS);
    state.sampler.unref();
    ctx.shared.set('hot', state);
    return (i) => ({ merchant: state.merchant, path: 'payout/initiate', body: payoutBody(`ph-${i}`, i) });
  },
  async verify(ctx) {
    const state = ctx.shared.get('hot') as HotState | undefined;
    if (!state) return ['the hot merchant was not set up'];
    clearInterval(state.sampler);
    const problems = [...state.problems];
    if (state.samples === 0) problems.push('no balance sample taken during the run');
    return [...problems, ...(await checkMoney(ctx, [state.merchant.id]))];
  },
};

/**
 * The hot merchant's payouts sent to the bare payout of bench/payout-floor.ts instead of the service:
 * the least contract sections 5, 6, 9 and 12 let any server do for a payout, intake, submission and
 * the bank's callback, on the same parts and a bank simulator of its own, on the run's store. Its rate
 * and its all-in cost say what the hot merchant's line can reach on this machine (docs/benchmarks.md).
 */
const payoutFloorHot: BenchCase = {
  name: FLOORS.payoutHot,
  allIn: true,
  description:
    'The hot-merchant payouts, all from one RSA merchant, sent to a bare server that only verifies, records the signature, reserves with a balanced ' +
    'journal and writes the payout in one group commit, submits to its own bank simulator and settles from its signed callback.',
  target: { ratio: 0.1, p99Ms: 50 },
  server: 'floor',
  diagnostic: true,
  expectedRatio: 0.1,
  async prepare(ctx) {
    const merchant = ctx.merchants.find((m) => m.keyType === 'RSA-SHA512') ?? ctx.merchants[0]!;
    return (i) => ({ merchant, path: 'payout/initiate', body: payoutBody(`fh-${i}`, i) });
  },
};

/**
 * The same bare payout over every merchant of the run in turn (RSA and HMAC keys alternating, as the
 * 100 merchants' do): the floor of the spread payout line. How many merchants does not change what the
 * floor does for a payout: on SQLite one writer takes every group, and on PostgreSQL a group's intakes
 * are one statement whatever merchants they are for.
 */
const payoutFloorSpread: BenchCase = {
  name: FLOORS.payoutSpread,
  allIn: true,
  description:
    'The spread payouts, every merchant of the run in turn (both key types), sent to the bare payout server of the hot-merchant floor: ' +
    'the same intake, submission and callback, the balances spread over the merchants.',
  target: { ratio: 0.2, p99Ms: 20 },
  server: 'floor',
  diagnostic: true,
  expectedRatio: 0.2,
  async prepare(ctx) {
    const merchants = ctx.merchants;
    return (i) => ({ merchant: merchants[i % merchants.length]!, path: 'payout/initiate', body: payoutBody(`fs-${i}`, i) });
  },
};

// ---------------------------------------------------------------------------------------------------

/**
 * The ledger alone: `connections` concurrent reservations (each its own transaction) against one merchant
 * for the case's duration, in this process on a fresh store of the same kind, as in
 * bench/ledger-burst.ts's runHotMerchantBurst, but time-boxed and timing each reservation.
 */
const ledgerHot: BenchCase = {
  name: 'ledger hot-merchant reserve (in-process)',
  description:
    'LedgerService.reserveForPayout in its own transaction, 50 at a time against one merchant, in the bench process on a fresh store ' +
    '(no HTTP, no signature, no payout row): the ledger\'s share of the hot-merchant case. No contract target; ops/s and p50/p99.',
  target: null,
  server: 'service',
  expectedRatio: 0,
  async custom(ctx, settings): Promise<CustomMeasurement> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-ledger-'));
    const schema = ctx.store === 'postgres' ? `bench_ledger_${crypto.randomBytes(5).toString('hex')}` : null;
    let store: Store | null = null;
    try {
      store = await openStore({
        databaseUrl: ctx.store === 'postgres' ? BENCH_PG_URL : null,
        databaseSchema: schema,
        sqliteFile: path.join(dir, 'ledger.sqlite'),
      }, MIGRATIONS);
      const db = store.db;
      const ledger = new LedgerService(store, systemClock);
      const merchantId = 'mch_bench_hot';
      const now = BigInt(Date.now());
      await db
        .insertInto('merchants')
        .values({
          id: merchantId,
          name: merchantId,
          status: 'active',
          mode: 'sandbox',
          rate_limit_per_second: 50n,
          payment_webhook_url: null,
          payout_webhook_url: null,
          webhook_secret_enc: 'x',
          created_at_ms: now,
          updated_at_ms: now,
        })
        .execute();
      await fundMerchant(ledger, { merchantId, currency: 'IDR', availableMinor: 1_000_000_000_000n, creditMinor: 0n });

      // Deadlines, not timers: on SQLite every await below settles as a microtask (better-sqlite3 is
      // synchronous), so a setTimeout would never get to run while the lanes are busy.
      const histogram = createHistogram();
      let committed = 0;
      let refused = 0;
      const windowStart = performance.now() + settings.warmupSeconds * 1000;
      const windowEnd = windowStart + settings.durationSeconds * 1000;
      let lastFinish = windowStart;
      const reserve = (trx: Parameters<LedgerService['reserveForPayout']>[0]) =>
        ledger.reserveForPayout(trx, { merchantId, currency: 'IDR', amountMinor: 10_000_00n, feeMinor: 5_000_00n, ref: newId() });
      const lane = async (): Promise<void> => {
        for (let n = 1; ; n++) {
          const started = performance.now();
          if (started >= windowEnd) return;
          let ok = true;
          try {
            await db.transaction().execute(reserve);
          } catch (error) {
            if (!(error instanceof AppError && error.reason === 'INSUFFICIENT_BALANCE')) throw error;
            ok = false;
          }
          const finished = performance.now();
          if (started >= windowStart) {
            if (ok) committed += 1;
            else refused += 1;
            histogram.record(Math.max(1, Math.round((finished - started) * 1e6)));
            lastFinish = Math.max(lastFinish, finished);
          }
          if (n % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
        }
      };
      await Promise.all(Array.from({ length: settings.connections }, lane));
      const seconds = (lastFinish - windowStart) / 1000;

      const problems: string[] = [];
      const balances = await ledger.balances(merchantId, 'IDR');
      for (const [field, value] of Object.entries(balances)) if (value < 0n) problems.push(`balance ${field} = ${value}`);
      for (const v of (await ledger.verify()).slice(0, 10)) problems.push(`ledger verify: ${JSON.stringify(v)}`);
      return {
        operations: committed + refused,
        seconds,
        unit: 'reserves/s',
        latencyMs: histogramMs(histogram),
        minPerSecond: null,
        targetLabel: 'none (diagnostic)',
        problems,
        notes: [`${committed} reserved, ${refused} refused (INSUFFICIENT_BALANCE); ${settings.connections} concurrent transactions, ${ctx.store} store opened by the bench process`],
      };
    } finally {
      await store?.close().catch(() => undefined);
      if (schema) await dropSchema(schema).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

// ---------------------------------------------------------------------------------------------------

const WEBHOOK_PAYMENTS = 2000;
/**
 * Deliveries made, and answered at once, before the measured backlog: the dispatcher's code has run
 * about as often as a case's warm-up window runs a request's, so V8 has compiled it (session 43: with
 * only the 200 – 250 deliveries that arrive during the completions behind it, the backlog's first
 * second paid for that compiling, 17 – 23 % more CPU a delivery than a backlog three times as long on
 * the same machine). A fixed count, whatever `--warmup` says: the case has no window to scale.
 */
const WEBHOOK_WARMUP_PAYMENTS = 1000;
const WEBHOOK_TARGET_PER_SECOND = 2000;
const WEBHOOK_WAIT_MS = 60_000;

/**
 * K sandbox payments completed through sandbox/payment/complete; their payment.succeeded webhooks go to a
 * node:http receiver in this process. While the completions run, the receiver holds every request it gets
 * unanswered, so the dispatcher's slots fill and the rest of the events wait in the database; then it
 * answers them all, and the rate is the backlog's distinct deliveries from that moment to the last
 * arrival: the dispatcher's own throughput, not the rate at which the payments completed.
 */
const webhookDispatch: BenchCase = {
  name: 'webhook dispatch',
  description:
    `After ${WEBHOOK_WARMUP_PAYMENTS.toLocaleString('en-US')} warm-up deliveries answered at once, ${WEBHOOK_PAYMENTS.toLocaleString('en-US')} sandbox payments completed (sandbox/payment/complete) while the local node:http receiver holds ` +
    'its requests; then it answers, and the backlog of payment.succeeded webhooks (RSA- and HMAC-signed by the service) drains: distinct deliveries/s ' +
    'from the release to the last arrival.',
  target: null,
  server: 'service',
  expectedRatio: 0,
  noopAround: true,
  async custom(ctx, settings): Promise<CustomMeasurement> {
    const seen = new Set<string>(); // webhook-id
    /** The warm-up's deliveries: answered at once and counted apart from the measured backlog's. */
    let warming = true;
    const warmSeen = new Set<string>();
    let warmDone: (() => void) | null = null;
    let warmDuplicates = 0;
    /** The two waits' timers (60 s each), cleared however the case ends. */
    const waits: NodeJS.Timeout[] = [];
    const giveUpAfter = <T>(value: T): Promise<T> =>
      new Promise<T>((resolve) => {
        waits.push(setTimeout(() => resolve(value), WEBHOOK_WAIT_MS).unref());
      });
    let held: http.ServerResponse[] | null = [];
    let heldCount = 0;
    let afterRelease = 0;
    let lastArrival = 0;
    let duplicates = 0;
    let done: (() => void) | null = null;
    const answer = (response: http.ServerResponse): void => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('SUCCESS');
    };
    const receiver = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const id = String(request.headers['webhook-id'] ?? '');
        if (warming) {
          if (warmSeen.has(id)) warmDuplicates += 1;
          warmSeen.add(id);
          if (warmSeen.size >= WEBHOOK_WARMUP_PAYMENTS) warmDone?.();
          answer(response);
          return;
        }
        // A warm-up event sent again after the warm-up: counted with the warm-up's repeats, not measured.
        if (warmSeen.has(id)) warmDuplicates += 1;
        else if (seen.has(id)) duplicates += 1;
        else {
          seen.add(id);
          if (held) heldCount += 1;
          else {
            afterRelease += 1;
            lastArrival = performance.now();
          }
          if (seen.size >= WEBHOOK_PAYMENTS) done?.();
        }
        if (held) held.push(response);
        else answer(response);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    try {
      const [merchant] = await ctx.createMerchants(1, { keyTypes: ['HMAC-SHA256'], namePrefix: 'Webhook Merchant' });
      expectOk(
        'PUT /admin/merchants/:id/webhooks',
        await ctx.admin('PUT', `/merchants/${merchant!.id}/webhooks`, { paymentWebhookUrl: `http://127.0.0.1:${port}/webhook` }),
      );
      // Warm-up: a backlog of its own, answered as it arrives, until every one of its webhooks came.
      const warmArrived = new Promise<void>((resolve) => (warmDone = resolve));
      const warmPayments = await createPayments(ctx, [merchant!], WEBHOOK_WARMUP_PAYMENTS, 'bwu');
      await inPool(warmPayments, 32, async (p) => {
        expectOk('sandbox/payment/complete', await ctx.call(p.merchant, 'sandbox/payment/complete', { transactionRef: p.transactionRef, outcome: 'Success' }));
      });
      const warmedUp = await Promise.race([warmArrived.then(() => true), giveUpAfter(false)]);
      if (!warmedUp) throw new Error(`webhook dispatch: only ${warmSeen.size} of ${WEBHOOK_WARMUP_PAYMENTS} warm-up webhooks arrived`);
      warming = false;
      const payments = await createPayments(ctx, [merchant!], WEBHOOK_PAYMENTS, 'bw');
      const allArrived = new Promise<void>((resolve) => (done = resolve));
      const completeStart = performance.now();
      await inPool(payments, 32, async (p) => {
        expectOk('sandbox/payment/complete', await ctx.call(p.merchant, 'sandbox/payment/complete', { transactionRef: p.transactionRef, outcome: 'Success' }));
      });
      const completeSeconds = (performance.now() - completeStart) / 1000;
      // Release: answer what was held; from now on every request is answered at once.
      settings.window?.start();
      const cpuBefore = snapshot({ service: ctx.servicePid, bench: process.pid });
      const release = performance.now();
      const toAnswer = held;
      held = null;
      for (const response of toAnswer) answer(response);
      const timedOut = await Promise.race([
        allArrived.then(() => false),
        giveUpAfter(true),
      ]);
      const cpuAfter = snapshot({ service: ctx.servicePid, bench: process.pid });
      await settings.window?.stop();
      const cpuMs = (name: string): number => (cpuAfter.processes[name] ?? 0) - (cpuBefore.processes[name] ?? 0);
      let postgresMs = 0;
      for (const [pid, ms] of cpuAfter.postgres) postgresMs += ms - (cpuBefore.postgres.get(pid) ?? 0);
      const seconds = afterRelease > 0 ? (lastArrival - release) / 1000 : 0;
      const perDelivery = (ms: number): number => (afterRelease > 0 ? (ms * 1000) / afterRelease : 0);
      // After the window: the bench's own signing must not be counted as the receiver's CPU.
      const costs =
        afterRelease > 0
          ? {
              targetPerSecond: WEBHOOK_TARGET_PER_SECOND,
              cores: os.cpus().length,
              serviceUs: perDelivery(cpuMs('service')),
              receiverUs: perDelivery(cpuMs('bench')),
              postgresUs: perDelivery(postgresMs),
              signUs: rsaSignMicroseconds(),
            }
          : null;
      const reach = costs ? webhookReach(costs) : [];
      const problems: string[] = [];
      if (timedOut) problems.push(`only ${seen.size} of ${WEBHOOK_PAYMENTS} webhooks arrived within ${WEBHOOK_WAIT_MS / 1000} s of the release`);
      if (afterRelease < WEBHOOK_PAYMENTS / 2) problems.push(`only ${afterRelease} deliveries after the release: too small a backlog to measure`);
      return {
        operations: afterRelease,
        seconds,
        unit: 'deliveries/s',
        latencyMs: null,
        minPerSecond: WEBHOOK_TARGET_PER_SECOND,
        targetLabel: `≥${WEBHOOK_TARGET_PER_SECOND.toLocaleString('en-US')} deliveries/s`,
        problems,
        outOfReach: costs ? webhookOutOfReach(costs) : null,
        notes: [
          `after ${warmSeen.size} warm-up deliveries answered at once (${warmDuplicates} repeated), ${seen.size} distinct deliveries: ${heldCount} held during the completions (${completeSeconds.toFixed(1)} s, ` +
            `${Math.round(WEBHOOK_PAYMENTS / completeSeconds).toLocaleString('en-US')}/s), ${afterRelease} from the backlog after the release; ${duplicates} repeated`,
          // From the release until every webhook arrived (or the wait ended): the dispatcher's cost per delivery.
          `service CPU ${afterRelease > 0 ? Math.round(perDelivery(cpuMs('service'))) : '?'} µs/delivery, ` +
            `receiver (bench process) ${afterRelease > 0 ? Math.round(perDelivery(cpuMs('bench'))) : '?'} µs/delivery` +
            (ctx.store === 'postgres' && afterRelease > 0 ? `, PostgreSQL ${Math.round(perDelivery(postgresMs))} µs/delivery` : ''),
          ...reach,
        ],
      };
    } finally {
      done = null;
      warmDone = null;
      for (const wait of waits) clearTimeout(wait);
      for (const response of held ?? []) answer(response);
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  },
};

export const MONEY_CASES: readonly BenchCase[] = [
  paymentFloorCase,
  paymentInitiate,
  paymentStatus,
  payoutFloorSpread,
  payoutSpread,
  payoutFloorHot,
  payoutHot,
  ledgerHot,
  webhookDispatch,
];

export type { RequestTemplate };
