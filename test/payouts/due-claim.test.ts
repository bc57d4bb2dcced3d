// The submission job's claim with a backlog: it takes the earliest due live payouts that no lease
// holds, in due order, and reads them from the partial index of live payouts (0018) instead of every
// due row of both statuses sorted. On either store, with the rows written as plain rows.
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDuePayouts, freeDueRows, pgClaimStatement, pinQueuePlan, submissionsDue } from '../../src/domain/payouts/payout-repository.js';
import type { PayoutStatus, PayoutsTable } from '../../src/domain/payouts/payout-rows.js';
import type { Store } from '../../src/store/db.js';
import { insertMerchant, openFreshStore, T0_MS } from '../ledger/helpers.js';
import type { TestDatabase } from '../helpers/store.js';
import { storedPayout } from './helpers.js';

const M = 'm-due';
const NOW = T0_MS + 3_600_000;
let store: Store;
let location: TestDatabase;

interface Seed {
  readonly ref: string;
  readonly status: PayoutStatus;
  readonly dueAtMs: number | null;
  readonly lockedUntilMs?: number;
  readonly submitAttempts?: bigint;
}

const row = (seed: Seed): PayoutsTable =>
  storedPayout(M, seed.ref, seed.status, {
    submit_attempts: seed.submitAttempts ?? 0n,
    next_action_at_ms: seed.dueAtMs === null ? null : BigInt(seed.dueAtMs),
    locked_until_ms: seed.lockedUntilMs === undefined ? null : BigInt(seed.lockedUntilMs),
  });

const ref = (prefix: string, i: number) => `${prefix}-${String(i).padStart(4, '0')}`;

beforeAll(async () => {
  ({ store, location } = await openFreshStore());
  await insertMerchant(store.db, M);
  const seeds: Seed[] = [];
  // The backlog: 400 Initiated payouts due over the last hour, every fifth of them in flight (leased).
  for (let i = 0; i < 400; i++) {
    seeds.push({ ref: ref('init', i), status: 'Initiated', dueAtMs: T0_MS + i * 1_000, ...(i % 5 === 0 ? { lockedUntilMs: NOW + 30_000 } : {}) });
  }
  // Processing payouts due between them (polls), some not due yet; one whose lease ran out.
  for (let i = 0; i < 40; i++) seeds.push({ ref: ref('proc', i), status: 'Processing', dueAtMs: T0_MS + 500 + i * 10_000, submitAttempts: 1n });
  for (let i = 0; i < 10; i++) seeds.push({ ref: ref('later', i), status: 'Processing', dueAtMs: NOW + 60_000 + i, submitAttempts: 1n });
  seeds.push({ ref: 'expired-lease', status: 'Initiated', dueAtMs: T0_MS - 5_000, lockedUntilMs: NOW - 1 });
  // Rows the job never acts on, due or not: awaiting approval and final.
  for (let i = 0; i < 30; i++) seeds.push({ ref: ref('approval', i), status: 'PendingApproval', dueAtMs: T0_MS - 10_000 + i });
  for (let i = 0; i < 30; i++) seeds.push({ ref: ref('done', i), status: i % 2 === 0 ? 'Success' : 'Failed', dueAtMs: T0_MS - 20_000 + i, submitAttempts: 1n });
  // The statistics are taken before the backlog arrives, as between two ANALYZEs of a burst: they
  // tell the planner of the few final rows only.
  await store.db.insertInto('payouts').values(seeds.filter((s) => s.ref.startsWith('done-')).map(row)).execute();
  await sql`ANALYZE`.execute(store.db);
  const backlog = seeds.filter((s) => !s.ref.startsWith('done-'));
  for (let i = 0; i < backlog.length; i += 100) await store.db.insertInto('payouts').values(backlog.slice(i, i + 100).map(row)).execute();
});

afterAll(async () => {
  await store?.close();
  await location?.drop();
});

/** What either store's planner does with the claim, as text: on PostgreSQL the very statement and settings the claim runs. */
async function planOfClaim(): Promise<string> {
  if (store.kind === 'sqlite') {
    const compiled = freeDueRows(store.db, NOW, submissionsDue(NOW, 16)).compile();
    const plan = await store.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
    return plan.rows.map((r) => r.detail).join('\n');
  }
  return store.db.transaction().execute(async (trx) => {
    // Costs under which any other plan looks cheaper, as the statistics of a queue between two ANALYZEs
    // can make it: the pinned plan must not depend on them.
    await sql`SET LOCAL random_page_cost = 1000`.execute(trx);
    await sql`SET LOCAL cpu_index_tuple_cost = 10`.execute(trx);
    await pinQueuePlan(trx);
    const claim = pgClaimStatement(trx, NOW, NOW + 45_000, submissionsDue(NOW, 16), true);
    const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${claim.sql}`, [...claim.parameters]));
    return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

describe("the submission job's claim over a backlog", () => {
  it('reads the live payouts in due order from their partial index, with no sort', async () => {
    const plan = await planOfClaim();
    expect(plan).toMatch(/payouts_live_due/);
    expect(plan).not.toMatch(/TEMP B-TREE|Sort|Bitmap|Seq Scan/i);
  });

  it('takes the earliest due payouts no lease holds, of both live statuses, and leases them', async () => {
    const leaseUntil = NOW + 45_000;
    const claimed = await claimDuePayouts(store.db, store.kind, NOW, leaseUntil, 16);
    const refs = claimed.map((c) => c.transaction_ref);
    // Due order: the expired lease first, then the Initiated rows of each second, skipping the leased
    // fifths, with the Processing poll due at +0.5 s in between.
    expect(refs).toEqual([
      'expired-lease',
      ref('proc', 0),
      ref('init', 1),
      ref('init', 2),
      ref('init', 3),
      ref('init', 4),
      ref('init', 6),
      ref('init', 7),
      ref('init', 8),
      ref('init', 9),
      ref('proc', 1),
      ref('init', 11),
      ref('init', 12),
      ref('init', 13),
      ref('init', 14),
      ref('init', 16),
    ]);
    expect(claimed.every((c) => c.locked_until_ms === BigInt(leaseUntil))).toBe(true);
    // Never sent: the claim counted the first submission; the polls keep theirs.
    expect(claimed.find((c) => c.transaction_ref === ref('init', 1))).toMatchObject({ firstAttemptRecorded: true, submit_attempts: 1n });
    expect(claimed.find((c) => c.transaction_ref === ref('proc', 0))).toMatchObject({ firstAttemptRecorded: false, submit_attempts: 1n });
    const stored = await store.db.selectFrom('payouts').select(['transaction_ref', 'locked_until_ms']).where('transaction_ref', 'in', refs).execute();
    expect(stored.every((s) => s.locked_until_ms === BigInt(leaseUntil))).toBe(true);

    // The next claim goes on after them: what this one leased is held now.
    const next = await claimDuePayouts(store.db, store.kind, NOW, leaseUntil, 3);
    expect(next.map((c) => c.transaction_ref)).toEqual([ref('init', 17), ref('init', 18), ref('init', 19)]);
  });

  it('never takes a payout awaiting approval, a final one, or one not due yet', async () => {
    const all = await claimDuePayouts(store.db, store.kind, NOW, NOW + 45_000, 1_000);
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter((c) => !['Initiated', 'Processing'].includes(c.status))).toEqual([]);
    expect(all.filter((c) => c.transaction_ref.startsWith('later-'))).toEqual([]);
    expect(await claimDuePayouts(store.db, store.kind, NOW, NOW + 45_000, 16)).toEqual([]);
  });
});
