// account/statement and account/settlements through HTTP: every movement of the merchant's balances
// with a balance after that agrees with account/balance, pages that survive postings in between, and
// daily totals that agree with the statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Balance } from '../../sdk/src/index.js';
import { paidPayment } from '../payments/api-helpers.js';
import { fund, payoutBody, until } from '../payouts/helpers.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { allPages } from './helpers.js';

interface Line {
  entryId: string;
  type: string;
  bucket: 'available' | 'pending' | 'held' | 'credit' | 'security';
  amount: number;
  fee: number;
  balanceAfter: number;
  paymentRef?: string;
  payoutRef?: string;
  createdAt: string;
}

let server: TestServer;
let merchant: TestMerchant;
let other: TestMerchant;
const BUCKETS = ['available', 'pending', 'held', 'credit', 'security'] as const;
/** Minor units, so sums are exact. */
const minor = (major: number): bigint => BigInt(Math.round(major * 100));

async function activity(): Promise<{ paymentRef: string; payoutRef: string }> {
  const paymentRef = await paidPayment(merchant, 'INR', 'NATIVE');
  const refunded = await paidPayment(merchant, 'INR', 'NATIVE');
  await server.services.ledger.settlePending();
  expect((await merchant.client.paymentRefund({ transactionRef: refunded })).status).toBe(200);
  const payout = await merchant.client.payoutInitiate(payoutBody('INR', 'BANK', { amount: 500 }));
  expect(payout.status).toBe(200);
  await until(merchant, payout.data.transactionRef, ['Success']);
  await server.services.ledger.settlePending();
  return { paymentRef, payoutRef: payout.data.transactionRef };
}

let refs: { paymentRef: string; payoutRef: string };

beforeAll(async () => {
  server = await startTestServer();
  merchant = await server.createMerchant();
  other = await server.createMerchant();
  await fund(server, merchant.id, 'INR', 200_000n);
  await server.services.ledger.grantCredit({ merchantId: merchant.id, currency: 'INR', amountMinor: 50_000n, reason: 'test line', actor: 'test' });
  refs = await activity();
  // A second UTC day of activity.
  server.clock.advance(24 * 60 * 60 * 1000);
  await activity();
}, 60_000);
afterAll(async () => server.close());

async function balance(): Promise<Balance> {
  return (await merchant.client.balance({ currency: 'INR' })).data;
}

describe('account/statement', () => {
  it('lists every movement, newest first, with a balance after that chains back to zero and ends at account/balance', async () => {
    const lines = await allPages<Line>(merchant.client, 'account/statement', { currency: 'INR' }, 3);
    const whole = await allPages<Line>(merchant.client, 'account/statement', { currency: 'INR' }, 100);
    expect(lines).toEqual(whole);
    const now = await balance();
    for (const bucket of BUCKETS) {
      const mine = lines.filter((l) => l.bucket === bucket);
      expect(minor(mine[0]?.balanceAfter ?? 0), bucket).toBe(minor(now[bucket]));
      let after = mine[0] ? minor(mine[0].balanceAfter) : 0n;
      for (const line of mine) {
        expect(minor(line.balanceAfter), `${bucket} ${line.entryId}`).toBe(after);
        after -= minor(line.amount);
      }
      expect(after, `${bucket} starts at zero`).toBe(0n);
    }
    const types = new Set(lines.map((l) => l.type));
    for (const type of ['adjustment', 'credit_grant', 'payment_credit', 'refund', 'payout_reserve', 'payout_complete', 'settlement']) expect(types).toContain(type);
    const credit = lines.find((l) => l.type === 'payment_credit' && l.paymentRef === refs.paymentRef)!;
    expect(credit.bucket).toBe('pending');
    expect(credit.fee).toBeGreaterThan(0);
    expect(lines.find((l) => l.type === 'refund')!.paymentRef).toEqual(expect.any(String));
    expect(lines.filter((l) => l.payoutRef === refs.payoutRef).map((l) => l.type)).toEqual(expect.arrayContaining(['payout_reserve', 'payout_complete']));
  });

  it('answers a range with the same lines and balances the whole statement has there', async () => {
    const whole = await allPages<Line>(merchant.client, 'account/statement', { currency: 'INR' });
    const times = [...new Set(whole.map((l) => l.createdAt))].sort();
    const from = times[2]!;
    const to = times[times.length - 3]!;
    const ranged = await allPages<Line>(merchant.client, 'account/statement', { currency: 'INR', from, to }, 2);
    expect(ranged).toEqual(whole.filter((l) => l.createdAt >= from && l.createdAt < to));
    expect(ranged.length).toBeGreaterThan(0);
  });

  it('keeps paging the same history while new movements are posted', async () => {
    const before = await allPages<Line>(merchant.client, 'account/statement', { currency: 'INR' });
    const first = await merchant.client.request<any>('account/statement', { currency: 'INR', limit: 4 });
    await paidPayment(merchant, 'INR', 'NATIVE');
    await server.services.ledger.settlePending();
    const seen: Line[] = [...first.data.items];
    let cursor: string | null = first.data.nextCursor;
    while (cursor !== null) {
      const page = await merchant.client.request<any>('account/statement', { currency: 'INR', limit: 5, cursor });
      expect(page.status).toBe(200);
      seen.push(...page.data.items);
      cursor = page.data.nextCursor;
    }
    expect(seen).toEqual(before);
  });

  it("shows another merchant nothing of this merchant's and refuses bad input", async () => {
    expect(await allPages<Line>(other.client, 'account/statement', { currency: 'INR' })).toEqual([]);
    const first = await merchant.client.request<any>('account/statement', { currency: 'INR', limit: 1 });
    const cursor = first.data.nextCursor as string;
    const bad = [
      {},
      { currency: 'INR', limit: 101 },
      { currency: 'INR', unknown: 1 },
      { currency: 'INR', from: '2026-02-01', to: '2026-01-31' },
      { currency: 'INR', cursor: `${cursor}x` },
      { currency: 'EGP', cursor },
    ];
    for (const body of bad) expect((await merchant.client.request<any>('account/statement', body)).status, JSON.stringify(body)).toBe(400);
    expect((await other.client.request<any>('account/statement', { currency: 'INR', cursor })).status).toBe(400);
  });
});

describe('account/settlements', () => {
  it('gives per-day totals that agree with the statement', async () => {
    const lines = await allPages<Line>(merchant.client, 'account/statement', { currency: 'INR' });
    const answer = await merchant.client.settlements({ currency: 'INR' });
    expect(answer.status).toBe(200);
    const days = answer.data.days;
    expect(days.length).toBeGreaterThanOrEqual(2);
    expect([...days].map((d) => d.date)).toEqual([...days].map((d) => d.date).sort().reverse());
    for (const day of days) {
      const of = lines.filter((l) => l.createdAt.slice(0, 10) === day.date);
      const sum = (pick: (l: Line) => boolean, value: (l: Line) => number = (l) => l.amount) =>
        of.filter(pick).reduce((total, l) => total + minor(value(l)), 0n);
      expect(minor(day.net), day.date).toBe(sum(() => true));
      const credits = (l: Line) => l.type === 'payment_credit';
      expect(minor(day.collected)).toBe(sum(credits) + sum(credits, (l) => l.fee));
      expect(minor(day.refunded)).toBe(-sum((l) => l.type === 'refund' || l.type === 'refund_reversal'));
      expect(minor(day.settled)).toBe(-sum((l) => l.type === 'settlement' && l.bucket === 'pending'));
      const completions = of.filter((l) => l.type === 'payout_complete');
      expect(minor(day.paidOut)).toBe(-completions.reduce((t, l) => t + minor(l.amount) + minor(l.fee), 0n));
      const paymentFees = sum(credits, (l) => l.fee);
      const payoutFees = completions.reduce((t, l) => t + minor(l.fee), 0n);
      expect(minor(day.fees)).toBe(paymentFees + payoutFees);
    }
    // Two payouts of 500 reached Success, one each UTC day (wherever midnight fell).
    expect(days.reduce((t, d) => t + minor(d.paidOut), 0n)).toBe(100_000n);
  });

  it('covers a given range, refuses an inverted or too long one, and is empty for another merchant', async () => {
    const all = (await merchant.client.request<any>('account/settlements', { currency: 'INR' })).data.days;
    const newest = all[0].date as string;
    const one = await merchant.client.request<any>('account/settlements', { currency: 'INR', from: newest });
    expect(one.data.days).toEqual([all[0]]);
    for (const body of [{ currency: 'INR', from: '2026-02-01', to: '2026-01-01' }, { currency: 'INR', from: '2020-01-01', to: '2026-01-01' }, { currency: 'INR', extra: true }]) {
      expect((await merchant.client.request<any>('account/settlements', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await other.client.request<any>('account/settlements', { currency: 'INR' })).data).toEqual({ currency: 'INR', days: [] });
  });
});
