// payout/bankCode for a live merchant: the list of the connector its payouts are routed to, where that
// connector publishes one (Paystack for NGN), kept for an hour and replaced by the service's own list
// while the provider does not answer; sandbox merchants and unrouted currencies get the service's list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicBanksFor } from '../../src/domain/banks/index.js';
import { paystackFixture, startPaystackFake, type PaystackFake } from '../fakes/paystack.js';
import { connect, startLive, type LiveSetup } from './live.js';

let live: LiveSetup;
let fake: PaystackFake;

beforeAll(async () => {
  live = await startLive();
  fake = await startPaystackFake();
  await connect(live.server, 'paystack', {
    baseUrl: fake.url,
    credentials: { secretKey: fake.secretKey },
    routes: [{ currency: 'NGN', direction: 'payout', method: 'BANK' }],
  });
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await live?.close();
});

describe('payout/bankCode for live merchants', () => {
  it("answers Paystack's active banks for live NGN, asking Paystack once for many calls", async () => {
    const expected = (paystackFixture('bank-list').data as { name: string; code: string; active: boolean }[])
      .filter((bank) => bank.active)
      .map((bank) => ({ bankCode: bank.code, bankName: bank.name }));
    const first = await live.merchant.client.bankCodes({ currency: 'NGN' });
    expect(first.status).toBe(200);
    expect([...first.data].sort((a, b) => a.bankCode.localeCompare(b.bankCode))).toEqual(expected.sort((a, b) => a.bankCode.localeCompare(b.bankCode)));
    const asked = fake.requests.filter((r) => r.path === '/bank').length;
    await live.merchant.client.bankCodes({ currency: 'NGN' });
    expect(fake.requests.filter((r) => r.path === '/bank').length).toBe(asked);
  });

  it("answers the service's own list where no routed connector publishes one, and to sandbox merchants", async () => {
    const idr = await live.merchant.client.bankCodes({ currency: 'IDR' });
    expect(idr.data).toEqual(publicBanksFor('IDR'));
    const sandbox = await live.server.createMerchant();
    expect((await sandbox.client.bankCodes({ currency: 'NGN' })).data).toEqual(publicBanksFor('NGN'));
  });
});
