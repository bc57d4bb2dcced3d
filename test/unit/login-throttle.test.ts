// The console's login throttle on the real store (both stores by TEST_STORE): failures of one key that
// arrive together all count, and the first ones never collide on the key's first row (on PostgreSQL
// two inserts of a new key used to race: one failed with a unique violation, a 500 at the login form).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountKey, LoginThrottle } from '../../src/people/throttle.js';
import { openTestStore } from '../helpers/store.js';

type TestStore = Awaited<ReturnType<typeof openTestStore>>;

const SETTINGS = { accountFailures: 50, addressFailures: 1000, lockoutMs: 60_000, maxLockoutMs: 3_600_000 };
const NOW = Date.UTC(2026, 10, 27, 11, 0, 0);

let store: TestStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store.close();
});

describe('LoginThrottle under concurrent failures', () => {
  it('counts every one of failures that arrive together for a new key, and locks at the threshold', async () => {
    const throttle = new LoginThrottle(store.db, SETTINGS);
    const email = 'racer@ops.example';
    await Promise.all(Array.from({ length: 20 }, () => throttle.fail(email, '203.0.113.9', NOW)));
    const row = await store.db.selectFrom('console_throttle').selectAll().where('key', '=', accountKey(email)).executeTakeFirstOrThrow();
    expect(row.failures).toBe(20n);
    expect(await throttle.isLocked([accountKey(email)], NOW)).toBe(false);
    await Promise.all(Array.from({ length: 30 }, () => throttle.fail(email, null, NOW + 1)));
    expect(await throttle.isLocked([accountKey(email)], NOW + 2)).toBe(true);
    const locked = await store.db.selectFrom('console_throttle').selectAll().where('key', '=', accountKey(email)).executeTakeFirstOrThrow();
    expect([locked.failures, locked.lockouts, Number(locked.locked_until_ms)]).toEqual([0n, 1n, NOW + 1 + SETTINGS.lockoutMs]);
  });
});
