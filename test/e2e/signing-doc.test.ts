// docs/signing.md is what a merchant integrates from, so it is tested like code: every value of its worked
// example must be what the project's signer computes (and the pinned vectors say), its openssl commands and
// its Node snippet must reproduce them, and its openssl + curl recipe must work end to end against a
// running server, including the refusals the doc promises.
import { execFile } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { exampleRequest } from '../../src/sandbox-seed.js';
import { bodySha512Hex, signHmacSha256, signRsaSha512, stringToSign, verifyHmacSha256, verifyRsaSha512 } from '../../sdk/src/index.js';
import { startTestServer, type TestMerchant, type TestServer } from '../helpers/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs/signing.md'), 'utf8');
const VECTORS = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/signing.json'), 'utf8'));
const RSA_VECTOR = VECTORS.request_rsa as {
  privateKeyPem: string;
  publicKeyPem: string;
  body: string;
  timestamp: string;
  bodySha512Hex: string;
  stringToSign: string;
  signature: string;
};
const HMAC_VECTOR = VECTORS.request_hmac as { secret: string; body: string; timestamp: string; stringToSign: string; signature: string };

/** The content of the fenced block that follows `<!-- name -->` in the doc, without its fences. */
function block(name: string): string {
  const marker = `<!-- ${name} -->`;
  const at = DOC.indexOf(marker);
  if (at < 0) throw new Error(`docs/signing.md has no ${marker}`);
  expect(DOC.indexOf(marker, at + marker.length), `${marker} appears twice`).toBe(-1);
  const lines = DOC.slice(at + marker.length).split('\n');
  const open = lines.findIndex((line) => line.startsWith('```'));
  expect(lines.slice(0, open).every((line) => line.trim() === ''), `${marker} is not followed by a fenced block`).toBe(true);
  const close = lines.findIndex((line, i) => i > open && line === '```');
  return lines.slice(open + 1, close).join('\n');
}

let tmp: string;

function run(script: string, env: Record<string, string>, cwd = tmp): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Asynchronous on purpose: the server answering curl runs in this very process.
    execFile('bash', ['-c', `set -euo pipefail\n${script}`], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
      if (!error) return resolve({ code: 0, stdout, stderr });
      if (typeof error.code === 'number') return resolve({ code: error.code, stdout, stderr });
      // Not the script's own exit: bash did not start, or was killed (by the timeout or from outside).
      // Said in stderr so that the assertion that fails shows why.
      // (spawn's ENOENT is also what a missing cwd gives: said apart.)
      const why = `code ${String(error.code)}, signal ${String(error.signal)}, killed ${String(error.killed)}, cwd ${fs.existsSync(cwd) ? 'present' : 'missing'}`;
      resolve({ code: -1, stdout, stderr: `${stderr}[bash did not finish: ${why}]` });
    });
  });
}

/** The script ran to its end: exit code 0 and nothing on stderr (curl is silent, and answers 401 with exit code 0 too). */
function expectRan(result: { code: number; stderr: string }): void {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
}

interface CurlAnswer {
  readonly status: number;
  readonly body: any;
}

/** Splits the output of one or more runs of the doc's send block (`<json>\nHTTP <status>\n` each). */
function answers(stdout: string): CurlAnswer[] {
  const out: CurlAnswer[] = [];
  const pattern = /([^\n]*)\nHTTP (\d{3})\n/g;
  for (let match = pattern.exec(stdout); match; match = pattern.exec(stdout)) {
    out.push({ status: Number(match[2]), body: JSON.parse(match[1]!) });
  }
  return out;
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'signing-doc-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the worked example in docs/signing.md', () => {
  const body = block('example:body');
  const timestamp = block('example:timestamp');

  it('shows the pinned vector', () => {
    expect(body).toBe(RSA_VECTOR.body);
    expect(HMAC_VECTOR.body).toBe(RSA_VECTOR.body);
    expect(timestamp).toBe(RSA_VECTOR.timestamp);
    expect(block('example:body-sha512-hex')).toBe(RSA_VECTOR.bodySha512Hex);
    expect(block('example:string-to-sign')).toBe(RSA_VECTOR.stringToSign);
    expect(`${block('example:rsa-private-key')}\n`).toBe(RSA_VECTOR.privateKeyPem);
    expect(`${block('example:rsa-public-key')}\n`).toBe(RSA_VECTOR.publicKeyPem);
    expect(block('example:rsa-signature')).toBe(RSA_VECTOR.signature);
    expect(block('example:hmac-secret')).toBe(HMAC_VECTOR.secret);
    expect(block('example:hmac-signature')).toBe(HMAC_VECTOR.signature);
  });

  it("has every value the project's signer computes", () => {
    expect(bodySha512Hex(body)).toBe(block('example:body-sha512-hex'));
    expect(stringToSign(body, timestamp)).toBe(block('example:string-to-sign'));
    expect(block('example:string-to-sign')).toBe(block('example:body-sha512-hex') + timestamp);
    expect(signRsaSha512(block('example:rsa-private-key'), body, timestamp)).toBe(block('example:rsa-signature'));
    expect(signHmacSha256(block('example:hmac-secret'), body, timestamp)).toBe(block('example:hmac-signature'));
  });

  it("verifies with the service's verifier and a key the service would register", () => {
    const publicKey = createPublicKey(block('example:rsa-public-key'));
    expect(publicKey.asymmetricKeyType).toBe('rsa');
    expect(publicKey.asymmetricKeyDetails?.modulusLength).toBeGreaterThanOrEqual(2048);
    expect(verifyRsaSha512(publicKey, body, timestamp, block('example:rsa-signature'))).toBe(true);
    expect(verifyHmacSha256(block('example:hmac-secret'), body, timestamp, block('example:hmac-signature'))).toBe(true);
    expect(verifyRsaSha512(publicKey, `${body} `, timestamp, block('example:rsa-signature'))).toBe(false);
  });

  it('is reproduced by the openssl commands of the doc', async () => {
    fs.writeFileSync(path.join(tmp, 'example-key.pem'), `${block('example:rsa-private-key')}\n`);
    const result = await run(block('recipe:example'), {});
    expectRan(result);
    expect(result.stdout.split('\n').filter(Boolean)).toEqual([
      block('example:body-sha512-hex'),
      block('example:rsa-signature'),
      block('example:hmac-signature'),
    ]);
  });

  it('is reproduced by the Node snippet of the doc', async () => {
    const file = path.join(tmp, 'snippet.mjs');
    fs.writeFileSync(file, block('snippet:node'));
    const { signedHeaders } = (await import(pathToFileURL(file).href)) as {
      signedHeaders: (merchantId: string, body: string, key: object, timestamp?: string) => Record<string, string>;
    };
    const rsa = signedHeaders('mch_example', body, { type: 'RSA-SHA512', privateKeyPem: block('example:rsa-private-key') }, timestamp);
    expect(rsa).toEqual({ 'Content-Type': 'application/json', MerchantID: 'mch_example', Timestamp: timestamp, Signature: block('example:rsa-signature') });
    const hmac = signedHeaders('mch_example', body, { type: 'HMAC-SHA256', secret: block('example:hmac-secret') }, timestamp);
    expect(hmac.Signature).toBe(block('example:hmac-signature'));
    expect(signedHeaders('mch_example', body, { type: 'HMAC-SHA256', secret: 'x' }).Timestamp).toMatch(/^\d{10}$/);
  });
});

describe('the numbers docs/signing.md states', () => {
  it('are the service defaults: a 300-second window and 10 minutes of remembered signatures', () => {
    const config = loadConfig({});
    expect(config.http.signatureWindowSeconds).toBe(300);
    expect(DOC).toContain('within **300 seconds**');
    expect(config.http.replayTtlSeconds).toBe(600);
    expect(DOC).toContain('for 10 minutes');
  });
});

describe('the openssl + curl recipe of docs/signing.md, against a running server', () => {
  let server: TestServer;
  let rsa: TestMerchant;
  let env: Record<string, string>;
  const signBlock = block('recipe:rsa-sign');
  const sendBlock = block('recipe:send');

  beforeAll(async () => {
    server = await startTestServer();
    rsa = await server.createMerchant({ keyType: 'RSA-SHA512' });
    const keyFile = path.join(tmp, 'merchant-key.pem');
    fs.writeFileSync(keyFile, rsa.privateKeyPem!, { mode: 0o600 });
    env = { BASE_URL: server.baseUrl, MERCHANT_ID: rsa.id, KEY_FILE: keyFile };
  });
  afterAll(async () => server?.close());

  it('uses the variables its set-up block exports', () => {
    const setup = block('recipe:env');
    for (const name of ['BASE_URL', 'MERCHANT_ID', 'KEY_FILE']) {
      expect(setup).toMatch(new RegExp(`^export ${name}=`, 'm'));
      expect(`${signBlock}\n${sendBlock}`).toContain(`$${name}`);
    }
    expect(signBlock).toContain('TS=$(date +%s)');
    expect(signBlock).toContain(`BODY='{"currency":"IDR"}'`);
  });

  it('answers 200 twice for the same request, then 401 SIGNATURE_REUSED for it on payout/initiate', async () => {
    const toInitiate = sendBlock.replace('/v1/api/payout/bankCode', '/v1/api/payout/initiate');
    expect(toInitiate).not.toBe(sendBlock);
    const result = await run(`${signBlock}\n${sendBlock}\n${sendBlock}\n${toInitiate}`, env);
    expectRan(result);
    const [first, second, third] = answers(result.stdout);
    expect(first!.status).toBe(200);
    expect(first!.body).toMatchObject({ code: '200', message: 'SUCCESS' });
    expect(first!.body.data.some((b: { bankCode: string }) => b.bankCode === '00014')).toBe(true);
    expect(second!.status).toBe(200);
    expect(second!.body).toEqual(first!.body);
    expect(third!.status).toBe(401);
    expect(third!.body).toMatchObject({ code: '401', message: 'SIGNATURE_REUSED' });
  });

  it('answers 401 INVALID_SIGNATURE when the body is altered by one byte after signing', async () => {
    const result = await run(`${signBlock}\nBODY="\${BODY/IDR/IDS}"\n${sendBlock}`, env);
    expectRan(result);
    const [answer] = answers(result.stdout);
    expect(answer!.status).toBe(401);
    expect(answer!.body).toMatchObject({ code: '401', message: 'INVALID_SIGNATURE' });
  });

  it('answers 401 TIMESTAMP_OUT_OF_WINDOW when signed with a Timestamp 301 s old', async () => {
    const stale = signBlock.replace('TS=$(date +%s)', 'TS=$(( $(date +%s) - 301 ))');
    expect(stale).not.toBe(signBlock);
    const result = await run(`${stale}\n${sendBlock}`, env);
    expectRan(result);
    const [answer] = answers(result.stdout);
    expect(answer!.status).toBe(401);
    expect(answer!.body).toMatchObject({ code: '401', message: 'TIMESTAMP_OUT_OF_WINDOW' });
  });

  it('works with the HMAC variant of the recipe', async () => {
    const hmac = await server.createMerchant({ keyType: 'HMAC-SHA256' });
    const result = await run(`${block('recipe:hmac-sign')}\n${sendBlock}`, { BASE_URL: server.baseUrl, MERCHANT_ID: hmac.id, HMAC_SECRET: hmac.secret! });
    expectRan(result);
    const [answer] = answers(result.stdout);
    expect(answer!.status).toBe(200);
    expect(answer!.body).toMatchObject({ code: '200', message: 'SUCCESS' });
  });

  it('agrees with the signed example the service prints at first start', async () => {
    const keyFile = path.join(tmp, 'sandbox-key.pem');
    fs.writeFileSync(keyFile, rsa.privateKeyPem!, { mode: 0o600 });
    const snippet = exampleRequest(server.baseUrl, { merchantId: rsa.id, privateKeyFile: keyFile, webhookSecret: rsa.webhookSecret });
    const first = await run(snippet, {});
    expectRan(first);
    expect(JSON.parse(first.stdout)).toMatchObject({ code: '200', message: 'SUCCESS' });
    // "Run it as often as you like": in the same second it sends the same request to the same path.
    const second = await run(snippet, {});
    expectRan(second);
    expect(JSON.parse(second.stdout)).toMatchObject({ code: '200', message: 'SUCCESS' });
  });

  it('binds a signature to its path once authenticated even if the request is refused (400), but not on a 403', async () => {
    const merchant = await server.createMerchant();
    const invalid = merchant.client.buildSignedRequest({ currency: 'IDR', unknown: 1 });
    expect((await merchant.client.send('payout/bankCode', invalid)).message).toBe('VALIDATION_FAILED');
    expect((await merchant.client.send('payout/bankCode', invalid)).message).toBe('VALIDATION_FAILED');
    expect((await merchant.client.send('payout/initiate', invalid)).message).toBe('SIGNATURE_REUSED');

    const request = merchant.client.buildSignedRequest({ currency: 'NGN' });
    await server.admin('POST', `/merchants/${merchant.id}/disable`);
    expect((await merchant.client.send('payout/bankCode', request)).message).toBe('MERCHANT_DISABLED');
    await server.admin('POST', `/merchants/${merchant.id}/enable`);
    // Not bound to payout/bankCode by the 403: a state-changing path still takes it (and refuses the body).
    expect((await merchant.client.send('payout/initiate', request)).message).toBe('VALIDATION_FAILED');
  });
});
