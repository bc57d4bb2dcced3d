// Maker-checker payouts through HTTP with signed requests: the operator's setting, payouts above the
// threshold waiting in PendingApproval with their funds reserved and never sent upstream, approval
// and rejection by another key of the same merchant (never the creating key, never another
// merchant), the expiry job, and the events each step sends; batch items above the threshold wait
// the same way and hold their batch open until they are final.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentClient } from '../../sdk/src/index.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { usingPostgres } from '../helpers/store.js';
import { eventsOf, newMerchantRef, pause } from '../payments/api-helpers.js';
import { Receiver } from '../webhooks/helpers.js';
import { approvalSettingOf, readApprovalSetting } from '../../src/domain/payouts/approvals.js';
import { fund, payoutBody, payoutRow, stats, until } from './helpers.js';

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

interface Maker extends TestMerchant {
  /** The same merchant signing with its second key: the checker. */
  readonly checker: PaymentClient;
  readonly checkerKeyId: string;
}

/** A funded merchant (INR 10,000.00) with two HMAC keys and approval above INR 5,000. */
async function makerChecker(timeoutSeconds?: number): Promise<Maker> {
  const merchant = await server.createMerchant();
  await fund(server, merchant.id, 'INR', 10_000_00n);
  const second = await server.services.merchants.addKey(merchant.id, { type: 'HMAC-SHA256', label: 'checker' }, 'test');
  const checker = new PaymentClient({
    baseUrl: server.baseUrl,
    merchantId: merchant.id,
    key: { type: 'HMAC-SHA256', secret: second.secret! },
    clock: () => server.clock.nowMs() / 1000,
  });
  const set = await server.admin('PUT', `/merchants/${merchant.id}/payout-approval`, {
    thresholdAmount: { INR: 5000 },
    ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
  });
  expect(set.status).toBe(200);
  return { ...merchant, checker, checkerKeyId: second.keyId };
}

const balances = (merchantId: string) => server.services.ledger.balances(merchantId, 'INR');
const row = (ref: string) => payoutRow(server, ref);

async function pendingPayout(maker: Maker, amount = 6000): Promise<string> {
  const answer = await maker.client.payoutInitiate(payoutBody('INR', 'BANK', { amount }));
  expect(answer).toMatchObject({ ok: true, data: { status: 'PendingApproval', amount, fee: expect.any(Number) } });
  return answer.ok ? answer.data.transactionRef : '';
}

describe('the approval setting (operator)', () => {
  it('is off until set, then shows thresholds per currency and the timeout; null turns it off', async () => {
    const merchant = await server.createMerchant();
    const path = `/merchants/${merchant.id}/payout-approval`;
    expect((await server.admin('GET', path)).body.data).toEqual({ merchantId: merchant.id, thresholdAmount: null, timeoutSeconds: 86400 });
    const set = await server.admin('PUT', path, { thresholdAmount: { INR: 5000.5, NGN: 100000, EGP: null }, timeoutSeconds: 3600 });
    expect(set.body.data).toEqual({ merchantId: merchant.id, thresholdAmount: { INR: 5000.5, NGN: 100000 }, timeoutSeconds: 3600 });
    expect((await server.admin('GET', path)).body.data).toEqual(set.body.data);
    const off = await server.admin('PUT', path, { thresholdAmount: null });
    expect(off.body.data).toEqual({ merchantId: merchant.id, thresholdAmount: null, timeoutSeconds: 86400 });
  });

  it('refuses an unknown currency, a bad amount or timeout, and an unknown merchant, with the envelope', async () => {
    const merchant = await server.createMerchant();
    const path = `/merchants/${merchant.id}/payout-approval`;
    for (const body of [
      { thresholdAmount: { USD: 10 } },
      { thresholdAmount: { INR: -1 } },
      { thresholdAmount: { INR: 10.001 } },
      { thresholdAmount: { INR: 10 }, timeoutSeconds: 5 },
      { thresholdAmount: { INR: 10 }, extra: true },
      {},
    ]) {
      const answer = await server.admin('PUT', path, body);
      expect({ body, status: answer.status, message: answer.body.message }).toEqual({ body, status: 400, message: expect.stringMatching(/VALIDATION_FAILED|INVALID_REQUEST/) });
    }
    expect((await server.admin('GET', path)).body.data.thresholdAmount).toBeNull();
    const unknown = await server.admin('PUT', '/merchants/mch_nosuchmerchant/payout-approval', { thresholdAmount: { INR: 1 } });
    expect({ status: unknown.status, message: unknown.body.message }).toEqual({ status: 404, message: 'NOT_FOUND' });
  });
});

describe('the setting as payout intake reads it', () => {
  it("answers each merchant's own setting when the reads of several merchants arrive together, on PostgreSQL in one statement", async () => {
    const withSetting = await makerChecker();
    const without = await server.createMerchant();
    const other = await server.createMerchant();
    await server.admin('PUT', `/merchants/${other.id}/payout-approval`, { thresholdAmount: { NGN: 250 }, timeoutSeconds: 600 });
    const db = server.services.store.db;
    // Seven rounds of the three (and a repeat of the first): 22 reads arriving together.
    const ids = [...Array.from({ length: 7 }, () => [withSetting.id, without.id, other.id]).flat(), withSetting.id];
    const before = server.services.store.statements();
    const read = await Promise.all(ids.map((id) => readApprovalSetting(db, id)));
    // PostgreSQL: one statement for the 22 (one each through approvalSettingOf). The server's own jobs
    // and timers run statements too and the count is the store's, so a few more may fall inside it;
    // far fewer than one a read. SQLite: each read at once, by itself.
    const statements = server.services.store.statements() - before;
    if (usingPostgres()) expect(statements).toBeLessThanOrEqual(6);
    else expect(statements).toBeGreaterThanOrEqual(ids.length);
    const shown = read.map((setting) => setting && { thresholds: Object.fromEntries(setting.thresholds), timeoutSeconds: setting.timeoutSeconds });
    const mine = { thresholds: { INR: 5000_00n }, timeoutSeconds: 86400 };
    const others = { thresholds: { NGN: 250_00n }, timeoutSeconds: 600 };
    expect(shown).toEqual([...Array.from({ length: 7 }, () => [mine, null, others]).flat(), mine]);
    for (const [i, id] of ids.slice(0, 3).entries()) expect(await approvalSettingOf(db, id)).toEqual(read[i]);
  });
});

describe('a payout above the threshold', () => {
  it('waits in PendingApproval with amount + fee reserved, is never sent upstream, and sends payout.pending_approval', async () => {
    const maker = await makerChecker();
    expect((await server.admin('PUT', `/merchants/${maker.id}/webhooks`, { payoutWebhookUrl: receiver.url })).status).toBe(200);
    const before = stats(server).payoutSubmissions;
    const ref = await pendingPayout(maker);
    expect(await balances(maker.id)).toMatchObject({ available: 10_000_00n - 6005_00n, held: 6005_00n });
    // The submission job runs meanwhile (the worker is on) and by hand: it never claims the payout.
    await pause(400);
    await server.services.payouts.processDue();
    expect(stats(server).payoutSubmissions).toBe(before);
    expect(await row(ref)).toMatchObject({ status: 'PendingApproval', submit_attempts: 0n, locked_until_ms: null, created_by_key_id: maker.keyId });
    const status = await maker.client.payoutStatus({ transactionRef: ref });
    expect(status).toMatchObject({ ok: true, data: { status: 'PendingApproval', approvalExpiresAt: expect.any(String) } });
    const expiresAt = Date.parse(status.ok ? status.data.approvalExpiresAt! : '');
    expect(Math.abs(expiresAt - (server.clock.nowMs() + 86_400_000))).toBeLessThan(10_000);
    const events = await eventsOf(server, ref);
    expect(events.map((e) => e.type)).toEqual(['payout.pending_approval']);
    expect(events[0]!.payload).toMatchObject({ transactionRef: ref, status: 'PendingApproval', event: { type: 'payout.pending_approval' } });
    // Delivered, signed like every webhook.
    const deadline = Date.now() + 5000;
    while (!receiver.hits.some((hit) => hit.body.includes(ref)) && Date.now() < deadline) await pause(50);
    const hit = receiver.hits.find((h) => h.body.includes(ref));
    expect(hit?.headers['signature-key-id']).toEqual(expect.any(String));
  });

  it("ignores an upstream's news about it and the operator's forced query: it was never sent", async () => {
    const maker = await makerChecker();
    const ref = await pendingPayout(maker);
    for (const status of ['FAILED', 'SUCCESS', 'PROCESSING'] as const) {
      await server.services.payouts.applyPayoutState(ref, { status, failureReason: 'INVALID_ACCOUNT' });
    }
    const forced = await server.admin('POST', `/payouts/${ref}/query`);
    expect(forced.body.data).toMatchObject({ upstream: null, note: expect.stringContaining('approve') });
    expect(await row(ref)).toMatchObject({ status: 'PendingApproval', submit_attempts: 0n });
    expect(await balances(maker.id)).toMatchObject({ held: 6005_00n });
    expect((await eventsOf(server, ref)).map((e) => e.type)).toEqual(['payout.pending_approval']);
  });

  it('at or below the threshold, or in a currency without one, goes straight on', async () => {
    const maker = await makerChecker();
    await fund(server, maker.id, 'EGP', 100_000_00n);
    const atThreshold = await maker.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 5000 }));
    expect(atThreshold).toMatchObject({ ok: true, data: { status: 'Initiated' } });
    const egp = await maker.client.payoutInitiate(payoutBody('EGP', 'BANK', { amount: 9000 }));
    expect(egp).toMatchObject({ ok: true, data: { status: 'Initiated' } });
    if (atThreshold.ok) expect((await until(maker, atThreshold.data.transactionRef, ['Success'])).status).toBe('Success');
  });

  it('is refused like any payout when the balance is short: nothing reserved, no event', async () => {
    const maker = await makerChecker();
    const answer = await maker.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 9999 }));
    expect(answer).toMatchObject({ ok: false, status: 422, message: 'INSUFFICIENT_BALANCE' });
    expect(await balances(maker.id)).toMatchObject({ available: 10_000_00n, held: 0n });
  });

  it('repeated with the same merchantRef answers the same pending payout', async () => {
    const maker = await makerChecker();
    const body = payoutBody('INR', 'BANK', { amount: 7000 });
    const first = await maker.client.payoutInitiate(body);
    const again = await maker.client.payoutInitiate(body);
    expect(again.data).toEqual(first.data);
    expect(await balances(maker.id)).toMatchObject({ held: 7005_00n });
  });
});

describe('approve and reject', () => {
  it('approved with the other key: Initiated, sent upstream, Success; amount + fee leave', async () => {
    const maker = await makerChecker();
    const ref = await pendingPayout(maker);
    const approved = await maker.checker.payoutApprove({ transactionRef: ref, reason: 'checked the invoice' });
    expect(approved).toMatchObject({ ok: true, data: { transactionRef: ref, status: 'Initiated' } });
    expect(approved.ok && approved.data.approvalExpiresAt).toBeFalsy();
    expect((await until(maker, ref, ['Success'])).status).toBe('Success');
    expect(await balances(maker.id)).toMatchObject({ available: 10_000_00n - 6005_00n, held: 0n });
    expect(await row(ref)).toMatchObject({ approval_decided_by_key_id: maker.checkerKeyId, approval_reason: 'checked the invoice', submit_attempts: 1n });
    expect((await eventsOf(server, ref)).map((e) => e.type)).toEqual(['payout.pending_approval', 'payout.succeeded']);
    // Decided once: a second approval or a rejection is 409 with the envelope.
    const again = await maker.checker.payoutApprove({ transactionRef: ref });
    expect(again).toMatchObject({ ok: false, status: 409, message: 'PAYOUT_NOT_PENDING_APPROVAL' });
    expect(await maker.checker.payoutReject({ transactionRef: ref })).toMatchObject({ ok: false, status: 409, message: 'PAYOUT_NOT_PENDING_APPROVAL' });
  });

  it('rejected with the other key: Failed REJECTED_BY_MERCHANT, funds released, payout.failed', async () => {
    const maker = await makerChecker();
    const ref = await pendingPayout(maker);
    const rejected = await maker.checker.payoutReject({ transactionRef: ref, reason: 'wrong beneficiary' });
    expect(rejected).toMatchObject({ ok: true, data: { status: 'Failed', failureReason: 'REJECTED_BY_MERCHANT', completedAt: expect.any(String) } });
    // The decision is written with the final transition: who rejected it and why.
    expect(await row(ref)).toMatchObject({ status: 'Failed', approval_decided_by_key_id: maker.checkerKeyId, approval_reason: 'wrong beneficiary', locked_until_ms: null });
    expect(await balances(maker.id)).toMatchObject({ available: 10_000_00n, held: 0n });
    const events = await eventsOf(server, ref);
    expect(events.map((e) => e.type)).toEqual(['payout.pending_approval', 'payout.failed']);
    expect(events[1]!.payload).toMatchObject({ status: 'Failed', failureReason: 'REJECTED_BY_MERCHANT' });
    expect(await maker.checker.payoutApprove({ transactionRef: ref })).toMatchObject({ ok: false, status: 409, message: 'PAYOUT_NOT_PENDING_APPROVAL' });
  });

  it('refuses the key that created the payout (403 APPROVER_SAME_KEY) and changes nothing', async () => {
    const maker = await makerChecker();
    const ref = await pendingPayout(maker);
    for (const call of [maker.client.payoutApprove({ transactionRef: ref }), maker.client.payoutReject({ transactionRef: ref })]) {
      expect(await call).toMatchObject({ ok: false, status: 403, message: 'APPROVER_SAME_KEY' });
    }
    expect(await row(ref)).toMatchObject({ status: 'PendingApproval', approval_decided_by_key_id: null });
    expect(await balances(maker.id)).toMatchObject({ held: 6005_00n });
  });

  it("answers 404 for another merchant's payout and an unknown one, 409 for a payout that never needed approval, 400 for a bad body", async () => {
    const maker = await makerChecker();
    const other = await makerChecker();
    const ref = await pendingPayout(maker);
    expect(await other.checker.payoutApprove({ transactionRef: ref })).toMatchObject({ ok: false, status: 404, message: 'NOT_FOUND' });
    expect(await other.checker.payoutReject({ transactionRef: ref })).toMatchObject({ ok: false, status: 404, message: 'NOT_FOUND' });
    expect(await maker.checker.payoutApprove({ transactionRef: '0193a8f2-7c1e-7d3a-9b5e-2f4c6d8e0a1b' })).toMatchObject({ ok: false, status: 404 });
    const small = await maker.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 100 }));
    expect(small).toMatchObject({ ok: true, data: { status: 'Initiated' } });
    if (small.ok) {
      expect(await maker.checker.payoutApprove({ transactionRef: small.data.transactionRef })).toMatchObject({
        ok: false,
        status: 409,
        message: 'PAYOUT_NOT_PENDING_APPROVAL',
      });
    }
    const bad = await maker.checker.request('payout/approve', { transactionRef: ref, extra: 1 });
    expect(bad).toMatchObject({ ok: false, status: 400 });
    expect(await row(ref)).toMatchObject({ status: 'PendingApproval' });
  });

  it('lets only one of two racing decisions win', async () => {
    const maker = await makerChecker();
    const ref = await pendingPayout(maker);
    const answers = await Promise.all([maker.checker.payoutApprove({ transactionRef: ref }), maker.checker.payoutReject({ transactionRef: ref, reason: 'race' })]);
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok)).toEqual([expect.objectContaining({ status: 409, message: 'PAYOUT_NOT_PENDING_APPROVAL' })]);
    const final = await until(maker, ref, ['Success', 'Failed']);
    expect(await balances(maker.id)).toMatchObject({ held: 0n, available: final.status === 'Success' ? 10_000_00n - 6005_00n : 10_000_00n });
  });
});

describe('the approval timeout', () => {
  it('fails the payout with APPROVAL_EXPIRED, releases the funds, and refuses a late approval', async () => {
    const maker = await makerChecker(60);
    const ref = await pendingPayout(maker);
    server.clock.advance(61_000);
    expect(await maker.checker.payoutApprove({ transactionRef: ref })).toMatchObject({ ok: false, status: 409, message: 'PAYOUT_NOT_PENDING_APPROVAL' });
    const failed = await until(maker, ref, ['Failed']);
    expect(failed).toMatchObject({ status: 'Failed', failureReason: 'APPROVAL_EXPIRED' });
    expect(await balances(maker.id)).toMatchObject({ available: 10_000_00n, held: 0n });
    expect((await eventsOf(server, ref)).map((e) => e.type)).toEqual(['payout.pending_approval', 'payout.failed']);
    expect(await server.services.payouts.expireApprovals()).toBe(0);
  });
});

describe('a payout batch with an item above the threshold', () => {
  const batchEvents = (batchId: string) => eventsOf(server, batchId);
  const batchOf = (maker: Maker, batchId: string) => maker.client.payoutBatchStatus({ batchId });

  it('stores that item in PendingApproval with its key and event; the batch completes only once the rejection makes it final', async () => {
    const maker = await makerChecker();
    const answer = await maker.client.payoutBatch({
      merchantRef: newMerchantRef(),
      webhookUrl: receiver.url,
      items: [payoutBody('INR', 'BANK', { amount: 1000 }), payoutBody('INR', 'BANK', { amount: 6000 }), payoutBody('INR', 'BANK', { amount: 1000 })],
    });
    expect(answer).toMatchObject({ ok: true, data: { accepted: 3, refused: 0 } });
    if (!answer.ok) return;
    const [small, big, other] = answer.data.items.map((item) => item.transactionRef!);
    expect(answer.data.items.map((item) => item.status)).toEqual(['Initiated', 'PendingApproval', 'Initiated']);
    // Every item's funds are reserved, the waiting one's included.
    expect(await balances(maker.id)).toMatchObject({ available: 10_000_00n - 8015_00n, held: 8015_00n });
    expect(await row(big!)).toMatchObject({ status: 'PendingApproval', batch_id: answer.data.batchId, created_by_key_id: maker.keyId, next_action_at_ms: null });
    expect(await row(small!)).toMatchObject({ created_by_key_id: maker.keyId, approval_expires_at_ms: null });
    expect((await eventsOf(server, big!)).map((e) => e.type)).toEqual(['payout.pending_approval']);
    // The others are paid; the waiting one is not sent, and keeps the batch open.
    await until(maker, small!, ['Success']);
    await until(maker, other!, ['Success']);
    await server.services.payouts.processDue();
    const open = await batchOf(maker, answer.data.batchId);
    expect(open.data).toMatchObject({ completed: false, counts: { PendingApproval: 1, Initiated: 0, Processing: 0, Success: 2, Failed: 0 } });
    expect(await batchEvents(answer.data.batchId)).toEqual([]);
    // The key that signed the batch may not decide on its items.
    expect(await maker.client.payoutReject({ transactionRef: big! })).toMatchObject({ ok: false, status: 403, message: 'APPROVER_SAME_KEY' });
    const rejected = await maker.checker.payoutReject({ transactionRef: big!, reason: 'not this month' });
    expect(rejected).toMatchObject({ ok: true, data: { status: 'Failed', failureReason: 'REJECTED_BY_MERCHANT' } });
    const done = await batchOf(maker, answer.data.batchId);
    expect(done.data).toMatchObject({ completed: true, counts: { PendingApproval: 0, Success: 2, Failed: 1 } });
    const events = await batchEvents(answer.data.batchId);
    expect(events.map((e) => e.type)).toEqual(['payout.batch_completed']);
    expect(events[0]!.payload).toMatchObject({ completed: true, counts: { PendingApproval: 0, Success: 2, Failed: 1 } });
    expect(await balances(maker.id)).toMatchObject({ available: 10_000_00n - 2010_00n, held: 0n });
  });

  it('an approved item goes Initiated and on; the batch completes when it is paid, not when it is approved', async () => {
    const maker = await makerChecker();
    const answer = await maker.client.payoutBatch({ merchantRef: newMerchantRef(), items: [payoutBody('INR', 'BANK', { amount: 7000 })] });
    expect(answer).toMatchObject({ ok: true, data: { accepted: 1, items: [{ status: 'PendingApproval' }] } });
    if (!answer.ok) return;
    const ref = answer.data.items[0]!.transactionRef!;
    const approved = await maker.checker.payoutApprove({ transactionRef: ref });
    expect(approved).toMatchObject({ ok: true, data: { status: 'Initiated' } });
    expect((await until(maker, ref, ['Success'])).status).toBe('Success');
    const done = await batchOf(maker, answer.data.batchId);
    expect(done.data).toMatchObject({ completed: true, counts: { PendingApproval: 0, Initiated: 0, Success: 1 } });
    expect((await eventsOf(server, ref)).map((e) => e.type)).toEqual(['payout.pending_approval', 'payout.succeeded']);
    expect((await batchEvents(answer.data.batchId)).map((e) => e.type)).toEqual(['payout.batch_completed']);
  });

  it('an item whose approval expires ends Failed and completes its batch', async () => {
    const maker = await makerChecker(60);
    const answer = await maker.client.payoutBatch({ merchantRef: newMerchantRef(), items: [payoutBody('INR', 'BANK', { amount: 6000 })] });
    expect(answer).toMatchObject({ ok: true, data: { accepted: 1, items: [{ status: 'PendingApproval' }] } });
    if (!answer.ok) return;
    server.clock.advance(61_000);
    expect(await until(maker, answer.data.items[0]!.transactionRef!, ['Failed'])).toMatchObject({ failureReason: 'APPROVAL_EXPIRED' });
    expect((await batchOf(maker, answer.data.batchId)).data).toMatchObject({ completed: true, counts: { Failed: 1 } });
    expect((await batchEvents(answer.data.batchId)).map((e) => e.type)).toEqual(['payout.batch_completed']);
  });
});
