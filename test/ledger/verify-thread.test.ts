// The ledger verifier in a thread of its own (SQLite, journals from VERIFY_IN_THREAD_FROM_ENTRIES): the
// same answers as in the service's thread, from one snapshot while the service keeps writing, and the
// event loop free meanwhile.
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { VERIFY_IN_THREAD_FROM_ENTRIES } from '../../src/ledger/service.js';
import { verifyLedgerInThread } from '../../src/ledger/verify.js';
import { openVerifierConnection, VERIFIER_CACHE_KIB } from '../../src/ledger/verifier-connection.js';
import type { Executor } from '../../src/store/schema.js';
import { usingPostgres } from '../helpers/store.js';
import { turnsDuring } from '../helpers/loop-turns.js';
import { fund, openLedger, T0_MS, type LedgerFixture } from './helpers.js';

const M = 'mch_verify_thread';
const INR = 'INR' as const;
const FEE_REVENUE = 'p:INR:fee_revenue';
const CLEARING = 'p:INR:upstream_clearing:sim';

let fixtures: LedgerFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.map((f) => f.close()));
  fixtures = [];
});

/** A ledger whose journal counts as big from `threadFrom` entries (0: always in the thread). */
async function ledger(threadFrom: number): Promise<LedgerFixture> {
  const f = await openLedger([M], { settlementDelayMs: { INR: 60_000 }, verifyInThreadFrom: threadFrom });
  fixtures.push(f);
  return f;
}

const tx = <T>(f: LedgerFixture, work: (trx: Executor) => Promise<T>): Promise<T> => f.db.transaction().execute(work);
const credit = (f: LedgerFixture, ref: string, paidMinor: bigint, feeMinor = 1_00n) =>
  tx(f, (trx) => f.ledger.creditPayment(trx, { merchantId: M, currency: INR, paidMinor, feeMinor, channel: 'sim', ref }));

/** `count` balanced two-posting entries between two platform accounts, written in bulk, and their balances. */
async function bulkEntries(f: LedgerFixture, count: number): Promise<void> {
  for (let i = 0; i < count; i += 400) {
    const n = Math.min(400, count - i);
    const ids = Array.from({ length: n }, (_, k) => `01900000-0000-7000-8000-${String(i + k).padStart(12, '0')}`);
    await f.db
      .insertInto('ledger_entries')
      .values(ids.map((id, k) => ({ id, kind: 'adjustment', ref: `bulk-${i + k}`, merchant_id: null, currency: INR, posting_count: 2n, reason: 'bulk', actor: 'test', created_at_ms: BigInt(T0_MS + i + k) })))
      .execute();
    await f.db
      .insertInto('ledger_postings')
      .values(ids.flatMap((id) => [{ entry_id: id, account_id: FEE_REVENUE, amount_minor: 3n }, { entry_id: id, account_id: CLEARING, amount_minor: -3n }]))
      .execute();
  }
  await sql`UPDATE ledger_accounts SET balance_minor = balance_minor + ${3n * BigInt(count)} WHERE id = ${FEE_REVENUE}`.execute(f.db);
  await sql`UPDATE ledger_accounts SET balance_minor = balance_minor - ${3n * BigInt(count)} WHERE id = ${CLEARING}`.execute(f.db);
}

describe.skipIf(usingPostgres())('the ledger verifier in its own thread (SQLite)', () => {
  it('starts from the journal size that would hold the event loop', () => {
    expect(VERIFY_IN_THREAD_FROM_ENTRIES).toBe(10_000);
  });

  it('finds exactly what the verifier finds in the service thread, and nothing in clean books', async () => {
    const f = await ledger(0);
    await fund(f.ledger, M, INR, 50_00n);
    await credit(f, 'pay-1', 10_00n);
    const { entryId } = await credit(f, 'pay-2', 20_00n);
    expect(await f.ledger.verify()).toEqual([]);

    // Three kinds of damage: a cached balance, a lost posting, held money without its reservation.
    await f.db.updateTable('ledger_accounts').set({ balance_minor: 11_00n }).where('id', '=', `m:${M}:INR:pending`).execute();
    await f.db.deleteFrom('ledger_postings').where('entry_id', '=', entryId).where('account_id', '=', FEE_REVENUE).execute();
    await tx(f, (trx) => f.ledger.reserveForPayout(trx, { merchantId: M, currency: INR, amountMinor: 5_00n, feeMinor: 0n, ref: 'po-1' }));
    await f.db.updateTable('ledger_reservations').set({ status: 'completed' }).execute();

    const inThread = await f.ledger.verify();
    const inService = await new (await import('../../src/ledger/service.js')).LedgerService({ db: f.db, kind: 'sqlite', sqliteFile: null }, f.clock).verify();
    expect(inThread.map((v) => v.code).sort()).toEqual(['BALANCE_MISMATCH', 'BALANCE_MISMATCH', 'CURRENCY_NOT_ZERO', 'ENTRY_UNBALANCED', 'HELD_MISMATCH', 'PENDING_LOTS_MISMATCH']);
    expect(inThread).toContainEqual({ code: 'ENTRY_UNBALANCED', subject: entryId, detail: 'postings sum to -100' });
    expect(inThread).toEqual(inService);
  });

  it('leaves the event loop free while it reads a long journal', async () => {
    const f = await ledger(1);
    await credit(f, 'pay-1', 10_00n);
    await bulkEntries(f, 20_000);
    // Another task's turns while the verifier runs: in the service's thread the checks would answer
    // between a handful of awaits, so only a thread of its own lets this count climb.
    const { result: violations, turns } = await turnsDuring(() => f.ledger.verify());
    expect(violations).toEqual([]);
    expect(turns).toBeGreaterThan(100);
  });

  // It shows that payments posted during the read raise no false violation; the checks' single read
  // transaction (verifyLedger) is what guarantees it, and this test alone could not tell it was gone.
  it('reports nothing false while the service goes on writing', async () => {
    const f = await ledger(0);
    await credit(f, 'pay-0', 10_00n);
    await bulkEntries(f, 5_000);
    let done = false;
    const verifying = f.ledger.verify().finally(() => (done = true));
    let written = 0;
    // Payments keep posting (pending, fee and clearing accounts, lots) until the verifier answers.
    // better-sqlite3 answers at once, so each write is followed by a turn of the loop, or the thread's
    // answer would never be heard.
    while (!done) {
      await credit(f, `pay-w${written}`, 1_00n + BigInt(written), 10n);
      written += 1;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(await verifying).toEqual([]);
    expect(written).toBeGreaterThan(0);
    expect(await f.ledger.verify()).toEqual([]);
  });

  it('reads on a read-only connection with a small page cache, its integers as bigints (session 41: 51 → 21 MiB a verify)', async () => {
    const f = await ledger(1);
    await credit(f, 'pay-1', 10_00n);
    const db = openVerifierConnection(f.store.sqliteFile!);
    try {
      // better-sqlite3's own default would be -16000 (16 MiB).
      expect(db.pragma('cache_size', { simple: true })).toBe(-BigInt(VERIFIER_CACHE_KIB));
      expect(VERIFIER_CACHE_KIB).toBeLessThanOrEqual(1024);
      expect(db.readonly).toBe(true);
      expect(typeof (db.prepare('SELECT COUNT(*) AS n FROM ledger_entries').get() as { n: unknown }).n).toBe('bigint');
      expect(() => db.exec('DELETE FROM ledger_entries')).toThrow(/readonly/);
    } finally {
      db.close();
    }
  });

  it('finds one bad entry among a journal whose sorts outgrow the thread’s small page cache', async () => {
    // 40,000 entries make sorts of several MiB against the thread's VERIFIER_CACHE_KIB: SQLite spills
    // them to temporary files, and the answer must not change for it.
    const f = await ledger(1);
    await credit(f, 'pay-1', 10_00n);
    await bulkEntries(f, 40_000);
    expect(await f.ledger.verify()).toEqual([]);
    const damaged = '01900000-0000-7000-8000-000000031337';
    await f.db.updateTable('ledger_postings').set({ amount_minor: 4n }).where('entry_id', '=', damaged).where('account_id', '=', FEE_REVENUE).execute();
    const found = await f.ledger.verify();
    expect(found.filter((v) => v.code === 'ENTRY_UNBALANCED')).toEqual([{ code: 'ENTRY_UNBALANCED', subject: damaged, detail: 'postings sum to 1' }]);
    expect(found.map((v) => v.code).sort()).toEqual(['BALANCE_MISMATCH', 'ENTRY_UNBALANCED']);
  });

  it('shares one thread between callers that ask while it runs', async () => {
    const f = await ledger(0);
    await credit(f, 'pay-1', 10_00n);
    const [a, b] = await Promise.all([f.ledger.verify(), f.ledger.verify()]);
    // The very same answer: one thread read the journal for both.
    expect(a).toBe(b);
    expect(a).toEqual([]);
    // Once answered, the next call starts a thread of its own.
    const c = await f.ledger.verify();
    expect(c).not.toBe(a);
    expect(c).toEqual([]);
  });

  it('loads no Kysely in the thread: its modules import better-sqlite3 and the checks only (session 40: 22 → 9.5 MiB of peak)', () => {
    // What the thread's module and the checks load at run time; `import type` is erased and costs nothing.
    const runtimeImports = (file: string): string[] =>
      [...fs.readFileSync(new URL(`../../src/ledger/${file}`, import.meta.url), 'utf8').matchAll(/^import (?!type )[^;]*? from '([^']+)';/gm)].map((m) => m[1]!);
    expect(runtimeImports('verify-thread.ts').sort()).toEqual(['./verifier-connection.js', './verify-checks.js', 'node:worker_threads']);
    expect(runtimeImports('verifier-connection.ts')).toEqual(['better-sqlite3']);
    expect(runtimeImports('verify-checks.ts')).toEqual([]);
  });

  it('fails with the reason when the file cannot be read, and the process goes on', async () => {
    await expect(verifyLedgerInThread('/nonexistent/paygate-ledger.sqlite')).rejects.toThrow(/ledger verify/);
  });
});
