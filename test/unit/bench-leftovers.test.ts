// The bench's clean-up between cases (bench/leftovers.ts) on a real service's store, SQLite or
// PostgreSQL as the run chooses: it ends only Pending payments, as expired ones, and moves no money.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdReconciler, retirePendingPayments } from '../../bench/leftovers.js';
import { initiateBody } from '../payments/api-helpers.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';

let server: TestServer;
let merchant: TestMerchant;

beforeAll(async () => {
  server = await startTestServer({}, { worker: false });
  merchant = await server.createMerchant();
});
afterAll(async () => server.close());

async function pay(outcome?: 'Success' | 'Failed'): Promise<string> {
  const created = await merchant.client.paymentInitiate(initiateBody('INR', 'NATIVE'));
  expect(created.status).toBe(200);
  const ref: string = created.data.transactionRef;
  if (outcome) expect((await merchant.client.sandboxCompletePayment({ transactionRef: ref, outcome })).status).toBe(200);
  return ref;
}

const statusOf = async (ref: string): Promise<string> => (await merchant.client.paymentStatus({ transactionRef: ref })).data.status;

describe('retirePendingPayments', () => {
  it('expires the Pending payments, leaves final ones and the balance as they were, and finds nothing the second time', async () => {
    const pending = [await pay(), await pay()];
    const paid = await pay('Success');
    const declined = await pay('Failed');
    const before = (await merchant.client.balance({ currency: 'INR' })).data;
    const { databaseUrl, databaseSchema, sqliteFile } = server.database;
    const where = { sqliteFile: databaseUrl ? null : sqliteFile, pgSchema: databaseUrl ? databaseSchema : null };

    expect(await retirePendingPayments(where)).toBe(2);

    for (const ref of pending) {
      const record = (await merchant.client.paymentStatus({ transactionRef: ref })).data;
      expect(record).toMatchObject({ status: 'Expired', refundable: false });
      expect(record.completedAt).toBeDefined();
    }
    expect([await statusOf(paid), await statusOf(declined)]).toEqual(['Success', 'Failed']);
    expect((await merchant.client.balance({ currency: 'INR' })).data).toEqual(before);
    expect(await retirePendingPayments(where)).toBe(0);
  });
});

describe('holdReconciler', () => {
  it('takes the reconciliation time off the Pending payments alone, leaving their status, and finds nothing the second time', async () => {
    const pending = [await pay(), await pay()];
    const paid = await pay('Success');
    const db = server.services.store.db;
    const refs = [...pending, paid];
    // As the collection job leaves them once each collection is ready.
    await db.updateTable('payments').set({ reconcile_at_ms: 1_234n }).where('transaction_ref', 'in', refs).execute();
    const { databaseUrl, databaseSchema, sqliteFile } = server.database;
    const where = { sqliteFile: databaseUrl ? null : sqliteFile, pgSchema: databaseUrl ? databaseSchema : null };

    expect(await holdReconciler(where)).toBe(2);

    const rows = await db.selectFrom('payments').select(['transaction_ref', 'status', 'reconcile_at_ms']).where('transaction_ref', 'in', refs).execute();
    const byRef = new Map(rows.map((row) => [row.transaction_ref, row]));
    for (const ref of pending) expect(byRef.get(ref)).toMatchObject({ status: 'Pending', reconcile_at_ms: null });
    expect(byRef.get(paid)).toMatchObject({ status: 'Success', reconcile_at_ms: 1_234n });
    expect(await holdReconciler(where)).toBe(0);
  });
});
