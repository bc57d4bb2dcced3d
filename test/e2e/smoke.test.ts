import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('a signed request through HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('answers payout/bankCode for an RSA-signed request, again for the same one, and refuses it elsewhere', async () => {
    const merchant = await server.createMerchant({ keyType: 'RSA-SHA512' });
    const signed = merchant.client.buildSignedRequest({ currency: 'NGN' });
    const first = await merchant.client.send<{ bankCode: string; bankName: string }[]>('payout/bankCode', signed);
    expect(first.status).toBe(200);
    expect(first.data.some((b) => b.bankCode === '058')).toBe(true);
    expect((await merchant.client.send('payout/bankCode', signed)).data).toEqual(first.data);
    const replay = await merchant.client.send('payout/initiate', signed);
    expect(replay.status).toBe(401);
    expect(replay.message).toBe('SIGNATURE_REUSED');
  });
});
