// Contract section 13's last line: every case again with 1,000,000 payments stored, within 10 % of
// its figure at 10,000. Two fresh twin services (each its own database, merchants and simulator) are
// seeded alike, one with 10,000 payments and one with the million; each repeat runs on the million
// twin in windows alternating with its base case on the 10,000 twin (bench/paired.ts says why).
//
// `@1M seed` writes the million straight into the twin's database from this process, outside any
// timed window: SQLite through its own connection to the service's file (WAL lets the service keep
// reading; chunks of SEED_ROWS_PER_CHUNK rows keep each write transaction well under the service's
// 5 s busy timeout), PostgreSQL with INSERT ... SELECT over
// generate_series in the service's schema, then VACUUM (ANALYZE) as autovacuum would. Each seeded payment is what an expired pay-in leaves behind: the
// payment row (Expired, collection abandoned, completed at its expiry, some time in the last 30 days)
// and its payment.expired event, recorded with no destination because the bench merchants have no
// webhook URL. No background job picks either up again, and neither touches the ledger, so the
// measured windows see a big database, not a backlog.
//
// Each `<case> @1M` case is its base case with fresh merchantRefs (and, for payment/status, lookups
// spread over the seeded million); its verdict is its throughput against the base case's.
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { performance } from 'node:perf_hooks';
import type { BenchCase, CustomMeasurement } from './cases.js';
import type { BenchContext } from './context.js';
import { BENCH_PG_URL } from './service.js';
import type { RequestTemplate } from './signing.js';

export const MILLION = 1_000_000;
/** Within this fraction of the base case's throughput (contract section 13: within 10 %). */
export const MILLION_TOLERANCE = 0.1;
const SEED_ROWS_PER_CHUNK = 50_000;
const SEED_SPAN_MS = 30 * 24 * 3600_000;
const PAYMENT_TTL_MS = 30 * 60_000;
const SEEDED_KEY = 'million-seeded';
const SETTLE_AFTER_SEED_MS = 5_000;

/** The three pay-in variants of the bench, in minor units, with the default fee each would have been charged. */
const VARIANTS = [
  { currency: 'IDR', method: 'BNI', amountMinor: 5_000_000, feeMinor: 400_000, phone: '6281234567890' },
  { currency: 'INR', method: 'NATIVE', amountMinor: 50_000, feeMinor: 1_000, phone: '919876543210' },
  { currency: 'NGN', method: 'TRANSFER', amountMinor: 500_000, feeMinor: 7_500, phone: '2348012345678' },
] as const;

/** The i-th seeded payment's transactionRef (UUID-shaped, like every real one); both seeders build the same text. */
export const seededRef = (i: number): string => `${REF_PREFIX}${String(i).padStart(12, '0')}`;

/** A sealed token's length, so the rows are as wide as real ones; seeded tokens are never opened. */
const SEALED_TOKEN_PLACEHOLDER = `seeded.${'x'.repeat(100)}`;

/**
 * What to seed: `count` expired payments spread over `merchantIds` in turn, their transactionRefs
 * `<refPrefix><12-digit i>` and merchantRefs `<merchantRefPrefix><i>`, with or without their events.
 */
export interface SeedPlan {
  readonly merchantIds: readonly string[];
  readonly count: number;
  readonly refPrefix: string;
  readonly merchantRefPrefix: string;
  readonly withEvents: boolean;
  /** Starts each seeded row's 64-character request and checkout-token hashes, unique per plan (the token hash is a unique column). */
  readonly hashPrefix: string;
}

const REF_PREFIX = '01900000-0000-7000-8000-';

const merchantValues = (plan: SeedPlan): { sql: string; params: string[] } => ({
  sql: plan.merchantIds.map((_, k) => `(${k}, ?)`).join(', '),
  params: [...plan.merchantIds],
});

function variantCase(column: 'currency' | 'method' | 'amountMinor' | 'feeMinor' | 'phone', index: string): string {
  const value = (v: (typeof VARIANTS)[number]): string => (typeof v[column] === 'number' ? String(v[column]) : `'${v[column]}'`);
  return `CASE ${index} % 3 ${VARIANTS.map((v, k) => `WHEN ${k} THEN ${value(v)}`).join(' ')} END`;
}

/** SQLite: chunks of a recursive-CTE INSERT ... SELECT on a connection of our own to the service's file. */
export async function seedSqlite(plan: SeedPlan, file: string, startMs: number): Promise<void> {
  const db = new SQLite(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 30000');
    const merchants = merchantValues(plan);
    const n = plan.merchantIds.length;
    const created = `(${startMs} + s.i * ${Math.floor(SEED_SPAN_MS / plan.count)})`;
    const ended = `(${created} + ${PAYMENT_TTL_MS})`;
    const ref = `'${plan.refPrefix}' || printf('%012d', s.i)`;
    const hash = `'${plan.hashPrefix}' || printf('%0${64 - plan.hashPrefix.length}d', s.i)`;
    const rows = `WITH RECURSIVE s(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM s WHERE i + 1 < ?), m(k, id) AS (VALUES ${merchants.sql})`;
    const payments = db.prepare(`${rows}
      INSERT INTO payments (transaction_ref, merchant_id, merchant_ref, request_hash, method, currency, amount_minor, fee_minor,
        paid_amount_minor, status, failure_reason, payer_name, payer_email, payer_phone, redirect_url, webhook_url,
        checkout_token_hash, checkout_token_enc, channel, upstream_ref, collection_json, collection_state, collection_attempts,
        collection_next_at_ms, reconcile_at_ms, refund_state, refund_ref, refund_upstream_ref, refund_attempts, refund_next_at_ms,
        created_at_ms, updated_at_ms, expires_at_ms, completed_at_ms, refunded_at_ms)
      SELECT ${ref}, m.id, '${plan.merchantRefPrefix}' || s.i, ${hash}, ${variantCase('method', 's.i')}, ${variantCase('currency', 's.i')},
        ${variantCase('amountMinor', 's.i')}, ${variantCase('feeMinor', 's.i')}, NULL, 'Expired', NULL, 'Seeded Payer', 'payer@example.com',
        ${variantCase('phone', 's.i')}, 'https://merchant.example/return', NULL, ${hash}, '${SEALED_TOKEN_PLACEHOLDER}',
        'simulator', NULL, NULL, 'failed', 1, ${created}, NULL, NULL, NULL, NULL, 0, NULL, ${created}, ${ended}, ${ended}, ${ended}, NULL
      FROM s JOIN m ON m.k = s.i % ${n}`);
    const events = db.prepare(`${rows}
      INSERT INTO webhook_events (id, merchant_id, type, resource_kind, resource_ref, payload_json, url, destination_source, status,
        attempt_count, schedule_step, next_attempt_at_ms, locked_until_ms, created_at_ms, delivered_at_ms, last_error)
      SELECT 'evt_seed' || printf('%024d', s.i), m.id, 'payment.expired', 'payment', ${ref},
        '{"transactionRef":"' || ${ref} || '","merchantRef":"seed-' || s.i || '","status":"Expired","event":{"type":"payment.expired"}}',
        NULL, 'none', 'no_destination', 0, 0, ${ended}, NULL, ${ended}, NULL, NULL
      FROM s JOIN m ON m.k = s.i % ${n}`);
    for (let from = 0; from < plan.count; from += SEED_ROWS_PER_CHUNK) {
      const to = Math.min(plan.count, from + SEED_ROWS_PER_CHUNK);
      db.transaction(() => {
        payments.run(from, to, ...merchants.params);
        if (plan.withEvents) events.run(from, to, ...merchants.params);
      })();
    }
    // PASSIVE checkpoints of our own, outside the windows, until the whole WAL is in the database
    // file: each copies what no reader still needs without waiting on anyone, so the service's
    // automatic checkpoint does not meet a WAL of a million rows in the first window after the seed
    // (it did: that window cost up to twice the CPU per request; one PASSIVE pass was not enough,
    // the service's readers still held older snapshots). Not TRUNCATE or FULL: those hold the write
    // lock while they wait for the readers, and the writes queued behind it ran through the next windows.
    await checkpointWholeWal(db);
  } finally {
    db.close();
  }
}

const CHECKPOINT_DEADLINE_MS = 30_000;

async function checkpointWholeWal(db: SQLite.Database): Promise<void> {
  const deadline = performance.now() + CHECKPOINT_DEADLINE_MS;
  for (;;) {
    const [state] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    if (!state || state.checkpointed >= state.log) return;
    if (performance.now() > deadline) {
      process.stdout.write(`  the seed's WAL is not all checkpointed: ${state.checkpointed} of ${state.log} frames\n`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** PostgreSQL: INSERT ... SELECT over generate_series in the service's schema, in chunks, then ANALYZE. */
export async function seedPostgres(plan: SeedPlan, schema: string, startMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_PG_URL, options: `-c search_path=${schema} -c synchronous_commit=on` });
  await client.connect();
  try {
    const n = plan.merchantIds.length;
    const merchants = plan.merchantIds.map((_, k) => `(${k}, $${k + 3}::text)`).join(', ');
    const params = [...plan.merchantIds];
    const created = `(${startMs}::bigint + s.i * ${Math.floor(SEED_SPAN_MS / plan.count)})`;
    const ended = `(${created} + ${PAYMENT_TTL_MS})`;
    const ref = `('${plan.refPrefix}' || lpad(s.i::text, 12, '0'))`;
    const hash = `('${plan.hashPrefix}' || lpad(s.i::text, ${64 - plan.hashPrefix.length}, '0'))`;
    const rows = `FROM generate_series($1::bigint, $2::bigint - 1) AS s(i) JOIN (VALUES ${merchants}) AS m(k, id) ON m.k = s.i % ${n}`;
    for (let from = 0; from < plan.count; from += SEED_ROWS_PER_CHUNK * 2) {
      const to = Math.min(plan.count, from + SEED_ROWS_PER_CHUNK * 2);
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO payments (transaction_ref, merchant_id, merchant_ref, request_hash, method, currency, amount_minor, fee_minor,
          paid_amount_minor, status, failure_reason, payer_name, payer_email, payer_phone, redirect_url, webhook_url,
          checkout_token_hash, checkout_token_enc, channel, upstream_ref, collection_json, collection_state, collection_attempts,
          collection_next_at_ms, reconcile_at_ms, refund_state, refund_ref, refund_upstream_ref, refund_attempts, refund_next_at_ms,
          created_at_ms, updated_at_ms, expires_at_ms, completed_at_ms, refunded_at_ms)
        SELECT ${ref}, m.id, '${plan.merchantRefPrefix}' || s.i, ${hash}, ${variantCase('method', 's.i')}, ${variantCase('currency', 's.i')},
          ${variantCase('amountMinor', 's.i')}, ${variantCase('feeMinor', 's.i')}, NULL, 'Expired', NULL, 'Seeded Payer', 'payer@example.com',
          ${variantCase('phone', 's.i')}, 'https://merchant.example/return', NULL, ${hash}, '${SEALED_TOKEN_PLACEHOLDER}',
          'simulator', NULL, NULL, 'failed', 1, ${created}, NULL, NULL, NULL, NULL, 0, NULL, ${created}, ${ended}, ${ended}, ${ended}, NULL
        ${rows}`,
        [from, to, ...params],
      );
      if (plan.withEvents) await client.query(
        `INSERT INTO webhook_events (id, merchant_id, type, resource_kind, resource_ref, payload_json, url, destination_source, status,
          attempt_count, schedule_step, next_attempt_at_ms, locked_until_ms, created_at_ms, delivered_at_ms, last_error)
        SELECT 'evt_seed' || lpad(s.i::text, 24, '0'), m.id, 'payment.expired', 'payment', ${ref},
          '{"transactionRef":"' || ${ref} || '","merchantRef":"seed-' || s.i || '","status":"Expired","event":{"type":"payment.expired"}}',
          NULL, 'none', 'no_destination', 0, 0, ${ended}, NULL, ${ended}, NULL, NULL
        ${rows}`,
        [from, to, ...params],
      );
      await client.query('COMMIT');
    }
    // What autovacuum would otherwise do during the next windows (it did: the database's CPU per
    // request doubled for minutes after the load): visibility map, hint bits, statistics.
    await client.query('VACUUM (ANALYZE) payments');
    if (plan.withEvents) await client.query('VACUUM (ANALYZE) webhook_events');
    // And write the seed's dirty buffers out now: otherwise the next timed checkpoint spreads about
    // two million rows' pages over the following minutes, under the first repeats' windows (in the
    // quiet run of session 5, payment/status @1M on recent rows ran at 63 % of its base while the
    // old-rows lookups a few windows later ran at 101 %).
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
}

/** Seeds the plan's payments into the service's store (SQLite file or PostgreSQL schema), created over the last 30 days. */
export async function seedPayments(ctx: BenchContext, plan: SeedPlan): Promise<void> {
  const startMs = Date.now() - SEED_SPAN_MS - 2 * PAYMENT_TTL_MS;
  if (ctx.database.sqliteFile) await seedSqlite(plan, ctx.database.sqliteFile, startMs);
  else if (ctx.database.pgSchema) await seedPostgres(plan, ctx.database.pgSchema, startMs);
  else throw new Error('the service has neither a SQLite file nor a PostgreSQL schema the bench can seed');
}

/** How many payments the comparison twin holds: contract section 13 compares with the figure at 10,000. */
export const BASELINE_PAYMENTS = 10_000;

/**
 * Seeds `count` payments (and their events) into a service once; answers the seconds it took (0 when
 * already done). The million twin gets MILLION, its comparison twin BASELINE_PAYMENTS, of the same shape.
 */
export async function ensureSeeded(ctx: BenchContext, count = MILLION): Promise<number> {
  if (ctx.shared.get(SEEDED_KEY)) return 0;
  const started = performance.now();
  await seedPayments(ctx, {
    merchantIds: ctx.merchants.map((m) => m.id),
    count,
    refPrefix: REF_PREFIX,
    merchantRefPrefix: 'seed-',
    withEvents: true,
    hashPrefix: '',
  });
  ctx.shared.set(SEEDED_KEY, true);
  const seconds = (performance.now() - started) / 1000;
  // The service's background writes that waited behind the seeding catch up before the next window.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_AFTER_SEED_MS));
  process.stdout.write(`  seeded ${count.toLocaleString('en-US')} payments and their events in ${seconds.toFixed(1)} s\n`);
  return seconds;
}

const seedCase: BenchCase = {
  name: '@1M seed',
  description: `${MILLION.toLocaleString('en-US')} expired payments and their payment.expired events written straight into the twin service's database (not timed as load).`,
  target: null,
  onTwin: true,
  server: 'service',
  expectedRatio: 0,
  async custom(ctx): Promise<CustomMeasurement> {
    const seconds = await ensureSeeded(ctx);
    return {
      operations: MILLION,
      seconds,
      unit: 'rows/s',
      latencyMs: null,
      minPerSecond: null,
      targetLabel: 'none (set-up)',
      problems: [],
      notes: [`${MILLION.toLocaleString('en-US')} payments + ${MILLION.toLocaleString('en-US')} events seeded in ${seconds.toFixed(1)} s`],
    };
  },
};

/** Gives a request's merchantRef the @1M prefix, so a re-run never repeats one of its base case's. */
function freshRef(template: RequestTemplate): RequestTemplate {
  const body = template.body;
  if (typeof body !== 'object' || body === null || !('merchantRef' in body)) return template;
  return { ...template, body: { ...body, merchantRef: `m1-${String((body as { merchantRef: unknown }).merchantRef)}` } };
}

/** The base case again on the seeded twin, compared by the harness with the base case measured in the windows between. */
function atMillion(
  base: BenchCase,
  requests?: (ctx: BenchContext) => Promise<(i: number) => RequestTemplate>,
  variant?: { readonly suffix: string; readonly description: string },
): BenchCase {
  return {
    ...base,
    name: `${base.name} @1M${variant ? ` ${variant.suffix}` : ''}`,
    description: `${base.description} With ${MILLION.toLocaleString('en-US')} payments stored.${variant ? ` ${variant.description}` : ''}`,
    baseline: base.name,
    onTwin: true,
    diagnostic: variant !== undefined,
    async prepare(ctx) {
      await ensureSeeded(ctx);
      if (requests) return requests(ctx);
      const at = await base.prepare!(ctx);
      return (i) => freshRef(at(i));
    },
  };
}

/**
 * payment/status over the seeded million: every lookup a different, spread-out old row (a stride
 * prime to 10^6), so nearly every one reads pages SQLite's cache does not hold. A diagnostic beside
 * the comparable repeat, which looks up recent payments as the base case does.
 */
async function seededStatus(ctx: BenchContext): Promise<(i: number) => RequestTemplate> {
  const n = ctx.merchants.length;
  return (i) => {
    const row = (i * 7_919) % MILLION;
    return { merchant: ctx.merchants[row % n]!, path: 'payment/status', body: { transactionRef: seededRef(row) } };
  };
}

/** The million cases for the given base cases (by name), after them in the run. */
export function millionCases(base: readonly BenchCase[]): BenchCase[] {
  const byName = new Map(base.map((c) => [c.name, c]));
  const repeat = (name: string): BenchCase[] => (byName.has(name) ? [atMillion(byName.get(name)!)] : []);
  const coldStatus = byName.has('payment/status')
    ? [atMillion(byName.get('payment/status')!, seededStatus, { suffix: '(old rows)', description: 'Lookups of seeded payments spread over the million (diagnostic).' })]
    : [];
  return [
    seedCase,
    ...['account/balance', 'payout/bankCode', 'payment/initiate', 'payment/status', 'payment/list', 'payment/list, 4 connections'].flatMap(repeat),
    ...coldStatus,
    ...['payout/initiate 100 merchants', 'payout/initiate hot merchant'].flatMap(repeat),
  ];
}
