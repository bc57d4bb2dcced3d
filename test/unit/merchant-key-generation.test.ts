// A generated RSA key is made before its merchant's transaction opens, off the event loop: finding an
// RSA-2048 pair's primes takes from tens of milliseconds to over a second, and made inside the
// transaction it held SQLite's write lock (every other write of the service waited) and PostgreSQL's
// row lock and snapshot for as long. The generator is held here until the test lets it go, so the
// order of events says where it ran, not a clock.
import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { SecretBox } from '../../src/core/secrets.js';
import { generateRsaKeyPair, MerchantService, type RsaKeyPair } from '../../src/merchants/merchant-service.js';
import { verifyRsaSha512, signRsaSha512 } from '../../sdk/src/signing.js';
import { openTestStore } from '../helpers/store.js';

type TestStore = Awaited<ReturnType<typeof openTestStore>>;

let store: TestStore;
let release: () => void;
let generating: Promise<void>;
let merchants: MerchantService;

beforeEach(async () => {
  store = await openTestStore();
  let started!: () => void;
  generating = new Promise((resolve) => (started = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const heldGenerator = async (): Promise<RsaKeyPair> => {
    started();
    await gate;
    return generateRsaKeyPair();
  };
  const box = new SecretBox(crypto.randomBytes(32).toString('base64'));
  merchants = new MerchantService(store.db, box, systemClock, { rateLimitPerSecond: 50, credentialCacheMs: 0 }, heldGenerator);
});

afterEach(async () => {
  release();
  await store.close();
  await store.location.drop();
});

describe('generated RSA keys', () => {
  it('are made before the transaction: other writes, and the same merchant\'s key changes, go on meanwhile', async () => {
    const other = await merchants.create({ name: 'Other', mode: 'sandbox', key: { type: 'HMAC-SHA256' } }, 'test');

    const created = merchants.create({ name: 'Generated', mode: 'sandbox', key: { type: 'RSA-SHA512' } }, 'test');
    await generating;
    // While the pair is being made nothing is held: another merchant's key is added and revoked, and a
    // new merchant is created, each in a transaction of its own.
    const added = await merchants.addKey(other.merchant.id, { type: 'HMAC-SHA256', label: 'second' }, 'test');
    await merchants.revokeKey(other.merchant.id, added.keyId, 'test');
    await merchants.create({ name: 'Meanwhile', mode: 'sandbox', key: { type: 'HMAC-SHA256' } }, 'test');
    expect((await merchants.list()).map((m) => m.name).sort()).toEqual(['Meanwhile', 'Other']);

    release();
    const { merchant, key } = await created;
    expect(key.type).toBe('RSA-SHA512');
    expect(key.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    // The stored public half verifies what the shown private half signs.
    const stored = (await merchants.listKeys(merchant.id)).find((k) => k.id === key.keyId)!;
    const signature = signRsaSha512(key.privateKeyPem!, '{"a":1}', '1763812800');
    expect(verifyRsaSha512(stored.publicKeyPem!, '{"a":1}', '1763812800', signature)).toBe(true);
  });

  it('a key added to an existing merchant is generated the same way and counted against the limit in its transaction', async () => {
    const { merchant } = await merchants.create({ name: 'Owner', mode: 'sandbox', key: { type: 'HMAC-SHA256' } }, 'test');
    const adding = merchants.addKey(merchant.id, { type: 'RSA-SHA512' }, 'test');
    await generating;
    // A second key lands first while the first is still being made; the generated one is then the third: refused.
    await merchants.addKey(merchant.id, { type: 'HMAC-SHA256' }, 'test');
    release();
    await expect(adding).rejects.toMatchObject({ reason: 'CONFLICT', status: 409 });
    expect((await merchants.listKeys(merchant.id)).filter((k) => k.status === 'active')).toHaveLength(2);
  });
});
