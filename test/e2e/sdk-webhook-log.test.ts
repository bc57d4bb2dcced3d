// The merchant's webhook event log through the SDK's typed calls, against a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('webhook event log through the SDK', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('lists a paid payment event, shows its body and attempts, and hides it from other merchants', async () => {
    const merchant = await server.createMerchant();
    const other = await server.createMerchant();
    const created = await merchant.client.paymentInitiate({
      merchantRef: 'log-1',
      method: 'TRANSFER',
      currency: 'NGN',
      amount: 5000,
      name: 'Ada Obi',
      email: 'ada@example.com',
      phone: '08031234567',
      redirectUrl: 'https://merchant.example/return',
    });
    expect(created.status).toBe(200);
    const completed = await merchant.client.sandboxCompletePayment({ transactionRef: created.data.transactionRef, outcome: 'Success' });
    expect(completed.data.status).toBe('Success');

    const page = await merchant.client.webhookEvents({ limit: 10 });
    expect(page.status).toBe(200);
    const event = page.data.events.find((e) => e.resourceRef === created.data.transactionRef);
    expect(event?.type).toBe('payment.succeeded');
    // No webhook URL anywhere: recorded, never sent.
    expect(event?.status).toBe('no_destination');

    const detail = await merchant.client.webhookEvent(event!.id);
    expect(detail.status).toBe(200);
    expect(detail.data.payload).toMatchObject({ transactionRef: created.data.transactionRef, status: 'Success', event: { id: event!.id } });
    expect(detail.data.attempts).toEqual([]);

    const foreign = await other.client.webhookEvent(event!.id);
    expect(foreign.status).toBe(404);
    expect(foreign.message).toBe('NOT_FOUND');
    expect((await other.client.webhookEvents()).data.events).toEqual([]);
  });
});
