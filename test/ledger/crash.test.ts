// A process killed with SIGKILL in the middle of a burst of ledger operations leaves every entry
// either whole or absent, keeps everything it reported committed, and the books still balance.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { Store } from '../../src/store/db.js';
import { LedgerService } from '../../src/ledger/service.js';
import type { TestDatabase } from '../helpers/store.js';
import { insertMerchant, openFreshStore, reopenStore } from './helpers.js';

const MERCHANTS = ['mch_c1', 'mch_c2', 'mch_c3'];
/** Kill once this many operations reported their commit; give up waiting after KILL_DEADLINE_MS. */
const KILL_AFTER_COMMITS = 150;
const KILL_DEADLINE_MS = 30_000;

const ENTRY_KIND: Record<string, string> = {
  pay: 'payment_credit',
  refund: 'refund',
  reverse: 'refund_reversal',
  reserve: 'payout_reserve',
  release: 'payout_release',
  complete: 'payout_complete',
  grant: 'credit_grant',
  lower: 'credit_lower',
  deposit: 'security_deposit',
  withdraw: 'security_release',
  adjust: 'adjustment',
};

let location: TestDatabase | null = null;
let store: Store | null = null;
afterEach(async () => {
  await store?.close();
  await location?.drop();
});

async function prepare(db: Store['db'], ledger: LedgerService): Promise<void> {
  for (const m of MERCHANTS) {
    await insertMerchant(db, m);
    for (const currency of ['INR', 'NGN'] as const) {
      await ledger.adjust({ merchantId: m, currency, account: 'available', amountMinor: 1_000_00n, reason: 'seed', actor: 'test' });
      await ledger.grantCredit({ merchantId: m, currency, amountMinor: 500_00n, reason: 'seed', actor: 'test' });
    }
  }
}

/** Runs the burst child, SIGKILLs it once enough commits were reported, returns what it reported. */
async function burstAndKill(db: TestDatabase): Promise<{ kind: string; ref: string }[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/ledger/fixtures/burst.ts'], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      BURST_MERCHANTS: MERCHANTS.join(','),
      BURST_DATABASE_URL: db.databaseUrl ?? '',
      BURST_DATABASE_SCHEMA: db.databaseSchema ?? '',
      BURST_SQLITE_FILE: db.sqliteFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const committed: { kind: string; ref: string }[] = [];
  const deadline = setTimeout(() => child.kill('SIGKILL'), KILL_DEADLINE_MS);
  for await (const line of readline.createInterface({ input: child.stdout })) {
    const [word, kind, ref] = line.split(' ');
    if (word === 'committed' && kind && ref) committed.push({ kind, ref });
    if (committed.length >= KILL_AFTER_COMMITS) child.kill('SIGKILL');
  }
  clearTimeout(deadline);
  expect(await exited, `child ended on its own: ${stderr}`).toBe('SIGKILL');
  return committed;
}

it('a SIGKILL mid-burst leaves whole entries only, keeps what was committed, and verify passes', async () => {
  const fresh = await openFreshStore();
  location = fresh.location;
  const seeded = fresh.store;
  await prepare(seeded.db, new LedgerService(seeded, new ManualClock()));
  await seeded.close();

  const committed = await burstAndKill(location);
  expect(committed.length).toBeGreaterThanOrEqual(KILL_AFTER_COMMITS);

  store = await reopenStore(location);
  const ledger = new LedgerService(store, new ManualClock());
  expect(await ledger.verify()).toEqual([]);

  // Whole or absent: every entry has exactly the postings it was written with, summing to zero.
  const { rows } = await sql<{ id: string; expected: bigint; n: bigint; total: bigint | null }>`
    SELECT e.id, e.posting_count AS expected, COUNT(p.entry_id) AS n, SUM(p.amount_minor) AS total
    FROM ledger_entries e LEFT JOIN ledger_postings p ON p.entry_id = e.id GROUP BY e.id, e.posting_count`.execute(store.db);
  expect(rows.length).toBeGreaterThan(MERCHANTS.length * 4);
  for (const row of rows) expect({ id: row.id, n: BigInt(row.n), total: BigInt(row.total ?? 0n) }).toEqual({ id: row.id, n: BigInt(row.expected), total: 0n });

  // Durable: everything reported committed before the kill is there.
  for (const { kind, ref } of committed.filter((c) => ENTRY_KIND[c.kind])) {
    const entry = await store.db.selectFrom('ledger_entries').select('id').where('kind', '=', ENTRY_KIND[kind]!).where('ref', '=', ref).executeTakeFirst();
    expect(entry, `${kind} ${ref}`).toBeDefined();
  }

  // And the ledger carries on after the restart.
  await ledger.settlePending();
  expect(await ledger.verify()).toEqual([]);
}, 120_000);
