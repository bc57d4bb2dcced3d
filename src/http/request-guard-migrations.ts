// The schema history of http/'s request guards: one-time signatures and shared rate-limit counters.
// A shipped step is never edited; a change is a new step, listed under a new name in src/migrations.ts.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** Step of 0001_foundation, after the merchants and their keys. */
export async function createUsedSignatures(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('used_signatures')
    .addColumn('signature_hash', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('used_signatures_expiry').on('used_signatures').column('expires_at_ms').execute();
}

/** Step of 0007_signature_paths_rate_windows, the first: a signature remembers its first path (contract section 6). */
export async function addSignaturePaths(db: Kysely<any>): Promise<void> {
  // Rows written before this migration have no path: they keep refusing every reuse, as they did.
  await db.schema.alterTable('used_signatures').addColumn('path', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema
    .alterTable('used_signatures')
    .addColumn('path_effect', 'text', (c) => c.notNull().defaultTo('change'))
    .execute();
}

/** Step of 0007_signature_paths_rate_windows, the second: per-second counters several API processes share. */
export async function createRateLimitWindows(db: Kysely<any>): Promise<void> {
  // Counters are worth nothing after their second, so on PostgreSQL they skip the WAL (no fsync per
  // request); a crash empties the table, which only forgives one second of traffic.
  const unlogged = db.getExecutor().adapter instanceof PostgresAdapter;
  let counters = db.schema.createTable('rate_limit_windows');
  if (unlogged) counters = counters.modifyFront(sql`unlogged`);
  await counters
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('window_s', 'bigint', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_windows_pk', ['bucket', 'window_s'])
    .execute();
  await db.schema.createIndex('rate_limit_windows_window').on('rate_limit_windows').column('window_s').execute();
}

/**
 * The Timestamp a record carried over from `used_signatures` is filed under (0017): those rows never
 * stored theirs. The replay guard also looks a signature up under it while such a row may still be
 * live (replay-guard.ts).
 */
export const CARRIED_OVER_SIGNED_AT_S = -1n;

/**
 * Step of 0017_signature_claims: the one-time records keyed by the request's signed Timestamp first,
 * then the signature's hash. Keyed by the hash alone, every record went into a random leaf of a B-tree
 * holding the whole replay window (a busy service keeps hundreds of thousands of records), so each
 * claim read and dirtied a page of its own; keyed by Timestamp first, the claims of a moment go into
 * the same few leaves at the tree's right edge (docs/benchmarks.md, session 27). The pair is as unique
 * as the hash: the Timestamp is part of what is signed, so one Signature verifies under one Timestamp
 * only. Records of the old table are carried over under CARRIED_OVER_SIGNED_AT_S, so a signature
 * accepted before the upgrade is still refused after it.
 */
export async function createSignatureClaims(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  let table = db.schema
    .createTable('signature_claims')
    .addColumn('signed_at_s', 'bigint', (c) => c.notNull())
    .addColumn('signature_hash', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('path_effect', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('signature_claims_pk', ['signed_at_s', 'signature_hash']);
  // On SQLite the rows live in the key's own B-tree: no rowid table beside it to write as well.
  if (!postgres) table = table.modifyEnd(sql`without rowid`);
  await table.execute();
  await db.schema.createIndex('signature_claims_expiry').on('signature_claims').column('expires_at_ms').execute();
  await sql`
    INSERT INTO signature_claims (signed_at_s, signature_hash, merchant_id, expires_at_ms, path, path_effect)
    SELECT ${sql.lit(Number(CARRIED_OVER_SIGNED_AT_S))}, signature_hash, merchant_id, expires_at_ms, path, path_effect FROM used_signatures`.execute(db);
  await db.schema.dropTable('used_signatures').execute();
}

/**
 * Step of 0019_signature_claims_key_only: the one-time records lose their expiry index. Each claim
 * wrote an entry in it beside the record itself: on SQLite 4.4 of the 14.7 µs a record took in a group
 * insert (docs/benchmarks.md, session 34), and one more index page dirtied a commit. The purge finds
 * expired records by the key's Timestamp instead (purgeChunk in replay-guard.ts).
 */
export async function dropSignatureClaimsExpiry(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('signature_claims_expiry').execute();
}
