// The verifier: re-derives every invariant of the ledger from the rows, in one consistent
// snapshot, and lists each violation. An empty list means the books balance.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CompiledQuery, sql } from 'kysely';
import { postgresParam, runChecks, sqliteParam, type Violation } from './verify-checks.js';
import type { StoreKind } from '../store/db.js';
import type { Db } from '../store/schema.js';

export type { Violation, ViolationCode } from './verify-checks.js';

/** Runs every check in one snapshot (REPEATABLE READ on PostgreSQL), so concurrent posting cannot fake a violation. */
export async function verifyLedger(db: Db, storeKind: StoreKind): Promise<Violation[]> {
  const transaction = storeKind === 'postgres' ? db.transaction().setIsolationLevel('repeatable read') : db.transaction();
  return transaction.execute((trx) =>
    runChecks(
      async (text, parameters) => (await trx.executeQuery(CompiledQuery.raw(text, [...parameters]))).rows as Record<string, unknown>[],
      storeKind === 'postgres' ? postgresParam : sqliteParam,
    ),
  );
}

/**
 * Whether the SQLite journal holds at least `count` entries, read off its largest rowid in one step
 * (entries are never deleted, so it is their number; a count would read them all).
 */
export async function journalRowsAtLeast(db: Db, count: number): Promise<boolean> {
  if (count <= 0) return true;
  const { rows: found } = await sql<{ n: bigint | number | null }>`SELECT max(rowid) AS n FROM ledger_entries`.execute(db);
  return Number(found[0]?.n ?? 0) >= count;
}

/**
 * tsx's loader API as an absolute URL, found from this file: the thread's start-up code is evaluated
 * without a file of its own, so a bare package name there would be looked up from the working directory.
 */
function tsxApiUrl(): string {
  const meta = import.meta as ImportMeta & { resolve?: (specifier: string) => string };
  return typeof meta.resolve === 'function' ? meta.resolve('tsx/esm/api') : pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
}

/** What the verifier's thread (verify-thread.ts) posts back. */
export type VerifyThreadReply = { readonly ok: true; readonly violations: Violation[] } | { readonly ok: false; readonly message: string };

/**
 * verifyLedger over the SQLite file, on a connection of its own in a worker thread (verify-thread.ts
 * says why), so the service's event loop goes on serving while the journal is read. From the
 * TypeScript sources (tests, the CLI under tsx) the thread registers tsx's loader first; the built
 * service starts the compiled module.
 */
export function verifyLedgerInThread(file: string): Promise<Violation[]> {
  const fromSource = import.meta.url.endsWith('.ts');
  const worker = fromSource
    ? new Worker(
        `import(${JSON.stringify(tsxApiUrl())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./verify-thread.ts', import.meta.url).href)}); });`,
        { eval: true, workerData: { file } },
      )
    : new Worker(new URL('./verify-thread.js', import.meta.url), { workerData: { file } });
  return new Promise((resolve, reject) => {
    let settled = false;
    worker.once('message', (reply: VerifyThreadReply) => {
      settled = true;
      if (reply.ok) resolve(reply.violations);
      else reject(new Error(`ledger verify: ${reply.message}`));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(new Error(`ledger verify: ${error.message}`));
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`ledger verify: the verifier's thread ended (exit code ${code}) without an answer`));
    });
  });
}
