// The service's background jobs back off while idle (core/worker.ts) and are woken by what may have
// made work for them: here, that every state-changing request answered wakes them (server.ts), and
// that reads and refused requests do not, so an idle service's jobs stay asleep while it is only read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('the work signal', () => {
  let server: TestServer;
  let heard = 0;
  beforeAll(async () => {
    server = await startTestServer({ WORKER_IDLE_MAX_MS: '600000' });
    server.services.activity.subscribe(() => heard++);
  });
  afterAll(async () => server.close());

  const heardAfter = async (action: () => Promise<unknown>): Promise<number> => {
    const before = heard;
    await action();
    // onResponse runs after the answer is written; give the hook its turn.
    await new Promise((resolve) => setImmediate(resolve));
    return heard - before;
  };

  it('is given by a signed state change answered 200, not by a signed read or a refused change', async () => {
    const merchant = await server.createMerchant();
    const body = {
      merchantRef: 'signal-1',
      method: 'NATIVE',
      currency: 'INR',
      amount: 500,
      name: 'Payer',
      email: 'payer@example.com',
      phone: '919876543210',
      redirectUrl: 'https://merchant.example/return',
    };
    expect(await heardAfter(async () => expect((await merchant.client.send('payment/initiate', merchant.client.buildSignedRequest(body))).status).toBe(200))).toBe(1);
    expect(await heardAfter(async () => expect((await merchant.client.send('account/balance', merchant.client.buildSignedRequest({ currency: 'INR' }))).status).toBe(200))).toBe(0);
    const refused = await heardAfter(async () =>
      expect((await merchant.client.send('payment/initiate', merchant.client.buildSignedRequest({ ...body, merchantRef: 'signal-2', currency: 'XYZ' }))).status).toBe(400),
    );
    expect(refused).toBe(0);
    expect(await heardAfter(async () => expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200))).toBe(0);
  });

  it('is given by an operator change answered 200', async () => {
    const merchant = await server.createMerchant();
    const changed = await heardAfter(async () =>
      expect((await server.admin('PUT', `/merchants/${merchant.id}/webhooks`, { paymentWebhookUrl: 'https://merchant.example/hooks' })).status).toBe(200),
    );
    expect(changed).toBe(1);
  });
});
