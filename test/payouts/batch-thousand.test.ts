// A batch of 1,000 payouts through the simulator with the sandbox fault accounts mixed in (0001
// fails INVALID_ACCOUNT, 0002 stays Processing two minutes of the test clock, 0003 times out once),
// plus items refused at intake. Checks the ledger to the minor unit, every item's status, one
// outcome webhook per payout, and payout.batch_completed delivered exactly once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PayoutBatchWebhookPayload, PayoutInitiateRequest } from '../../sdk/src/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { newMerchantRef, pause } from '../payments/api-helpers.js';
import { Receiver } from '../webhooks/helpers.js';
import { fund, magicAccount, payoutBody, stats } from './helpers.js';

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

const FUNDED = 2_000_000_00n;
const INVALID = new Set(Array.from({ length: 25 }, (_, i) => 13 + i * 40)); // 25 accounts ending 0001
const SLOW = new Set([101, 702]); // 0002
const TIMEOUT = new Set([333, 888]); // 0003
const REFUSED = new Set([5, 500, 999]); // a bank code outside the list

function itemAt(i: number): PayoutInitiateRequest {
  const tail = INVALID.has(i) ? '0001' : SLOW.has(i) ? '0002' : TIMEOUT.has(i) ? '0003' : null;
  return payoutBody('INR', 'BANK', {
    merchantRef: `${newMerchantRef()}-${i}`,
    amount: 1000 + (i % 13) * 7.25,
    ...(tail === null ? {} : { account: magicAccount('INR', 'BANK', tail) }),
    ...(REFUSED.has(i) ? { bankCode: 'ZZZZ0001234' } : {}),
  });
}

async function until<T>(what: string, check: () => Promise<T | undefined>, limitMs: number): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(500);
  }
}

it('pays a batch of 1,000 with the fault accounts mixed in: ledger, statuses and webhooks agree', async () => {
  const shop = await server.createMerchant();
  await fund(server, shop.id, 'INR', FUNDED);
  const items = Array.from({ length: 1000 }, (_, i) => itemAt(i));

  const started = Date.now();
  const answer = await shop.client.payoutBatch({ merchantRef: newMerchantRef(), webhookUrl: receiver.url, items });
  const intakeMs = Date.now() - started;
  expect(answer.status).toBe(200);
  expect(answer.data).toMatchObject({ itemCount: 1000, accepted: 997, refused: 3 });
  // One transaction for the whole batch: far from a thousand round trips of payout/initiate.
  expect(intakeMs).toBeLessThan(30_000);
  const refused = answer.data.items.filter((r) => r.result === 'refused');
  expect(refused.map((r) => [r.index, r.reason])).toEqual([...REFUSED].map((i) => [i, 'INVALID_BANK_CODE']));

  const { batchId } = answer.data;
  // Everything but the two slow accounts becomes final; those stay Processing until two minutes pass.
  await until(
    'all but the slow items to be final',
    async () => {
      const s = (await shop.client.payoutBatchStatus({ batchId })).data;
      return s.counts.Success! + s.counts.Failed! === 997 - SLOW.size ? s : undefined;
    },
    90_000,
  );
  const waiting = (await shop.client.payoutBatchStatus({ batchId })).data;
  expect(waiting).toMatchObject({ completed: false, counts: { Processing: 2, Initiated: 0 } });
  expect(waiting.items.filter((item) => item.status === 'Processing').map((item) => item.index)).toEqual([...SLOW]);
  server.clock.advance(2 * 60_000 + 1_000);
  const done = await until(
    'the batch to complete',
    async () => {
      const s = (await shop.client.payoutBatchStatus({ batchId })).data;
      return s.completed ? s : undefined;
    },
    30_000,
  );

  // Statuses: the 0001 accounts failed INVALID_ACCOUNT, everything else accepted succeeded.
  expect(done.counts).toEqual({ PendingApproval: 0, Initiated: 0, Processing: 0, Success: 997 - INVALID.size, Failed: INVALID.size, Refused: 3 });
  for (const item of done.items) {
    if (REFUSED.has(item.index)) expect(item).toMatchObject({ status: 'Refused', failureReason: 'INVALID_BANK_CODE' });
    else if (INVALID.has(item.index)) expect(item).toMatchObject({ status: 'Failed', failureReason: 'INVALID_ACCOUNT' });
    else expect(item.status).toBe('Success');
  }

  // Ledger: exactly the succeeded items' amount + fee left; nothing is held; one reservation each.
  const byIndex = new Map(answer.data.items.map((r) => [r.index, r]));
  let spentMinor = 0n;
  for (const item of done.items) {
    if (item.status !== 'Success') continue;
    const accepted = byIndex.get(item.index)!;
    spentMinor += BigInt(Math.round(accepted.amount! * 100)) + BigInt(Math.round(accepted.fee! * 100));
  }
  const b = await server.services.ledger.balances(shop.id, 'INR');
  expect({ available: b.available, held: b.held }).toEqual({ available: FUNDED - spentMinor, held: 0n });
  const entries = await server.services.store.db.selectFrom('ledger_entries').select(['kind', 'ref']).where('merchant_id', '=', shop.id).execute();
  const refsOf = (kind: string) => entries.filter((e) => e.kind === kind).map((e) => e.ref).sort();
  const refsWith = (statuses: string[]) => done.items.filter((item) => statuses.includes(item.status)).map((item) => item.transactionRef!).sort();
  expect(refsOf('payout_reserve')).toEqual(refsWith(['Success', 'Failed']));
  expect(refsOf('payout_complete')).toEqual(refsWith(['Success']));
  expect(refsOf('payout_release')).toEqual(refsWith(['Failed']));

  // The timed-out submissions were asked about, not sent again.
  for (const i of TIMEOUT) expect(stats(server).transfersFor(byIndex.get(i)!.transactionRef!)).toBe(1);

  // Webhooks: one outcome per payout (recorded; this merchant set no payout URL, so they are not
  // sent), and one batch_completed carrying the final counts, sent to the batch's webhookUrl.
  const events = await server.services.store.db.selectFrom('webhook_events').select(['type', 'resource_ref']).where('merchant_id', '=', shop.id).execute();
  const outcomes = events.filter((e) => e.type === 'payout.succeeded' || e.type === 'payout.failed');
  expect(outcomes).toHaveLength(997);
  expect(new Set(outcomes.map((e) => e.resource_ref)).size).toBe(997);
  expect(outcomes.filter((e) => e.type === 'payout.failed')).toHaveLength(INVALID.size);
  const completions = events.filter((e) => e.type === 'payout.batch_completed');
  expect(completions).toEqual([{ type: 'payout.batch_completed', resource_ref: batchId }]);
  const delivered = await until(
    'payout.batch_completed to be delivered',
    async () => {
      const hits = receiver.hits.filter((hit) => hit.body.includes('"payout.batch_completed"'));
      return hits.length > 0 ? hits : undefined;
    },
    15_000,
  );
  await pause(300);
  expect(receiver.hits.filter((hit) => hit.body.includes('"payout.batch_completed"'))).toHaveLength(1);
  const body = JSON.parse(delivered[0]!.body) as PayoutBatchWebhookPayload;
  expect(body).toMatchObject({ batchId, completed: true, counts: done.counts });
  expect(body.items).toHaveLength(1000);
}, 180_000);
