// One-time signatures. Every accepted Signature is recorded in the database (so every instance
// sharing it judges a reuse alike) with the route it was first accepted on, for the replay window.
// Claims arriving together are written in one statement: one commit serves many requests (group
// commit) without weakening durability.
import crypto from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Db } from '../store/schema.js';
import { GroupBatch } from '../core/group-batch.js';
import { HotBatchQuery, HotQuery } from '../store/hot-query.js';
import { writeGroupOf } from '../store/write-group.js';

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
  readonly hash: string;
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

const claimValues = (c: PendingClaim): unknown[] => [c.hash, c.merchantId, c.expiresAtMs, c.use.path, c.use.changesState ? 'change' : 'read'];

/** The insert of a flush's claims, compiled once per number of claims. */
const insertClaims = new HotBatchQuery(5, (db, count, values) =>
  db
    .insertInto('used_signatures')
    .values(
      Array.from({ length: count }, (_, i) => ({
        signature_hash: values[i * 5] as string,
        merchant_id: values[i * 5 + 1] as string,
        expires_at_ms: values[i * 5 + 2] as bigint,
        path: values[i * 5 + 3] as string,
        path_effect: values[i * 5 + 4] as 'read' | 'change',
      })),
    )
    .onConflict((oc) => oc.column('signature_hash').doNothing())
    .returning('signature_hash'),
);

/** Up to `limit` records expired before `nowMs`, oldest first (the expiry index gives them in order). */
const purgeChunk = new HotQuery(2, (db, nowMs: bigint, limit: bigint) =>
  db
    .deleteFrom('used_signatures')
    .where('signature_hash', 'in', (eb) =>
      eb.selectFrom('used_signatures').select('signature_hash').where('expires_at_ms', '<', nowMs).orderBy('expires_at_ms').limit(limit),
    ),
);

/** Contract section 6: a Signature serves one path, or any number of read paths. */
function mayShare(owner: SignatureUse, use: SignatureUse): boolean {
  return owner.path === use.path || (!owner.changesState && !use.changesState);
}

export class ReplayGuard {
  private readonly claims = new GroupBatch<PendingClaim, ClaimOutcome>(MAX_CLAIMS_PER_FLUSH, (batch) => this.judge(batch));
  private purgeTimer: NodeJS.Timeout | null = null;
  /** A purge is running: the timer's next tick does not start a second beside it. */
  private purging = false;

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
    const expiresAtMs = BigInt(Math.max(this.clock.nowMs() + this.ttlMs, validUntilMs));
    return this.claims.add({ hash, merchantId, expiresAtMs, use });
  }

  startPurging(): void {
    this.purgeTimer = setInterval(() => void this.purgeExpired().catch(() => undefined), PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
  }

  stop(): void {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
  }

  /**
   * Deletes the records expired by now, PURGE_CHUNK_ROWS at a time, each chunk group-committed with
   * the writes of the moment, so requests go on between chunks. Answers how many it deleted.
   */
  async purgeExpired(): Promise<number> {
    if (this.purging) return 0;
    this.purging = true;
    try {
      const nowMs = BigInt(this.clock.nowMs());
      let purged = 0;
      for (let chunk = 0; chunk < PURGE_MAX_CHUNKS; chunk++) {
        const deleted = Number(await writeGroupOf(this.db).run((trx) => purgeChunk.affected(trx, nowMs, BigInt(PURGE_CHUNK_ROWS))));
        purged += deleted;
        if (deleted < PURGE_CHUNK_ROWS) break;
      }
      return purged;
    } finally {
      this.purging = false;
    }
  }

  private async judge(batch: readonly PendingClaim[]): Promise<ClaimOutcome[]> {
    // Within one batch the first claim of a hash is the candidate first use; the others are judged against it.
    const candidates = new Map<string, PendingClaim>();
    for (const claim of batch) if (!candidates.has(claim.hash)) candidates.set(claim.hash, claim);
    // Sorted, so two instances inserting the same signatures take their locks in one order (no deadlock).
    const ordered = [...candidates.values()].sort((a, b) => (a.hash < b.hash ? -1 : 1));
    const { firsts, owners } = await this.record(ordered);
    return batch.map((claim) => {
      if (firsts.has(claim)) return 'first';
      const owner = owners.get(claim.hash);
      return owner !== undefined && mayShare(owner, claim.use) ? 'repeat' : 'refused';
    });
  }

  /**
   * Inserts the candidates. `firsts` are those whose insert won; `owners` holds, per hash, the use
   * that owns it: the winner's, else the stored first use (read after the conflict, so after the
   * winner committed). A hash missing from `owners` lost its record to the purge in between: refused.
   */
  private async record(candidates: readonly PendingClaim[]): Promise<{ firsts: Set<PendingClaim>; owners: Map<string, SignatureUse> }> {
    const inserted = await insertClaims.execute(this.db, candidates.flatMap(claimValues));
    const won = new Set(inserted.map((r) => r.signature_hash));
    const firsts = new Set(candidates.filter((c) => won.has(c.hash)));
    const owners = new Map<string, SignatureUse>([...firsts].map((c) => [c.hash, c.use]));
    const seenBefore = candidates.filter((c) => !won.has(c.hash)).map((c) => c.hash);
    if (seenBefore.length > 0) {
      const stored = await this.db
        .selectFrom('used_signatures')
        .select(['signature_hash', 'path', 'path_effect'])
        .where('signature_hash', 'in', seenBefore)
        .execute();
      for (const row of stored) owners.set(row.signature_hash, { path: row.path, changesState: row.path_effect !== 'read' });
    }
    return { firsts, owners };
  }
}
