// Login throttling: failures counted per account and per client address; past a threshold the key is
// locked, and each further lockout of the same key lasts twice as long as the one before (capped).
// Unknown emails are counted like real ones, so the throttle reveals nothing about which exist.
import { isPostgres, type Db } from '../store/schema.js';

export interface ThrottleSettings {
  /** Failures of one account before it is locked. */
  readonly accountFailures: number;
  /** Failures from one address (any accounts) before it is locked. */
  readonly addressFailures: number;
  /** The first lockout; also how long failures are remembered. */
  readonly lockoutMs: number;
  readonly maxLockoutMs: number;
}

export const accountKey = (email: string): string => `account:${email}`;
export const addressKey = (address: string): string => `address:${address}`;

export class LoginThrottle {
  constructor(
    private readonly db: Db,
    private readonly settings: ThrottleSettings,
  ) {}

  async isLocked(keys: readonly string[], nowMs: number): Promise<boolean> {
    const rows = await this.db.selectFrom('console_throttle').select('locked_until_ms').where('key', 'in', [...keys]).execute();
    return rows.some((row) => Number(row.locked_until_ms) > nowMs);
  }

  async recordFailure(key: string, threshold: number, nowMs: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // Concurrent failures of one key must all count (and never collide on its first insert): the row
      // is made if missing, then read locked (PostgreSQL; SQLite runs one write transaction at a time).
      await trx
        .insertInto('console_throttle')
        .values({ key, failures: 0n, lockouts: 0n, last_failure_ms: 0n, locked_until_ms: 0n })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await trx
        .selectFrom('console_throttle')
        .selectAll()
        .where('key', '=', key)
        .$if(isPostgres(trx), (q) => q.forUpdate())
        .executeTakeFirstOrThrow();
      // Failures older than the lockout period are forgotten: a typo a day does not add up to a lockout.
      const stale = nowMs - Number(row.last_failure_ms) > this.settings.lockoutMs;
      let failures = (stale ? 0n : row.failures) + 1n;
      let lockouts = row.lockouts;
      let lockedUntil = row.locked_until_ms;
      if (failures >= BigInt(threshold)) {
        const lockMs = Math.min(this.settings.lockoutMs * 2 ** Number(lockouts), this.settings.maxLockoutMs);
        lockouts += 1n;
        lockedUntil = BigInt(nowMs + lockMs);
        failures = 0n;
      }
      const values = { failures, lockouts, last_failure_ms: BigInt(nowMs), locked_until_ms: lockedUntil };
      await trx.updateTable('console_throttle').set(values).where('key', '=', key).execute();
    });
  }

  async fail(email: string, address: string | null, nowMs: number): Promise<void> {
    await this.recordFailure(accountKey(email), this.settings.accountFailures, nowMs);
    if (address) await this.recordFailure(addressKey(address), this.settings.addressFailures, nowMs);
  }

  /** A successful sign-in clears the account's count; the address's stays (it may be guessing others). */
  async succeed(email: string): Promise<void> {
    await this.db.deleteFrom('console_throttle').where('key', '=', accountKey(email)).execute();
  }
}
