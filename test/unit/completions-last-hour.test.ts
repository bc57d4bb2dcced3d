// /metrics reports the last hour's final statuses per connector, method and status. Migration
// 0027_completions_by_connector puts those columns in the completion indexes, so the count reads no
// table row; LastHourCompletions (routing/connector-metrics.ts) counts each closed minute once and a
// scrape reads only the minutes that are still open. Whatever was counted before, a scrape must
// answer what one query over the whole hour answers, a payment refunded since counting as the Success
// it finished as.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/migrations.js';
import { COMPLETION_MINUTE_GRACE_MS, completionCountsOf as countsOf, completionCountsQuery, LastHourCompletions, type CompletionCount } from '../../src/routing/connector-metrics.js';
import { migrate } from '../../src/store/migrator.js';
import { indexNamesOf, planOf } from '../helpers/plans.js';
import { openStoreBefore, openTestStore } from '../helpers/store.js';
import { insertMerchant, T0_MS } from '../ledger/helpers.js';
import { storedPayment } from '../payments/api-helpers.js';
import { storedPayout } from '../payouts/helpers.js';

const STORE = process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite';
const M = 'm-counts';
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

const sorted = (counts: readonly CompletionCount[]) =>
  [...counts].sort((a, b) => `${a.channel} ${a.method} ${a.status}`.localeCompare(`${b.channel} ${b.method} ${b.status}`));

const PAYMENT_SHAPES = [
  { channel: 'simulator', method: 'NATIVE', status: 'Success' },
  { channel: 'simulator', method: 'NATIVE', status: 'Expired' },
  { channel: 'xendit', method: 'BNI', status: 'Success' },
  { channel: 'xendit', method: 'BNI', status: 'Failed' },
] as const;

describe(`the last hour's completions for /metrics (${STORE})`, () => {
  it('migration 0027 reads the counts from the completion indexes alone, with the same answer as before', async () => {
    const { store, location } = await openStoreBefore('0027_completions_by_connector');
    try {
      await insertMerchant(store.db, M);
      const payments = Array.from({ length: 300 }, (_, i) => {
        const shape = PAYMENT_SHAPES[i % PAYMENT_SHAPES.length]!;
        const at = T0_MS - 2 * HOUR_MS + i * 30_000;
        return storedPayment(M, `pay-${i}`, at, { ...shape, completed_at_ms: i % 7 === 0 ? null : BigInt(at) });
      });
      for (let i = 0; i < payments.length; i += 100) await store.db.insertInto('payments').values(payments.slice(i, i + 100)).execute();
      const payouts = Array.from({ length: 120 }, (_, i) =>
        storedPayout(M, `po-${i}`, i % 3 === 0 ? 'Failed' : 'Success', { completed_at_ms: BigInt(T0_MS - HOUR_MS + i * 40_000) }),
      );
      await store.db.insertInto('payouts').values(payouts).execute();
      const query = (table: 'payments' | 'payouts') => completionCountsQuery(store.db, table, T0_MS - HOUR_MS, null);
      const before = { payments: sorted(await countsOf(query('payments'))), payouts: sorted(await countsOf(query('payouts'))) };
      expect(before.payments.reduce((sum, c) => sum + c.n, 0)).toBe(payments.filter((p, i) => i >= 120 && p.completed_at_ms !== null).length);

      // A refunded payment counts as the Success it finished as.
      const refunded = payments.filter((p) => p.status === 'Success' && p.completed_at_ms !== null && Number(p.completed_at_ms) >= T0_MS - HOUR_MS).slice(0, 5);
      const successesBefore = before.payments.filter((c) => c.status === 'Success').reduce((sum, c) => sum + c.n, 0);
      for (const p of refunded) await store.db.updateTable('payments').set({ status: 'Refund' }).where('transaction_ref', '=', p.transaction_ref).execute();
      expect(refunded).toHaveLength(5);
      expect(sorted(await countsOf(query('payments')))).toEqual(before.payments);
      expect(successesBefore).toBeGreaterThan(5);

      await migrate(store.db, MIGRATIONS, location.databaseSchema);
      for (const table of ['payments', 'payouts'] as const) {
        const names = await indexNamesOf(store, table);
        expect(names).toContain(`${table}_completed_counts`);
        expect(names).not.toContain(`${table}_completed`);
        expect(sorted(await countsOf(query(table)))).toEqual(before[table]);
        const plan = await planOf(store, query(table).compile());
        expect(plan).toContain(`${table}_completed_counts`);
        if (store.kind === 'sqlite') expect(plan).toContain('COVERING INDEX');
      }
    } finally {
      await store.close();
      await location.drop();
    }
  });

  it('answers every scrape as one query over the hour would, as minutes close and completions arrive (property)', async () => {
    // A step either finishes a payment, stamped up to the grace before the clock (a slow commit, a
    // lagging process), or moves the clock (forward up to 20 minutes, or back up to 3) and scrapes.
    // A refund turns a finished Success into Refund at any later time, its completion time kept.
    const step = fc.oneof(
      fc.record({ kind: fc.constant('complete' as const), shape: fc.nat(PAYMENT_SHAPES.length - 1), lagMs: fc.integer({ min: 0, max: COMPLETION_MINUTE_GRACE_MS }) }),
      fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('scrape' as const), moveMs: fc.integer({ min: -3 * MINUTE_MS, max: 20 * MINUTE_MS }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: MINUTE_MS - 1 }), async (steps, startOffset) => {
        const store = await openTestStore();
        try {
          await insertMerchant(store.db, M);
          let nowMs = T0_MS + startOffset;
          // Some history from before the clock starts, over the two hours before it.
          const history = Array.from({ length: 60 }, (_, i) =>
            storedPayment(M, `old-${i}`, nowMs - 2 * HOUR_MS, { ...PAYMENT_SHAPES[i % 4]!, completed_at_ms: BigInt(nowMs - 2 * HOUR_MS + i * 117_000) }),
          );
          await store.db.insertInto('payments').values(history).execute();
          const counts = new LastHourCompletions(store.db, 'payments', 0);
          let n = 0;
          for (const s of steps) {
            if (s.kind === 'refund') {
              const successes = await store.db.selectFrom('payments').select('transaction_ref').where('status', '=', 'Success').orderBy('transaction_ref').execute();
              const chosen = successes[s.pick % Math.max(1, successes.length)];
              if (chosen) await store.db.updateTable('payments').set({ status: 'Refund', refunded_at_ms: BigInt(nowMs) }).where('transaction_ref', '=', chosen.transaction_ref).execute();
              continue;
            }
            if (s.kind === 'complete') {
              const at = nowMs - s.lagMs;
              await store.db.insertInto('payments').values(storedPayment(M, `new-${n++}`, at, { ...PAYMENT_SHAPES[s.shape]!, completed_at_ms: BigInt(at) })).execute();
              continue;
            }
            nowMs += s.moveMs;
            const whole = sorted(await countsOf(completionCountsQuery(store.db, 'payments', nowMs - HOUR_MS, null)));
            expect(sorted(await counts.counts(nowMs))).toEqual(whole);
          }
          const whole = sorted(await countsOf(completionCountsQuery(store.db, 'payments', nowMs - HOUR_MS, null)));
          expect(sorted(await counts.counts(nowMs))).toEqual(whole);
        } finally {
          await store.close();
        }
      }),
      { numRuns: STORE === 'SQLite' ? 40 : 12 },
    );
  });
});
