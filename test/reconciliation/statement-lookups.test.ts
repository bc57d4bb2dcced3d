// The reconciliation's lookups of our records by the references a statement names: each reads the
// index of its own reference column, also on SQLite as the service runs it (without statistics), and
// the connector is checked on the rows read. Asked in the query, the connector made SQLite read every
// payment or payout of the connector through its (channel, created) index for each chunk of 500
// references (135 - 140 ms a chunk at 300,000 payments; docs/benchmarks.md, session 36).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findQueries, StatementRecords } from '../../src/domain/statement-records.js';
import type { Store } from '../../src/store/db.js';
import { planOf } from '../helpers/plans.js';
import { openTestStore } from '../helpers/store.js';
import { insertMerchant } from '../ledger/helpers.js';
import { storedPayment } from '../payments/api-helpers.js';
import { storedPayout } from '../payouts/helpers.js';

let store: Store & { readonly location: { drop(): Promise<void> } };
const REFUNDED_AT = 1_780_000_000_000;
beforeAll(async () => {
  store = await openTestStore();
  await insertMerchant(store.db, 'm-lookups');
  // The same upstream reference on two connectors (each upstream numbers its own transfers).
  await store.db
    .insertInto('payouts')
    .values([
      storedPayout('m-lookups', 'po-sim', 'Success', { channel: 'simulator', upstream_ref: 'UP-1', submit_attempts: 1n }),
      storedPayout('m-lookups', 'po-xendit', 'Success', { channel: 'xendit', upstream_ref: 'UP-1', submit_attempts: 1n }),
    ])
    .execute();
  // And a refunded payment on each of two connectors, with the same upstream and refund references.
  const refunded = { status: 'Success', collection_state: 'ready', upstream_ref: 'UP-P', refund_state: 'done', refund_upstream_ref: 'RF-1', refunded_at_ms: BigInt(REFUNDED_AT) } as const;
  await store.db
    .insertInto('payments')
    .values([storedPayment('m-lookups', 'pay-sim', REFUNDED_AT - 60_000, { ...refunded, channel: 'simulator' }), storedPayment('m-lookups', 'pay-xendit', REFUNDED_AT - 60_000, { ...refunded, channel: 'xendit' })])
    .execute();
});
afterAll(async () => {
  await store.close();
  await store.location.drop();
});

describe('statement lookups', () => {
  it('find only the records of the connector asked for', async () => {
    const records = new StatementRecords(store.db);
    expect((await records.find('simulator', [], ['UP-1'])).map((r) => r.transactionRef)).toEqual(['po-sim']);
    expect((await records.find('xendit', ['po-sim', 'po-xendit'], [])).map((r) => r.transactionRef)).toEqual(['po-xendit']);
    expect(await records.find('paystack', ['po-sim'], ['UP-1'])).toEqual([]);
    const found = await records.find('xendit', ['pay-sim', 'pay-xendit'], ['UP-P', 'RF-1']);
    expect(found.map((r) => `${r.kind} ${r.transactionRef} ${r.upstreamRef}`).sort()).toEqual([
      'payment pay-xendit UP-P',
      'payment pay-xendit UP-P',
      'refund pay-xendit RF-1',
      'refund pay-xendit RF-1',
    ]);
    const refunds = await records.expected('simulator', REFUNDED_AT - 1_000, REFUNDED_AT + 1_000, ['refund']);
    expect(refunds.map((r) => `${r.kind} ${r.transactionRef}`)).toEqual(['refund pay-sim']);
  });

  it('read each reference column by its own index', async () => {
    const refs = ['a', 'b', 'c'];
    const expected: Record<keyof typeof findQueries, RegExp> = {
      paymentsByRef: store.kind === 'sqlite' ? /sqlite_autoindex_payments_1/ : /payments_pkey/,
      payoutsByRef: store.kind === 'sqlite' ? /sqlite_autoindex_payouts_1/ : /payouts_pkey/,
      paymentsByUpstreamRef: /payments_upstream_ref/,
      paymentsByRefundRef: /payments_refund_upstream_ref/,
      payoutsByUpstreamRef: /payouts_upstream_ref/,
    };
    for (const [name, query] of Object.entries(findQueries) as [keyof typeof findQueries, (typeof findQueries)[keyof typeof findQueries]][]) {
      const plan = await planOf(store, query(store.db, refs).compile());
      expect(plan, name).toMatch(expected[name]);
      expect(plan, name).not.toContain('channel_created');
    }
  });
});
