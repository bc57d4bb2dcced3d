// The one-time records keyed by (signed Timestamp, Signature hash), on the suite's store: where a claim
// is filed, that the pair judges reuse as the hash alone did, and migration 0017, whose records carried
// over from `used_signatures` (stored without their Timestamp) keep refusing their signatures until
// they expire.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { CARRIED_OVER_SIGNED_AT_S } from '../../src/http/request-guard-migrations.js';
import { ReplayGuard, signatureHash } from '../../src/http/replay-guard.js';
import { MIGRATIONS } from '../../src/migrations.js';
import { migrate } from '../../src/store/migrator.js';
import { openStoreBefore, openTestStore } from '../helpers/store.js';

const TTL_MS = 600_000;
const WINDOW_SECONDS = 300;
const READ = { path: '/v1/api/account/balance', changesState: false };
const OTHER_READ = { path: '/v1/api/payout/bankCode', changesState: false };
const CHANGE = { path: '/v1/api/payout/initiate', changesState: true };
const NOW_MS = 1_800_000_000_000;
const nowSeconds = Math.floor(NOW_MS / 1000);
const STORE = process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite';

describe(`one-time records keyed by Timestamp and hash (${STORE})`, () => {
  it('files each claim under its signed Timestamp and judges repeats, other paths and concurrent copies as before', async () => {
    const store = await openTestStore();
    try {
      const guard = new ReplayGuard(store.db, new ManualClock(NOW_MS), TTL_MS, WINDOW_SECONDS);
      // Eight copies of one state-changing signature at once, beside two read signatures of other Timestamps.
      const copies = await Promise.all(Array.from({ length: 8 }, () => guard.claim('sig-change', 'mch_a', nowSeconds, CHANGE)));
      expect(copies.filter((o) => o === 'first')).toHaveLength(1);
      expect(copies.filter((o) => o === 'repeat')).toHaveLength(7);
      expect(await guard.claim('sig-read', 'mch_a', nowSeconds - 7, READ)).toBe('first');
      expect(await guard.claim('sig-read-2', 'mch_b', nowSeconds + 3, READ)).toBe('first');
      // A state-changing signature serves its own path only; a read signature any read path.
      expect(await guard.claim('sig-change', 'mch_a', nowSeconds, READ)).toBe('refused');
      expect(await guard.claim('sig-read', 'mch_a', nowSeconds - 7, OTHER_READ)).toBe('repeat');
      expect(await guard.claim('sig-read', 'mch_a', nowSeconds - 7, CHANGE)).toBe('refused');

      const rows = await store.db.selectFrom('signature_claims').select(['signed_at_s', 'signature_hash', 'merchant_id', 'path', 'path_effect']).orderBy('signed_at_s').execute();
      expect(rows.map((r) => ({ ...r, signed_at_s: BigInt(r.signed_at_s) }))).toEqual([
        { signed_at_s: BigInt(nowSeconds - 7), signature_hash: signatureHash('sig-read'), merchant_id: 'mch_a', path: READ.path, path_effect: 'read' },
        { signed_at_s: BigInt(nowSeconds), signature_hash: signatureHash('sig-change'), merchant_id: 'mch_a', path: CHANGE.path, path_effect: 'change' },
        { signed_at_s: BigInt(nowSeconds + 3), signature_hash: signatureHash('sig-read-2'), merchant_id: 'mch_b', path: READ.path, path_effect: 'read' },
      ]);
    } finally {
      await store.close();
    }
  });
});

describe(`migration 0017_signature_claims (${STORE})`, () => {
  it("carries used_signatures' records over, and they refuse their signatures under any Timestamp until they expire", async () => {
    const { store, location } = await openStoreBefore('0017_signature_claims');
    try {
      const db = store.db as any;
      const expiresAtMs = BigInt(NOW_MS + 120_000);
      await db
        .insertInto('used_signatures')
        .values([
          { signature_hash: signatureHash('old-change'), merchant_id: 'mch_a', expires_at_ms: expiresAtMs, path: CHANGE.path, path_effect: 'change' },
          { signature_hash: signatureHash('old-read'), merchant_id: 'mch_a', expires_at_ms: expiresAtMs, path: READ.path, path_effect: 'read' },
        ])
        .execute();
      await migrate(store.db, MIGRATIONS, location.databaseSchema);
      const carried = await store.db.selectFrom('signature_claims').select(['signed_at_s', 'signature_hash']).orderBy('signature_hash').execute();
      expect(carried.map((r) => BigInt(r.signed_at_s))).toEqual([CARRIED_OVER_SIGNED_AT_S, CARRIED_OVER_SIGNED_AT_S]);
      expect(new Set(carried.map((r) => r.signature_hash))).toEqual(new Set([signatureHash('old-change'), signatureHash('old-read')]));

      const clock = new ManualClock(NOW_MS);
      const guard = new ReplayGuard(store.db, clock, TTL_MS, WINDOW_SECONDS);
      // The old records own their signatures, whatever Timestamp a replay carries: the same path is a
      // repeat, another path of a state-changing one is refused, a read signature serves another read.
      const [sameChange, otherPath, otherRead, fresh] = await Promise.all([
        guard.claim('old-change', 'mch_a', nowSeconds, CHANGE),
        guard.claim('old-change', 'mch_a', nowSeconds - 100, READ),
        guard.claim('old-read', 'mch_a', nowSeconds + 5, OTHER_READ),
        guard.claim('new-sig', 'mch_a', nowSeconds, CHANGE),
      ]);
      expect({ sameChange, otherPath, otherRead, fresh }).toEqual({ sameChange: 'repeat', otherPath: 'refused', otherRead: 'repeat', fresh: 'first' });
      // A replay claimed against an old record wrote nothing of its own.
      expect(await store.db.selectFrom('signature_claims').select('signature_hash').where('signature_hash', '=', signatureHash('old-change')).execute()).toHaveLength(1);

      // Once the last of them expired they are no longer looked up (the purge deletes them).
      clock.advance(120_001);
      expect(await guard.purgeExpired()).toBe(2);
      const later = new ReplayGuard(store.db, clock, TTL_MS, WINDOW_SECONDS);
      expect(await later.claim('another', 'mch_a', Math.floor(clock.nowMs() / 1000), CHANGE)).toBe('first');
    } finally {
      await store.close();
      await location.drop();
    }
  });
});

describe(`migration 0019_signature_claims_key_only (${STORE})`, () => {
  it('drops the expiry index, keeps the records, and the purge still deletes only what expired', async () => {
    const { store, location } = await openStoreBefore('0019_signature_claims_key_only');
    try {
      const indexNames = async (): Promise<string[]> => {
        const rows =
          STORE === 'SQLite'
            ? await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'signature_claims'`.execute(store.db)
            : await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'signature_claims' AND schemaname = current_schema()`.execute(store.db);
        return rows.rows.map((r) => r.name);
      };
      expect(await indexNames()).toContain('signature_claims_expiry');
      const clock = new ManualClock(NOW_MS);
      const before = new ReplayGuard(store.db, clock, TTL_MS, WINDOW_SECONDS);
      expect(await before.claim('kept', 'mch_a', nowSeconds, CHANGE)).toBe('first');

      await migrate(store.db, MIGRATIONS, location.databaseSchema);
      expect(await indexNames()).not.toContain('signature_claims_expiry');
      const guard = new ReplayGuard(store.db, clock, TTL_MS, WINDOW_SECONDS);
      expect(await guard.claim('kept', 'mch_a', nowSeconds, READ)).toBe('refused');
      // Live for the TTL: nothing to purge; once its Timestamp is a TTL and the window old, it goes.
      expect(await guard.purgeExpired()).toBe(0);
      clock.advance(TTL_MS + (WINDOW_SECONDS + 1) * 1000);
      expect(await guard.purgeExpired()).toBe(1);
    } finally {
      await store.close();
      await location.drop();
    }
  });
});
