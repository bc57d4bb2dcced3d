import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signRsaSha512, verifyRsaSha512 } from '../../sdk/src/signing.js';
import { enqueueWebhookEvent, enqueueWebhookEvents, type EnqueueWebhookInput } from '../../src/webhooks/outbox.js';
import { claimDueEvents, recordResults, type AttemptResult } from '../../src/webhooks/queue.js';
import { JITTER_RATIO, MAX_ATTEMPTS, nextRetryDelayMs, RETRY_DELAYS_MS } from '../../src/webhooks/schedule.js';
import { loadOrCreateServiceKey, signRsaSha512Async } from '../../src/webhooks/signer.js';
import { eventRow, openBench, paymentRecord, type Bench } from './helpers.js';

describe('the webhook outbox', () => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await openBench();
  });
  afterEach(async () => {
    await bench.close();
  });

  it('stores the exact body once: the flat record plus the event object', async () => {
    const merchant = await bench.createMerchant({ payment: 'https://merchant.example/payments' });
    const ref = '0199aaaa-0000-7000-8000-000000000042';
    const eventId = await bench.enqueue({ merchantId: merchant.id, resourceRef: ref });
    const row = await eventRow(bench, eventId);
    expect(eventId).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(JSON.parse(row.payload_json)).toEqual({
      ...paymentRecord(ref),
      event: { id: eventId, type: 'payment.succeeded', createdAt: new Date(bench.clock.nowMs()).toISOString() },
    });
    expect(row).toMatchObject({ status: 'pending', url: 'https://merchant.example/payments', attempt_count: 0, next_attempt_at_ms: bench.clock.nowMs() });
  });

  it('sends to the webhookUrl given at creation, else the merchant default of that kind, else nowhere', async () => {
    const merchant = await bench.createMerchant({ payment: 'https://merchant.example/payments', payout: 'https://merchant.example/payouts' });
    const bare = await bench.createMerchant();
    const given = await bench.enqueue({ merchantId: merchant.id, webhookUrl: 'https://merchant.example/this-one' });
    const payment = await bench.enqueue({ merchantId: merchant.id });
    const payout = await bench.enqueue({ merchantId: merchant.id, type: 'payout.failed', resourceKind: 'payout' });
    const none = await bench.enqueue({ merchantId: bare.id });
    const batch = await bench.enqueue({ merchantId: merchant.id, type: 'payout.batch_completed', resourceKind: 'payout_batch' });
    expect(await eventRow(bench, given)).toMatchObject({ url: 'https://merchant.example/this-one', status: 'pending', destination_source: 'request' });
    expect(await eventRow(bench, payment)).toMatchObject({ url: 'https://merchant.example/payments', status: 'pending', destination_source: 'merchant' });
    expect(await eventRow(bench, payout)).toMatchObject({ url: 'https://merchant.example/payouts', status: 'pending', destination_source: 'merchant' });
    expect(await eventRow(bench, batch)).toMatchObject({ url: 'https://merchant.example/payouts', destination_source: 'merchant', resource_kind: 'payout_batch' });
    expect(await eventRow(bench, none)).toMatchObject({ url: null, status: 'no_destination', destination_source: 'none' });
    // The merchant's URLs are read by the insert itself: a merchant that does not exist gets no row.
    await expect(bench.enqueue({ merchantId: 'mch_missing' })).rejects.toThrow(/no merchant mch_missing/);
    expect(await bench.store.db.selectFrom('webhook_events').select('id').where('merchant_id', '=', 'mch_missing').execute()).toEqual([]);
  });

  it('records many events of one moment as it records one: each body, destination and status', async () => {
    const merchant = await bench.createMerchant({ payment: 'https://merchant.example/payments', payout: 'https://merchant.example/payouts' });
    const bare = await bench.createMerchant();
    const nowMs = bench.clock.nowMs();
    const event = (ref: string, merchantId: string, over: Partial<EnqueueWebhookInput> = {}): EnqueueWebhookInput => ({
      merchantId,
      type: 'payment.succeeded',
      resourceKind: 'payment',
      resourceRef: ref,
      record: paymentRecord(ref),
      webhookUrl: null,
      nowMs,
      ...over,
    });
    await enqueueWebhookEvents(
      bench.store.db,
      [
        event('m-given', merchant.id, { webhookUrl: 'https://merchant.example/this-one' }),
        event('m-payment', merchant.id),
        event('m-payout', merchant.id, { type: 'payout.succeeded', resourceKind: 'payout' }),
        event('b-none', bare.id),
      ],
      nowMs,
    );
    const rows = await bench.store.db.selectFrom('webhook_events').selectAll().where('merchant_id', 'in', [merchant.id, bare.id]).orderBy('resource_ref').execute();
    expect(rows.map((row) => [row.resource_ref, row.url, row.destination_source, row.status, row.type, Number(row.next_attempt_at_ms)])).toEqual([
      ['b-none', null, 'none', 'no_destination', 'payment.succeeded', nowMs],
      ['m-given', 'https://merchant.example/this-one', 'request', 'pending', 'payment.succeeded', nowMs],
      ['m-payment', 'https://merchant.example/payments', 'merchant', 'pending', 'payment.succeeded', nowMs],
      ['m-payout', 'https://merchant.example/payouts', 'merchant', 'pending', 'payout.succeeded', nowMs],
    ]);
    for (const row of rows) {
      expect(JSON.parse(row.payload_json)).toEqual({ ...paymentRecord(row.resource_ref), event: { id: row.id, type: row.type, createdAt: new Date(nowMs).toISOString() } });
    }
    // An unknown merchant among them: the call throws, for its transaction to roll back.
    await expect(
      bench.store.db.transaction().execute((trx) => enqueueWebhookEvents(trx, [event('x1', merchant.id), event('x2', 'mch_missing')], nowMs)),
    ).rejects.toThrow(/merchant/);
    expect(await bench.store.db.selectFrom('webhook_events').select('id').where('resource_ref', 'in', ['x1', 'x2']).execute()).toEqual([]);
  });

  it('commits with the state change or not at all', async () => {
    const merchant = await bench.createMerchant({ payment: 'https://merchant.example/payments' });
    await expect(
      bench.store.db.transaction().execute(async (trx) => {
        await enqueueWebhookEvent(trx, {
          merchantId: merchant.id,
          type: 'payment.failed',
          resourceKind: 'payment',
          resourceRef: 'ref-1',
          record: paymentRecord('ref-1'),
          webhookUrl: null,
          nowMs: bench.clock.nowMs(),
        });
        throw new Error('the payment update failed');
      }),
    ).rejects.toThrow('the payment update failed');
    expect(await bench.webhooks.listEvents(merchant.id)).toEqual({ events: [], nextBefore: null });
  });

  it('refuses a type that does not match the resource and a record carrying its own event field', async () => {
    const merchant = await bench.createMerchant();
    await expect(bench.enqueue({ merchantId: merchant.id, type: 'payout.succeeded', resourceKind: 'payment' })).rejects.toThrow(/does not belong/);
    await expect(bench.enqueue({ merchantId: merchant.id, record: { status: 'Success', event: 'x' } })).rejects.toThrow(/event/);
  });

  it('creates one service key even when several instances start at once', async () => {
    const keys = await Promise.all([1, 2, 3].map(() => loadOrCreateServiceKey(bench.store.db, bench.box, bench.clock)));
    expect(new Set(keys.map((k) => k.publicKeyPem)).size).toBe(1);
    expect(keys[0]!.publicKeyPem).toBe(bench.serviceKey.publicKeyPem);
    const stored = await bench.store.db.selectFrom('service_keys').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.private_key_enc).not.toContain('PRIVATE KEY');
  });

  it('signs off the event loop with exactly the bytes of the SDK signer', async () => {
    const body = JSON.stringify(paymentRecord('ref-2'));
    const signature = await signRsaSha512Async(bench.serviceKey.privateKey, body, '1763812800');
    expect(signature).toBe(signRsaSha512(bench.serviceKey.privateKey, body, '1763812800'));
    expect(verifyRsaSha512(crypto.createPublicKey(bench.serviceKey.publicKeyPem), body, '1763812800', signature)).toBe(true);
  });

  it('records a batch of 300 (parts of 256, 32, 8 and 4) as one: each attempt, each new state, and nothing for a lost lease', async () => {
    const merchant = await bench.createMerchant({ payment: 'https://merchant.example/payments' });
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push(await bench.enqueue({ merchantId: merchant.id }));
    const now = bench.clock.nowMs();
    const claimed = await claimDueEvents(bench.store.db, bench.store.kind, 300, now, 60_000);
    expect(claimed).toHaveLength(300);
    // One event's lease passed to another claim meanwhile: its attempt is kept, its state not written over.
    const stolen = claimed[7]!;
    await bench.store.db.updateTable('webhook_events').set({ locked_until_ms: BigInt(now + 999_999) }).where('id', '=', stolen.id).execute();
    // Every fifth event as if on its third attempt (schedule step 3), so the count and the step differ.
    const retried = (i: number): boolean => i % 5 === 1;
    const results: AttemptResult[] = claimed.map((event, i) => ({
      event: retried(i) ? { ...event, attemptCount: 2, scheduleStep: 3 } : event,
      startedAtMs: now + i,
      finishedAtMs: now + i + 5,
      outcome:
        i % 3 === 0
          ? { delivered: false, httpStatus: 500, error: 'HTTP 500', responseSnippet: `oops ${i}`, durationMs: 5 + i }
          : { delivered: true, httpStatus: 200, error: null, responseSnippet: 'SUCCESS', durationMs: 5 + i },
    }));
    await recordResults(bench.store.db, results, () => 0.5);

    const attempts = await bench.store.db.selectFrom('webhook_attempts').selectAll().execute();
    expect(attempts).toHaveLength(300);
    const attemptOf = new Map(attempts.map((a) => [a.event_id, a]));
    expect(new Set(attemptOf.keys())).toEqual(new Set(ids));
    for (const [i, event] of claimed.entries()) {
      const failed = i % 3 === 0;
      const attempt = attemptOf.get(event.id)!;
      expect({
        attempt_no: Number(attempt.attempt_no),
        started_at_ms: Number(attempt.started_at_ms),
        duration_ms: Number(attempt.duration_ms),
        http_status: Number(attempt.http_status),
        error: attempt.error,
        response_snippet: attempt.response_snippet,
      }).toEqual({
        attempt_no: retried(i) ? 3 : 1,
        started_at_ms: now + i,
        duration_ms: 5 + i,
        http_status: failed ? 500 : 200,
        error: failed ? 'HTTP 500' : null,
        response_snippet: failed ? `oops ${i}` : 'SUCCESS',
      });
      const row = await eventRow(bench, event.id);
      if (event.id === stolen.id) {
        expect(row).toMatchObject({ status: 'pending', attempt_count: 0, locked_until_ms: now + 999_999 });
        continue;
      }
      expect({ attempt_count: row.attempt_count, schedule_step: Number(row.schedule_step) }).toEqual(retried(i) ? { attempt_count: 3, schedule_step: 4 } : { attempt_count: 1, schedule_step: 1 });
      if (failed) {
        expect(row).toMatchObject({ status: 'pending', last_error: 'HTTP 500', locked_until_ms: null });
        expect(row.next_attempt_at_ms).toBe(now + i + 5 + nextRetryDelayMs(retried(i) ? 4 : 1, () => 0.5)!);
      } else {
        expect(row).toMatchObject({ status: 'delivered', last_error: null, locked_until_ms: null });
        expect(Number(row.delivered_at_ms)).toBe(now + i + 5);
      }
    }
  });
});

describe('the retry schedule', () => {
  it('is the contract schedule: eight attempts at about 0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(RETRY_DELAYS_MS).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(MAX_ATTEMPTS).toBe(8);
    expect(nextRetryDelayMs(MAX_ATTEMPTS)).toBeNull();
  });

  it('stays within ten percent of each step whatever the jitter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_ATTEMPTS - 1 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (made, r) => {
        const delay = nextRetryDelayMs(made, () => r)!;
        const base = RETRY_DELAYS_MS[made]!;
        expect(delay).toBeGreaterThanOrEqual(Math.floor(base * (1 - JITTER_RATIO)));
        expect(delay).toBeLessThanOrEqual(Math.ceil(base * (1 + JITTER_RATIO)));
      }),
    );
  });
});
