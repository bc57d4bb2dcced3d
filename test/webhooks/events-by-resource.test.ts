// Migration 0025_webhook_events_by_merchant_resource: a merchant's events of one payment (the console's
// record page) are a range of (merchant, resource ref, created), where both stores used to read the
// merchant's whole history and filter it. The answers are the same before and after the migration.
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/migrations.js';
import { migrate } from '../../src/store/migrator.js';
import { eventsPageQuery } from '../../src/webhooks/service.js';
import type { WebhookEventsTable } from '../../src/webhooks/webhook-rows.js';
import { indexNamesOf, planOf } from '../helpers/plans.js';
import { openStoreBefore } from '../helpers/store.js';
import { insertMerchant, T0_MS } from '../ledger/helpers.js';

const STORE = process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite';
const M = 'm-events';

const event = (n: number, resourceRef: string): WebhookEventsTable => ({
  id: `evt_${String(n).padStart(8, '0')}`,
  merchant_id: M,
  type: 'payment.succeeded',
  resource_kind: 'payment',
  resource_ref: resourceRef,
  payload_json: JSON.stringify({ transactionRef: resourceRef }),
  url: 'https://merchant.example/hooks',
  destination_source: 'merchant',
  status: 'delivered',
  attempt_count: 1n,
  schedule_step: 1n,
  next_attempt_at_ms: BigInt(T0_MS + n * 1_000),
  locked_until_ms: null,
  created_at_ms: BigInt(T0_MS + n * 1_000),
  delivered_at_ms: BigInt(T0_MS + n * 1_000 + 200),
  last_error: null,
});

describe(`migration 0025_webhook_events_by_merchant_resource (${STORE})`, () => {
  it("reads a payment's events by merchant and ref, with the same answer as before", async () => {
    const { store, location } = await openStoreBefore('0025_webhook_events_by_merchant_resource');
    try {
      await insertMerchant(store.db, M);
      // 2,000 payments' events, and three events of one payment spread through them.
      const rows = Array.from({ length: 2_000 }, (_, n) => event(n, n % 700 === 5 ? 'pay-target' : `pay-${n}`));
      for (let i = 0; i < rows.length; i += 250) await store.db.insertInto('webhook_events').values(rows.slice(i, i + 250)).execute();
      const page = () => eventsPageQuery(store.db, M, { resourceRef: 'pay-target' }, null, 51);
      const before = (await page().execute()).map((r) => r.id);
      expect(before).toEqual(['evt_00001405', 'evt_00000705', 'evt_00000005']);

      await migrate(store.db, MIGRATIONS, location.databaseSchema);
      const names = await indexNamesOf(store, 'webhook_events');
      expect(names).toContain('webhook_events_merchant_resource');
      expect(names).not.toContain('webhook_events_resource');
      expect((await page().execute()).map((r) => r.id)).toEqual(before);
      // On SQLite without statistics, as the service runs it.
      expect(await planOf(store, page().compile())).toContain('webhook_events_merchant_resource');
    } finally {
      await store.close();
      await location.drop();
    }
  });
});
