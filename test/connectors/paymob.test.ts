// The paymob connector's Channel, built through its definition, against the Paymob fake over real
// HTTP: token handling, wallet and bank payouts, inquiry by our reference, every status and failure
// code, faults (refusal, hang, 5xx, lost answer), wrong credentials, and the refused notifications.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { AppError } from '../../src/core/errors.js';
import { connectorByName } from '../../src/connectors/catalog.js';
import { UpstreamRefusedError, UpstreamUnavailableError, type Channel, type PayoutSubmission } from '../../src/connectors/channel.js';
import { paymobDefinition } from '../../src/connectors/paymob/definition.js';
import {
  BANK_PENDING_CODES,
  DISBURSEMENT_STATUS,
  EGP_BANK_TO_PAYMOB,
  STATUS_CODE_REASON,
  clientReferenceId,
  serializeInstantCashin,
  toEgpDecimal,
  toInstantCashinBody,
  toPayoutState,
  type DisbursementAnswer,
} from '../../src/connectors/paymob/transformers.js';
import { EGP_BANKS } from '../../src/domain/banks/egp.js';
import { PaymobFake, paymobFixture } from '../fakes/paymob.js';

const CREDENTIALS = { clientId: 'client-abc', clientSecret: 'secret-xyz', username: 'payouts-api-user', password: 'pa55word' };

let fake: PaymobFake;
let clock: ManualClock;
let channel: Channel;
let sequence = 0;

const channelWith = (credentials: Record<string, string> = CREDENTIALS, timeoutMs = 2_000): Channel =>
  paymobDefinition.create({ baseUrl: fake.baseUrl, credentials, timeoutMs, clock, callbackUrl: 'https://paygate.test/v1/callbacks/paymob' });

const nextRef = (): string => `PO-paymob-${Date.now()}-${++sequence}`;

const wallet = (account: string, overrides: Partial<PayoutSubmission> = {}): PayoutSubmission => ({
  transactionRef: nextRef(),
  currency: 'EGP',
  method: 'WALLET',
  amountMinor: 15075n,
  bankCode: null,
  account,
  name: 'Mona Adel',
  phone: account,
  email: 'mona@example.com',
  ...overrides,
});

const bank = (bankCode: string, account = '100012345678', overrides: Partial<PayoutSubmission> = {}): PayoutSubmission =>
  wallet(account, { method: 'BANK', bankCode, amountMinor: 250000n, ...overrides });

async function refusal(promise: Promise<unknown>): Promise<UpstreamRefusedError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamRefusedError);
  return error as UpstreamRefusedError;
}

beforeAll(async () => {
  fake = await PaymobFake.start(CREDENTIALS);
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  clock = new ManualClock();
  channel = channelWith();
});

describe('paymob definition', () => {
  it('is in the catalog with EGP WALLET and BANK payouts only, and the four credentials', () => {
    expect(connectorByName('paymob')).toBe(paymobDefinition);
    expect(paymobDefinition.capabilities).toEqual([
      { currency: 'EGP', direction: 'payout', method: 'WALLET' },
      { currency: 'EGP', direction: 'payout', method: 'BANK' },
    ]);
    expect(paymobDefinition.credentials.map((c) => [c.name, c.secret])).toEqual([
      ['clientId', false],
      ['clientSecret', true],
      ['username', false],
      ['password', true],
    ]);
    expect(paymobDefinition.defaultBaseUrl).toBe('https://payouts.paymobsolutions.com/api/secure');
  });

  it('refuses every pay-in method: paymob serves payouts only', async () => {
    const collection = {
      transactionRef: 'PI-1', merchantId: 'm', currency: 'EGP' as const, method: 'WALLET', amountMinor: 100n, payerName: 'a',
      payerEmail: 'a@b.c', payerPhone: '01020304050', expiresAtMs: 0, redirectUrl: 'https://x',
    };
    for (const attempt of [channel.createCollection(collection), channel.queryCollection('PI-1'), channel.refund({ transactionRef: 'PI-1', upstreamRef: 'u', amountMinor: 1n })]) {
      const error = await refusal(attempt);
      expect(error.failureReason).toBe('UPSTREAM_REJECTED');
      expect(error.message).toBe('paymob serves payouts only');
    }
  });
});

describe('paymob wallet payouts', () => {
  it('sends a Vodafone Cash payout with the exact EGP amount and our derived reference, and reuses the token', async () => {
    const tokensBefore = fake.requestsTo('/o/token/').length;
    const first = wallet('01020304050');
    const state = await channel.submitPayout(first);
    expect(state.status).toBe('SUCCESS');

    const sent = fake.payoutFor(first.transactionRef)!;
    expect(state.upstreamRef).toBe(sent.transaction_id);
    expect(sent).toMatchObject({ issuer: 'vodafone', msisdn: '01020304050', amountText: '150.75', client_reference_id: clientReferenceId(first.transactionRef) });

    const request = fake.requestsTo('/disburse/').at(-1)!;
    expect(request.headers.authorization).toMatch(/^Bearer /);
    expect(request.headers['content-type']).toBe('application/json');

    await channel.submitPayout(wallet('01020304051'));
    const tokenRequests = fake.requestsTo('/o/token/').slice(tokensBefore);
    expect(tokenRequests).toHaveLength(1);
    const form = new URLSearchParams(tokenRequests[0]!.rawBody);
    expect(form.get('grant_type')).toBe('password');
    expect(form.get('username')).toBe(CREDENTIALS.username);
    expect(tokenRequests[0]!.headers.authorization).toBe(`Basic ${Buffer.from('client-abc:secret-xyz').toString('base64')}`);
  });

  it('derives the issuer from the prefix (010/011/012), or takes it from bankCode', async () => {
    const cases: Array<[PayoutSubmission, string]> = [
      [wallet('01112345678'), 'etisalat'],
      [wallet('01212345678'), 'orange'],
      [wallet('01012345678'), 'vodafone'],
      [wallet('01512345678', { bankCode: 'bank_wallet' }), 'bank_wallet'],
      [wallet('01012345678', { bankCode: 'Etisalat' }), 'etisalat'],
    ];
    for (const [submission, issuer] of cases) {
      await channel.submitPayout(submission);
      expect(fake.payoutFor(submission.transactionRef)!.issuer).toBe(issuer);
    }
  });

  it('refuses, before sending anything, a WE (015) number, a bad number, an unknown issuer and another currency', async () => {
    const before = fake.requestsTo('/disburse/').length;
    expect((await refusal(channel.submitPayout(wallet('01512345678')))).failureReason).toBe('UPSTREAM_REJECTED');
    expect((await refusal(channel.submitPayout(wallet('0101234567')))).failureReason).toBe('INVALID_ACCOUNT');
    expect((await refusal(channel.submitPayout(wallet('01012345678', { bankCode: 'mpesa' })))).failureReason).toBe('UPSTREAM_REJECTED');
    expect((await refusal(channel.submitPayout(wallet('01012345678', { currency: 'NGN' })))).failureReason).toBe('UPSTREAM_REJECTED');
    expect((await refusal(channel.submitPayout(wallet('01012345678', { method: 'FAWRY' })))).failureReason).toBe('UPSTREAM_REJECTED');
    expect(fake.requestsTo('/disburse/').length).toBe(before);
  });

  it('maps the documented failure codes: not a wallet holder, no wallet, insufficient balance, limits', async () => {
    const cases: Array<[string, string, string]> = [
      ['01099999901', '618', 'INVALID_ACCOUNT'],
      ['01099999902', '4055', 'INVALID_ACCOUNT'],
      ['01099999903', '6005', 'INSUFFICIENT_FUNDS_UPSTREAM'],
      ['01099999904', '6061', 'AMOUNT_LIMIT_EXCEEDED'],
      ['01099999905', '583', 'AMOUNT_LIMIT_EXCEEDED'],
      ['01099999906', '9999', 'UPSTREAM_REJECTED'],
    ];
    for (const [msisdn, code, reason] of cases) {
      fake.programme(msisdn, { status: 'failed', code });
      const submission = wallet(msisdn);
      const state = await channel.submitPayout(submission);
      expect(state).toEqual({ status: 'FAILED', upstreamRef: fake.payoutFor(submission.transactionRef)!.transaction_id, failureReason: reason });
      expect(await channel.queryPayout(submission.transactionRef)).toEqual(state);
    }
  });

  it('keeps a pending wallet payout PROCESSING until the issuer settles it', async () => {
    fake.programme('01077777777', { status: 'pending', code: '200' });
    const submission = wallet('01077777777');
    expect((await channel.submitPayout(submission)).status).toBe('PROCESSING');
    expect((await channel.queryPayout(submission.transactionRef)).status).toBe('PROCESSING');
    fake.completePayout(submission.transactionRef);
    expect((await channel.queryPayout(submission.transactionRef)).status).toBe('SUCCESS');
  });
});

describe('paymob bank payouts', () => {
  it('sends a bank transfer with Paymob bank code, cash_transfer and the holder name; pending until the bank settles', async () => {
    const submission = bank('1101');
    const state = await channel.submitPayout(submission);
    expect(state.status).toBe('PROCESSING');
    expect(fake.payoutFor(submission.transactionRef)).toMatchObject({
      issuer: 'bank_card', bank_code: 'CIB', bank_transaction_type: 'cash_transfer', bank_card_number: '100012345678', full_name: 'Mona Adel', amountText: '2500.00',
    });

    const inquiries = fake.requestsTo('/transaction/inquire/').length;
    fake.completePayout(submission.transactionRef);
    expect(await channel.queryPayout(submission.transactionRef)).toEqual({ status: 'SUCCESS', upstreamRef: state.upstreamRef });
    // Wallet transactions are asked first, then bank transactions.
    const asked = fake.requestsTo('/transaction/inquire/').slice(inquiries).map((r) => JSON.parse(r.rawBody));
    expect(asked).toEqual([
      { transactions_ids_list: [clientReferenceId(submission.transactionRef)], bank_transactions: false },
      { transactions_ids_list: [clientReferenceId(submission.transactionRef)], bank_transactions: true },
    ]);
    expect(fake.requestsTo('/transaction/inquire/').at(-1)!.method).toBe('GET');
  });

  it('reports a bank refusal of a pending transfer as FAILED INVALID_ACCOUNT', async () => {
    const submission = bank('1001', '200012345678');
    await channel.submitPayout(submission);
    fake.failPayout(submission.transactionRef, '000105');
    expect(await channel.queryPayout(submission.transactionRef)).toMatchObject({ status: 'FAILED', failureReason: 'INVALID_ACCOUNT' });
  });

  it('refuses a bank Paymob does not list (Citibank Egypt) and a malformed account without sending', async () => {
    const before = fake.requestsTo('/disburse/').length;
    expect((await refusal(channel.submitPayout(bank('1216')))).message).toMatch(/not in Paymob's bank list/);
    expect((await refusal(channel.submitPayout(bank('9999')))).failureReason).toBe('UPSTREAM_REJECTED');
    expect((await refusal(channel.submitPayout(bank('1101', '12-34')))).failureReason).toBe('INVALID_ACCOUNT');
    expect(fake.requestsTo('/disburse/').length).toBe(before);
  });
});

describe('paymob inquiry and faults', () => {
  it('answers UNKNOWN for a payout Paymob never received', async () => {
    expect(await channel.queryPayout('PO-never-sent')).toEqual({ status: 'UNKNOWN' });
  });

  it('a validation refusal (HTTP 400) is an UpstreamRefusedError with the code', async () => {
    fake.nextAnswer('/disburse/', { status: 400, body: paymobFixture('disburse-validation-error') });
    const error = await refusal(channel.submitPayout(wallet('01020304050')));
    expect(error).toMatchObject({ failureReason: 'UPSTREAM_REJECTED', upstreamStatus: 400, upstreamCode: '400' });
  });

  it('a duplicate refusal (501) is never a refusal: the earlier payout is looked up, else the outcome is unknown', async () => {
    const submission = wallet('01044444444');
    const first = await channel.submitPayout(submission);
    fake.nextAnswer('/disburse/', { status: 400, body: { status_code: '501', status_description: 'Duplicate transaction' } });
    expect(await channel.submitPayout(submission)).toEqual(first);
    fake.nextAnswer('/disburse/', { status: 400, body: { status_code: '501', status_description: 'Duplicate transaction' } });
    await expect(channel.submitPayout(wallet('01044444445'))).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('a hang is UpstreamUnavailableError within the deadline', async () => {
    const quick = channelWith(CREDENTIALS, 300);
    await quick.queryPayout('PO-warm-token');
    fake.nextAnswer('/disburse/', 'hang');
    await expect(quick.submitPayout(wallet('01020304050'))).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('a 5xx, a 429 and an unreadable answer are UpstreamUnavailableError', async () => {
    fake.nextAnswer('/disburse/', { status: 502, body: 'Bad Gateway' });
    await expect(channel.submitPayout(wallet('01020304050'))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    fake.nextAnswer('/disburse/', { status: 429, body: { detail: 'Request was throttled.' } });
    await expect(channel.submitPayout(wallet('01020304050'))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    fake.nextAnswer('/transaction/inquire/', { status: 200, body: '<html>' });
    await expect(channel.queryPayout('PO-x')).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('after a lost answer the inquiry finds the payout by our reference: one payout at Paymob', async () => {
    const quick = channelWith(CREDENTIALS, 300);
    const submission = wallet('01033333333');
    fake.nextAnswer('/disburse/', 'drop');
    await expect(quick.submitPayout(submission)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    const found = await channel.queryPayout(submission.transactionRef);
    expect(found.status).toBe('SUCCESS');
    const reference = clientReferenceId(submission.transactionRef);
    expect([...fake.transactions.values()].filter((t) => t.client_reference_id === reference)).toHaveLength(1);
  });
});

describe('paymob authentication', () => {
  it('wrong password or wrong client secret is UpstreamRefusedError: credentials refused', async () => {
    for (const credentials of [{ ...CREDENTIALS, password: 'nope' }, { ...CREDENTIALS, clientSecret: 'nope' }]) {
      const error = await refusal(channelWith(credentials).submitPayout(wallet('01020304050')));
      expect(error.failureReason).toBe('UPSTREAM_REJECTED');
      expect(error.message).toMatch(/credentials refused/);
      expect(error.message).not.toContain('nope');
    }
  });

  it('renews the token with the refresh token when Paymob answers 401, and retries once', async () => {
    await channel.queryPayout('PO-warm');
    const tokens = fake.requestsTo('/o/token/').length;
    fake.revokeAccessTokens();
    expect((await channel.submitPayout(wallet('01020304050'))).status).toBe('SUCCESS');
    const renewals = fake.requestsTo('/o/token/').slice(tokens);
    expect(renewals.map((r) => new URLSearchParams(r.rawBody).get('grant_type'))).toEqual(['refresh_token']);
  });

  it('renews the token before it expires, by the clock', async () => {
    await channel.queryPayout('PO-warm');
    const tokens = fake.requestsTo('/o/token/').length;
    clock.advance(3_600_000 - 30_000);
    await channel.queryPayout('PO-warm');
    expect(fake.requestsTo('/o/token/').length).toBe(tokens + 1);
  });

  it('a 401 that persists after renewal is credentials refused', async () => {
    await channel.queryPayout('PO-warm');
    fake.nextAnswer('/transaction/inquire/', { status: 401, body: paymobFixture('unauthenticated') });
    fake.nextAnswer('/transaction/inquire/', { status: 401, body: paymobFixture('unauthenticated') });
    expect((await refusal(channel.queryPayout('PO-x'))).message).toMatch(/credentials refused/);
  });
});

describe('paymob notifications', () => {
  it('every callback is refused INVALID_SIGNATURE: Paymob documents no signed payout notification', () => {
    const bodies = [paymobFixture('disburse-wallet-successful'), paymobFixture('inquiry-answer'), {}];
    for (const body of bodies) {
      let caught: unknown;
      try {
        channel.parseCallback({ 'content-type': 'application/json' }, Buffer.from(JSON.stringify(body)));
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).reason).toBe('INVALID_SIGNATURE');
    }
  });
});

describe('paymob mappings', () => {
  it('maps every documented disbursement status', () => {
    expect(DISBURSEMENT_STATUS).toEqual({ successful: 'SUCCESS', success: 'SUCCESS', pending: 'PROCESSING', failed: 'FAILED', cancelled: 'FAILED' });
    expect(toPayoutState({ disbursement_status: 'Successful' }).status).toBe('SUCCESS');
    expect(toPayoutState({ disbursement_status: 'something new' }).status).toBe('PROCESSING');
    for (const code of BANK_PENDING_CODES) expect(toPayoutState({ disbursement_status: 'pending', status_code: code })).toEqual({ status: 'PROCESSING' });
  });

  it('maps every documented failure code', () => {
    for (const [code, reason] of Object.entries(STATUS_CODE_REASON)) {
      expect(toPayoutState({ disbursement_status: 'failed', status_code: code, transaction_id: 't' })).toEqual({ status: 'FAILED', upstreamRef: 't', failureReason: reason });
    }
    expect(toPayoutState({ disbursement_status: 'failed', status_code: 6005 }).failureReason).toBe('INSUFFICIENT_FUNDS_UPSTREAM');
  });

  it('the documented sample payloads map to the right states', () => {
    expect(toPayoutState(paymobFixture<DisbursementAnswer>('disburse-wallet-successful'))).toEqual({ status: 'SUCCESS', upstreamRef: 'a1f3c5e7-0b2d-4f6a-8c9e-1a3b5c7d9e0f' });
    expect(toPayoutState(paymobFixture<DisbursementAnswer>('disburse-wallet-failed'))).toMatchObject({ status: 'FAILED', failureReason: 'INVALID_ACCOUNT' });
    expect(toPayoutState(paymobFixture<DisbursementAnswer>('disburse-bank-pending')).status).toBe('PROCESSING');
  });

  it('maps every one of our EGP banks to a Paymob code, except Citibank Egypt which Paymob does not list', () => {
    const unmapped = EGP_BANKS.filter((b) => EGP_BANK_TO_PAYMOB[b.bankCode] === undefined).map((b) => b.bankName);
    expect(unmapped).toEqual(['Citibank Egypt']);
    expect(Object.keys(EGP_BANK_TO_PAYMOB).every((code) => EGP_BANKS.some((b) => b.bankCode === code))).toBe(true);
  });

  it('writes amounts exactly from minor units', () => {
    expect(toEgpDecimal(1n)).toBe('0.01');
    expect(toEgpDecimal(10n)).toBe('0.10');
    expect(toEgpDecimal(100n)).toBe('1.00');
    expect(toEgpDecimal(123456789012345678n)).toBe('1234567890123456.78');
    expect(() => toEgpDecimal(0n)).toThrow(UpstreamRefusedError);
    const body = toInstantCashinBody(wallet('01020304050', { amountMinor: 900719925474099317n }));
    const text = serializeInstantCashin(body);
    expect(text.startsWith('{"amount":9007199254740993.17,')).toBe(true);
    expect(JSON.parse(text)).toMatchObject({ issuer: 'vodafone', msisdn: '01020304050' });
  });

  it('derives one UUID4 per transactionRef, the same every time', () => {
    const a = clientReferenceId('PO-1');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(clientReferenceId('PO-1')).toBe(a);
    expect(clientReferenceId('PO-2')).not.toBe(a);
  });
});
