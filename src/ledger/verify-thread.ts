// The ledger verifier's thread: runs verify-checks.ts's checks on a read-only connection of its own to the
// service's SQLite file, in one read transaction (a snapshot of one commit), and posts back the
// violations. On SQLite every read runs on the thread that asks for it, and the checks read the whole
// journal: in the service's thread they held the event loop, so no request was answered, for as long
// as they took (1.3 s for 300,000 entries on the 2-core machine; a million payments make several
// million). WAL lets this connection read while the service's own keeps writing. Started by
// verifyLedgerInThread (verify.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { runChecks, sqliteParam } from './verify-checks.js';
import { openVerifierConnection } from './verifier-connection.js';
import type { VerifyThreadReply } from './verify.js';

const { file } = workerData as { readonly file: string };

// better-sqlite3 alone, without Kysely: the thread's whole cost counts in the service's resident set
// (verify-checks.ts says how much Kysely added).
async function run(): Promise<VerifyThreadReply> {
  let sqlite: SQLite.Database | null = null;
  try {
    const db = openVerifierConnection(file);
    sqlite = db;
    // One read transaction, ended by close(): every check reads the snapshot of one commit.
    db.exec('BEGIN');
    const violations = await runChecks(async (text, parameters) => db.prepare(text).all(...parameters) as Record<string, unknown>[], sqliteParam);
    return { ok: true, violations };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  } finally {
    sqlite?.close();
  }
}

parentPort!.postMessage(await run());
