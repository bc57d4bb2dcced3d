import { execFileSync } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bodySha512Hex,
  decodeBase64Strict,
  signHmacSha256,
  signRequest,
  signRsaSha512,
  stringToSign,
  verifyHmacSha256,
  verifyRsaSha512,
} from '../../sdk/src/signing.js';
import { vectors } from './vectors.js';

const rsa = vectors.request_rsa;
const hmac = vectors.request_hmac;

/** The body with its first byte changed, same length. */
function alterOneByte(body: string): string {
  return (body[0] === '{' ? '[' : '{') + body.slice(1);
}

describe('string to sign', () => {
  it('hashes the exact body bytes to lowercase hex', () => {
    expect(bodySha512Hex(rsa.body)).toBe(rsa.bodySha512Hex);
    expect(bodySha512Hex(Buffer.from(rsa.body))).toBe(rsa.bodySha512Hex);
  });

  it('appends the timestamp with no separator', () => {
    expect(stringToSign(rsa.body, rsa.timestamp)).toBe(rsa.stringToSign);
    expect(stringToSign(hmac.body, hmac.timestamp)).toBe(hmac.stringToSign);
  });
});

describe('RSA-SHA512', () => {
  const publicKey = createPublicKey(rsa.publicKeyPem);

  it('reproduces the vector signature (PKCS#1 v1.5 is deterministic)', () => {
    expect(signRsaSha512(rsa.privateKeyPem, rsa.body, rsa.timestamp)).toBe(rsa.signature);
    expect(signRequest({ type: 'RSA-SHA512', privateKeyPem: rsa.privateKeyPem }, rsa.body, rsa.timestamp)).toBe(
      rsa.signature,
    );
  });

  it('accepts the vector with a PEM or a pre-parsed key', () => {
    expect(verifyRsaSha512(rsa.publicKeyPem, rsa.body, rsa.timestamp, rsa.signature)).toBe(true);
    expect(verifyRsaSha512(publicKey, Buffer.from(rsa.body), rsa.timestamp, rsa.signature)).toBe(true);
  });

  it('rejects an altered body, another timestamp, garbage and empty input', () => {
    expect(verifyRsaSha512(publicKey, alterOneByte(rsa.body), rsa.timestamp, rsa.signature)).toBe(false);
    expect(verifyRsaSha512(publicKey, rsa.body, '1763812801', rsa.signature)).toBe(false);
    expect(verifyRsaSha512(publicKey, rsa.body, rsa.timestamp, 'not base64 at all!')).toBe(false);
    expect(verifyRsaSha512(publicKey, rsa.body, rsa.timestamp, 'AAAA')).toBe(false);
    expect(verifyRsaSha512(publicKey, rsa.body, rsa.timestamp, '')).toBe(false);
    expect(verifyRsaSha512(publicKey, '', '', rsa.signature)).toBe(false);
  });

  it('rejects another spelling of the valid signature, so one-time-signature checks cannot be bypassed', () => {
    expect(verifyRsaSha512(publicKey, rsa.body, rsa.timestamp, rsa.signature.replace(/=+$/, ''))).toBe(false);
    expect(verifyRsaSha512(publicKey, rsa.body, rsa.timestamp, ` ${rsa.signature}`)).toBe(false);
    expect(verifyRsaSha512(publicKey, rsa.body, rsa.timestamp, `${rsa.signature}\n`)).toBe(false);
  });

  it('returns false instead of throwing on a malformed key or non-string input', () => {
    expect(verifyRsaSha512('not a key', rsa.body, rsa.timestamp, rsa.signature)).toBe(false);
    expect(verifyRsaSha512(publicKey, rsa.body, rsa.timestamp, undefined as unknown as string)).toBe(false);
    expect(verifyRsaSha512(publicKey, null as unknown as string, rsa.timestamp, rsa.signature)).toBe(false);
  });
});

describe('HMAC-SHA256', () => {
  it('reproduces the vector signature, using the secret as UTF-8 bytes', () => {
    expect(signHmacSha256(hmac.secret, hmac.body, hmac.timestamp)).toBe(hmac.signature);
    expect(signRequest({ type: 'HMAC-SHA256', secret: hmac.secret }, hmac.body, hmac.timestamp)).toBe(
      hmac.signature,
    );
  });

  it('accepts the vector', () => {
    expect(verifyHmacSha256(hmac.secret, hmac.body, hmac.timestamp, hmac.signature)).toBe(true);
    expect(verifyHmacSha256(hmac.secret, Buffer.from(hmac.body), hmac.timestamp, hmac.signature)).toBe(true);
  });

  it('rejects an altered body, another timestamp, another secret, garbage and empty input', () => {
    expect(verifyHmacSha256(hmac.secret, alterOneByte(hmac.body), hmac.timestamp, hmac.signature)).toBe(false);
    expect(verifyHmacSha256(hmac.secret, hmac.body, '1763812799', hmac.signature)).toBe(false);
    expect(verifyHmacSha256(`${hmac.secret}x`, hmac.body, hmac.timestamp, hmac.signature)).toBe(false);
    expect(verifyHmacSha256(hmac.secret, hmac.body, hmac.timestamp, '%%%garbage%%%')).toBe(false);
    expect(verifyHmacSha256(hmac.secret, hmac.body, hmac.timestamp, hmac.signature.slice(0, 20))).toBe(false);
    expect(verifyHmacSha256(hmac.secret, hmac.body, hmac.timestamp, '')).toBe(false);
    expect(verifyHmacSha256('', '', '', hmac.signature)).toBe(false);
    expect(verifyHmacSha256(hmac.secret, hmac.body, hmac.timestamp, hmac.signature.replace(/=$/, ''))).toBe(false);
  });
});

describe('decodeBase64Strict', () => {
  it('decodes canonical base64 only', () => {
    expect(decodeBase64Strict('AQID')).toEqual(Buffer.from([1, 2, 3]));
    expect(decodeBase64Strict('AQ==')).toEqual(Buffer.from([1]));
    for (const bad of ['', 'AQ', 'AR==', 'AQ-_', 'A Q I D', 'AQID\n']) expect(decodeBase64Strict(bad)).toBeNull();
  });
});

describe('the openssl recipes in sdk/README.md', () => {
  const readme = readFileSync(new URL('../../sdk/README.md', import.meta.url), 'utf8');
  let dir = '';

  /** The shell block that follows `<!-- recipe:name -->`, run in a scratch directory. */
  function runRecipe(name: string, env: Record<string, string>, epilogue = ''): string {
    const match = new RegExp(`<!-- recipe:${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(readme);
    if (!match?.[1]) throw new Error(`recipe ${name} not found in sdk/README.md`);
    const script = `set -euo pipefail\n${match[1]}${epilogue}`;
    const options = { cwd: dir, env: { PATH: process.env.PATH, ...env }, stdio: 'pipe' as const };
    return execFileSync('bash', ['-c', script], options).toString();
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sdk-openssl-'));
    writeFileSync(join(dir, 'merchant_key.pem'), rsa.privateKeyPem);
    writeFileSync(join(dir, 'service_public.pem'), rsa.publicKeyPem);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('signs with an RSA key exactly like the vector', () => {
    const out = runRecipe('sign-rsa', { BODY: rsa.body, TIMESTAMP: rsa.timestamp }, 'printf %s "$SIGNATURE"');
    expect(out).toBe(rsa.signature);
  });

  it('signs with an HMAC secret exactly like the vector', () => {
    const env = { BODY: hmac.body, TIMESTAMP: hmac.timestamp, SECRET: hmac.secret };
    expect(runRecipe('sign-hmac', env, 'printf %s "$SIGNATURE"')).toBe(hmac.signature);
  });

  it('verifies an RSA webhook signature and refuses an altered body', () => {
    const env = { BODY: rsa.body, TIMESTAMP: rsa.timestamp, SIGNATURE: rsa.signature };
    expect(runRecipe('verify-rsa', env)).toContain('Verified OK');
    expect(() => runRecipe('verify-rsa', { ...env, BODY: alterOneByte(rsa.body) })).toThrow();
  });
});
