import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { crc16Ccitt } from '../../src/simulator/qris.js';
import { nubanCheckDigit } from '../../src/simulator/instructions.js';
import { SimulatorRejectedError } from '../../src/connectors/simulator/flows.js';
import type { Currency } from '../../src/core/money.js';
import { collectionRequest, eventually, startHarness, type Harness } from './harness.js';

/** Splits an EMV payload into its top-level tags. */
function emvTags(payload: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (let at = 0; at < payload.length; ) {
    const id = payload.slice(at, at + 2);
    const length = Number(payload.slice(at + 2, at + 4));
    tags.set(id, payload.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return tags;
}

const crcValid = (payload: string): boolean =>
  crc16Ccitt(payload.slice(0, -4)).toString(16).toUpperCase().padStart(4, '0') === payload.slice(-4);

describe('collections at the simulated bank, over HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  const create = (currency: Currency, method: string, amountMinor = 1_500_000n) =>
    h.channel.createCollection(collectionRequest(h.clock, currency, method, amountMinor));

  it('INR NATIVE gives a UPI intent to the merchant VPA with amount, currency and our reference', async () => {
    const request = collectionRequest(h.clock, 'INR', 'NATIVE', 123_450n);
    const { instructions, upstreamRef } = await h.channel.createCollection(request);
    expect(upstreamRef).toMatch(/^SIMC\d{18}$/);
    expect(instructions.kind).toBe('UPI');
    expect(instructions.intentUrl).toBe(instructions.qrPayload);
    expect(instructions.qrPayload).toMatch(/^upi:\/\/pay\?pa=[a-z0-9._-]+@simbank&pn=[^&]+&am=1234\.50&cu=INR&tr=[0-9a-f]{32}$/);
    const params = new URL(instructions.qrPayload!).searchParams;
    expect(params.get('pn')).toBe('Paygate Sandbox');
    expect(params.get('tr')).toBe(request.transactionRef.replace(/-/g, ''));
  });

  it('NGN TRANSFER gives a one-time 10-digit NUBAN at Wema or Providus with an account name', async () => {
    const { instructions } = await create('NGN', 'TRANSFER');
    expect(instructions.kind).toBe('VIRTUAL_ACCOUNT');
    expect(instructions.accountNumber).toMatch(/^\d{10}$/);
    expect(['Wema Bank', 'Providus Bank']).toContain(instructions.bankName);
    expect(instructions.accountName).toContain('Asha Rao');
    const bankCode = instructions.bankName === 'Wema Bank' ? '035' : '101';
    const serial = instructions.accountNumber!.slice(0, 9);
    expect(nubanCheckDigit(bankCode, serial)).toBe(instructions.accountNumber!.slice(9));
    const second = await create('NGN', 'TRANSFER');
    expect(second.instructions.accountNumber).not.toBe(instructions.accountNumber);
  });

  it.each([
    ['BNI', '8808', 'Bank Negara Indonesia (BNI)'],
    ['BRI', '26215', 'Bank Rakyat Indonesia (BRI)'],
    ['MANDIRI', '89608', 'Bank Mandiri'],
    ['PERMATA', '8528', 'Bank Permata'],
  ])('IDR %s gives a 16-digit virtual account with the prefix %s', async (method, prefix, bankName) => {
    const { instructions } = await create('IDR', method);
    expect(instructions.kind).toBe('VIRTUAL_ACCOUNT');
    expect(instructions.accountNumber).toMatch(/^\d{16}$/);
    expect(instructions.accountNumber!.startsWith(prefix)).toBe(true);
    expect(instructions.bankName).toBe(bankName);
    expect(instructions.accountName).toContain('Asha Rao');
  });

  it('IDR QRIS gives a dynamic EMVCo payload with QRIS merchant info, the amount and a valid CRC16', async () => {
    const { instructions, upstreamRef } = await create('IDR', 'QRIS', 15_000_000n);
    expect(instructions.kind).toBe('QRIS');
    const payload = instructions.qrPayload!;
    const tags = emvTags(payload);
    expect(tags.get('00')).toBe('01');
    expect(tags.get('01')).toBe('12');
    expect(tags.get('51')).toContain('ID.CO.QRIS.WWW');
    expect(tags.get('53')).toBe('360');
    expect(tags.get('54')).toBe('150000');
    expect(tags.get('58')).toBe('ID');
    expect(tags.get('62')).toContain(upstreamRef);
    expect(payload.slice(-8, -4)).toBe('6304');
    expect(crcValid(payload)).toBe(true);
    expect(crcValid(payload.replace('5406150000', '5406150001'))).toBe(false);
  });

  it('computes CRC-16/CCITT-FALSE as EMVCo specifies (check value of "123456789" is 29B1)', () => {
    expect(crc16Ccitt('123456789')).toBe(0x29b1);
  });

  it('IDR QRIS renders an amount with cents with two decimals', async () => {
    const { instructions } = await create('IDR', 'QRIS', 1_000_050n);
    expect(emvTags(instructions.qrPayload!).get('54')).toBe('10000.50');
  });

  it.each([
    ['IDR', 'OVO', 'EWALLET'],
    ['IDR', 'DANA', 'EWALLET'],
    ['EGP', 'WALLET', 'MOBILE_WALLET'],
  ] as const)('%s %s prompts the payer phone', async (currency, method, kind) => {
    const { instructions } = await create(currency, method);
    expect(instructions).toEqual({ kind, walletPhone: '+6281234567890' });
  });

  it('EGP FAWRY gives a 9-digit reference code', async () => {
    const { instructions } = await create('EGP', 'FAWRY');
    expect(instructions.kind).toBe('FAWRY');
    expect(instructions.referenceCode).toMatch(/^[1-9]\d{8}$/);
  });

  it('refuses a method the currency does not offer', async () => {
    await expect(create('INR', 'QRIS')).rejects.toBeInstanceOf(SimulatorRejectedError);
  });

  it('is idempotent on transactionRef: the same request answers the same collection', async () => {
    const request = collectionRequest(h.clock, 'NGN', 'TRANSFER', 500_000n);
    const before = h.simulator.stats.collectionsCreated;
    const first = await h.channel.createCollection(request);
    const second = await h.channel.createCollection(request);
    expect(second).toEqual(first);
    expect(h.simulator.stats.collectionsCreated).toBe(before + 1);
    await expect(h.channel.createCollection({ ...request, amountMinor: 600_000n })).rejects.toBeInstanceOf(SimulatorRejectedError);
  });

  it('a paid collection calls back with a valid signature, and queries show it PAID', async () => {
    const request = collectionRequest(h.clock, 'INR', 'NATIVE', 250_000n);
    const { upstreamRef } = await h.channel.createCollection(request);
    expect(await h.channel.queryCollection(request.transactionRef)).toEqual({ upstreamRef, status: 'PENDING' });
    await h.channel.completeCollection(request.transactionRef, 'Success');
    const [callback] = await eventually(() => h.receiver.about(request.transactionRef).length > 0 && h.receiver.about(request.transactionRef));
    expect(h.channel.parseCallback(callback!.headers, callback!.rawBody)).toEqual({
      kind: 'collection',
      transactionRef: request.transactionRef,
      state: { upstreamRef, status: 'PAID', paidAmountMinor: 250_000n },
    });
    expect(await h.channel.queryCollection(request.transactionRef)).toEqual({ upstreamRef, status: 'PAID', paidAmountMinor: 250_000n });
  });

  it('records an underpayment as the amount actually paid', async () => {
    const request = collectionRequest(h.clock, 'NGN', 'TRANSFER', 1_000_000n);
    await h.channel.createCollection(request);
    await h.channel.completeCollection(request.transactionRef, 'Success', { paidAmountMinor: 900_000n });
    expect((await h.channel.queryCollection(request.transactionRef)).paidAmountMinor).toBe(900_000n);
  });

  it('a declined collection is FAILED with a reason and calls back', async () => {
    const request = collectionRequest(h.clock, 'IDR', 'OVO', 5_000_000n);
    await h.channel.createCollection(request);
    await h.channel.completeCollection(request.transactionRef, 'Failed');
    const state = await h.channel.queryCollection(request.transactionRef);
    expect(state).toMatchObject({ status: 'FAILED', failureReason: 'PAYER_DECLINED' });
    const [callback] = await eventually(() => h.receiver.about(request.transactionRef).length > 0 && h.receiver.about(request.transactionRef));
    expect(h.channel.parseCallback(callback!.headers, callback!.rawBody)).toMatchObject({ kind: 'collection', state: { status: 'FAILED' } });
    await expect(h.channel.completeCollection(request.transactionRef, 'Success')).rejects.toMatchObject({ reason: 'CONFLICT' });
  });

  it('expires an unpaid collection when its time passes, and still takes money paid late', async () => {
    const request = collectionRequest(h.clock, 'IDR', 'BNI', 5_000_000n);
    await h.channel.createCollection(request);
    h.clock.advance(30 * 60 * 1000);
    expect((await h.channel.queryCollection(request.transactionRef)).status).toBe('EXPIRED');
    await h.channel.completeCollection(request.transactionRef, 'Success');
    expect((await h.channel.queryCollection(request.transactionRef)).status).toBe('PAID');
    const statuses = await eventually(() => {
      const seen = h.receiver.about(request.transactionRef).map((c) => h.channel.parseCallback(c.headers, c.rawBody));
      return seen.length >= 2 && seen.map((c) => (c.kind === 'collection' ? c.state.status : null));
    });
    expect(statuses.sort()).toEqual(['EXPIRED', 'PAID']);
  });

  it('the sweeper expires due collections, earliest first, and calls back without being asked', async () => {
    const later = collectionRequest(h.clock, 'IDR', 'BNI', 5_000_000n);
    const sooner = { ...collectionRequest(h.clock, 'IDR', 'BNI', 6_000_000n), expiresAtMs: later.expiresAtMs - 60_000 };
    await h.channel.createCollection(later);
    await h.channel.createCollection(sooner);
    const expired = (ref: string) => h.receiver.about(ref).map((c) => h.channel.parseCallback(c.headers, c.rawBody));
    h.clock.advance(sooner.expiresAtMs - h.clock.nowMs());
    const [first] = await eventually(() => expired(sooner.transactionRef).length === 1 && expired(sooner.transactionRef));
    expect(first).toMatchObject({ kind: 'collection', state: { status: 'EXPIRED' } });
    // Not yet due: the sweeps meanwhile leave it pending.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(expired(later.transactionRef)).toEqual([]);
    h.clock.advance(60_000);
    const [second] = await eventually(() => expired(later.transactionRef).length === 1 && expired(later.transactionRef));
    expect(second).toMatchObject({ kind: 'collection', state: { status: 'EXPIRED' } });
  });

  it('answers NOT_FOUND for a collection it never created', async () => {
    await expect(h.channel.queryCollection('no-such-ref')).rejects.toMatchObject({ reason: 'NOT_FOUND' });
    await expect(h.channel.completeCollection('no-such-ref', 'Success')).rejects.toMatchObject({ reason: 'NOT_FOUND' });
  });

  describe('refunds follow the contract: upstream refund only for INR NATIVE, IDR QRIS/OVO/DANA, EGP WALLET', () => {
    const paid = async (currency: Currency, method: string, amountMinor: bigint) => {
      const request = collectionRequest(h.clock, currency, method, amountMinor);
      const { upstreamRef } = await h.channel.createCollection(request);
      await h.channel.completeCollection(request.transactionRef, 'Success');
      return { transactionRef: request.transactionRef, upstreamRef, amountMinor };
    };

    it.each([
      ['INR', 'NATIVE'],
      ['IDR', 'QRIS'],
      ['IDR', 'OVO'],
      ['IDR', 'DANA'],
      ['EGP', 'WALLET'],
    ] as const)('%s %s is refunded once; repeating the refund answers the same refund', async (currency, method) => {
      const collection = await paid(currency, method, 2_000_000n);
      const first = await h.channel.refund(collection);
      expect(first.refundRef).toMatch(/^SIMR\d{18}$/);
      expect(await h.channel.refund(collection)).toEqual(first);
    });

    it.each([
      ['NGN', 'TRANSFER'],
      ['IDR', 'BNI'],
      ['IDR', 'BRI'],
      ['IDR', 'MANDIRI'],
      ['IDR', 'PERMATA'],
      ['EGP', 'FAWRY'],
    ] as const)('%s %s is refused as not refundable', async (currency, method) => {
      const collection = await paid(currency, method, 2_000_000n);
      const refusal = await h.channel.refund(collection).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(AppError);
      expect(refusal).toMatchObject({ reason: 'PAYMENT_NOT_REFUNDABLE' });
    });

    it('refuses to refund a collection that was not paid', async () => {
      const request = collectionRequest(h.clock, 'INR', 'NATIVE', 100_000n);
      const { upstreamRef } = await h.channel.createCollection(request);
      await expect(h.channel.refund({ transactionRef: request.transactionRef, upstreamRef, amountMinor: 100_000n })).rejects.toMatchObject({
        reason: 'PAYMENT_NOT_SUCCESSFUL',
      });
    });
  });
});
