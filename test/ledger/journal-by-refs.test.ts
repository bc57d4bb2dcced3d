// The journal of one record (the console's payment and payout pages): the entries of its refs are
// looked up in the unique (kind, ref) index, where both stores used to walk the merchant's history
// newest first until they turned up, so an old record's page read every entry made since.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refEntriesQuery } from '../../src/ledger/queries.js';
import type { LedgerEntriesTable } from '../../src/ledger/ledger-rows.js';
import { planOf } from '../helpers/plans.js';
import { openLedger, T0_MS, type LedgerFixture } from './helpers.js';

const STORE = process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite';
const M = 'm-journal';
const OTHER = 'm-other';

let f: LedgerFixture;
beforeEach(async () => {
  f = await openLedger([M, OTHER]);
});
afterEach(async () => {
  await f.close();
});

const filler = (n: number, merchantId: string): LedgerEntriesTable => ({
  id: `e_${String(n).padStart(8, '0')}_${merchantId}`,
  kind: 'payment_credit',
  ref: `filler-${merchantId}-${n}`,
  merchant_id: merchantId,
  currency: 'INR',
  posting_count: 3n,
  reason: null,
  actor: null,
  created_at_ms: BigInt(T0_MS + n),
});

describe(`the journal of a record's refs (${STORE})`, () => {
  it('finds an old payment and its refund among later entries, with their postings, and only the merchant’s own', async () => {
    const tx = f.db.transaction();
    await tx.execute((trx) => f.ledger.creditPayment(trx, { merchantId: M, currency: 'INR', paidMinor: 100_00n, feeMinor: 2_00n, channel: 'sim', ref: 'pay-old' }));
    await tx.execute((trx) => f.ledger.debitRefund(trx, { merchantId: M, currency: 'INR', paidMinor: 50_00n, channel: 'sim', ref: 'rfd-old', paymentRef: 'pay-old' }));
    await tx.execute((trx) => f.ledger.creditPayment(trx, { merchantId: OTHER, currency: 'INR', paidMinor: 5_00n, feeMinor: 0n, channel: 'sim', ref: 'pay-theirs' }));
    // Ids sort after the real entries' (time-ordered ids begin with a digit): the filler is newer.
    const rows = [...Array.from({ length: 3_000 }, (_, n) => filler(n, M)), ...Array.from({ length: 500 }, (_, n) => filler(n, OTHER))];
    for (let i = 0; i < rows.length; i += 250) await f.db.insertInto('ledger_entries').values(rows.slice(i, i + 250)).execute();

    const entries = await f.ledger.journal(M, { refs: ['pay-old', 'rfd-old', 'pay-theirs'], limit: 100 });
    expect(entries.map((e) => [e.kind, e.ref])).toEqual([
      ['refund', 'rfd-old'],
      ['payment_credit', 'pay-old'],
    ]);
    const credit = entries[1]!;
    expect(credit.postings.reduce((sum, p) => sum + p.amountMinor, 0n)).toBe(0n);
    expect(credit.postings.find((p) => p.merchantId === M && p.kind === 'pending')?.amountMinor).toBe(98_00n);
    expect(await f.ledger.journal(OTHER, { refs: ['pay-old'] })).toEqual([]);
    // The limit, the page back from an entry and the currency apply to the refs' entries as before.
    const refs = ['pay-old', 'rfd-old'];
    expect((await f.ledger.journal(M, { refs, limit: 1 })).map((e) => e.ref)).toEqual(['rfd-old']);
    expect((await f.ledger.journal(M, { refs, before: entries[0]!.id })).map((e) => e.ref)).toEqual(['pay-old']);
    expect(await f.ledger.journal(M, { refs, currency: 'EGP' })).toEqual([]);
    expect(await f.ledger.journal(M, { refs, currency: 'INR' })).toHaveLength(2);
    expect(await f.ledger.journal(M, { refs: [] })).toEqual([]);

    // On SQLite without statistics, as the service runs it; on PostgreSQL with sequential scans off.
    const plan = await planOf(f.store, refEntriesQuery(f.db, ['pay-old', 'rfd-old']).compile());
    expect(plan).toContain('ledger_entries_kind_ref');
    expect(plan).not.toContain('ledger_entries_merchant');
  });

  it('pages the merchant’s whole journal as before when no refs are given', async () => {
    const rows = Array.from({ length: 120 }, (_, n) => filler(n, M));
    await f.db.insertInto('ledger_entries').values(rows).execute();
    const first = await f.ledger.journal(M, { limit: 50 });
    expect(first.map((e) => e.ref)).toEqual(Array.from({ length: 50 }, (_, i) => `filler-${M}-${119 - i}`));
    const next = await f.ledger.journal(M, { limit: 50, before: first.at(-1)!.id });
    expect(next[0]!.ref).toBe(`filler-${M}-69`);
  });
});
