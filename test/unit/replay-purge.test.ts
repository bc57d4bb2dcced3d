// The purge of expired one-time signature records, on the suite's store: it deletes what expired and
// nothing else, a bounded chunk per statement, so claims made while it runs are recorded and judged
// as ever (a single DELETE of a busy minute's records held SQLite's writer for 217 ms). It finds them by
// their Timestamp (there is no expiry index), so an expired record waits until its Timestamp is a TTL
// and the window old.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { PURGE_CHUNK_ROWS, purgeBoundS, ReplayGuard, signatureHash } from '../../src/http/replay-guard.js';
import { openTestStore } from '../helpers/store.js';

const TTL_MS = 60_000;
const WINDOW_SECONDS = 10;
const READ = { path: '/v1/api/account/balance', changesState: false };
const CHANGE = { path: '/v1/api/payout/initiate', changesState: true };

let store: Awaited<ReturnType<typeof openTestStore>>;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => store?.close());

async function stored(): Promise<Set<string>> {
  const rows = await store.db.selectFrom('signature_claims').select('signature_hash').execute();
  return new Set(rows.map((row) => row.signature_hash));
}

describe(`the replay records' purge (${process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('deletes every expired record in chunks, keeps the live ones, and judges claims made while it runs', async () => {
    const clock = new ManualClock(1_800_000_000_000);
    const guard = new ReplayGuard(store.db, clock, TTL_MS, WINDOW_SECONDS);
    const seconds = () => Math.floor(clock.nowMs() / 1000);
    // More than two chunks' worth, then a few that will still be live when the purge runs.
    const oldCount = 2 * PURGE_CHUNK_ROWS + 37;
    const old = Array.from({ length: oldCount }, (_, i) => `old-${i}`);
    const claimed = await Promise.all(old.map((signature) => guard.claim(signature, 'merchant-a', seconds(), READ)));
    expect(claimed.every((outcome) => outcome === 'first')).toBe(true);
    clock.advance(30_000);
    const live = ['live-1', 'live-2', 'live-3'];
    // A replay carries the Timestamp it was signed with.
    const liveSignedAt = seconds();
    for (const signature of live) expect(await guard.claim(signature, 'merchant-b', liveSignedAt, CHANGE)).toBe('first');
    // Claimed now under the old records' Timestamp (a clock moved back): below the purge's bound as they
    // are, but live until 30 s after them.
    const oldSignedAt = liveSignedAt - 30;
    expect(await guard.claim('late-1', 'merchant-b', oldSignedAt, READ)).toBe('first');

    // Expired, but their Timestamp is not yet a TTL and the window old: kept a little longer.
    clock.advance(TTL_MS - 30_000 + 1);
    expect(purgeBoundS(clock.nowMs(), TTL_MS, WINDOW_SECONDS)).toBeLessThanOrEqual(BigInt(oldSignedAt));
    expect(await guard.purgeExpired()).toBe(0);
    // One second past the window after that, every old record is below the bound.
    clock.advance((WINDOW_SECONDS + 1) * 1000);
    expect(purgeBoundS(clock.nowMs(), TTL_MS, WINDOW_SECONDS)).toBeGreaterThan(BigInt(oldSignedAt));

    // The purge and, while its chunks run, a new claim, the repeat of a live one and a second purge.
    const purge = guard.purgeExpired();
    const [fresh, repeat, overlapping] = await Promise.all([
      guard.claim('fresh-1', 'merchant-c', seconds(), CHANGE),
      guard.claim('live-1', 'merchant-b', liveSignedAt, READ),
      guard.purgeExpired(),
    ]);
    expect(await purge).toBe(oldCount);
    expect(overlapping).toBe(0);
    expect(fresh).toBe('first');
    // live-1 was first used on a path that changes state: refused on another path, purge or not.
    expect(repeat).toBe('refused');

    const left = await stored();
    expect(left).toEqual(new Set([...live, 'late-1', 'fresh-1'].map(signatureHash)));
    // Nothing more has expired: a second purge deletes nothing.
    expect(await guard.purgeExpired()).toBe(0);
  });
});
