// The name enquiry's cache in isolation, on its own clock: found holders are kept 10 minutes, unknown
// accounts 1 minute, outages not at all; identical enquiries in flight share one upstream call; and
// each connector, currency, method, bank and account is its own entry.
import { describe, expect, it } from 'vitest';
import { UpstreamRefusedError, UpstreamUnavailableError, type Channel, type ResolvedAccount } from '../../src/connectors/channel.js';
import { INVALID_ACCOUNT_TTL_MS, NAME_ENQUIRY_TTL_MS, NameEnquiry } from '../../src/domain/payouts/name-enquiry.js';
import type { PayoutContext } from '../../src/domain/payouts/payout-context.js';
import type { Merchant } from '../../src/merchants/merchant-service.js';

type Resolve = NonNullable<Channel['resolveAccount']>;

function setup(resolve: Resolve, channelName = 'bank') {
  let now = 1_000_000;
  const calls: Parameters<Resolve>[0][] = [];
  const channel = {
    name: channelName,
    resolveAccount: (request: Parameters<Resolve>[0]) => {
      calls.push(request);
      return resolve(request);
    },
  } as unknown as Channel;
  const ctx = { channels: { route: () => ({ channel, fallbacks: [] }), byName: () => channel } } as unknown as PayoutContext;
  const names = new NameEnquiry(ctx, () => now);
  return { names, calls, advance: (ms: number) => (now += ms) };
}

const merchant = { id: 'm1', mode: 'sandbox' } as Merchant;
const holder = (name: string) => async (request: Parameters<Resolve>[0]): Promise<ResolvedAccount> => ({ accountName: name, bankCode: request.bankCode, account: request.account });
const reason = (promise: Promise<unknown>) => promise.then(() => 'answered', (error: { reason?: string }) => error.reason);

describe('name enquiry cache', () => {
  it('keeps a found holder for NAME_ENQUIRY_TTL_MS, then asks again', async () => {
    const { names, calls, advance } = setup(holder('ASHA RAO'));
    expect(await names.holderOf(merchant, 'INR', 'BANK', 'HDFC0001234', '50100012345678')).toEqual({ accountName: 'ASHA RAO', bankCode: 'HDFC0001234' });
    advance(NAME_ENQUIRY_TTL_MS - 1);
    await names.holderOf(merchant, 'INR', 'BANK', 'HDFC0001234', '50100012345678');
    expect(calls).toHaveLength(1);
    advance(1);
    await names.holderOf(merchant, 'INR', 'BANK', 'HDFC0001234', '50100012345678');
    expect(calls).toHaveLength(2);
  });

  it('keeps an unknown account for the shorter INVALID_ACCOUNT_TTL_MS', async () => {
    const { names, calls, advance } = setup(async () => {
      throw new UpstreamRefusedError('INVALID_ACCOUNT', 'no such account');
    });
    expect(INVALID_ACCOUNT_TTL_MS).toBeLessThan(NAME_ENQUIRY_TTL_MS);
    expect(await reason(names.holderOf(merchant, 'NGN', 'BANK', '044', '0123450001'))).toBe('INVALID_ACCOUNT');
    advance(INVALID_ACCOUNT_TTL_MS - 1);
    expect(await reason(names.holderOf(merchant, 'NGN', 'BANK', '044', '0123450001'))).toBe('INVALID_ACCOUNT');
    expect(calls).toHaveLength(1);
    advance(1);
    expect(await reason(names.holderOf(merchant, 'NGN', 'BANK', '044', '0123450001'))).toBe('INVALID_ACCOUNT');
    expect(calls).toHaveLength(2);
  });

  it('keeps no outage or other refusal: UNAVAILABLE and NAME_ENQUIRY_UNAVAILABLE, asked again each time', async () => {
    let answer: Resolve = async () => {
      throw new UpstreamUnavailableError('timeout');
    };
    const { names, calls } = setup((request) => answer(request));
    expect(await reason(names.holderOf(merchant, 'NGN', 'BANK', '044', '0123456789'))).toBe('UNAVAILABLE');
    answer = async () => {
      throw new UpstreamRefusedError('UPSTREAM_REJECTED', 'credentials');
    };
    expect(await reason(names.holderOf(merchant, 'NGN', 'BANK', '044', '0123456789'))).toBe('NAME_ENQUIRY_UNAVAILABLE');
    answer = holder('WES GIBBONS');
    expect((await names.holderOf(merchant, 'NGN', 'BANK', '044', '0123456789')).accountName).toBe('WES GIBBONS');
    expect(calls).toHaveLength(3);
  });

  it('shares one upstream call among identical enquiries in flight', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { names, calls } = setup(async (request) => {
      await gate;
      return { accountName: 'SITI SARI', bankCode: request.bankCode, account: request.account };
    });
    const asked = Promise.all([1, 2, 3].map(() => names.holderOf(merchant, 'IDR', 'TRANSFER', '00014', '1234567890')));
    release();
    expect((await asked).map((h) => h.accountName)).toEqual(['SITI SARI', 'SITI SARI', 'SITI SARI']);
    expect(calls).toHaveLength(1);
  });

  it('keys on currency, method, bank and account', async () => {
    const { names, calls } = setup(holder('ASHA RAO'));
    await names.holderOf(merchant, 'INR', 'BANK', 'HDFC0001234', '501000123456');
    await names.holderOf(merchant, 'INR', 'BANK', 'SBIN0000001', '501000123456');
    await names.holderOf(merchant, 'INR', 'BANK', 'HDFC0001234', '501000123457');
    await names.holderOf(merchant, 'INR', 'UPI', null, 'asha@okaxis');
    await names.holderOf(merchant, 'INR', 'BANK', 'HDFC0001234', '501000123456');
    expect(calls).toHaveLength(4);
  });
});
