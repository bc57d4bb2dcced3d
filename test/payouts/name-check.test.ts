// Account name enquiry and the name check of payout/initiate for sandbox merchants, through HTTP with
// the SDK against the real server and the in-process bank simulator: the simulator's names derived
// from the account, the magic 0001 account, the cache, an upstream outage, the request rules; then
// nameCheck: a match in another case, order and with a title passes and is recorded, a mismatch or an
// unknown account is refused with nothing reserved or stored, and a repeat answers the original.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedAccountName } from '../../src/simulator/names.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { entriesOf, newMerchantRef } from '../payments/api-helpers.js';
import { FINAL, faults, fund, magicAccount, payoutBody, stats, until } from './helpers.js';

let server: TestServer;
let shop: TestMerchant;
beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createMerchant();
  await fund(server, shop.id, 'INR', 100_000_00n);
  await fund(server, shop.id, 'NGN', 1_000_000_00n);
});
afterAll(async () => {
  expect(await server.services.ledger.verify()).toEqual([]);
  await server.close();
});

/** A fresh account of the method's shape, so no earlier enquiry has it cached. */
let serial = 500;
const freshAccount = (length: number): string => `9${Date.now()}${String((serial += 1) % 10_000).padStart(4, '0')}`.slice(-length);

describe('payout/accountInquiry (sandbox)', () => {
  it('answers the holder the simulator derives from the account, the bank and the account masked but its last four', async () => {
    const account = freshAccount(14);
    const answer = await shop.client.payoutAccountInquiry({ currency: 'INR', method: 'BANK', bankCode: 'HDFC0001234', account });
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({
      accountName: simulatedAccountName('INR', 'HDFC0001234', account),
      bankCode: 'HDFC0001234',
      bankName: 'HDFC Bank',
      account: `****${account.slice(-4)}`,
    });
    expect(answer.data.accountName).toMatch(/^[A-Z]+ [A-Z]+$/);
  });

  it('keeps answers: the same account asked again is answered from the cache, without the bank', async () => {
    const account = freshAccount(10);
    const first = await shop.client.payoutAccountInquiry({ currency: 'NGN', method: 'TRANSFER', bankCode: '044', account });
    expect(first.data).toMatchObject({ bankCode: '044', bankName: 'Access Bank', accountName: simulatedAccountName('NGN', '044', account) });
    const asked = stats(server).nameEnquiries;
    // NGN TRANSFER and BANK are one method; the answer is the same holder.
    const again = await shop.client.payoutAccountInquiry({ currency: 'NGN', method: 'BANK', bankCode: '044', account });
    expect(again.data).toEqual(first.data);
    expect(stats(server).nameEnquiries).toBe(asked);
    // Another bank is another account.
    await shop.client.payoutAccountInquiry({ currency: 'NGN', method: 'BANK', bankCode: '058', account });
    expect(stats(server).nameEnquiries).toBe(asked + 1);
  });

  it('answers a UPI VPA without bank code or bank name', async () => {
    const answer = await shop.client.payoutAccountInquiry({ currency: 'INR', method: 'UPI', account: 'meera.iyer@okaxis' });
    expect(answer.data).toEqual({ accountName: simulatedAccountName('INR', null, 'meera.iyer@okaxis'), bankCode: null, bankName: null, account: '****axis' });
  });

  it('refuses an account ending 0001 with 422 INVALID_ACCOUNT, and keeps that answer too', async () => {
    const account = magicAccount('INR', 'BANK', '0001');
    const refused = await shop.client.payoutAccountInquiry({ currency: 'INR', method: 'BANK', bankCode: 'HDFC0001234', account });
    expect(refused.status).toBe(422);
    expect(refused.message).toBe('INVALID_ACCOUNT');
    expect(JSON.stringify(refused.data)).not.toContain(account);
    const asked = stats(server).nameEnquiries;
    expect((await shop.client.payoutAccountInquiry({ currency: 'INR', method: 'BANK', bankCode: 'HDFC0001234', account })).message).toBe('INVALID_ACCOUNT');
    expect(stats(server).nameEnquiries).toBe(asked);
  });

  it('answers 503 UNAVAILABLE when the bank fails, and the next call asks again', async () => {
    const account = freshAccount(12);
    const body = { currency: 'INR' as const, method: 'BANK' as const, bankCode: 'SBIN0000001', account };
    faults(server).failNextRequests = 1;
    const failed = await shop.client.payoutAccountInquiry(body);
    expect(failed.status).toBe(503);
    expect(failed.message).toBe('UNAVAILABLE');
    const answered = await shop.client.payoutAccountInquiry(body);
    expect(answered.status).toBe(200);
    expect(answered.data.bankName).toBe('State Bank of India');
  });

  it('checks the request as payout/initiate does', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ currency: 'INR', method: 'UPI', bankCode: 'HDFC0001234', account: 'a.b@okaxis' }, 400, 'VALIDATION_FAILED'],
      [{ currency: 'INR', method: 'BANK', account: '50100012345678' }, 400, 'VALIDATION_FAILED'],
      [{ currency: 'INR', method: 'BANK', bankCode: 'HDFC0001234', account: '12ab' }, 400, 'VALIDATION_FAILED'],
      [{ currency: 'NGN', method: 'BANK', bankCode: '999999', account: '0123456789' }, 400, 'INVALID_BANK_CODE'],
      [{ currency: 'INR', method: 'BANK', bankCode: 'HDFC0001234', account: '50100012345678', name: 'Asha' }, 400, 'VALIDATION_FAILED'],
      [{ currency: 'USD', method: 'BANK', bankCode: 'X', account: '1' }, 400, 'UNSUPPORTED_CURRENCY'],
      [{ currency: 'INR', method: 'QRIS', account: '1' }, 400, 'UNSUPPORTED_METHOD'],
    ];
    for (const [body, status, message] of cases) {
      const answer = await shop.client.payoutAccountInquiry(body as never);
      expect({ body, status: answer.status, message: answer.message }).toEqual({ body, status, message });
    }
  });
});

describe('payout/initiate with nameCheck: true (sandbox)', () => {
  const balances = () => server.services.ledger.balances(shop.id, 'INR');

  it('pays when the name matches in another case, order and punctuation, with a title, and records the check', async () => {
    const account = freshAccount(14);
    const holder = simulatedAccountName('INR', 'HDFC0001234', account);
    const [given, family] = holder.split(' ') as [string, string];
    const typed = `Mr. ${family[0]}${family.slice(1).toLowerCase()}, ${given.toLowerCase()}`;
    const created = await shop.client.payoutInitiate(payoutBody('INR', 'BANK', { account, name: typed, nameCheck: true }));
    expect(created.status).toBe(200);
    const done = await until(shop, created.data.transactionRef, FINAL);
    expect(done).toMatchObject({ status: 'Success', name: typed, nameCheck: { resolvedName: holder, score: 1, threshold: 0.8 } });
    expect(stats(server).transfersFor(created.data.transactionRef)).toBe(1);
  });

  it('refuses a name that does not match with 422 ACCOUNT_NAME_MISMATCH: nothing reserved, nothing stored, the merchantRef stays free', async () => {
    const account = freshAccount(14);
    const before = await balances();
    const journal = (await server.services.ledger.journal(shop.id)).length;
    const body = payoutBody('INR', 'BANK', { account, name: 'Wes Gibbons', nameCheck: true });
    const refused = await shop.client.payoutInitiate(body);
    expect(refused.status).toBe(422);
    expect(refused.message).toBe('ACCOUNT_NAME_MISMATCH');
    expect((refused.data as unknown as { detail: string }).detail).toContain('threshold 0.8');
    expect(await balances()).toEqual(before);
    expect((await server.services.ledger.journal(shop.id)).length).toBe(journal);
    expect((await shop.client.payoutStatus({ merchantRef: body.merchantRef })).status).toBe(404);
    // The same merchantRef with the holder's name is a new request, and is accepted.
    const corrected = await shop.client.payoutInitiate({ ...body, name: simulatedAccountName('INR', 'HDFC0001234', account) });
    expect(corrected.status).toBe(200);
    await until(shop, corrected.data.transactionRef, FINAL);
  });

  it('refuses an unknown account (0001) with 422 INVALID_ACCOUNT before anything is reserved', async () => {
    const before = await balances();
    const body = payoutBody('INR', 'BANK', { account: magicAccount('INR', 'BANK', '0001'), nameCheck: true });
    const refused = await shop.client.payoutInitiate(body);
    expect({ status: refused.status, message: refused.message }).toEqual({ status: 422, message: 'INVALID_ACCOUNT' });
    expect(await balances()).toEqual(before);
    expect((await shop.client.payoutStatus({ merchantRef: body.merchantRef })).status).toBe(404);
  });

  it('answers 503 UNAVAILABLE with nothing stored when the bank does not answer the enquiry', async () => {
    const account = freshAccount(14);
    const body = payoutBody('INR', 'BANK', { account, name: simulatedAccountName('INR', 'HDFC0001234', account), nameCheck: true });
    const before = await balances();
    faults(server).failNextRequests = 1;
    const failed = await shop.client.payoutInitiate(body);
    expect({ status: failed.status, message: failed.message }).toEqual({ status: 503, message: 'UNAVAILABLE' });
    expect(await balances()).toEqual(before);
    expect((await shop.client.payoutStatus({ merchantRef: body.merchantRef })).status).toBe(404);
    const retried = await shop.client.payoutInitiate(body);
    expect(retried.status).toBe(200);
    await until(shop, retried.data.transactionRef, FINAL);
  });

  it('is part of the request: a repeat answers the original without asking the bank again; without nameCheck it is another body (409)', async () => {
    const account = freshAccount(14);
    const body = payoutBody('INR', 'BANK', { account, name: simulatedAccountName('INR', 'HDFC0001234', account), nameCheck: true });
    const [a, b] = await Promise.all([shop.client.payoutInitiate(body), shop.client.payoutInitiate(body)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.data.transactionRef).toBe(a.data.transactionRef);
    // The bank is down now, yet the repeat is answered: the original's check stands.
    faults(server).failNextRequests = 5;
    const repeated = await shop.client.payoutInitiate(body);
    faults(server).failNextRequests = 0;
    expect(repeated.status).toBe(200);
    expect(repeated.data.transactionRef).toBe(a.data.transactionRef);
    const withoutCheck = { ...body };
    delete (withoutCheck as { nameCheck?: boolean }).nameCheck;
    expect((await shop.client.payoutInitiate(withoutCheck)).message).toBe('DUPLICATE_MERCHANT_REF');
    expect((await shop.client.payoutInitiate({ ...body, nameCheck: false })).message).toBe('DUPLICATE_MERCHANT_REF');
    const done = await until(shop, a.data.transactionRef, FINAL);
    expect(done.nameCheck).toEqual({ resolvedName: simulatedAccountName('INR', 'HDFC0001234', account), score: 1, threshold: 0.8 });
    expect(stats(server).transfersFor(a.data.transactionRef)).toBe(1);
  });

  it('nameCheck: false (or none) is an ordinary payout: no enquiry, no check in the record, and the same request as before name checks', async () => {
    const asked = stats(server).nameEnquiries;
    const body = payoutBody('INR', 'BANK', { account: freshAccount(14), name: 'Anyone At All', merchantRef: newMerchantRef() });
    const created = await shop.client.payoutInitiate({ ...body, nameCheck: false });
    expect(created.status).toBe(200);
    // nameCheck false and absent are the same body.
    expect((await shop.client.payoutInitiate(body)).data.transactionRef).toBe(created.data.transactionRef);
    const done = await until(shop, created.data.transactionRef, FINAL);
    expect(done).not.toHaveProperty('nameCheck');
    expect(stats(server).nameEnquiries).toBe(asked);
    expect(await entriesOf(server, shop.id, 'payout_reserve')).toBeGreaterThan(0);
  });

  it('refuses nameCheck of the wrong type', async () => {
    const answer = await shop.client.payoutInitiate({ ...payoutBody('INR', 'BANK'), nameCheck: 'yes' as never });
    expect({ status: answer.status, message: answer.message }).toEqual({ status: 400, message: 'VALIDATION_FAILED' });
  });
});
