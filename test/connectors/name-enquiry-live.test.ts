// Name enquiry and the name check for a live merchant: payout/accountInquiry and nameCheck go to the
// connector that pays the merchant's payouts, here Paystack (GET /bank/resolve on the fake Paystack);
// an unknown account, a provider that does not answer in time, and a route whose connector cannot
// resolve names (Xendit for IDR) each get their documented answer, with nothing reserved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaystackFake, UNRESOLVABLE_ACCOUNT, type PaystackFake } from '../fakes/paystack.js';
import { fund, payoutBody, until, FINAL } from '../payouts/helpers.js';
import { connect, eventually, payoutRow, startLive, type LiveSetup } from './live.js';

let live: LiveSetup;
let fake: PaystackFake;

beforeAll(async () => {
  live = await startLive();
  fake = await startPaystackFake({ callbackUrl: `${live.server.baseUrl}/v1/callbacks/paystack` });
  await connect(live.server, 'paystack', { baseUrl: fake.url, credentials: { secretKey: fake.secretKey }, routes: [{ currency: 'NGN', direction: 'payout', method: 'BANK' }] });
  // Xendit pays IDR payouts but has no name enquiry; it is never called here (a closed port would do).
  await connect(live.server, 'xendit', {
    baseUrl: 'http://127.0.0.1:9',
    credentials: { secretKey: 'xnd_development_name_enquiry_test', callbackToken: 'token-name-enquiry' },
    routes: [{ currency: 'IDR', direction: 'payout', method: 'TRANSFER' }],
  });
  await fund(live.server, live.merchant.id, 'NGN', 10_000_000_00n);
  await fund(live.server, live.merchant.id, 'IDR', 10_000_000_00n);
}, 60_000);

afterAll(async () => {
  expect(await live?.server.services.ledger.verify()).toEqual([]);
  await fake?.close();
  await live?.close();
});

const client = () => live.merchant.client;
const resolveRequests = (account: string): number => fake.requests.filter((r) => r.method === 'GET' && r.path === '/bank/resolve' && r.query.get('account_number') === account).length;
const balances = (currency: 'NGN' | 'IDR') => live.server.services.ledger.balances(live.merchant.id, currency);

describe('payout/accountInquiry for a live merchant (Paystack)', () => {
  it("answers Paystack's resolved name, with the bank named from Paystack's list or the service's, and asks Paystack once", async () => {
    const listed = await client().payoutAccountInquiry({ currency: 'NGN', method: 'BANK', bankCode: '801', account: '0123456781' });
    expect(listed.status).toBe(200);
    expect(listed.data).toEqual({ accountName: 'WES GIBBONS', bankCode: '801', bankName: 'Abbey Mortgage Bank', account: '****6781' });
    const request = fake.requests.find((r) => r.path === '/bank/resolve' && r.query.get('account_number') === '0123456781')!;
    expect(request.query.get('bank_code')).toBe('801');

    const ours = await client().payoutAccountInquiry({ currency: 'NGN', method: 'TRANSFER', bankCode: '044', account: '0123456782' });
    expect(ours.data).toEqual({ accountName: 'WES GIBBONS', bankCode: '044', bankName: 'Access Bank', account: '****6782' });
    await client().payoutAccountInquiry({ currency: 'NGN', method: 'BANK', bankCode: '044', account: '0123456782' });
    expect(resolveRequests('0123456782')).toBe(1);
  });

  it('answers 422 INVALID_ACCOUNT for an account Paystack cannot resolve', async () => {
    const refused = await client().payoutAccountInquiry({ currency: 'NGN', method: 'BANK', bankCode: '044', account: UNRESOLVABLE_ACCOUNT });
    expect({ status: refused.status, message: refused.message }).toEqual({ status: 422, message: 'INVALID_ACCOUNT' });
  });

  it('answers 503 UNAVAILABLE when Paystack does not answer in time, and nothing is cached', async () => {
    fake.nextAnswer('GET /bank/resolve', 'hang');
    const late = await client().payoutAccountInquiry({ currency: 'NGN', method: 'BANK', bankCode: '044', account: '0123456783' });
    expect({ status: late.status, message: late.message }).toEqual({ status: 503, message: 'UNAVAILABLE' });
    const answered = await client().payoutAccountInquiry({ currency: 'NGN', method: 'BANK', bankCode: '044', account: '0123456783' });
    expect(answered.data.accountName).toBe('WES GIBBONS');
    expect(resolveRequests('0123456783')).toBe(2);
  });

  it('answers 422 NAME_ENQUIRY_UNAVAILABLE when the routed connector cannot resolve names (Xendit, IDR)', async () => {
    const answer = await client().payoutAccountInquiry({ currency: 'IDR', method: 'TRANSFER', bankCode: '00014', account: '1234567890' });
    expect({ status: answer.status, message: answer.message }).toEqual({ status: 422, message: 'NAME_ENQUIRY_UNAVAILABLE' });
  });

  it('answers 403 METHOD_NOT_ENABLED for what no route serves', async () => {
    const answer = await client().payoutAccountInquiry({ currency: 'EGP', method: 'BANK', bankCode: '1207', account: '100012345678' });
    expect({ status: answer.status, message: answer.message }).toEqual({ status: 403, message: 'METHOD_NOT_ENABLED' });
  });
});

describe('payout/initiate with nameCheck: true for a live merchant (Paystack)', () => {
  it('pays a matching name through Paystack and records the check', async () => {
    const body = payoutBody('NGN', 'BANK', { account: '0123456784', name: 'Gibbons, Wes', nameCheck: true });
    const created = await client().payoutInitiate(body);
    expect(created.status).toBe(200);
    const row = await payoutRow(live.server, created.data.transactionRef);
    expect({ channel: row.channel, name: row.name_check_name, score: row.name_check_score, threshold: row.name_check_threshold }).toEqual({
      channel: 'paystack',
      name: 'WES GIBBONS',
      score: 10_000n,
      threshold: 8_000n,
    });
    const ref = created.data.transactionRef;
    await eventually('the transfer at Paystack', async () => fake.transfers.has(ref), (sent) => sent);
    await fake.completeTransfer(ref);
    const done = await until(live.merchant, created.data.transactionRef, FINAL);
    expect(done).toMatchObject({ status: 'Success', nameCheck: { resolvedName: 'WES GIBBONS', score: 1, threshold: 0.8 } });
  });

  it('refuses a name that does not match with 422 ACCOUNT_NAME_MISMATCH: nothing reserved, nothing sent to Paystack', async () => {
    const before = await balances('NGN');
    const transfers = fake.transfers.size;
    const journal = (await live.server.services.ledger.journal(live.merchant.id)).length;
    const body = payoutBody('NGN', 'BANK', { account: '0123456785', name: 'Asha Rao', nameCheck: true });
    const refused = await client().payoutInitiate(body);
    expect({ status: refused.status, message: refused.message }).toEqual({ status: 422, message: 'ACCOUNT_NAME_MISMATCH' });
    expect(await balances('NGN')).toEqual(before);
    expect((await client().payoutStatus({ merchantRef: body.merchantRef })).status).toBe(404);
    expect(fake.transfers.size).toBe(transfers);
    expect((await live.server.services.ledger.journal(live.merchant.id)).length).toBe(journal);
  });

  it('refuses nameCheck where the connector cannot resolve names (422 NAME_ENQUIRY_UNAVAILABLE), and a timeout with 503, nothing reserved', async () => {
    const idrBefore = await balances('IDR');
    const idr = await client().payoutInitiate(payoutBody('IDR', 'TRANSFER', { nameCheck: true }));
    expect({ status: idr.status, message: idr.message }).toEqual({ status: 422, message: 'NAME_ENQUIRY_UNAVAILABLE' });
    expect(await balances('IDR')).toEqual(idrBefore);

    const ngnBefore = await balances('NGN');
    fake.nextAnswer('GET /bank/resolve', 'hang');
    const late = await client().payoutInitiate(payoutBody('NGN', 'BANK', { account: '0123456786', name: 'Wes Gibbons', nameCheck: true }));
    expect({ status: late.status, message: late.message }).toEqual({ status: 503, message: 'UNAVAILABLE' });
    expect(await balances('NGN')).toEqual(ngnBefore);
  });

  it('answers a repeat with the original without asking Paystack again', async () => {
    const body = payoutBody('NGN', 'BANK', { account: '0123456787', name: 'Mr Wes Gibbons', nameCheck: true });
    const first = await client().payoutInitiate(body);
    expect(first.status).toBe(200);
    const asked = resolveRequests('0123456787');
    fake.nextAnswer('GET /bank/resolve', { status: 200, body: { status: true, message: 'Account number resolved', data: { account_number: '0123456787', account_name: 'SOMEONE ELSE', bank_id: 9 } } });
    const repeated = await client().payoutInitiate(body);
    expect(repeated.data.transactionRef).toBe(first.data.transactionRef);
    expect(resolveRequests('0123456787')).toBe(asked);
  });
});
