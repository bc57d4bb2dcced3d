// The bench's bare signed read (bench/floor-server.ts), on the suite's store: the floor the read lines of
// contract section 13 are measured against only means something if it does the work it claims, so it
// must refuse what the service refuses (a bad signature, a Timestamp out of the window, a signature used
// twice, even twice at once) and answer the rest.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest, type MerchantKey } from '../../sdk/src/signing.js';
import { startFloorServer, type BenchServer } from '../../bench/service.js';
import { usingPostgres } from '../helpers/store.js';

const rsaKey: MerchantKey = {
  type: 'RSA-SHA512',
  privateKeyPem: crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};
const hmacKey: MerchantKey = { type: 'HMAC-SHA256', secret: crypto.randomBytes(24).toString('base64') };
const merchants = [
  { id: 'mch_floorRsa', key: rsaKey },
  { id: 'mch_floorHmac', key: hmacKey },
];

let floor: BenchServer;

beforeAll(async () => {
  floor = await startFloorServer(usingPostgres() ? 'postgres' : 'sqlite', merchants);
}, 60_000);

afterAll(async () => {
  await floor?.stop();
  await floor?.cleanup();
});

interface Signed {
  readonly headers: Record<string, string>;
  readonly body: string;
}

function signed(merchant: (typeof merchants)[number], body: string, timestamp = String(Math.floor(Date.now() / 1000))): Signed {
  return {
    body,
    headers: { 'content-type': 'application/json', MerchantID: merchant.id, Timestamp: timestamp, Signature: signRequest(merchant.key, body, timestamp) },
  };
}

async function send(request: Signed, body = request.body): Promise<{ status: number; json: any }> {
  const response = await fetch(`${floor.baseUrl}/v1/api/account/balance`, { method: 'POST', headers: request.headers, body });
  return { status: response.status, json: await response.json() };
}

describe('the bare signed read of the bench', () => {
  it('answers a signed balance read of either key type once, and refuses the same signature after', async () => {
    for (const [i, merchant] of merchants.entries()) {
      const request = signed(merchant, JSON.stringify({ currency: 'IDR', n: i }));
      expect(await send(request)).toEqual({ status: 200, json: { code: '200', message: 'SUCCESS', data: { currency: 'IDR', available: '0.00', pending: '0.00' } } });
      expect(await send(request)).toMatchObject({ status: 401, json: { message: 'SIGNATURE_REUSED' } });
    }
  });

  it('lets exactly one of the same signature sent at once through', async () => {
    const request = signed(merchants[0]!, JSON.stringify({ currency: 'INR', burst: true }));
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(request)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);
  });

  it('refuses a changed body, a Timestamp out of the window and an unknown merchant, and records none of them', async () => {
    const request = signed(merchants[1]!, JSON.stringify({ currency: 'NGN', k: 1 }));
    expect((await send(request, JSON.stringify({ currency: 'NGN', k: 2 }))).status).toBe(401);
    // The refused attempt did not use the signature up: the genuine request still passes.
    expect((await send(request)).status).toBe(200);
    const stale = signed(merchants[1]!, JSON.stringify({ currency: 'NGN', k: 3 }), String(Math.floor(Date.now() / 1000) - 3600));
    expect((await send(stale)).status).toBe(401);
    const stranger = signed(merchants[1]!, JSON.stringify({ currency: 'NGN', k: 4 }));
    expect((await send({ ...stranger, headers: { ...stranger.headers, MerchantID: 'mch_nobody' } })).status).toBe(401);
  });
});
