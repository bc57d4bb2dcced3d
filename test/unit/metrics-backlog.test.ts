// /metrics's webhook backlog: the merchant events not yet delivered, counted on their status index up
// to WEBHOOK_BACKLOG_CAP, so a receiver down for a day does not make every scrape read millions of
// index entries (routing/connector-metrics.ts).
import { describe, expect, it } from 'vitest';
import { ConnectorMetrics, WEBHOOK_BACKLOG_CAP } from '../../src/routing/connector-metrics.js';
import type { WebhookEventsTable } from '../../src/webhooks/webhook-rows.js';
import { openTestStore } from '../helpers/store.js';
import { insertMerchant, T0_MS } from '../ledger/helpers.js';

const STORE = process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite';
const M = 'm-backlog';

const event = (n: number, status: WebhookEventsTable['status']): WebhookEventsTable => ({
  id: `evt_${String(n).padStart(32, '0')}`,
  merchant_id: M,
  type: 'payment.succeeded',
  resource_kind: 'payment',
  resource_ref: `pay-${n}`,
  payload_json: '{}',
  url: 'https://merchant.example/hooks',
  destination_source: 'merchant',
  status,
  attempt_count: 0n,
  schedule_step: 0n,
  next_attempt_at_ms: BigInt(T0_MS + n),
  locked_until_ms: null,
  created_at_ms: BigInt(T0_MS + n),
  delivered_at_ms: status === 'delivered' ? BigInt(T0_MS + n) : null,
  last_error: null,
});

const backlogOf = async (metrics: ConnectorMetrics): Promise<number> => {
  const text = await metrics.registry.metrics();
  return Number(/^paygate_webhook_backlog (\d+)$/m.exec(text)?.[1]);
};

describe(`the webhook backlog gauge (${STORE})`, () => {
  it('counts the events waiting for delivery, up to its cap', async () => {
    expect(WEBHOOK_BACKLOG_CAP).toBe(1_000_000);
    const store = await openTestStore();
    try {
      await insertMerchant(store.db, M);
      const rows = [...Array.from({ length: 7 }, (_, n) => event(n, 'pending')), event(7, 'delivered'), event(8, 'delivered')];
      await store.db.insertInto('webhook_events').values(rows).execute();
      const clock = { nowMs: () => T0_MS };
      expect(await backlogOf(new ConnectorMetrics(store.db, clock))).toBe(7);
      expect(await backlogOf(new ConnectorMetrics(store.db, clock, 7))).toBe(7);
      expect(await backlogOf(new ConnectorMetrics(store.db, clock, 5))).toBe(5);
    } finally {
      await store.close();
    }
  });
});
