// Payout batches through HTTP with the SDK: each item accepted or refused on its own, atomic
// batches refused whole, idempotency on the batch merchantRef, the body and item limits, the rate
// limit counting a batch once, batchStatus, and payout.batch_completed sent exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayoutBatchWebhookPayload, PayoutInitiateRequest } from '../../sdk/src/index.js';
import { verifyStandardWebhook } from '../../sdk/src/index.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { eventsOf, newMerchantRef, pause } from '../payments/api-helpers.js';
import { Receiver } from '../webhooks/helpers.js';
import { fund, magicAccount, payoutBody } from './helpers.js';

let server: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  server = await startTestServer();
  receiver = await new Receiver().listen();
});
afterAll(async () => {
  expect(await server.services.ledger.verify()).toEqual([]);
  await server.close();
  await receiver.close();
});

const balances = (merchantId: string) => server.services.ledger.balances(merchantId, 'INR');

async function fundedMerchant(amountMinor = 100_000_00n, options: { rateLimitPerSecond?: number } = {}): Promise<TestMerchant> {
  const merchant = await server.createMerchant(options);
  await fund(server, merchant.id, 'INR', amountMinor);
  return merchant;
}

async function payoutCount(merchantId: string): Promise<number> {
  const rows = await server.services.store.db.selectFrom('payouts').select('transaction_ref').where('merchant_id', '=', merchantId).execute();
  return rows.length;
}

async function eventually<T>(check: () => Promise<T>, limitMs = 10_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await pause(50);
    }
  }
}

const item = (overrides: Partial<PayoutInitiateRequest> = {}) => payoutBody('INR', 'BANK', { amount: 1000, ...overrides });

describe('payout/batch intake', () => {
  it('accepts the valid items and refuses the others, each with its reason, reserving only what was accepted', async () => {
    const shop = await fundedMerchant(3_100_00n);
    const used = await shop.client.payoutInitiate(item({ amount: 100 }));
    expect(used.status).toBe(200);
    const dup = newMerchantRef();
    const items = [
      item(), // 0 accepted: 1005 reserved
      item({ bankCode: 'ZZZZ0001234' }), // 1 bad IFSC bank
      { ...item(), email: undefined } as unknown as PayoutInitiateRequest, // 2 missing email
      item({ merchantRef: dup }), // 3 accepted
      item({ merchantRef: dup }), // 4 repeats item 3's merchantRef
      item({ merchantRef: used.data.merchantRef }), // 5 already a payout
      item({ amount: 5000 }), // 6 over what is left
      item({ currency: 'USD' as never }), // 7 unsupported currency
      item({ amount: 900 }), // 8 still fits (995 left after 0 and 3, less 100 + 5 of the single payout)
    ];
    const answer = await shop.client.payoutBatch({ merchantRef: newMerchantRef(), items });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ itemCount: 9, accepted: 3, refused: 6, atomic: false });
    const results = answer.data.items;
    expect(results.map((r) => r.result)).toEqual(['accepted', 'refused', 'refused', 'accepted', 'refused', 'refused', 'refused', 'refused', 'accepted']);
    expect(results.map((r) => r.reason ?? null)).toEqual([
      null,
      'INVALID_BANK_CODE',
      'VALIDATION_FAILED',
      null,
      'DUPLICATE_MERCHANT_REF',
      'DUPLICATE_MERCHANT_REF',
      'INSUFFICIENT_BALANCE',
      'UNSUPPORTED_CURRENCY',
      null,
    ]);
    expect(results[2]!.errors).toEqual([{ field: 'email', problem: 'is required' }]);
    expect(results[0]).toMatchObject({ index: 0, merchantRef: items[0]!.merchantRef, amount: 1000, fee: 5, status: 'Initiated' });
    // Accepted items took amount + fee from available in the order sent; item 6 found too little left.
    const taken = 105_00n + 2n * 1005_00n + 900_00n + BigInt(Math.round(results[8]!.fee! * 100));
    expect((await balances(shop.id)).available).toBe(3_100_00n - taken);
    const payouts = await server.services.store.db.selectFrom('payouts').selectAll().where('merchant_id', '=', shop.id).execute();
    expect(payouts).toHaveLength(4);
    const batchRefs = payouts.filter((p) => p.batch_id === answer.data.batchId).map((p) => p.transaction_ref).sort();
    expect(batchRefs).toEqual([results[0]!.transactionRef, results[3]!.transactionRef, results[8]!.transactionRef].sort());
    const status = await shop.client.payoutStatus({ transactionRef: results[3]!.transactionRef! });
    expect(status.data).toMatchObject({ merchantRef: dup, amount: 1000 });
  });

  it('atomic: one bad item refuses the whole batch with every problem listed, and nothing is stored or reserved', async () => {
    const shop = await fundedMerchant(10_000_00n);
    const ref = newMerchantRef();
    const answer = await shop.client.payoutBatch({
      merchantRef: ref,
      atomic: true,
      items: [item(), item({ bankCode: 'ZZZZ0001234' }), item(), { ...item(), phone: 'x' }],
    });
    expect(answer.status).toBe(400);
    expect(answer.message).toBe('BATCH_REFUSED');
    const errors = (answer.data as unknown as { errors: { field: string; problem: string }[] }).errors;
    expect(errors.map((e) => e.field)).toEqual(['items.1.bankCode', 'items.3.phone']);
    expect(errors[0]!.problem).toMatch(/^INVALID_BANK_CODE: /);
    expect(await payoutCount(shop.id)).toBe(0);
    expect((await balances(shop.id)).available).toBe(10_000_00n);
    expect((await shop.client.payoutBatchStatus({ merchantRef: ref })).status).toBe(404);
  });

  it('atomic: an item short of balance refuses the whole batch; the same merchantRef may then be used again', async () => {
    const shop = await fundedMerchant(2_000_00n);
    const ref = newMerchantRef();
    const refused = await shop.client.payoutBatch({ merchantRef: ref, atomic: true, items: [item(), item()] });
    expect(refused.status).toBe(400);
    expect(refused.message).toBe('BATCH_REFUSED');
    expect((refused.data as unknown as { errors: { field: string; problem: string }[] }).errors).toEqual([
      { field: 'items.1', problem: expect.stringMatching(/^INSUFFICIENT_BALANCE: /) },
    ]);
    expect(await payoutCount(shop.id)).toBe(0);
    const b = await balances(shop.id);
    expect({ available: b.available, held: b.held }).toEqual({ available: 2_000_00n, held: 0n });
    const accepted = await shop.client.payoutBatch({ merchantRef: ref, atomic: true, items: [item()] });
    expect(accepted.status).toBe(200);
    expect(accepted.data.accepted).toBe(1);
  });

  it('is idempotent on the batch merchantRef: the same body answers the original batch, another body is 409', async () => {
    const shop = await fundedMerchant();
    const body = { merchantRef: newMerchantRef(), items: [item(), item({ bankCode: 'ZZZZ0001234' })] };
    const first = await shop.client.payoutBatch(body);
    expect(first.status).toBe(200);
    // The same body with its keys in another order (and atomic: false spelt out) is the same batch.
    const reordered = { items: body.items.map((i) => Object.fromEntries(Object.entries(i).reverse())) as PayoutInitiateRequest[], merchantRef: body.merchantRef };
    const again = await shop.client.payoutBatch({ ...reordered, atomic: false });
    expect(again.status).toBe(200);
    expect(again.data).toEqual(first.data);
    expect(await payoutCount(shop.id)).toBe(1);
    const other = await shop.client.payoutBatch({ ...body, items: [item()] });
    expect(other.status).toBe(409);
    expect(other.message).toBe('DUPLICATE_MERCHANT_REF');
    expect(await payoutCount(shop.id)).toBe(1);
  });

  it('two concurrent calls with the same batch store it once', async () => {
    const shop = await fundedMerchant();
    const body = { merchantRef: newMerchantRef(), items: Array.from({ length: 20 }, () => item()) };
    const [a, b] = await Promise.all([shop.client.payoutBatch(body), shop.client.payoutBatch(body)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.data.batchId).toBe(b.data.batchId);
    expect(await payoutCount(shop.id)).toBe(20);
  });

  it('refuses malformed batches whole: over 1,000 items, an unknown field in an item, no items, a body over 1 MiB', async () => {
    const shop = await fundedMerchant();
    const tooMany = await shop.client.payoutBatch({ merchantRef: newMerchantRef(), items: Array.from({ length: 1001 }, () => item()) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.message).toBe('VALIDATION_FAILED');
    const unknownField = await shop.client.payoutBatch({ merchantRef: newMerchantRef(), items: [item(), { ...item(), purpose: 'salary' } as PayoutInitiateRequest] });
    expect(unknownField.status).toBe(400);
    expect(unknownField.message).toBe('VALIDATION_FAILED');
    expect((unknownField.data as unknown as { errors: { field: string; problem: string }[] }).errors).toEqual([{ field: 'items.1.purpose', problem: 'is not a known field' }]);
    const empty = await shop.client.payoutBatch({ merchantRef: newMerchantRef(), items: [] });
    expect(empty.status).toBe(400);
    const huge = await shop.client.payoutBatch({
      merchantRef: newMerchantRef(),
      items: Array.from({ length: 1000 }, () => item({ name: 'A'.repeat(100), email: `${'a'.repeat(900)}@example.com` })),
    });
    expect(huge.status).toBe(413);
    expect(huge.message).toBe('PAYLOAD_TOO_LARGE');
    expect(await payoutCount(shop.id)).toBe(0);
    expect((await balances(shop.id)).held).toBe(0n);
  });

  it('a batch counts as one request for the rate limit', async () => {
    const shop = await fundedMerchant(100_000_00n, { rateLimitPerSecond: 1 });
    const batch = await shop.client.payoutBatch({ merchantRef: newMerchantRef(), items: Array.from({ length: 50 }, () => item()) });
    expect(batch.status).toBe(200);
    expect(batch.data.accepted).toBe(50);
    if (process.env.TEST_STORE === 'postgres') {
      // The shared limiter (per-second counters in the database) counted the batch once.
      const windows = await server.services.store.db.selectFrom('rate_limit_windows').select('n').where('bucket', '=', shop.id).execute();
      expect(windows.reduce((sum, w) => sum + Number(w.n), 0)).toBe(1);
    } else {
      // The in-memory bucket of one a second is spent by the batch alone.
      expect((await shop.client.balance({ currency: 'INR' })).status).toBe(429);
    }
  });
});

describe('payout/batchStatus and payout.batch_completed', () => {
  it('counts per status, lists every item, and sends payout.batch_completed once to the batch webhookUrl', async () => {
    const shop = await fundedMerchant();
    const answer = await shop.client.payoutBatch({
      merchantRef: newMerchantRef(),
      webhookUrl: receiver.url,
      items: [item(), item({ account: magicAccount('INR', 'BANK', '0001') }), item({ bankCode: 'ZZZZ0001234' }), item({ amount: 2000 })],
    });
    expect(answer.data).toMatchObject({ accepted: 3, refused: 1 });
    const early = await shop.client.payoutBatchStatus({ batchId: answer.data.batchId });
    expect(early.status).toBe(200);
    expect(early.data).toMatchObject({ itemCount: 4, accepted: 3, refused: 1 });
    expect(early.data.counts.Refused).toBe(1);
    const done = await eventually(async () => {
      const s = await shop.client.payoutBatchStatus({ merchantRef: answer.data.merchantRef });
      expect(s.data.completed).toBe(true);
      return s.data;
    });
    expect(done.counts).toEqual({ PendingApproval: 0, Initiated: 0, Processing: 0, Success: 2, Failed: 1, Refused: 1 });
    expect(done.items).toEqual([
      { index: 0, merchantRef: answer.data.items[0]!.merchantRef, transactionRef: answer.data.items[0]!.transactionRef, status: 'Success' },
      { index: 1, merchantRef: answer.data.items[1]!.merchantRef, transactionRef: answer.data.items[1]!.transactionRef, status: 'Failed', failureReason: 'INVALID_ACCOUNT' },
      { index: 2, merchantRef: answer.data.items[2]!.merchantRef, status: 'Refused', failureReason: 'INVALID_BANK_CODE' },
      { index: 3, merchantRef: answer.data.items[3]!.merchantRef, transactionRef: answer.data.items[3]!.transactionRef, status: 'Success' },
    ]);
    const events = await eventsOf(server, answer.data.batchId);
    expect(events.map((e) => e.type)).toEqual(['payout.batch_completed']);
    const delivered = await eventually(async () => {
      const hits = receiver.hits.filter((hit) => hit.body.includes(answer.data.batchId));
      expect(hits).toHaveLength(1);
      return hits[0]!;
    });
    const verified = verifyStandardWebhook<PayoutBatchWebhookPayload>({
      body: delivered.body,
      headers: delivered.headers,
      secret: shop.webhookSecret,
      nowSeconds: server.clock.nowMs() / 1000,
    });
    expect(verified.ok).toBe(true);
    if (!verified.ok) return;
    expect(verified.event).toMatchObject({ batchId: answer.data.batchId, completed: true, counts: done.counts, event: { type: 'payout.batch_completed' } });
    expect(verified.event.items).toEqual(done.items);
    const other = await server.createMerchant();
    expect((await other.client.payoutBatchStatus({ batchId: answer.data.batchId })).status).toBe(404);
    expect((await shop.client.payoutBatchStatus({ batchId: answer.data.batchId, merchantRef: answer.data.merchantRef } as never)).status).toBe(400);
  });

  it("goes to the merchant's payout webhook URL by default; a batch with nothing accepted completes at once", async () => {
    const shop = await fundedMerchant(1_00n);
    const set = await server.admin('PUT', `/merchants/${shop.id}/webhooks`, { payoutWebhookUrl: `${receiver.url}/payouts` });
    expect(set.status).toBe(200);
    const answer = await shop.client.payoutBatch({ merchantRef: newMerchantRef(), items: [item(), item({ bankCode: 'ZZZZ0001234' })] });
    expect(answer.data).toMatchObject({ accepted: 0, refused: 2 });
    const status = await shop.client.payoutBatchStatus({ batchId: answer.data.batchId });
    expect(status.data).toMatchObject({ completed: true, counts: { Refused: 2 } });
    const rows = await server.services.store.db.selectFrom('webhook_events').selectAll().where('resource_ref', '=', answer.data.batchId).execute();
    expect(rows.map((r) => [r.type, r.resource_kind, r.url])).toEqual([['payout.batch_completed', 'payout_batch', `${receiver.url}/payouts`]]);
  });
});

describe('payout.batch_completed under racing outcomes', () => {
  it('items made final all at once still record payout.batch_completed exactly once', async () => {
    // No worker: the items stay Initiated until this test applies their outcomes, all concurrently.
    const quiet = await startTestServer({}, { worker: false });
    try {
      const shop = await quiet.createMerchant();
      await fund(quiet, shop.id, 'INR', 100_000_00n);
      const answer = await shop.client.payoutBatch({ merchantRef: newMerchantRef(), items: Array.from({ length: 40 }, () => item()) });
      expect(answer.data.accepted).toBe(40);
      const refs = answer.data.items.map((r) => r.transactionRef!);
      await Promise.all(
        refs.map((ref, i) =>
          quiet.services.payouts.applyPayoutState(ref, i % 4 === 0 ? { status: 'FAILED', failureReason: 'INVALID_ACCOUNT' } : { status: 'SUCCESS', upstreamRef: `up-${i}` }),
        ),
      );
      // Repeated news changes nothing and completes nothing again.
      await Promise.all(refs.map((ref) => quiet.services.payouts.applyPayoutState(ref, { status: 'SUCCESS', upstreamRef: 'late' })));
      const events = await quiet.services.store.db.selectFrom('webhook_events').selectAll().where('resource_ref', '=', answer.data.batchId).execute();
      expect(events.map((e) => e.type)).toEqual(['payout.batch_completed']);
      expect(JSON.parse(events[0]!.payload_json)).toMatchObject({ completed: true, counts: { Success: 30, Failed: 10, Initiated: 0, Processing: 0, Refused: 0 } });
      const batch = await quiet.services.store.db.selectFrom('payout_batches').selectAll().where('id', '=', answer.data.batchId).executeTakeFirstOrThrow();
      expect(batch.open_items).toBe(0n);
      expect(batch.completed_at_ms).not.toBeNull();
      expect(await quiet.services.ledger.verify()).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
