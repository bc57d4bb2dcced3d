// The sandbox across a restart of the service, whose simulated bank runs in its process: a payment
// opened before the restart is paid after it, and a payout the bank was still processing settles
// after it. Before the bank kept its books in the data directory, the restarted bank had forgotten
// both: the payment could not be paid, and the payout stayed Processing with its money reserved.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentClient } from '../../sdk/src/index.js';
import { SIMULATOR_STATE_FILE } from '../../src/upstreams.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { allocateTestDatabase, type TestDatabase } from '../helpers/store.js';
import { collectionReady, initiateBody } from '../payments/api-helpers.js';
import { fund, payoutBody, until } from '../payouts/helpers.js';

/** Long enough that the payout is still with the bank when the service stops. */
const BANK_DELAY_MS = 60_000;
const ENV = { SIMULATOR_PAYOUT_DELAY_MS: String(BANK_DELAY_MS) };

describe('the sandbox bank across a restart of the service', () => {
  let database: TestDatabase;
  let server: TestServer | null = null;

  beforeAll(() => {
    database = allocateTestDatabase();
  });

  afterAll(async () => {
    await server?.close();
    await database.drop();
  });

  it('pays a payment opened before the restart, and settles a payout that was in flight', async () => {
    server = await startTestServer(ENV, { database });
    const merchant = await server.createMerchant();
    await fund(server, merchant.id, 'INR', 5_000_00n);
    const payment = await merchant.client.paymentInitiate(initiateBody('INR', 'NATIVE'));
    expect(payment.status, JSON.stringify(payment.data)).toBe(200);
    const paymentRef = payment.data.transactionRef;
    await collectionReady(server, paymentRef);
    const payout = await merchant.client.payoutInitiate(payoutBody('INR', 'BANK'));
    expect(payout.status, JSON.stringify(payout.data)).toBe(200);
    const payoutRef = payout.data.transactionRef;
    await until(merchant, payoutRef, ['Processing']);
    await server.close();
    server = null;
    // A stopped service has closed its bank: the books stay, the lock and the published address go.
    expect(fs.readdirSync(database.dataDir)).toContain(SIMULATOR_STATE_FILE);
    expect(fs.readdirSync(database.dataDir)).not.toContain(`${SIMULATOR_STATE_FILE}.lock`);
    expect(fs.readdirSync(database.dataDir)).not.toContain('simulator.json');

    server = await startTestServer(ENV, { database });
    const again: TestMerchant = { ...merchant, client: clientOn(server, merchant) };
    const paid = await again.client.sandboxCompletePayment({ transactionRef: paymentRef, outcome: 'Success' });
    expect(paid.status, JSON.stringify(paid.data)).toBe(200);
    expect(paid.data.status).toBe('Success');

    // The bank settles the transfer at its time and calls back; the payout ends Success, not unknown.
    server.clock.advance(BANK_DELAY_MS);
    const settled = await until(again, payoutRef, ['Success', 'Failed']);
    expect(settled.status).toBe('Success');
  });
});

/** The merchant's client, pointed at the restarted server. */
function clientOn(server: TestServer, merchant: TestMerchant): PaymentClient {
  return new PaymentClient({
    baseUrl: server.baseUrl,
    merchantId: merchant.id,
    key: { type: 'HMAC-SHA256', secret: merchant.secret! },
    clock: () => server.clock.nowMs() / 1000,
  });
}
