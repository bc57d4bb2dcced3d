// The bare floors' databases (bench/payout-floor.ts, bench/payment-floor.ts): each opens its own
// connection to the floor server's store, with the durability the service keeps (SQLite in WAL with
// synchronous=FULL, PostgreSQL with synchronous_commit=on), and on PostgreSQL runs a group of requests
// as two statements (inTwoStatements).
import SQLite from 'better-sqlite3';
import pg from 'pg';

/** The floor server's database; its `used_signatures` table (created there) holds the floors' signatures too. */
export type FloorStoreOptions = { readonly kind: 'sqlite'; readonly file: string } | { readonly kind: 'postgres'; readonly url: string; readonly schema: string };

/** A floor's own connection to the SQLite file, durable as the service's, with `schema` created. */
export function openFloorSqlite(file: string, schema: readonly string[]): SQLite.Database {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  for (const statement of schema) db.exec(statement);
  return db;
}

/** A floor's own connection to its PostgreSQL schema (the group's chain), durable as the service's, with `statements` run. */
export async function connectFloorPg(url: string, schemaName: string, statements: readonly string[]): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schemaName} -c synchronous_commit=on` });
  await client.connect();
  for (const statement of statements) await client.query(statement);
  return client;
}

/** SQLite: a write's one-time signature record; no change when the signature was recorded before. */
export const SQLITE_CLAIM_WRITE =
  "INSERT INTO used_signatures (signature_hash, merchant_id, expires_at_ms, path, path_effect) VALUES (?, ?, ?, ?, 'write') ON CONFLICT DO NOTHING";

/** One field of every unit, as a PostgreSQL array parameter (bigints as decimal text). */
export function arrayOf<U, K extends keyof U>(units: readonly U[], key: K): unknown[] {
  return units.map((unit) => (typeof unit[key] === 'bigint' ? String(unit[key]) : unit[key]));
}

/** A new request of a bare route: signed by a merchant, for a merchantRef of its own. */
export interface FloorIntake {
  readonly kind: 'intake';
  readonly claimHash: string;
  readonly merchantId: string;
  readonly merchantRef: string;
}

/** News about a row written by an earlier intake (the bank's outcome, a collection's answer). */
export interface FloorFollowUp {
  readonly kind: Exclude<string, 'intake'>;
  readonly transactionRef: string;
}

/**
 * A group of the PostgreSQL books in two statements, one for its intakes and one for its follow-ups,
 * on one connection one after the other. Within the group a second intake with the same signature or
 * merchantRef is refused before the statement (the first one's signature is the one recorded), and a
 * repeated follow-up changes nothing. Answers each unit in the group's order.
 */
export async function inTwoStatements<I extends FloorIntake, F extends FloorFollowUp, A>(
  units: readonly (I | F)[],
  statements: {
    readonly refusals: { readonly signature: A; readonly merchantRef: A; readonly repeat: A };
    intakes(units: readonly I[], nowMs: number): Promise<A[]>;
    followUps(units: readonly F[], nowMs: number): Promise<A[]>;
  },
): Promise<A[]> {
  const nowMs = Date.now();
  const answers: A[] = new Array(units.length);
  const intakes: { unit: I; at: number }[] = [];
  const followUps: { unit: F; at: number }[] = [];
  const seen = new Set<string>();
  units.forEach((unit, at) => {
    if (unit.kind !== 'intake') {
      const follow = unit as F;
      if (seen.has(`f:${follow.transactionRef}`)) answers[at] = statements.refusals.repeat;
      else followUps.push({ unit: follow, at });
      seen.add(`f:${follow.transactionRef}`);
      return;
    }
    const intake = unit as I;
    const ref = `r:${intake.merchantId}:${intake.merchantRef}`;
    if (seen.has(`s:${intake.claimHash}`)) answers[at] = statements.refusals.signature;
    else if (seen.has(ref)) answers[at] = statements.refusals.merchantRef;
    else intakes.push({ unit: intake, at });
    seen.add(`s:${intake.claimHash}`).add(ref);
  });
  if (intakes.length > 0) (await statements.intakes(intakes.map((x) => x.unit), nowMs)).forEach((answer, i) => (answers[intakes[i]!.at] = answer));
  if (followUps.length > 0) (await statements.followUps(followUps.map((x) => x.unit), nowMs)).forEach((answer, i) => (answers[followUps[i]!.at] = answer));
  return answers;
}
