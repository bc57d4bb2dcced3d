// Late money held for the operator, through the operator API: a sandbox payment expires, the payer
// pays anyway at the simulated bank, the money is held; the operator lists it and credits it to the
// merchant (fee applied, payment.late_credited, ledger still verifies) or returns it to the payer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Currency, PayInMethod } from '../../sdk/src/index.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { collectionReady, drain, entriesOf, eventsOf, initiateBody, jobsOf, pause } from '../payments/api-helpers.js';

const MINUTE_MS = 60_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const simulator = () => server.services.channels.simulator;
const credited = async (merchantId: string, currency: Currency): Promise<bigint> => {
  const b = await server.services.ledger.balances(merchantId, currency);
  return b.pending + b.available;
};

/** A payment that expired unpaid and was then paid at the bank (optionally another amount). */
async function paidAfterExpiry(shop: TestMerchant, currency: Currency, method: PayInMethod, paidAmountMinor?: bigint): Promise<string> {
  const created = await shop.client.paymentInitiate(initiateBody(currency, method));
  const ref = created.data.transactionRef;
  await collectionReady(server, ref);
  server.clock.advance(31 * MINUTE_MS);
  await drain(jobsOf(server).expiry);
  expect((await shop.client.paymentStatus({ transactionRef: ref })).data.status).toBe('Expired');
  await simulator().channel.completeCollection(ref, 'Success', paidAmountMinor === undefined ? {} : { paidAmountMinor });
  return ref;
}

/** The held item once the bank's callback has been applied. */
async function heldItem(ref: string, status = 'open'): Promise<any> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const answer = await server.admin('GET', `/held-money/${ref}`);
    if (answer.status === 200 && answer.body.data.status === status) return answer.body.data;
    if (Date.now() > deadline) throw new Error(`held money of ${ref}: ${JSON.stringify(answer.body)}`);
    await pause(50);
  }
}

const audits = async (ref: string) => (await server.admin('GET', `/audit?action=held_money.credit&limit=200`)).body.data.items.concat(
  (await server.admin('GET', `/audit?action=held_money.return&limit=200`)).body.data.items,
).filter((e: any) => e.target === ref);

async function expectLedgerOk(): Promise<void> {
  expect((await server.admin('GET', '/ledger/verify')).body.data).toEqual({ ok: true, violations: [] });
}

describe('held money: listing and crediting', () => {
  it('lists an overpaid late NGN transfer, refuses to return it, credits it once with the fee, and announces it', async () => {
    const shop = await server.createMerchant();
    const ref = await paidAfterExpiry(shop, 'NGN', 'TRANSFER', 12_500_00n);
    const item = await heldItem(ref);
    const payment = (await shop.client.paymentStatus({ transactionRef: ref })).data;
    expect(item).toMatchObject({
      transactionRef: ref,
      merchantId: shop.id,
      merchantRef: payment.merchantRef,
      currency: 'NGN',
      method: 'TRANSFER',
      paymentStatus: 'Expired',
      reason: 'late',
      amountAsked: 12_000,
      amountHeld: 12_500,
      amountMismatch: true,
      status: 'open',
      resolvedBy: null,
    });
    const listed = await server.admin('GET', `/held-money?merchantId=${shop.id}&status=open`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.items.map((i: any) => i.transactionRef)).toEqual([ref]);

    // NGN transfers have no upstream refund: the channel way out is refused clearly, nothing changes.
    const refused = await server.admin('POST', `/held-money/${ref}/return`, { reason: 'payer asked' });
    expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 422, message: 'PAYMENT_NOT_REFUNDABLE' });
    expect((await heldItem(ref)).status).toBe('open');

    const before = await credited(shop.id, 'NGN');
    const credit = await server.admin('POST', `/held-money/${ref}/credit`, { reason: 'merchant shipped the order' });
    expect(credit.status).toBe(200);
    // The fee fixed when the payment was created (1.4 % of 12,000) applies, as to any payment.
    expect(credit.body.data).toMatchObject({ replayed: false, item: { status: 'credited', fee: payment.fee, credited: 12_500 - 168, resolvedBy: 'admin' } });
    expect(payment.fee).toBe(168);
    expect(await credited(shop.id, 'NGN')).toBe(before + 12_332_00n);
    expect((await shop.client.paymentStatus({ transactionRef: ref })).data.status).toBe('Expired');
    const events = await eventsOf(server, ref);
    expect(events.map((e) => e.type)).toEqual(['payment.expired', 'payment.late_credited']);
    expect(events[1]!.payload).toMatchObject({ transactionRef: ref, status: 'Expired', lateCredit: { paidAmount: 12_500, fee: 168, credited: 12_332 }, event: { type: 'payment.late_credited' } });
    await expectLedgerOk();

    // Again: the same answer, and nothing moves, is announced or audited twice.
    const again = await server.admin('POST', `/held-money/${ref}/credit`, { reason: 'clicked twice' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ replayed: true, item: { status: 'credited', note: 'merchant shipped the order' } });
    expect(await credited(shop.id, 'NGN')).toBe(before + 12_332_00n);
    expect((await eventsOf(server, ref)).length).toBe(2);
    expect(await entriesOf(server, shop.id, 'late_credit')).toBe(1);
    const audit = await audits(ref);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'admin', action: 'held_money.credit', merchantId: shop.id, details: { currency: 'NGN', amount: '12500.00', fee: '168.00' } });

    const returnAfter = await server.admin('POST', `/held-money/${ref}/return`, { reason: 'too late' });
    expect({ status: returnAfter.status, message: returnAfter.body.message }).toEqual({ status: 409, message: 'CONFLICT' });
    await expectLedgerOk();
  });

  it('credits once when two operators credit the same item at the same time', async () => {
    const shop = await server.createMerchant();
    const ref = await paidAfterExpiry(shop, 'EGP', 'FAWRY');
    await heldItem(ref);
    const answers = await Promise.all([1, 2].map((n) => server.admin('POST', `/held-money/${ref}/credit`, { reason: `operator ${n}` })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.body.data.replayed).sort()).toEqual([false, true]);
    expect(await entriesOf(server, shop.id, 'late_credit')).toBe(1);
    expect((await eventsOf(server, ref)).filter((e) => e.type === 'payment.late_credited')).toHaveLength(1);
    expect(await audits(ref)).toHaveLength(1);
    await expectLedgerOk();
  });

  it('answers 404 for a payment without held money and 400 for an unknown status filter', async () => {
    expect((await server.admin('POST', '/held-money/0190aaaa-0000-7000-8000-000000000000/credit', { reason: 'x' })).status).toBe(404);
    expect((await server.admin('GET', '/held-money?status=lost')).status).toBe(400);
  });
});

describe('held money: returning it to the payer', () => {
  it('returns late UPI money the bank first refused to send back: the bank records the refund, the item is returned', async () => {
    const shop = await server.createMerchant();
    // The service's own attempt to send the late money back is refused, so it is held.
    simulator().server!.faults.refuseNextRefunds = 1;
    const ref = await paidAfterExpiry(shop, 'INR', 'NATIVE');
    const held = await heldItem(ref);
    expect(held.heldBecause).toMatch(/REFUND_DECLINED|declined/);
    expect(simulator().server!.faults.refuseNextRefunds).toBe(0);

    const refundsBefore = simulator().server!.stats.refunds;
    const balanceBefore = await credited(shop.id, 'INR');
    const returned = await server.admin('POST', `/held-money/${ref}/return`, { reason: 'payer asked for it back' });
    expect(returned.status).toBe(200);
    expect(returned.body.data).toMatchObject({ replayed: false, item: { status: 'returned', resolvedBy: 'admin', note: 'payer asked for it back' } });
    expect(returned.body.data.item.refundRef).toBeTruthy();
    expect(simulator().server!.stats.refunds).toBe(refundsBefore + 1);
    expect(await credited(shop.id, 'INR')).toBe(balanceBefore);
    expect(await entriesOf(server, shop.id, 'late_return')).toBe(1);
    await expectLedgerOk();

    const again = await server.admin('POST', `/held-money/${ref}/return`, { reason: 'again' });
    expect(again.body.data).toMatchObject({ replayed: true, item: { status: 'returned', refundRef: returned.body.data.item.refundRef } });
    expect(simulator().server!.stats.refunds).toBe(refundsBefore + 1);
    const credit = await server.admin('POST', `/held-money/${ref}/credit`, { reason: 'no' });
    expect({ status: credit.status, message: credit.body.message }).toEqual({ status: 409, message: 'CONFLICT' });
    expect(await audits(ref)).toMatchObject([{ actor: 'admin', action: 'held_money.return', target: ref }]);
    expect((await server.admin('GET', `/held-money?merchantId=${shop.id}&status=returned`)).body.data.items).toHaveLength(1);
  });

  it('resolves an item one way only when a return and a credit race', async () => {
    const shop = await server.createMerchant();
    simulator().server!.faults.refuseNextRefunds = 1;
    const ref = await paidAfterExpiry(shop, 'IDR', 'QRIS');
    await heldItem(ref);
    const [returned, creditedAnswer] = await Promise.all([
      server.admin('POST', `/held-money/${ref}/return`, { reason: 'payer asked' }),
      server.admin('POST', `/held-money/${ref}/credit`, { reason: 'merchant asked' }),
    ]);
    const outcome = [returned.status, creditedAnswer.status].sort();
    expect(outcome).toEqual([200, 409]);
    const winner = returned.status === 200 ? 'returned' : 'credited';
    expect((await heldItem(ref, winner)).status).toBe(winner);
    expect((await entriesOf(server, shop.id, 'late_return')) + (await entriesOf(server, shop.id, 'late_credit'))).toBe(1);
    expect(await audits(ref)).toHaveLength(1);
    await expectLedgerOk();
  });
});
