// One-time signatures. Every accepted Signature is recorded in the database (so every instance
// sharing it judges a reuse alike) with the route it was first accepted on, for the replay window.
// Claims arriving together are written in one statement: one commit serves many requests (group
// commit) without weakening durability. A record is keyed by the request's signed Timestamp and the
// Signature's hash, so the claims of a moment land side by side in the key's B-tree (0017 in
// request-guard-migrations.ts says why).
import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Clock } from '../core/clock.js';
import type { Db } from '../store/schema.js';
import { GroupBatch } from '../core/group-batch.js';
import { HotBatchQuery, HotQuery } from '../store/hot-query.js';
import { writeGroupOf } from '../store/write-group.js';
import { CARRIED_OVER_SIGNED_AT_S } from './request-guard-migrations.js';

/** Where a signed request was sent: the route, and whether it changes state (declared by the route). */
export interface SignatureUse {
  readonly path: string;
  readonly changesState: boolean;
}

/**
 * `first`: never seen, now recorded. `repeat`: seen before and allowed here (same path, or two read
 * paths). `refused`: seen before and not allowed here (another path, one of them changing state).
 */
export type ClaimOutcome = 'first' | 'repeat' | 'refused';

interface PendingClaim {
  /** The request's Timestamp, seconds: the record's key is (signedAtS, hash). */
  readonly signedAtS: bigint;
  readonly hash: string;
  /** keyOf(signedAtS, hash), made once: a batch groups, sorts and matches its claims by it. */
  readonly key: string;
  readonly merchantId: string;
  readonly expiresAtMs: bigint;
  readonly use: SignatureUse;
}

/** Bounded so one flush stays a small, quick transaction. */
const MAX_CLAIMS_PER_FLUSH = 512;
const PURGE_INTERVAL_MS = 60_000;
/**
 * Expired records deleted per statement. A purge of everything expired in one statement held the
 * one SQLite writer, and with it the event loop, for as long as the minute's records took: 217 ms for
 * the 60,000 a busy minute leaves (docs/benchmarks.md, session 26). 500 take about 1.5 ms, each in a
 * write group's transaction beside the requests of the moment.
 */
export const PURGE_CHUNK_ROWS = 500;
/** Chunks per purge, so one run is bounded (a million records); the next run goes on from there. */
const PURGE_MAX_CHUNKS = 2000;

export const signatureHash = (signature: string): string => crypto.createHash('sha256').update(signature).digest('hex');

/** A claim's key as one string, for grouping a batch's claims (the Timestamp has ten digits, the hash none). */
const keyOf = (signedAtS: bigint, hash: string): string => `${signedAtS} ${hash}`;

const claimValues = (c: PendingClaim): unknown[] => [c.signedAtS, c.hash, c.merchantId, c.expiresAtMs, c.use.path, c.use.changesState ? 'change' : 'read'];

/** The insert of a flush's claims, compiled once per number of claims. */
const insertClaims = new HotBatchQuery(6, (db, count, values) =>
  db
    .insertInto('signature_claims')
    .values(
      Array.from({ length: count }, (_, i) => ({
        signed_at_s: values[i * 6] as bigint,
        signature_hash: values[i * 6 + 1] as string,
        merchant_id: values[i * 6 + 2] as string,
        expires_at_ms: values[i * 6 + 3] as bigint,
        path: values[i * 6 + 4] as string,
        path_effect: values[i * 6 + 5] as 'read' | 'change',
      })),
    )
    .onConflict((oc) => oc.columns(['signed_at_s', 'signature_hash']).doNothing())
    .returning(['signed_at_s', 'signature_hash']),
);

/**
 * Up to `limit` records expired before `nowMs` among those signed before `signedBeforeS`, in key order.
 * The records have no expiry index (0019): the key's Timestamp bounds where expired ones can be, so the
 * chunk reads the key's B-tree from its start and the expiry only filters (see purgeBoundS).
 */
const purgeChunk = new HotQuery(3, (db, nowMs: bigint, signedBeforeS: bigint, limit: bigint) => {
  const oldest = db
    .selectFrom('signature_claims')
    .select(['signed_at_s', 'signature_hash'])
    .where('signed_at_s', '<', signedBeforeS)
    .where('expires_at_ms', '<', nowMs)
    .orderBy('signed_at_s')
    .limit(limit);
  return db.deleteFrom('signature_claims').where(sql<boolean>`(signed_at_s, signature_hash) in (${oldest})`);
});

/**
 * The Timestamp below which every record accepted under these settings has expired by `nowMs`. A claim
 * is made while its Timestamp is within the window (its clock before (ts + window + 1) s), so its expiry,
 * the later of that clock plus the TTL and the window's end, is before (ts + window + 1) s + TTL. A record
 * therefore outlives its expiry by at most the window and a second before the purge takes it (it refuses
 * nothing more then: its Timestamp has left the window), and the purge never reads the live records of
 * the last TTL. Records made otherwise (a clock moved back, the carried-over ones of 0017) are still only
 * deleted once expired: the expiry filters every chunk.
 */
export function purgeBoundS(nowMs: number, ttlMs: number, windowSeconds: number): bigint {
  return BigInt(Math.floor((nowMs - ttlMs) / 1000) - windowSeconds);
}

/** Contract section 6: a Signature serves one path, or any number of read paths. */
function mayShare(owner: SignatureUse, use: SignatureUse): boolean {
  return owner.path === use.path || (!owner.changesState && !use.changesState);
}

export class ReplayGuard {
  private readonly claims = new GroupBatch<PendingClaim, ClaimOutcome>(MAX_CLAIMS_PER_FLUSH, (batch) => this.judge(batch));
  private purgeTimer: NodeJS.Timeout | null = null;
  /** A purge is running: the timer's next tick does not start a second beside it. */
  private purging = false;
  /** carriedOverUntil()'s answer, once asked. */
  private carriedOverUntilMs: Promise<number> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly windowSeconds: number,
  ) {}

  /**
   * Records the signature's first use, or judges a later one against it. The record outlives the
   * signature: kept for the TTL, and at least until its Timestamp has left the window (a Timestamp
   * up to the window ahead of the clock is accepted, so it stays valid longer).
   */
  claim(signature: string, merchantId: string, timestampSeconds: number, use: SignatureUse): Promise<ClaimOutcome> {
    const hash = signatureHash(signature);
    const validUntilMs = (timestampSeconds + this.windowSeconds + 1) * 1000;
    // purgeBoundS assumes this rule (every expiry before the window's end plus the TTL): a later expiry here needs a later bound there.
    const expiresAtMs = BigInt(Math.max(this.clock.nowMs() + this.ttlMs, validUntilMs));
    const signedAtS = BigInt(timestampSeconds);
    return this.claims.add({ signedAtS, hash, key: keyOf(signedAtS, hash), merchantId, expiresAtMs, use });
  }

  startPurging(): void {
    this.purgeTimer = setInterval(() => void this.purgeExpired().catch(() => undefined), PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
  }

  stop(): void {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
  }

  /**
   * Deletes the records expired by now among those signed before purgeBoundS, PURGE_CHUNK_ROWS at a
   * time, each chunk group-committed with the writes of the moment, so requests go on between chunks.
   * Answers how many it deleted.
   */
  async purgeExpired(): Promise<number> {
    if (this.purging) return 0;
    this.purging = true;
    try {
      const now = this.clock.nowMs();
      const nowMs = BigInt(now);
      const signedBeforeS = purgeBoundS(now, this.ttlMs, this.windowSeconds);
      let purged = 0;
      for (let chunk = 0; chunk < PURGE_MAX_CHUNKS; chunk++) {
        const deleted = Number(
          await writeGroupOf(this.db).run((trx) => purgeChunk.affected(trx, nowMs, signedBeforeS, BigInt(PURGE_CHUNK_ROWS)), { keys: ['one-time signature records'] }),
        );
        purged += deleted;
        if (deleted < PURGE_CHUNK_ROWS) break;
      }
      return purged;
    } finally {
      this.purging = false;
    }
  }

  private async judge(batch: readonly PendingClaim[]): Promise<ClaimOutcome[]> {
    // Within one batch the first claim of a key is the candidate first use; the others are judged against it.
    const candidates = new Map<string, PendingClaim>();
    for (const claim of batch) if (!candidates.has(claim.key)) candidates.set(claim.key, claim);
    // Sorted by key, so two instances inserting the same signatures take their locks in one order (no deadlock).
    const ordered = [...candidates.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
    const { firsts, owners } = await this.record(ordered);
    return batch.map((claim) => {
      if (firsts.has(claim)) return 'first';
      const owner = owners.get(claim.key);
      return owner !== undefined && mayShare(owner, claim.use) ? 'repeat' : 'refused';
    });
  }

  /**
   * Inserts the candidates. `firsts` are those whose insert won; `owners` holds, per key, the use
   * that owns it: the winner's, else the stored first use (read after the conflict, so after the
   * winner committed). A key missing from `owners` lost its record to the purge in between: refused.
   * While a record carried over from before 0017 may be live, a candidate whose hash it holds is not
   * inserted at all: that record owns it.
   */
  private async record(all: readonly PendingClaim[]): Promise<{ firsts: Set<PendingClaim>; owners: Map<string, SignatureUse> }> {
    const owners = new Map<string, SignatureUse>();
    const candidates = await this.withoutCarriedOver(all, owners);
    if (candidates.length === 0) return { firsts: new Set(), owners };
    const inserted = await insertClaims.execute(this.db, candidates.flatMap(claimValues));
    const won = new Set(inserted.map((r) => keyOf(BigInt(r.signed_at_s), r.signature_hash)));
    const firsts = new Set(candidates.filter((c) => won.has(c.key)));
    for (const c of firsts) owners.set(c.key, c.use);
    const seenBefore = candidates.filter((c) => !firsts.has(c));
    if (seenBefore.length > 0) {
      const stored = await this.db
        .selectFrom('signature_claims')
        .select(['signed_at_s', 'signature_hash', 'path', 'path_effect'])
        .where(({ eb, refTuple, tuple }) =>
          eb(
            refTuple('signed_at_s', 'signature_hash'),
            'in',
            seenBefore.map((c) => tuple(c.signedAtS, c.hash)),
          ),
        )
        .execute();
      for (const row of stored) owners.set(keyOf(BigInt(row.signed_at_s), row.signature_hash), useOf(row));
    }
    return { firsts, owners };
  }

  /**
   * The candidates to insert: all of them, unless records carried over from before 0017 (kept under
   * CARRIED_OVER_SIGNED_AT_S, without their Timestamp) may still be live. Then a candidate whose hash
   * such a record holds is left out, and that record's use goes into `owners` under the candidate's key.
   */
  private async withoutCarriedOver(candidates: readonly PendingClaim[], owners: Map<string, SignatureUse>): Promise<readonly PendingClaim[]> {
    if (this.clock.nowMs() >= (await this.carriedOverUntil())) return candidates;
    const stored = await this.db
      .selectFrom('signature_claims')
      .select(['signature_hash', 'path', 'path_effect'])
      .where('signed_at_s', '=', CARRIED_OVER_SIGNED_AT_S)
      .where('signature_hash', 'in', [...new Set(candidates.map((c) => c.hash))])
      .execute();
    if (stored.length === 0) return candidates;
    const carried = new Map(stored.map((row) => [row.signature_hash, useOf(row)]));
    for (const c of candidates) {
      const use = carried.get(c.hash);
      if (use) owners.set(c.key, use);
    }
    return candidates.filter((c) => !carried.has(c.hash));
  }

  /** When the last record carried over from before 0017 expires (0 when there is none), read once. */
  private carriedOverUntil(): Promise<number> {
    this.carriedOverUntilMs ??= this.db
      .selectFrom('signature_claims')
      .select((eb) => eb.fn.max('expires_at_ms').as('until'))
      .where('signed_at_s', '=', CARRIED_OVER_SIGNED_AT_S)
      .executeTakeFirst()
      .then((row) => Number(row?.until ?? 0));
    return this.carriedOverUntilMs;
  }
}

const useOf = (row: { readonly path: string; readonly path_effect: string }): SignatureUse => ({ path: row.path, changesState: row.path_effect !== 'read' });
