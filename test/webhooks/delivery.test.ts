import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyStandardWebhook, verifyWebhookSignature } from '../../sdk/src/webhooks.js';
import { RETRY_DELAYS_MS, MAX_ATTEMPTS, JITTER_RATIO } from '../../src/webhooks/schedule.js';
import type { HostResolver } from '../../src/webhooks/ssrf.js';
import { attemptRows, eventRow, openBench, Receiver, type Bench } from './helpers.js';

describe('webhook delivery', () => {
  let bench: Bench;
  let receiver: Receiver;
  beforeEach(async () => {
    bench = await openBench();
    receiver = await new Receiver().listen();
  });
  afterEach(async () => {
    await receiver.close();
    await bench.close();
  });

  it('delivers the stored bytes with both signatures, verified by the SDK and the standardwebhooks library', async () => {
    const merchant = await bench.createMerchant({ payment: receiver.url });
    const eventId = await bench.enqueue({ merchantId: merchant.id });
    expect(await bench.dispatcher().dispatchDue()).toBe(1);

    const [hit] = receiver.hits;
    expect(receiver.hits).toHaveLength(1);
    const row = await eventRow(bench, eventId);
    expect(hit!.body).toBe(row.payload_json);
    expect(hit!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Paygate-Webhooks/1',
      merchantid: merchant.id,
      'webhook-id': eventId,
    });
    const nowSeconds = Math.floor(bench.clock.nowMs() / 1000);
    expect(hit!.headers.timestamp).toBe(String(nowSeconds));
    expect(hit!.headers['webhook-timestamp']).toBe(String(nowSeconds));

    const rsa = verifyWebhookSignature({ body: hit!.body, headers: hit!.headers, servicePublicKeyPem: await bench.webhooks.servicePublicKeyPem(), nowSeconds });
    expect(rsa.ok).toBe(true);
    const standard = verifyStandardWebhook({ body: hit!.body, headers: hit!.headers, secret: merchant.webhookSecret, nowSeconds });
    expect(standard).toEqual({ ok: true, event: JSON.parse(row.payload_json) });
    const library = new Webhook(merchant.webhookSecret).verify(hit!.body, hit!.headers as Record<string, string>);
    expect((library as { event: { id: string } }).event.id).toBe(eventId);

    expect(row).toMatchObject({ status: 'delivered', attempt_count: 1, locked_until_ms: null, last_error: null });
    expect(Number(row.delivered_at_ms)).toBe(bench.clock.nowMs());
    const attempts = await attemptRows(bench, eventId);
    expect(attempts).toMatchObject([{ attempt_no: 1, http_status: 200, error: null, response_snippet: 'SUCCESS' }]);
  });

  it('retries a receiver that is down or failing on the contract schedule, then delivers', async () => {
    const port = receiver.port;
    await receiver.close();
    const merchant = await bench.createMerchant({ payment: `http://127.0.0.1:${port}/hooks` });
    const eventId = await bench.enqueue({ merchantId: merchant.id });
    const dispatcher = bench.dispatcher({ random: Math.random });

    const outcomes: (string | null)[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      if (attempt === 2) {
        receiver = await new Receiver().listen(port);
        receiver.behaviour = () => ({ status: 500, body: 'database is down' });
      }
      if (attempt === 4) receiver.behaviour = () => ({ status: 204 });
      const before = await eventRow(bench, eventId);
      bench.clock.set(before.next_attempt_at_ms);
      expect(await dispatcher.dispatchDue()).toBe(1);
      const after = await eventRow(bench, eventId);
      outcomes.push(after.last_error);
      if (attempt < 4) {
        const delay = after.next_attempt_at_ms - bench.clock.nowMs();
        const base = RETRY_DELAYS_MS[attempt]!;
        expect(delay).toBeGreaterThanOrEqual(base * (1 - JITTER_RATIO));
        expect(delay).toBeLessThanOrEqual(base * (1 + JITTER_RATIO));
        // Not due a moment before its time.
        bench.clock.set(after.next_attempt_at_ms - 1);
        expect(await dispatcher.dispatchDue()).toBe(0);
      }
    }
    expect(outcomes).toEqual(['connection refused', 'HTTP 500', 'HTTP 500', null]);
    expect(await eventRow(bench, eventId)).toMatchObject({ status: 'delivered', attempt_count: 4 });
    const attempts = await attemptRows(bench, eventId);
    expect(attempts.map((a) => [a.attempt_no, a.http_status, a.error])).toEqual([
      [1, null, 'connection refused'],
      [2, 500, 'HTTP 500'],
      [3, 500, 'HTTP 500'],
      [4, 204, null],
    ]);
    expect(attempts[1]!.response_snippet).toBe('database is down');
    expect(receiver.hits).toHaveLength(3);
  });

  it('gives up after the eighth attempt and keeps the event visible as failed', async () => {
    receiver.behaviour = () => ({ status: 503, body: 'x'.repeat(1000) });
    const merchant = await bench.createMerchant({ payment: receiver.url });
    const eventId = await bench.enqueue({ merchantId: merchant.id });
    const dispatcher = bench.dispatcher();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      bench.clock.set((await eventRow(bench, eventId)).next_attempt_at_ms);
      expect(await dispatcher.dispatchDue()).toBe(1);
    }
    bench.clock.advance(30 * 24 * 3600_000);
    expect(await dispatcher.dispatchDue()).toBe(0);

    expect(await eventRow(bench, eventId)).toMatchObject({ status: 'failed', attempt_count: MAX_ATTEMPTS, last_error: 'HTTP 503' });
    const attempts = await attemptRows(bench, eventId);
    expect(attempts).toHaveLength(MAX_ATTEMPTS);
    expect(attempts.every((a) => a.response_snippet!.length === 200)).toBe(true);
    const gaps = attempts.slice(1).map((a, i) => a.started_at_ms - attempts[i]!.started_at_ms);
    expect(gaps).toEqual(RETRY_DELAYS_MS.slice(1));
    const listed = await bench.webhooks.listEvents(merchant.id, { status: 'failed' });
    expect(listed.events.map((e) => e.id)).toEqual([eventId]);
  });

  it('counts a receiver that never answers as a timed-out attempt', async () => {
    receiver.behaviour = () => 'hang';
    const merchant = await bench.createMerchant({ payment: receiver.url });
    const eventId = await bench.enqueue({ merchantId: merchant.id });
    const started = performance.now();
    await bench.dispatcher({ timeoutMs: 300, leaseMs: 1000 }).dispatchDue();
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await eventRow(bench, eventId)).toMatchObject({ status: 'pending', last_error: 'timed out after 300 ms' });
    expect((await attemptRows(bench, eventId))[0]).toMatchObject({ http_status: null, error: 'timed out after 300 ms' });
  });

  it('ends an answer whose body never finishes at the same deadline: the 200 decided it, the snippet keeps what came', async () => {
    receiver.behaviour = () => 'trickle';
    const merchant = await bench.createMerchant({ payment: receiver.url });
    const eventId = await bench.enqueue({ merchantId: merchant.id });
    await bench.dispatcher({ timeoutMs: 300, leaseMs: 1000 }).dispatchDue();
    expect(await eventRow(bench, eventId)).toMatchObject({ status: 'delivered', last_error: null });
    const [attempt] = await attemptRows(bench, eventId);
    expect(attempt).toMatchObject({ http_status: 200, error: null });
    expect(attempt!.response_snippet).toMatch(/^still writing\.*$/);
    // Cut at the deadline, not before it and not at the 15 s default.
    expect(Number(attempt!.duration_ms)).toBeGreaterThanOrEqual(290);
    expect(Number(attempt!.duration_ms)).toBeLessThan(5000);
  });

  it('keeps delivering other events while one receiver hangs', async () => {
    const merchant = await bench.createMerchant({ payment: receiver.url });
    const slow = await bench.enqueue({ merchantId: merchant.id });
    const others = [];
    for (let i = 0; i < 6; i++) others.push(await bench.enqueue({ merchantId: merchant.id }));
    receiver.behaviour = (hit) => (hit.eventId === slow ? 'hang' : { status: 200 });
    const dispatcher = bench.dispatcher({ concurrency: 4, timeoutMs: 5_000, leaseMs: 10_000 });
    const deadline = Date.now() + 4_000;
    while (Date.now() < deadline && (await bench.webhooks.listEvents(merchant.id, { status: 'delivered' })).events.length < others.length) {
      await dispatcher.runOnce();
    }
    const delivered = (await bench.webhooks.listEvents(merchant.id, { status: 'delivered' })).events.map((e) => e.id);
    expect(delivered.sort()).toEqual([...others].sort());
    expect(await eventRow(bench, slow)).toMatchObject({ status: 'pending', attempt_count: 0 });
  });

  it('signs with the merchant\'s current webhook secret, and the replaced one beside it during the overlap', async () => {
    const merchant = await bench.createMerchant({ payment: receiver.url });
    await bench.enqueue({ merchantId: merchant.id });
    const rotated = await bench.merchants.rotateWebhookSecret(merchant.id, 'test');
    await bench.dispatcher().dispatchDue();
    const [hit] = receiver.hits;
    const nowSeconds = Math.floor(bench.clock.nowMs() / 1000);
    expect(String(hit!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyStandardWebhook({ body: hit!.body, headers: hit!.headers, secret: rotated, nowSeconds }).ok).toBe(true);
    expect(verifyStandardWebhook({ body: hit!.body, headers: hit!.headers, secret: merchant.webhookSecret, nowSeconds }).ok).toBe(true);
    // Once the overlap is over, only the new secret signs.
    bench.clock.advance(86_400_000 + 1000);
    await bench.enqueue({ merchantId: merchant.id });
    await bench.dispatcher().dispatchDue();
    const later = receiver.hits[1]!;
    const laterSeconds = Math.floor(bench.clock.nowMs() / 1000);
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyStandardWebhook({ body: later.body, headers: later.headers, secret: rotated, nowSeconds: laterSeconds }).ok).toBe(true);
    expect(verifyStandardWebhook({ body: later.body, headers: later.headers, secret: merchant.webhookSecret, nowSeconds: laterSeconds }).ok).toBe(false);
  });

  it('does not follow a redirect and counts it as a failure', async () => {
    receiver.behaviour = (hit) => (hit.path === '/hooks' ? { status: 302, headers: { location: '/elsewhere' } } : { status: 200 });
    const merchant = await bench.createMerchant({ payment: receiver.url });
    const eventId = await bench.enqueue({ merchantId: merchant.id });
    await bench.dispatcher().dispatchDue();
    expect(receiver.hits.map((h) => h.path)).toEqual(['/hooks']);
    expect(await eventRow(bench, eventId)).toMatchObject({ status: 'pending', last_error: 'HTTP 302 (redirects are not followed)' });
  });

  it('records an event without a destination and sends nothing', async () => {
    const merchant = await bench.createMerchant();
    const eventId = await bench.enqueue({ merchantId: merchant.id });
    expect(await bench.dispatcher().dispatchDue()).toBe(0);
    expect(receiver.hits).toHaveLength(0);
    const [listed] = (await bench.webhooks.listEvents(merchant.id)).events;
    expect(listed).toMatchObject({ id: eventId, status: 'no_destination', url: null, attemptCount: 0, nextAttemptAt: null });
  });

  describe('the SSRF guard', () => {
    const table: Record<string, string> = {
      'internal.example': '10.20.30.40',
      'metadata.example': '169.254.169.254',
      'pinned.example': '127.0.0.1',
    };
    const resolve: HostResolver = async (host) => (table[host] ? [{ address: table[host]!, family: 4 }] : []);
    const strictHttp = { allowHosts: [], allowHttp: true };

    it('refuses loopback, private and metadata destinations before connecting, and records why', async () => {
      const merchant = await bench.createMerchant();
      const cases = [
        [`http://127.0.0.1:${receiver.port}/hooks`, 'URL points to a loopback address (127.0.0.1)'],
        [`http://2130706433:${receiver.port}/hooks`, 'URL points to a loopback address (127.0.0.1)'],
        [`http://[::ffff:127.0.0.1]:${receiver.port}/hooks`, 'URL points to a loopback address (::ffff:7f00:1)'],
        [`http://localhost:${receiver.port}/hooks`, 'URL points to a loopback address (localhost)'],
        [`http://internal.example:${receiver.port}/hooks`, 'internal.example resolves to a private address (10.20.30.40)'],
        [`http://metadata.example/latest/meta-data`, 'metadata.example resolves to a metadata address (169.254.169.254)'],
        [`http://pinned.example:${receiver.port}/hooks`, 'pinned.example resolves to a loopback address (127.0.0.1)'],
      ] as const;
      const ids = [];
      for (const [url] of cases) ids.push(await bench.enqueue({ merchantId: merchant.id, webhookUrl: url }));
      await bench.dispatcher({ config: strictHttp, resolve }).dispatchDue();
      expect(receiver.hits).toHaveLength(0);
      for (const [i, [, reason]] of cases.entries()) {
        const [attempt] = await attemptRows(bench, ids[i]!);
        expect(attempt, cases[i]![0]).toMatchObject({ http_status: null, error: `destination refused: ${reason}` });
        expect((await eventRow(bench, ids[i]!)).status).toBe('pending');
      }
    });

    it('requires https unless the operator allows http', async () => {
      const merchant = await bench.createMerchant({ payment: receiver.url });
      const eventId = await bench.enqueue({ merchantId: merchant.id });
      await bench.dispatcher({ config: { allowHosts: ['127.0.0.1'], allowHttp: false } }).dispatchDue();
      expect(receiver.hits).toHaveLength(0);
      expect((await eventRow(bench, eventId)).last_error).toBe('destination refused: URL must use https');
    });

    it('connects to exactly the address it vetted when the operator allow-lists it', async () => {
      const merchant = await bench.createMerchant({ payment: `http://pinned.example:${receiver.port}/hooks` });
      const eventId = await bench.enqueue({ merchantId: merchant.id });
      // pinned.example exists only in the test resolver: the connection used the vetted answer.
      await bench.dispatcher({ config: { allowHosts: ['127.0.0.1'], allowHttp: true }, resolve }).dispatchDue();
      expect(receiver.hits.map((h) => [h.eventId, h.headers.host])).toEqual([[eventId, `pinned.example:${receiver.port}`]]);
      expect((await eventRow(bench, eventId)).status).toBe('delivered');
    });
  });

  it('resends an event, even a delivered one, and starts a fresh schedule', async () => {
    const merchant = await bench.createMerchant({ payment: receiver.url });
    const eventId = await bench.enqueue({ merchantId: merchant.id });
    const dispatcher = bench.dispatcher();
    await dispatcher.dispatchDue();
    const resent = await bench.webhooks.resend(eventId, merchant.id, 'test');
    expect(resent).toMatchObject({ status: 'pending', nextAttemptAt: new Date(bench.clock.nowMs()).toISOString() });
    await dispatcher.dispatchDue();
    expect(receiver.hitsFor(eventId)).toHaveLength(2);
    expect(receiver.hits[0]!.body).toBe(receiver.hits[1]!.body);
    const detail = await bench.webhooks.getEvent(eventId, merchant.id);
    expect(detail).toMatchObject({ status: 'delivered', attemptCount: 2 });
    expect(detail.attempts.map((a) => a.attemptNo)).toEqual([1, 2]);
  });

  it('resends an event that had no destination to the URL the merchant configured since', async () => {
    const merchant = await bench.createMerchant();
    const eventId = await bench.enqueue({ merchantId: merchant.id });
    await expect(bench.webhooks.resend(eventId, merchant.id, 'test')).rejects.toMatchObject({ reason: 'CONFLICT' });
    await bench.merchants.setWebhookUrls(merchant.id, { payment: receiver.url }, 'test');
    expect(await bench.webhooks.resend(eventId, null, 'test')).toMatchObject({ status: 'pending', url: receiver.url });
    await bench.dispatcher().dispatchDue();
    expect(receiver.hitsFor(eventId)).toHaveLength(1);
  });

  it('shows a merchant only its own events: another merchant\'s id is NOT_FOUND, and only a point in time as a cursor', async () => {
    const a = await bench.createMerchant({ payment: receiver.url });
    const b = await bench.createMerchant({ payment: receiver.url });
    // Both created a second before the ids are made, so A's id carries a later time than either.
    bench.clock.set(Date.now() - 1000);
    const eventOfA = await bench.enqueue({ merchantId: a.id });
    const eventOfB = await bench.enqueue({ merchantId: b.id });
    expect((await bench.webhooks.listEvents(b.id)).events.map((e) => e.id)).toEqual([eventOfB]);
    await expect(bench.webhooks.getEvent(eventOfA, b.id)).rejects.toMatchObject({ reason: 'NOT_FOUND' });
    await expect(bench.webhooks.resend(eventOfA, b.id, 'test')).rejects.toMatchObject({ reason: 'NOT_FOUND' });
    // As a cursor, A's id is only the time it carries (events-cursor.test.ts): B's events created before it.
    expect((await bench.webhooks.listEvents(b.id, { before: eventOfA })).events.map((e) => e.id)).toEqual([eventOfB]);
    expect((await bench.webhooks.listEvents(null)).events.map((e) => e.id).sort()).toEqual([eventOfA, eventOfB].sort());
    expect((await bench.webhooks.getEvent(eventOfA, null)).merchantId).toBe(a.id);
  });

  it('pages through events newest first', async () => {
    const merchant = await bench.createMerchant({ payment: receiver.url });
    const ids = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await bench.enqueue({ merchantId: merchant.id }));
      bench.clock.advance(1000);
    }
    const first = await bench.webhooks.listEvents(merchant.id, { limit: 2 });
    const second = await bench.webhooks.listEvents(merchant.id, { limit: 2, before: first.nextBefore! });
    const third = await bench.webhooks.listEvents(merchant.id, { limit: 2, before: second.nextBefore! });
    expect([...first.events, ...second.events, ...third.events].map((e) => e.id)).toEqual(ids.reverse());
    expect(third.nextBefore).toBeNull();
  });
});
