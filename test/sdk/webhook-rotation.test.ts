// The SDK's verification during rotations, against the shared vectors: a `webhook-signature` with two
// `v1,` entries (new and replaced secret), receivers holding several secrets, and the RSA key picked
// by Signature-Key-Id among several; the vectors verify exactly as before.
import { generateKeyPairSync } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signStandardWebhook, verifyStandardWebhook, verifyWebhookSignature } from '../../sdk/src/webhooks.js';
import { vectors } from './vectors.js';

const std = vectors.standard_webhook;
const stdTimestamp = Number(std.webhookTimestamp);
const rsa = vectors.request_rsa;
const rsaTimestamp = Number(rsa.timestamp);
const otherSecret = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
const otherPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe('two secrets during a webhook secret rotation', () => {
  const both = `${signStandardWebhook(otherSecret, std.webhookId, stdTimestamp, std.body)} ${std.webhookSignature}`;
  const headers = { 'webhook-id': std.webhookId, 'webhook-timestamp': std.webhookTimestamp, 'webhook-signature': both };
  const verify = (secret: string | string[], signature = both) =>
    verifyStandardWebhook({ body: std.body, headers: { ...headers, 'webhook-signature': signature }, secret, nowSeconds: stdTimestamp }).ok;

  it('verifies a two-entry header with either secret, or with a list of them', () => {
    expect(verify(std.secret)).toBe(true);
    expect(verify(otherSecret)).toBe(true);
    expect(verify([otherSecret, std.secret])).toBe(true);
    expect(verify([`whsec_${Buffer.alloc(32, 4).toString('base64')}`])).toBe(false);
    expect(verify([])).toBe(false);
  });

  it('accepts the single-entry vector with a list holding the vector secret, as before', () => {
    expect(verify([otherSecret, std.secret], std.webhookSignature)).toBe(true);
    expect(verify(std.secret, std.webhookSignature)).toBe(true);
    expect(verify(otherSecret, std.webhookSignature)).toBe(false);
  });

  it('is what the standardwebhooks library accepts too', () => {
    // The library checks the timestamp against the real clock: sign a fresh pair.
    const now = Math.floor(Date.now() / 1000);
    const pair = [otherSecret, std.secret].map((secret) => signStandardWebhook(secret, std.webhookId, now, std.body)).join(' ');
    const fresh = { 'webhook-id': std.webhookId, 'webhook-timestamp': String(now), 'webhook-signature': pair };
    expect(() => new Webhook(std.secret).verify(std.body, fresh)).not.toThrow();
    expect(() => new Webhook(otherSecret).verify(std.body, fresh)).not.toThrow();
  });
});

describe('the RSA key picked by Signature-Key-Id', () => {
  const base = { Timestamp: rsa.timestamp, Signature: rsa.signature };
  const keys = [
    { keyId: 'sk_new', publicKeyPem: otherPem },
    { keyId: 'webhook-signing', publicKeyPem: rsa.publicKeyPem },
  ];
  const verify = (headers: Record<string, string>, servicePublicKeys = keys) =>
    verifyWebhookSignature({ body: rsa.body, headers, servicePublicKeys, nowSeconds: rsaTimestamp });

  it('verifies with the key the header names', () => {
    expect(verify({ ...base, 'Signature-Key-Id': 'webhook-signing' }).ok).toBe(true);
    expect(verify({ ...base, 'Signature-Key-Id': 'sk_new' })).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
  });

  it('reports a key id it was not given as UNKNOWN_KEY, so the receiver refetches /v1/public-key', () => {
    expect(verify({ ...base, 'Signature-Key-Id': 'sk_unknown' })).toEqual({ ok: false, reason: 'UNKNOWN_KEY' });
  });

  it('without the header, tries every key given (deliveries from before key ids)', () => {
    expect(verify(base).ok).toBe(true);
    expect(verify(base, [keys[0]!])).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
  });

  it('still verifies the vector with one PEM, whatever the header says', () => {
    const headers = { ...base, 'Signature-Key-Id': 'anything' };
    expect(verifyWebhookSignature({ body: rsa.body, headers, servicePublicKeyPem: rsa.publicKeyPem, nowSeconds: rsaTimestamp }).ok).toBe(true);
  });
});
