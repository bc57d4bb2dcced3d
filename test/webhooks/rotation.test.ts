// Rotation with overlap, end to end through HTTP: a merchant's webhook secret rotated by the operator
// keeps signing beside the new one (two `v1,` entries) until WEBHOOK_SECRET_OVERLAP_SECONDS pass; the
// service's RSA key rotated the same way is listed with its id in GET /v1/public-key beside the
// replaced one, and every webhook names the key that signed it in Signature-Key-Id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchServicePublicKeys, verifyStandardWebhook, verifyWebhookSignature } from '../../sdk/src/index.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';
import { pause } from '../payments/api-helpers.js';
import { fund, payoutBody } from '../payouts/helpers.js';
import { Receiver, type ReceivedDelivery } from './helpers.js';

const OVERLAP_SECONDS = 3600;

let server: TestServer;
let receiver: Receiver;
let merchant: TestMerchant;
beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_SECRET_OVERLAP_SECONDS: String(OVERLAP_SECONDS), SERVICE_KEY_OVERLAP_SECONDS: String(OVERLAP_SECONDS) });
  receiver = await new Receiver().listen();
  merchant = await server.createMerchant();
  await fund(server, merchant.id, 'INR', 1_000_000_00n);
  expect((await server.admin('PUT', `/merchants/${merchant.id}/webhooks`, { payoutWebhookUrl: receiver.url })).status).toBe(200);
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

/** Makes a payout and waits for its first webhook to arrive. */
async function nextDelivery(): Promise<ReceivedDelivery> {
  const answer = await merchant.client.payoutInitiate(payoutBody('INR', 'BANK'));
  if (!answer.ok) throw new Error(`payout refused: ${answer.message}`);
  const ref = answer.data.transactionRef;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const hit = receiver.hits.find((h) => h.body.includes(ref));
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no webhook for ${ref}`);
    await pause(50);
  }
}

const nowSeconds = () => Math.floor(server.clock.nowMs() / 1000);
const entries = (hit: ReceivedDelivery) => String(hit.headers['webhook-signature']).split(' ');
const standard = (hit: ReceivedDelivery, secret: string | string[]) =>
  verifyStandardWebhook({ body: hit.body, headers: hit.headers, secret, nowSeconds: nowSeconds() }).ok;

describe('webhook secret rotation', () => {
  it('signs with the new and the replaced secret during the overlap, then with the new one only', async () => {
    const original = merchant.webhookSecret;
    const before = await nextDelivery();
    expect(entries(before)).toHaveLength(1);
    expect(standard(before, original)).toBe(true);

    const rotated = await server.admin('POST', `/merchants/${merchant.id}/webhook-secret`);
    expect(rotated.status).toBe(200);
    const fresh: string = rotated.body.data.webhookSecret;
    const expiresAt = Date.parse(rotated.body.data.previousSecretExpiresAt);
    expect(Math.abs(expiresAt - (server.clock.nowMs() + OVERLAP_SECONDS * 1000))).toBeLessThan(10_000);

    const during = await nextDelivery();
    expect(entries(during)).toHaveLength(2);
    expect(entries(during).every((entry) => entry.startsWith('v1,'))).toBe(true);
    expect(standard(during, fresh)).toBe(true);
    expect(standard(during, original)).toBe(true);
    expect(standard(during, [original, fresh])).toBe(true);
    expect(standard(during, 'whsec_' + Buffer.alloc(32, 1).toString('base64'))).toBe(false);

    server.clock.advance((OVERLAP_SECONDS + 1) * 1000);
    const after = await nextDelivery();
    expect(entries(after)).toHaveLength(1);
    expect(standard(after, fresh)).toBe(true);
    expect(standard(after, original)).toBe(false);
    expect(standard(after, [original, fresh])).toBe(true);
  });

  it('a second rotation within the overlap keeps only the secret it replaced beside the new one', async () => {
    const first = (await server.admin('POST', `/merchants/${merchant.id}/webhook-secret`)).body.data.webhookSecret as string;
    const second = (await server.admin('POST', `/merchants/${merchant.id}/webhook-secret`)).body.data.webhookSecret as string;
    const hit = await nextDelivery();
    expect(entries(hit)).toHaveLength(2);
    expect(standard(hit, second)).toBe(true);
    expect(standard(hit, first)).toBe(true);
  });
});

describe('service key rotation', () => {
  it('lists the current and the replaced key by id, signs with the new one and names it in Signature-Key-Id', async () => {
    const initial = await fetch(`${server.baseUrl}/v1/public-key`).then((r) => r.json());
    expect(initial.data.keys).toHaveLength(1);
    const oldKey = initial.data.keys[0];
    expect(oldKey).toMatchObject({ keyId: initial.data.keyId, status: 'current', retiresAt: null, publicKeyPem: initial.data.publicKeyPem });
    const signedBefore = await nextDelivery();
    expect(signedBefore.headers['signature-key-id']).toBe(oldKey.keyId);

    const rotated = await server.admin('POST', '/service/signing-key/rotate');
    expect(rotated.status).toBe(200);
    const newKey = rotated.body.data;
    expect(newKey).toMatchObject({ keyId: expect.stringMatching(/^sk_[0-9a-f]{32}$/), status: 'current', retiresAt: null });
    expect(JSON.stringify(rotated.body)).not.toContain('PRIVATE');

    const listing = await fetch(`${server.baseUrl}/v1/public-key`).then((r) => r.json());
    // The old fields describe the current key, for receivers written before rotation existed.
    expect(listing.data).toMatchObject({ algorithm: 'RSA-SHA512', keyId: newKey.keyId, publicKeyPem: newKey.publicKeyPem });
    expect(listing.data.keys.map((k: { keyId: string; status: string }) => [k.keyId, k.status])).toEqual([
      [newKey.keyId, 'current'],
      [oldKey.keyId, 'previous'],
    ]);
    expect(Date.parse(listing.data.keys[1].retiresAt)).toBeGreaterThan(server.clock.nowMs());

    const hit = await nextDelivery();
    expect(hit.headers['signature-key-id']).toBe(newKey.keyId);
    const keys = await fetchServicePublicKeys(server.baseUrl);
    const verify = (options: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
      verifyWebhookSignature({ body: hit.body, headers: hit.headers, nowSeconds: nowSeconds(), ...options });
    expect(verify({ servicePublicKeys: keys }).ok).toBe(true);
    expect(verify({ servicePublicKeyPem: newKey.publicKeyPem }).ok).toBe(true);
    // A receiver that only knows the old key is told to fetch the keys again, not that the webhook is forged.
    expect(verify({ servicePublicKeys: [{ keyId: oldKey.keyId, publicKeyPem: oldKey.publicKeyPem }] })).toEqual({ ok: false, reason: 'UNKNOWN_KEY' });
    expect(verify({ servicePublicKeyPem: oldKey.publicKeyPem })).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
    // The delivery signed before the rotation still verifies against the listed old key.
    expect(
      verifyWebhookSignature({ body: signedBefore.body, headers: signedBefore.headers, servicePublicKeys: keys, nowSeconds: Number(signedBefore.headers.timestamp) }).ok,
    ).toBe(true);

    server.clock.advance((OVERLAP_SECONDS + 1) * 1000);
    const later = await fetch(`${server.baseUrl}/v1/public-key`).then((r) => r.json());
    expect(later.data.keys.map((k: { keyId: string }) => k.keyId)).toEqual([newKey.keyId]);
  });

  it('rotating through the service (what `service rotate-key` calls) is audited without the private key', async () => {
    const before = (await fetchServicePublicKeys(server.baseUrl))[0]!;
    const rotated = await server.services.webhooks.rotateServiceKey('cli:test');
    expect(rotated.keyId).not.toBe(before.keyId);
    const audit = await server.services.store.db.selectFrom('audit_log').selectAll().where('action', '=', 'service.rotate_key').execute();
    expect(audit.map((row) => row.target)).toContain(rotated.keyId);
    expect(audit.every((row) => !JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value)).includes('PRIVATE'))).toBe(true);
  });
});
