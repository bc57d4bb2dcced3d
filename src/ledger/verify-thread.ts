// The ledger verifier's thread: runs verify.ts's checks on a read-only connection of its own to the
// service's SQLite file, in one read transaction (a snapshot of one commit), and posts back the
// violations. On SQLite every read runs on the thread that asks for it, and the checks read the whole
// journal: in the service's thread they held the event loop, so no request was answered, for as long
// as they took (1.3 s for 300,000 entries on the 2-core machine; a million payments make several
// million). WAL lets this connection read while the service's own keeps writing. Started by
// verifyLedgerInThread (verify.ts).
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../store/schema.js';
import { verifyLedger, type VerifyThreadReply } from './verify.js';

const { file } = workerData as { readonly file: string };

async function run(): Promise<VerifyThreadReply> {
  let db: Kysely<Database> | null = null;
  try {
    const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
    sqlite.pragma('busy_timeout = 5000');
    // As the service's connection reads them: every integer a bigint, so no sum passes a float.
    sqlite.defaultSafeIntegers(true);
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { ok: true, violations: await verifyLedger(db, 'sqlite') };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  } finally {
    await db?.destroy();
  }
}

parentPort!.postMessage(await run());
