// The webhook outbox's indexes after migration 0023_webhook_events_live_queue: the dispatcher's claim
// and the /metrics backlog read a partial index of the pending events only, and the operator's list of
// failed events one of the failed events only, so the delivered events (nearly all of them) are in
// neither. The same reads answer the same before and after the migration, and an event's own update
// (by id) stays on the primary key.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/migrations.js';
import type { Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrator.js';
import { dueEventsQuery } from '../../src/webhooks/queue.js';
import { eventsPageQuery } from '../../src/webhooks/service.js';
import type { WebhookEventStatus, WebhookEventsTable } from '../../src/webhooks/webhook-rows.js';
import { insertMerchant, T0_MS } from '../ledger/helpers.js';
import { indexNamesOf, planOf } from '../helpers/plans.js';
import { openStoreBefore } from '../helpers/store.js';

const STORE = process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite';
const MERCHANTS = ['m-events-a', 'm-events-b'];
const NOW = T0_MS + 86_400_000;
/** Events delivered (or kept without a destination) before the statistics are taken. */
const HISTORY = 20_000;

function event(n: number, status: WebhookEventStatus, at: { created: number; due?: number; lockedUntil?: number }): WebhookEventsTable {
  const ref = `pay-${n}`;
  return {
    id: `evt_${String(n).padStart(8, '0')}`,
    merchant_id: MERCHANTS[n % MERCHANTS.length]!,
    type: 'payment.succeeded',
    resource_kind: 'payment',
    resource_ref: ref,
    payload_json: JSON.stringify({ transactionRef: ref }),
    url: status === 'no_destination' ? null : 'https://merchant.example/hooks',
    destination_source: status === 'no_destination' ? 'none' : 'merchant',
    status,
    attempt_count: status === 'pending' || status === 'no_destination' ? 0n : 1n,
    schedule_step: 0n,
    next_attempt_at_ms: BigInt(at.due ?? at.created),
    locked_until_ms: at.lockedUntil === undefined ? null : BigInt(at.lockedUntil),
    created_at_ms: BigInt(at.created),
    delivered_at_ms: status === 'delivered' ? BigInt(at.created + 200) : null,
    last_error: status === 'failed' ? 'HTTP 500' : null,
  };
}

async function insertEvents(store: Store, rows: readonly WebhookEventsTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) await store.db.insertInto('webhook_events').values(rows.slice(i, i + 200)).execute();
}

const PRIMARY_KEY = STORE === 'SQLite' ? 'sqlite_autoindex_webhook_events_1' : 'webhook_events_pkey';

describe(`migration 0023_webhook_events_live_queue (${STORE})`, () => {
  it('keeps the dispatcher, the backlog count and the failed list on small partial indexes, with the same answers', async () => {
    const { store, location } = await openStoreBefore('0023_webhook_events_live_queue');
    try {
      for (const id of MERCHANTS) await insertMerchant(store.db, id);
      // A day of history: delivered events, a few kept without a destination, 40 that failed for good.
      await insertEvents(
        store,
        Array.from({ length: HISTORY }, (_, n) => event(n, n % 500 === 7 ? 'failed' : n % 10 === 3 ? 'no_destination' : 'delivered', { created: T0_MS + n * 4_000 })),
      );
      await sql`ANALYZE webhook_events`.execute(store.db);
      // Then a receiver was down: 300 events wait, due over the next minutes; 10 are leased by a dispatcher.
      await insertEvents(
        store,
        Array.from({ length: 300 }, (_, i) =>
          event(HISTORY + i, 'pending', { created: NOW - 600_000 + i, due: NOW - 150_000 + i * 1_000, lockedUntil: i < 10 ? NOW + 30_000 : undefined }),
        ),
      );

      const due = () => dueEventsQuery(store.db, store.kind, 50, NOW);
      const backlog = () => sql<{ n: number | string | bigint }>`select count(*) as n from webhook_events where status = 'pending'`;
      const failedPage = () => eventsPageQuery(store.db, null, { status: 'failed' }, null, 21);
      const merchantFailedPage = (merchant: string) => eventsPageQuery(store.db, merchant, { status: 'failed' }, null, 21);
      const answers = async () => ({
        due: (await due().execute()).map((r) => r.id),
        backlog: Number((await backlog().execute(store.db)).rows[0]!.n),
        failed: (await failedPage().execute()).map((r) => r.id),
        merchantFailed: await Promise.all(MERCHANTS.map(async (m) => (await merchantFailedPage(m).execute()).map((r) => r.id))),
      });
      const before = await answers();
      // Due by now: the 151 events due at NOW - 150 s to NOW, less the 10 leased; the first 50 in due order.
      expect(before.due).toEqual(Array.from({ length: 50 }, (_, i) => event(HISTORY + 10 + i, 'pending', { created: 0 }).id));
      expect(before.backlog).toBe(300);
      // The 40 failed events are every 500th from the 8th, all of the second merchant's (odd numbers).
      const newestFailed = Array.from({ length: 21 }, (_, i) => event(HISTORY - 493 - i * 500, 'failed', { created: 0 }).id);
      expect(before.failed).toEqual(newestFailed);
      expect(before.merchantFailed).toEqual([[], newestFailed]);

      await migrate(store.db, MIGRATIONS, location.databaseSchema);
      const names = await indexNamesOf(store, 'webhook_events');
      expect(names).toEqual(expect.arrayContaining(['webhook_events_pending_due', 'webhook_events_failed']));
      expect(names).not.toContain('webhook_events_due');
      expect(await answers()).toEqual(before);

      expect(await planOf(store, due().compile())).toContain('webhook_events_pending_due');
      expect(await planOf(store, backlog().compile(store.db))).toContain('webhook_events_pending_due');
      expect(await planOf(store, failedPage().compile())).toContain('webhook_events_failed');
      // An event's own writes: the claim's lease and the resend, by id.
      const id = event(HISTORY + 20, 'pending', { created: 0 }).id;
      const ownUpdates = [
        store.db.updateTable('webhook_events').set({ locked_until_ms: BigInt(NOW + 30_000) }).where('id', '=', id).where('locked_until_ms', 'is', null),
        store.db.updateTable('webhook_events').set({ status: 'pending', schedule_step: 0n, next_attempt_at_ms: BigInt(NOW) }).where('id', '=', id),
      ];
      for (const query of ownUpdates) expect(await planOf(store, query.compile())).toContain(PRIMARY_KEY);
    } finally {
      await store.close();
      await location.drop();
    }
  });
});
