import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signRsaSha512 } from '../../sdk/src/signing.js';
import { signStandardWebhook, verifyStandardWebhook, verifyWebhookSignature } from '../../sdk/src/webhooks.js';
import { vectors } from './vectors.js';

const std = vectors.standard_webhook;
const stdTimestamp = Number(std.webhookTimestamp);
const stdHeaders = {
  'webhook-id': std.webhookId,
  'webhook-timestamp': std.webhookTimestamp,
  'webhook-signature': std.webhookSignature,
};
const rsa = vectors.request_rsa;
const rsaTimestamp = Number(rsa.timestamp);

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

describe('signStandardWebhook', () => {
  it('reproduces the vector signature', () => {
    expect(signStandardWebhook(std.secret, std.webhookId, stdTimestamp, std.body)).toBe(std.webhookSignature);
    expect(signStandardWebhook(std.secret, std.webhookId, stdTimestamp, Buffer.from(std.body))).toBe(
      std.webhookSignature,
    );
  });
});

describe('verifyStandardWebhook', () => {
  const verifyAtVectorTime = (overrides: Partial<Parameters<typeof verifyStandardWebhook>[0]>) =>
    verifyStandardWebhook({
      body: std.body,
      headers: stdHeaders,
      secret: std.secret,
      nowSeconds: stdTimestamp,
      ...overrides,
    });

  it('rejects the old vector as STALE with the real clock', () => {
    expect(verifyStandardWebhook({ body: std.body, headers: stdHeaders, secret: std.secret })).toEqual({
      ok: false,
      reason: 'STALE',
    });
  });

  it('accepts the vector at its own time and returns the parsed body', () => {
    expect(verifyAtVectorTime({})).toEqual({ ok: true, event: JSON.parse(std.body) });
    expect(verifyAtVectorTime({ body: Buffer.from(std.body) }).ok).toBe(true);
  });

  it('applies the tolerance in both directions', () => {
    expect(verifyAtVectorTime({ nowSeconds: stdTimestamp + 300 }).ok).toBe(true);
    expect(verifyAtVectorTime({ nowSeconds: stdTimestamp + 301 })).toEqual({ ok: false, reason: 'STALE' });
    expect(verifyAtVectorTime({ nowSeconds: stdTimestamp - 301 })).toEqual({ ok: false, reason: 'STALE' });
    expect(verifyAtVectorTime({ nowSeconds: stdTimestamp + 1000, toleranceSeconds: 1000 }).ok).toBe(true);
  });

  it('matches header names case-insensitively, from plain objects, arrays and Headers', () => {
    const mixedCase = {
      'Webhook-Id': std.webhookId,
      'WEBHOOK-TIMESTAMP': std.webhookTimestamp,
      'webhook-Signature': [std.webhookSignature],
    };
    expect(verifyAtVectorTime({ headers: mixedCase }).ok).toBe(true);
    expect(verifyAtVectorTime({ headers: new Headers(stdHeaders) }).ok).toBe(true);
  });

  it('passes when any v1 entry of the list matches and ignores other versions', () => {
    const list = `v1a,${std.webhookSignature.slice(3)} v1,AAAA ${std.webhookSignature}`;
    expect(verifyAtVectorTime({ headers: { ...stdHeaders, 'webhook-signature': list } }).ok).toBe(true);
    const noV1 = `v2,${std.webhookSignature.slice(3)}`;
    expect(verifyAtVectorTime({ headers: { ...stdHeaders, 'webhook-signature': noV1 } })).toEqual({
      ok: false,
      reason: 'BAD_SIGNATURE',
    });
  });

  it('rejects an altered body, another id, another secret and garbage signatures', () => {
    const bad = { ok: false, reason: 'BAD_SIGNATURE' };
    expect(verifyAtVectorTime({ body: std.body.replace('succeeded', 'succeedes') })).toEqual(bad);
    expect(verifyAtVectorTime({ headers: { ...stdHeaders, 'webhook-id': 'evt_other' } })).toEqual(bad);
    expect(verifyAtVectorTime({ secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' })).toEqual(bad);
    for (const signature of ['v1,', 'v1,***', 'garbage', `${std.webhookSignature},extra`]) {
      expect(verifyAtVectorTime({ headers: { ...stdHeaders, 'webhook-signature': signature } })).toEqual(bad);
    }
  });

  it('reports missing or malformed headers', () => {
    const missing = { ok: false, reason: 'MISSING_HEADERS' };
    for (const name of Object.keys(stdHeaders)) {
      const headers: Record<string, string> = { ...stdHeaders };
      delete headers[name];
      expect(verifyAtVectorTime({ headers })).toEqual(missing);
      expect(verifyAtVectorTime({ headers: { ...stdHeaders, [name]: '' } })).toEqual(missing);
    }
    expect(verifyAtVectorTime({ headers: { ...stdHeaders, 'webhook-timestamp': '17638128x0' } })).toEqual(missing);
  });

  it('reports a correctly signed body that is not JSON as INVALID_BODY', () => {
    const body = 'not json';
    const signature = signStandardWebhook(std.secret, std.webhookId, stdTimestamp, body);
    const headers = { ...stdHeaders, 'webhook-signature': signature };
    expect(verifyAtVectorTime({ body, headers })).toEqual({ ok: false, reason: 'INVALID_BODY' });
  });
});

describe('interoperability with the standardwebhooks library', () => {
  const library = new Webhook(std.secret);

  it('produces the same signature as the library', () => {
    expect(library.sign(std.webhookId, new Date(stdTimestamp * 1000), std.body)).toBe(std.webhookSignature);
  });

  it('is verified by the library, and verifies what the library signs', () => {
    const timestamp = nowSeconds();
    const ours = {
      'webhook-id': std.webhookId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signStandardWebhook(std.secret, std.webhookId, timestamp, std.body),
    };
    expect(library.verify(std.body, ours)).toEqual(JSON.parse(std.body));

    const librarySignature = library.sign(std.webhookId, new Date(timestamp * 1000), std.body);
    const theirs = { ...ours, 'webhook-signature': librarySignature };
    expect(verifyStandardWebhook({ body: std.body, headers: theirs, secret: std.secret })).toEqual({
      ok: true,
      event: JSON.parse(std.body),
    });
  });

  it('agrees with the library that the vector is stale', () => {
    expect(() => library.verify(std.body, stdHeaders)).toThrow();
  });
});

describe('verifyWebhookSignature (RSA Timestamp + Signature headers)', () => {
  const rsaHeaders = { Timestamp: rsa.timestamp, Signature: rsa.signature, MerchantID: 'M100001' };
  const verifyAtVectorTime = (overrides: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
    verifyWebhookSignature({
      body: rsa.body,
      headers: rsaHeaders,
      servicePublicKeyPem: rsa.publicKeyPem,
      nowSeconds: rsaTimestamp,
      ...overrides,
    });

  it('accepts the vector at its own time and returns the parsed body', () => {
    expect(verifyAtVectorTime({})).toEqual({ ok: true, event: JSON.parse(rsa.body) });
    expect(verifyAtVectorTime({ headers: new Headers(rsaHeaders), body: Buffer.from(rsa.body) }).ok).toBe(true);
  });

  it('rejects the vector as STALE with the real clock or outside the tolerance', () => {
    const stale = { ok: false, reason: 'STALE' };
    expect(verifyAtVectorTime({ nowSeconds: undefined })).toEqual(stale);
    expect(verifyAtVectorTime({ nowSeconds: rsaTimestamp - 301 })).toEqual(stale);
    expect(verifyAtVectorTime({ nowSeconds: rsaTimestamp + 60, toleranceSeconds: 30 })).toEqual(stale);
  });

  it('accepts a fresh delivery signed with the service key', () => {
    const timestamp = String(nowSeconds());
    const headers = { timestamp, signature: signRsaSha512(rsa.privateKeyPem, rsa.body, timestamp) };
    expect(verifyWebhookSignature({ body: rsa.body, headers, servicePublicKeyPem: rsa.publicKeyPem }).ok).toBe(true);
  });

  it('rejects an altered body, a re-dated timestamp and garbage signatures', () => {
    const bad = { ok: false, reason: 'BAD_SIGNATURE' };
    expect(verifyAtVectorTime({ body: rsa.body.replace('100.5', '100.6') })).toEqual(bad);
    expect(verifyAtVectorTime({ headers: { ...rsaHeaders, Timestamp: String(rsaTimestamp + 1) } })).toEqual(bad);
    expect(verifyAtVectorTime({ headers: { ...rsaHeaders, Signature: '!!garbage!!' } })).toEqual(bad);
  });

  it('reports missing or malformed headers', () => {
    const missing = { ok: false, reason: 'MISSING_HEADERS' };
    expect(verifyAtVectorTime({ headers: { Timestamp: rsa.timestamp } })).toEqual(missing);
    expect(verifyAtVectorTime({ headers: { Signature: rsa.signature } })).toEqual(missing);
    expect(verifyAtVectorTime({ headers: { ...rsaHeaders, Signature: '' } })).toEqual(missing);
    expect(verifyAtVectorTime({ headers: { ...rsaHeaders, Timestamp: '1763812800.5' } })).toEqual(missing);
  });
});
