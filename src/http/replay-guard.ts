// One-time signatures. Every accepted Signature is recorded in the database (so a replay is refused
// by every instance sharing it) for the replay window. Claims arriving together are written in one
// transaction: one commit serves many requests (group commit) without weakening durability.
import crypto from 'node:crypto';
import type { Clock } from '../domain/clock.js';
import type { Db } from '../store/schema.js';

interface PendingClaim {
  readonly hash: string;
  readonly merchantId: string;
  readonly expiresAtMs: bigint;
  readonly settle: (fresh: boolean) => void;
  readonly fail: (error: unknown) => void;
}

/** Bounded so one flush stays a small, quick transaction. */
const MAX_CLAIMS_PER_FLUSH = 512;
const PURGE_INTERVAL_MS = 60_000;

export const signatureHash = (signature: string): string => crypto.createHash('sha256').update(signature).digest('hex');

export class ReplayGuard {
  private queue: PendingClaim[] = [];
  private flushing = false;
  private purgeTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly windowSeconds: number,
  ) {}

  /**
   * Resolves true when this signature was not seen before (and is now recorded), false on a replay.
   * The record outlives the signature: kept for the TTL, and at least until its Timestamp has left
   * the window (a Timestamp up to the window ahead of the clock is accepted, so it stays valid longer).
   */
  claim(signature: string, merchantId: string, timestampSeconds: number): Promise<boolean> {
    const hash = signatureHash(signature);
    const validUntilMs = (timestampSeconds + this.windowSeconds + 1) * 1000;
    const expiresAtMs = BigInt(Math.max(this.clock.nowMs() + this.ttlMs, validUntilMs));
    return new Promise((settle, fail) => {
      this.queue.push({ hash, merchantId, expiresAtMs, settle, fail });
      if (!this.flushing) setImmediate(() => void this.flush());
    });
  }

  startPurging(): void {
    this.purgeTimer = setInterval(() => void this.purgeExpired().catch(() => undefined), PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
  }

  stop(): void {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
  }

  async purgeExpired(): Promise<void> {
    await this.db.deleteFrom('used_signatures').where('expires_at_ms', '<', BigInt(this.clock.nowMs())).execute();
  }

  private async flush(): Promise<void> {
    if (this.flushing || this.queue.length === 0) return;
    this.flushing = true;
    const batch = this.queue.splice(0, MAX_CLAIMS_PER_FLUSH);
    try {
      const unique = new Map<string, PendingClaim>();
      for (const claim of batch) if (!unique.has(claim.hash)) unique.set(claim.hash, claim);
      const inserted = await this.db
        .insertInto('used_signatures')
        .values([...unique.values()].map((c) => ({ signature_hash: c.hash, merchant_id: c.merchantId, expires_at_ms: c.expiresAtMs })))
        .onConflict((oc) => oc.column('signature_hash').doNothing())
        .returning('signature_hash')
        .execute();
      const fresh = new Set(inserted.map((r) => r.signature_hash));
      // Within one batch only the first claim of a hash can win.
      for (const claim of batch) {
        const won = fresh.has(claim.hash) && unique.get(claim.hash) === claim;
        claim.settle(won);
      }
    } catch (error) {
      for (const claim of batch) claim.fail(error);
    } finally {
      this.flushing = false;
      if (this.queue.length > 0) setImmediate(() => void this.flush());
    }
  }
}
