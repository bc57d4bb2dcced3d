// The group commit of payment/initiate (src/domain/payments/intake-batch.ts) against the real store:
// rows added together share one statement, a taken merchantRef only skips its own row, and a row the
// store refuses for another reason fails alone while the rest of its group commits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { PaymentIntakeBatch } from '../../src/domain/payments/intake-batch.js';
import type { PaymentsTable } from '../../src/domain/payments/payment-rows.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { initiateBody } from './api-helpers.js';

let server: TestServer;
let merchant: TestMerchant;
let template: PaymentsTable;
beforeAll(async () => {
  server = await startTestServer();
  merchant = await server.createMerchant();
  const created = await merchant.client.paymentInitiate(initiateBody('IDR', 'BNI'));
  template = await server.services.store.db
    .selectFrom('payments')
    .selectAll()
    .where('transaction_ref', '=', created.data.transactionRef)
    .executeTakeFirstOrThrow();
});
afterAll(async () => server.close());

let counter = 0;
/** A copy of a real payment row under fresh references. */
const rowLike = (overrides: Partial<PaymentsTable> = {}): PaymentsTable => {
  counter += 1;
  return { ...template, transaction_ref: newId(), merchant_ref: `batch-${process.pid}-${counter}`, checkout_token_hash: `hash-${newId()}`, ...overrides };
};

const stored = async (transactionRef: string): Promise<boolean> =>
  (await server.services.store.db.selectFrom('payments').select('transaction_ref').where('transaction_ref', '=', transactionRef).executeTakeFirst()) !== undefined;

describe('PaymentIntakeBatch', () => {
  it('creates every new row of a group and skips only the one whose merchantRef is taken', async () => {
    const batch = new PaymentIntakeBatch(server.services.store.db);
    const fresh = [rowLike(), rowLike(), rowLike()];
    const repeat = rowLike({ merchant_ref: template.merchant_ref });
    const answers = await Promise.all([...fresh, repeat].map((row) => batch.insertIfNew(row)));
    expect(answers).toEqual([true, true, true, false]);
    for (const row of fresh) expect(await stored(row.transaction_ref)).toBe(true);
    expect(await stored(repeat.transaction_ref)).toBe(false);
  });

  it('lets the first of two rows with one merchantRef in the same group win', async () => {
    const batch = new PaymentIntakeBatch(server.services.store.db);
    const first = rowLike();
    const second = rowLike({ merchant_ref: first.merchant_ref });
    expect(await Promise.all([batch.insertIfNew(first), batch.insertIfNew(second)])).toEqual([true, false]);
    expect(await stored(first.transaction_ref)).toBe(true);
    expect(await stored(second.transaction_ref)).toBe(false);
  });

  it('fails only the row the store refuses; the others of its group commit', async () => {
    const batch = new PaymentIntakeBatch(server.services.store.db);
    const good = [rowLike(), rowLike()];
    // No such merchant: the foreign key refuses this row, and with it the group's one statement.
    const orphan = rowLike({ merchant_id: 'mch_missing' });
    const answers = await Promise.allSettled([batch.insertIfNew(good[0]!), batch.insertIfNew(orphan), batch.insertIfNew(good[1]!)]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    for (const row of good) expect(await stored(row.transaction_ref)).toBe(true);
    expect(await stored(orphan.transaction_ref)).toBe(false);
  });
});
