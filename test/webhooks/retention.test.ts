// Webhook event retention (src/webhooks/retention.ts): an event whose delivery is over goes, with its
// attempts, once WEBHOOK_EVENT_RETENTION_DAYS have passed since it was created; an event still being
// retried stays however old it is, and nothing else is touched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/core/clock.js';
import { DAY_MS } from '../../src/core/days.js';
import { CHUNK_EVENTS, expiredEventsQuery, WebhookRetentionJob } from '../../src/webhooks/retention.js';
import type { WebhookEventsTable } from '../../src/webhooks/webhook-rows.js';
import { planOf } from '../helpers/plans.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openTestStore } from '../helpers/store.js';
import { insertMerchant, T0_MS } from '../ledger/helpers.js';
import { paidPayment, pause } from '../payments/api-helpers.js';
import { Receiver } from './helpers.js';

const STORE = process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite';
const M = 'm-retention';
const RETENTION_DAYS = 30;
/** The job's clock: exactly RETENTION_DAYS after T0, so an event created before T0 has expired. */
const NOW_MS = T0_MS + RETENTION_DAYS * DAY_MS;

type Status = WebhookEventsTable['status'];

const event = (n: number, status: Status, createdAtMs: number): WebhookEventsTable => ({
  id: `evt_${String(n).padStart(8, '0')}`,
  merchant_id: M,
  type: 'payment.succeeded',
  resource_kind: 'payment',
  resource_ref: `pay-${n}`,
  payload_json: JSON.stringify({ transactionRef: `pay-${n}` }),
  url: status === 'no_destination' ? null : 'https://merchant.example/hooks',
  destination_source: 'merchant',
  status,
  attempt_count: status === 'no_destination' ? 0n : 1n,
  schedule_step: 1n,
  next_attempt_at_ms: BigInt(createdAtMs),
  locked_until_ms: null,
  created_at_ms: BigInt(createdAtMs),
  delivered_at_ms: status === 'delivered' ? BigInt(createdAtMs + 100) : null,
  last_error: status === 'failed' ? 'HTTP 500' : null,
});

const attempt = (eventId: string, attemptNo: number) => ({
  id: `att_${eventId}_${attemptNo}`,
  event_id: eventId,
  attempt_no: BigInt(attemptNo),
  started_at_ms: BigInt(T0_MS),
  duration_ms: 12n,
  http_status: 500n,
  error: 'HTTP 500',
  response_snippet: 'no',
});

async function withStore<T>(work: (store: Awaited<ReturnType<typeof openTestStore>>) => Promise<T>): Promise<T> {
  const store = await openTestStore();
  try {
    await insertMerchant(store.db, M);
    return await work(store);
  } finally {
    await store.close();
  }
}

const idsOf = async (store: Awaited<ReturnType<typeof openTestStore>>): Promise<string[]> =>
  (await store.db.selectFrom('webhook_events').select('id').orderBy('id').execute()).map((r) => r.id);

const attemptEventsOf = async (store: Awaited<ReturnType<typeof openTestStore>>): Promise<string[]> =>
  [...new Set((await store.db.selectFrom('webhook_attempts').select('event_id').execute()).map((r) => r.event_id))].sort();

describe(`webhook event retention (${STORE})`, () => {
  it('deletes the finished events created before the retention began, with their attempts, and nothing else', async () => {
    await withStore(async (store) => {
      const rows = [
        event(1, 'delivered', T0_MS - 1),
        event(2, 'failed', T0_MS - DAY_MS),
        event(3, 'no_destination', T0_MS - 5),
        // Still being retried: kept, however old.
        event(4, 'pending', T0_MS - 400 * DAY_MS),
        // Created at the retention's first instant, and after it: kept.
        event(5, 'delivered', T0_MS),
        event(6, 'failed', T0_MS + 1),
      ];
      await store.db.insertInto('webhook_events').values(rows).execute();
      await store.db
        .insertInto('webhook_attempts')
        .values([attempt(rows[0]!.id, 1), ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => attempt(rows[1]!.id, n)), attempt(rows[3]!.id, 1), attempt(rows[4]!.id, 1), attempt(rows[5]!.id, 1)])
        .execute();

      const job = new WebhookRetentionJob({ db: store.db, clock: new ManualClock(NOW_MS), retentionDays: RETENTION_DAYS });
      expect(job.cutoffMs()).toBe(T0_MS);
      expect(await job.runOnce()).toBe(3);
      expect(await idsOf(store)).toEqual([rows[3]!.id, rows[4]!.id, rows[5]!.id]);
      expect(await attemptEventsOf(store)).toEqual([rows[3]!.id, rows[4]!.id, rows[5]!.id]);
      // Nothing left to do: a second run deletes nothing.
      expect(await job.runOnce()).toBe(0);
      expect(await idsOf(store)).toHaveLength(3);
    });
  });

  it('drains a backlog oldest first, a bounded number of chunks a run', async () => {
    await withStore(async (store) => {
      const expired = Array.from({ length: 23 }, (_, n) => event(n, n % 3 === 0 ? 'failed' : 'delivered', T0_MS - 1_000 + n * 10));
      const fresh = Array.from({ length: 4 }, (_, n) => event(100 + n, 'delivered', T0_MS + n));
      await store.db.insertInto('webhook_events').values([...expired, ...fresh]).execute();
      const job = new WebhookRetentionJob({ db: store.db, clock: new ManualClock(NOW_MS), retentionDays: RETENTION_DAYS, chunkEvents: 5, chunksPerRun: 2 });

      expect(await job.runOnce()).toBe(10);
      // The ten oldest went first.
      expect(await idsOf(store)).toEqual([...expired.slice(10), ...fresh].map((e) => e.id));
      expect(await job.runOnce()).toBe(10);
      expect(await job.runOnce()).toBe(3);
      expect(await job.runOnce()).toBe(0);
      expect(await idsOf(store)).toEqual(fresh.map((e) => e.id));
    });
  });

  it('shares a backlog between two workers, each event deleted once', async () => {
    await withStore(async (store) => {
      const expired = Array.from({ length: 40 }, (_, n) => event(n, 'delivered', T0_MS - 1_000 + n));
      await store.db.insertInto('webhook_events').values(expired).execute();
      await store.db.insertInto('webhook_attempts').values(expired.map((e) => attempt(e.id, 1))).execute();
      const workers = [0, 1].map(() => new WebhookRetentionJob({ db: store.db, clock: new ManualClock(NOW_MS), retentionDays: RETENTION_DAYS, chunkEvents: 3, chunksPerRun: 2 }));
      let deleted = 0;
      for (let round = 0; round < 40; round++) {
        const counts = await Promise.all(workers.map((w) => w.runOnce()));
        deleted += counts[0]! + counts[1]!;
        if (counts[0] === 0 && counts[1] === 0) break;
      }
      expect(deleted).toBe(40);
      expect(await idsOf(store)).toEqual([]);
      expect(await attemptEventsOf(store)).toEqual([]);
    });
  });

  it('never deletes an event a resend made pending, whichever of the two comes first', async () => {
    await withStore(async (store) => {
      const { WebhookService } = await import('../../src/webhooks/service.js');
      const { loadOrCreateServiceKey } = await import('../../src/webhooks/signer.js');
      const { SecretBox } = await import('../../src/core/secrets.js');
      const clock = new ManualClock(NOW_MS);
      const webhooks = new WebhookService(store.db, await loadOrCreateServiceKey(store.db, new SecretBox(Buffer.alloc(32, 3).toString('base64')), clock), clock);
      const rounds = 12;
      // Sent to the URL the payment named, so a resend needs no merchant setting.
      const rows = Array.from({ length: rounds }, (_, n) => ({ ...event(n, 'failed', T0_MS - 1_000 + n), destination_source: 'request' as const }));
      await store.db.insertInto('webhook_events').values(rows).execute();
      await store.db.insertInto('webhook_attempts').values(rows.flatMap((r) => [attempt(r.id, 1), attempt(r.id, 2)])).execute();
      const job = new WebhookRetentionJob({ db: store.db, clock, retentionDays: RETENTION_DAYS, chunkEvents: 1, chunksPerRun: 1 });

      // One after the other: a resent event is pending and stays; a purged one cannot be resent.
      await webhooks.resend(rows[0]!.id, M, 'test');
      expect(await job.runOnce()).toBe(1);
      expect(await idsOf(store)).toContain(rows[0]!.id);
      expect(await idsOf(store)).not.toContain(rows[1]!.id);
      await expect(webhooks.resend(rows[1]!.id, M, 'test')).rejects.toThrow(/NOT_FOUND/);

      for (const row of rows.slice(2)) {
        // The job takes the oldest expired event first: this round's row.
        const [purged, resent] = await Promise.allSettled([job.runOnce(), webhooks.resend(row.id, M, 'test')]);
        expect(purged.status).toBe('fulfilled');
        const stored = await store.db.selectFrom('webhook_events').select('status').where('id', '=', row.id).executeTakeFirst();
        const attempts = await store.db.selectFrom('webhook_attempts').select('id').where('event_id', '=', row.id).execute();
        if (stored === undefined) {
          // The purge came first: the resend found no event, and no attempt of it is left behind.
          expect(resent.status).toBe('rejected');
          expect(String((resent as PromiseRejectedResult).reason)).toMatch(/NOT_FOUND/);
          expect(attempts).toEqual([]);
        } else {
          // The resend came first: the event waits for its new delivery, with its history.
          expect(resent.status).toBe('fulfilled');
          expect(stored.status).toBe('pending');
          expect(attempts).toHaveLength(2);
        }
      }
    });
  });

  it('records no resend of an event the purge deleted while the resend waited', async () => {
    await withStore(async (store) => {
      const { WebhookService } = await import('../../src/webhooks/service.js');
      const { loadOrCreateServiceKey } = await import('../../src/webhooks/signer.js');
      const { SecretBox } = await import('../../src/core/secrets.js');
      const { isPostgres } = await import('../../src/store/schema.js');
      const clock = new ManualClock(NOW_MS);
      const webhooks = new WebhookService(store.db, await loadOrCreateServiceKey(store.db, new SecretBox(Buffer.alloc(32, 3).toString('base64')), clock), clock);
      const row = { ...event(1, 'failed', T0_MS - 5), destination_source: 'request' as const };
      await store.db.insertInto('webhook_events').values(row).execute();
      await store.db.insertInto('webhook_attempts').values([attempt(row.id, 1)]).execute();
      // The job's chunk, held open while a resend comes: on PostgreSQL the resend reads the row and its
      // update waits for the lock; on SQLite the resend's transaction waits for this one.
      let resent: Promise<unknown> | null = null;
      await store.db.transaction().execute(async (trx) => {
        const chosen = expiredEventsQuery(trx, BigInt(T0_MS), CHUNK_EVENTS);
        const ids = (await (isPostgres(trx) ? chosen.forUpdate().skipLocked() : chosen).execute()).map((r) => r.id);
        expect(ids).toEqual([row.id]);
        await trx.deleteFrom('webhook_attempts').where('event_id', 'in', ids).execute();
        await trx.deleteFrom('webhook_events').where('id', 'in', ids).execute();
        resent = webhooks.resend(row.id, M, 'test').catch((error: unknown) => error);
        await pause(300);
      });
      expect(String(await resent)).toMatch(/NOT_FOUND/);
      const audited = await store.db.selectFrom('audit_log').select('action').where('target', '=', row.id).execute();
      expect(audited).toEqual([]);
    });
  });

  it('reads the expired events on webhook_events_created', async () => {
    await withStore(async (store) => {
      const plan = await planOf(store, expiredEventsQuery(store.db, BigInt(T0_MS), CHUNK_EVENTS).compile());
      expect(plan).toContain('webhook_events_created');
    });
  });

  it('keeps events 90 days by default, and forever with 0', () => {
    const base = { DATA_DIR: '/tmp/paygate-retention-config' };
    expect(loadConfig(base).webhookRetentionDays).toBe(90);
    expect(loadConfig({ ...base, WEBHOOK_EVENT_RETENTION_DAYS: '0' }).webhookRetentionDays).toBe(0);
    expect(() => loadConfig({ ...base, WEBHOOK_EVENT_RETENTION_DAYS: '-1' })).toThrow(/WEBHOOK_EVENT_RETENTION_DAYS/);
    expect(() => new WebhookRetentionJob({ db: null as never, clock: new ManualClock(0), retentionDays: 0 })).toThrow(/retentionDays/);
  });
});

describe(`webhook event retention through the API (${STORE})`, () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await new Receiver().listen();
    server = await startTestServer({ WEBHOOK_EVENT_RETENTION_DAYS: String(RETENTION_DAYS) });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it("lists a delivered event until its retention is over, then 404s it while the payment still answers", async () => {
    const job = server.jobs.find((j) => j.name === 'webhook-retention');
    expect(job).toBeDefined();
    const shop = await server.createMerchant();
    const ref = await paidPayment(shop, 'INR', 'NATIVE', { webhookUrl: receiver.url });
    let events = await shop.client.webhookEvents({});
    for (let i = 0; i < 200 && !(events.ok && events.data.events[0]?.status === 'delivered'); i++) {
      await pause(25);
      events = await shop.client.webhookEvents({});
    }
    expect(events.data.events).toMatchObject([{ resourceRef: ref, status: 'delivered', type: 'payment.succeeded' }]);
    const eventId = events.data.events[0]!.id;
    expect(receiver.hitsFor(eventId)).toHaveLength(1);

    // A day before the end of its retention the event is still there; the job leaves it.
    server.clock.advance((RETENTION_DAYS - 1) * DAY_MS);
    expect(await job!.runOnce()).toBe(0);
    expect((await shop.client.webhookEvent(eventId)).data).toMatchObject({ id: eventId, attempts: [{ attemptNo: 1, httpStatus: 200 }] });

    server.clock.advance(DAY_MS + 60_000);
    expect(await job!.runOnce()).toBe(1);
    expect((await shop.client.webhookEvents({})).data).toEqual({ events: [], nextBefore: null });
    const gone = await shop.client.webhookEvent(eventId);
    expect(gone).toMatchObject({ ok: false, status: 404, code: '404', message: 'NOT_FOUND' });
    expect((await shop.client.paymentStatus({ transactionRef: ref })).data).toMatchObject({ transactionRef: ref, status: 'Success' });
    expect(await server.services.store.db.selectFrom('webhook_attempts').select('id').where('event_id', '=', eventId).execute()).toEqual([]);
  });

  it('is not made when the retention is 0', async () => {
    const keeping = await startTestServer({ WEBHOOK_EVENT_RETENTION_DAYS: '0' }, { worker: false });
    try {
      expect(keeping.jobs.map((j) => j.name)).not.toContain('webhook-retention');
    } finally {
      await keeping.close();
    }
  });
});
