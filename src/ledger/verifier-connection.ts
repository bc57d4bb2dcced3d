// The ledger verifier thread's connection to the service's SQLite file (verify-thread.ts): read-only,
// every integer a bigint as on the service's own connection, and a small page cache. better-sqlite3
// builds SQLite with 16 MiB a connection, and SQLite sizes a sort's memory by it too before the sort
// spills to a temporary file; the checks read the whole journal once, so the thread filled both and its
// cost in the service's resident set grew with the journal (docs/benchmarks.md, session 41). A
// separate module so that the thread's module, which runs on import, keeps no settings of its own.
import SQLite from 'better-sqlite3';

/**
 * The connection's page cache, in KiB. With better-sqlite3's default of 16 MiB the thread's cost in
 * the service's resident set grew with the journal: 37 MiB at 24,000 entries, 51 MiB at 524,000, where
 * the bench holds the service to 300 MiB and its million twin peaked at 300 during a verify. With 1 MiB:
 * about 20 and 21 MiB, and no slower.
 */
export const VERIFIER_CACHE_KIB = 1024;

export function openVerifierConnection(file: string): SQLite.Database {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = -${VERIFIER_CACHE_KIB}`);
    // As the service's connection reads them: every integer a bigint, so no sum passes a float.
    db.defaultSafeIntegers(true);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
