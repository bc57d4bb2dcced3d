import { describe, expect, it } from 'vitest';
import { PaymentClient } from '../../sdk/src/client.js';
import { verifyHmacSha256, verifyRsaSha512, type MerchantKey } from '../../sdk/src/signing.js';
import type { ErrorReason, KeyScope } from '../../sdk/src/types.js';
import { vectors } from './vectors.js';

interface Captured {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** A fetch stand-in that records the request and answers with a fixed response. */
function fakeFetch(answer: () => Response) {
  const calls: Captured[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    calls.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: init?.headers as Record<string, string>,
      body: init?.body as string,
    });
    return answer();
  };
  return { calls, fetchFn };
}

function json(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', ...headers } });
}

const ok = () => json(200, { code: '200', message: 'SUCCESS', data: { currency: 'INR' } }, { 'Request-Id': 'req-1' });

const rsaKey: MerchantKey = { type: 'RSA-SHA512', privateKeyPem: vectors.request_rsa.privateKeyPem };

/** A client whose clock reads a fraction after the vector's timestamp, to check it is floored. */
function clientWith(fetchFn: typeof fetch, key: MerchantKey = rsaKey) {
  const clock = () => Number(vectors.request_rsa.timestamp) + 0.9;
  return new PaymentClient({ baseUrl: 'https://pay.test/', merchantId: 'M1', key, clock, fetch: fetchFn });
}

describe('PaymentClient', () => {
  it('sends exactly the signed bytes with the four headers', async () => {
    const { calls, fetchFn } = fakeFetch(ok);
    const res = await clientWith(fetchFn).request('payment/initiate', JSON.parse(vectors.request_rsa.body));

    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call).toMatchObject({ url: 'https://pay.test/v1/api/payment/initiate', method: 'POST' });
    expect(call?.body).toBe(vectors.request_rsa.body);
    expect(call?.headers).toEqual({
      'Content-Type': 'application/json',
      MerchantID: 'M1',
      Timestamp: vectors.request_rsa.timestamp,
      Signature: vectors.request_rsa.signature,
    });
    expect(res).toMatchObject({ ok: true, status: 200, code: '200', message: 'SUCCESS', requestId: 'req-1' });
    expect(res.data).toEqual({ currency: 'INR' });
  });

  it('signs with an HMAC key', async () => {
    const { calls, fetchFn } = fakeFetch(ok);
    const { secret } = vectors.request_hmac;
    await clientWith(fetchFn, { type: 'HMAC-SHA256', secret }).balance({ currency: 'INR' });
    const call = calls[0]!;
    expect(verifyHmacSha256(secret, call.body, call.headers.Timestamp!, call.headers.Signature!)).toBe(true);
  });

  it('maps every typed method to its path', async () => {
    const { calls, fetchFn } = fakeFetch(ok);
    const client = clientWith(fetchFn);
    const ref = { transactionRef: 't' };
    await client.paymentStatus(ref);
    await client.paymentFetch({ merchantRef: 'm' });
    await client.paymentRefund(ref);
    await client.paymentMethods({ currency: 'EGP' });
    await client.payoutStatus(ref);
    await client.payoutFetch(ref);
    await client.payoutBatch({ merchantRef: 'b', items: [] });
    await client.payoutBatchStatus({ batchId: 'x' });
    await client.bankCodes({ currency: 'IDR' });
    await client.balance({ currency: 'INR' });
    await client.usdtRate({ currency: 'INR' });
    await client.sandboxCompletePayment({ transactionRef: 't', outcome: 'Success' });
    await client.webhookEvents({ limit: 10 });
    await client.webhookEvent('evt_1');
    await client.webhookResend('evt_1');
    expect(calls.map((c) => new URL(c.url).pathname)).toEqual([
      '/v1/api/payment/status',
      '/v1/api/payment/fetch',
      '/v1/api/payment/refund',
      '/v1/api/payment/methods',
      '/v1/api/payout/status',
      '/v1/api/payout/fetch',
      '/v1/api/payout/batch',
      '/v1/api/payout/batchStatus',
      '/v1/api/payout/bankCode',
      '/v1/api/account/balance',
      '/v1/api/account/usdt/rate',
      '/v1/api/sandbox/payment/complete',
      '/v1/api/webhook/events',
      '/v1/api/webhook/event',
      '/v1/api/webhook/resend',
    ]);
  });

  it('resolves with the error envelope on 4xx instead of throwing', async () => {
    const data = { detail: 'The signature does not verify.' };
    const envelope = { code: '401', message: 'INVALID_SIGNATURE', data };
    const { fetchFn } = fakeFetch(() => json(401, envelope));
    const res = await clientWith(fetchFn).balance({ currency: 'INR' });
    expect(res).toMatchObject({ ok: false, status: 401, ...envelope, requestId: null });
  });

  it('types the access refusals and key scopes (IP_NOT_ALLOWED, KEY_SCOPE)', async () => {
    const reasons: ErrorReason[] = ['IP_NOT_ALLOWED', 'KEY_SCOPE'];
    const scopes: KeyScope[] = ['read', 'payments', 'payouts', 'all'];
    const { fetchFn } = fakeFetch(() => json(403, { code: '403', message: reasons[1], data: { detail: "This API key's scope is read." } }));
    const res = await clientWith(fetchFn).payoutInitiate({} as never);
    expect(res).toMatchObject({ ok: false, status: 403, message: 'KEY_SCOPE' });
    expect(scopes).toHaveLength(4);
  });

  it('wraps a response that is not an envelope', async () => {
    const { fetchFn } = fakeFetch(() => new Response('<html>Bad Gateway</html>', { status: 502 }));
    const res = await clientWith(fetchFn).balance({ currency: 'INR' });
    expect(res).toMatchObject({ ok: false, status: 502, code: '502', message: 'UNEXPECTED_RESPONSE' });
    expect(res.data).toEqual({ detail: '<html>Bad Gateway</html>' });
  });

  it('rejects on network errors', async () => {
    const fetchFn: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    await expect(clientWith(fetchFn).balance({ currency: 'INR' })).rejects.toThrow('fetch failed');
  });

  it('builds a replayable signed request and sends raw strings byte for byte', async () => {
    const { calls, fetchFn } = fakeFetch(ok);
    const client = clientWith(fetchFn);
    const signed = client.buildSignedRequest('{"currency":"INR"}\n');
    expect(signed.body).toBe('{"currency":"INR"}\n');
    const { Timestamp, Signature } = signed.headers;
    expect(verifyRsaSha512(vectors.request_rsa.publicKeyPem, signed.body, Timestamp!, Signature!)).toBe(true);

    await client.send('/v1/api/payout/bankCode', { ...signed, body: signed.body.trimEnd() });
    expect(calls[0]).toMatchObject({ url: 'https://pay.test/v1/api/payout/bankCode', body: '{"currency":"INR"}' });
    expect(calls[0]?.headers.Signature).toBe(Signature);
  });
});
