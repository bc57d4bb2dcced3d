import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, EVENT_ID_HEADER } from '../../src/simulator/protocol.js';
import { UpstreamUnavailableError } from '../../src/connectors/channel.js';
import { CallbackReceiver, collectionRequest, eventually, startHarness, type Harness, type ReceivedCallback } from './harness.js';

describe('callbacks from the simulated bank', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());
  afterEach(() => {
    h.simulator.resetFaults();
    h.receiver.answer = () => 200;
  });

  /** Pays a fresh INR collection and returns its transactionRef. */
  async function payOne(): Promise<string> {
    const request = collectionRequest(h.clock, 'INR', 'NATIVE', 100_000n);
    await h.channel.createCollection(request);
    await h.channel.completeCollection(request.transactionRef, 'Success');
    return request.transactionRef;
  }

  const firstCallback = async (ref: string): Promise<ReceivedCallback> =>
    (await eventually(() => h.receiver.about(ref)[0]))!;

  const rejection = (callback: { headers: ReceivedCallback['headers']; rawBody: Buffer }): unknown => {
    try {
      h.channel.parseCallback(callback.headers, callback.rawBody);
      return null;
    } catch (error) {
      return error;
    }
  };

  const expectInvalidSignature = (error: unknown): void => {
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ reason: 'INVALID_SIGNATURE', status: 401 });
  };

  it('carry an event id, a timestamp and an HMAC that parseCallback accepts', async () => {
    const callback = await firstCallback(await payOne());
    expect(callback.headers['content-type']).toBe('application/json');
    expect(callback.headers[EVENT_ID_HEADER]).toBe(JSON.parse(callback.rawBody.toString()).eventId);
    expect(callback.headers[TIMESTAMP_HEADER]).toBe(String(Math.floor(h.clock.nowMs() / 1000)));
    expect(callback.headers[SIGNATURE_HEADER]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(rejection(callback)).toBeNull();
  });

  it('a tampered body is refused with INVALID_SIGNATURE', async () => {
    const callback = await firstCallback(await payOne());
    const tampered = Buffer.from(callback.rawBody.toString().replace('"PAID"', '"FAILED"'));
    expect(tampered.equals(callback.rawBody)).toBe(false);
    expectInvalidSignature(rejection({ headers: callback.headers, rawBody: tampered }));
  });

  it('a wrong or missing signature is refused with INVALID_SIGNATURE', async () => {
    const callback = await firstCallback(await payOne());
    const signature = String(callback.headers[SIGNATURE_HEADER]);
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
    expectInvalidSignature(rejection({ headers: { ...callback.headers, [SIGNATURE_HEADER]: flipped }, rawBody: callback.rawBody }));
    expectInvalidSignature(rejection({ headers: { ...callback.headers, [SIGNATURE_HEADER]: signature.toUpperCase() }, rawBody: callback.rawBody }));
    expectInvalidSignature(rejection({ headers: { ...callback.headers, [SIGNATURE_HEADER]: undefined }, rawBody: callback.rawBody }));
    expectInvalidSignature(rejection({ headers: { ...callback.headers, [TIMESTAMP_HEADER]: undefined }, rawBody: callback.rawBody }));
  });

  it('a replay beyond five minutes is refused, and a refreshed timestamp does not match the MAC', async () => {
    const callback = await firstCallback(await payOne());
    const sent = Number(callback.headers[TIMESTAMP_HEADER]);
    h.clock.advance(301_000);
    expectInvalidSignature(rejection(callback));
    const refreshed = { ...callback.headers, [TIMESTAMP_HEADER]: String(sent + 301) };
    expectInvalidSignature(rejection({ headers: refreshed, rawBody: callback.rawBody }));
  });

  it('a callback signed too far in the future is refused', async () => {
    const callback = await firstCallback(await payOne());
    h.clock.advance(-301_000);
    expectInvalidSignature(rejection(callback));
    h.clock.advance(301_000);
  });

  it('with duplicateCallbacks every notification arrives twice with the same event id', async () => {
    h.simulator.faults.duplicateCallbacks = true;
    const ref = await payOne();
    const copies = await eventually(() => h.receiver.about(ref).length === 2 && h.receiver.about(ref));
    expect(copies[0]!.rawBody.equals(copies[1]!.rawBody)).toBe(true);
    expect(copies.map((c) => rejection(c))).toEqual([null, null]);
  });

  it('with dropCallbacks nothing is sent; the state is still there to query', async () => {
    h.simulator.faults.dropCallbacks = true;
    const dropped = h.simulator.stats.callbacksDropped;
    const ref = await payOne();
    expect(h.simulator.stats.callbacksDropped).toBe(dropped + 1);
    expect((await h.channel.queryCollection(ref)).status).toBe('PAID');
    expect(h.receiver.about(ref)).toEqual([]);
  });

  it('a callback with a bad signature is refused by the service, and the retry carries a good one', async () => {
    h.simulator.faults.badSignatureCallbacks = 1;
    h.receiver.answer = (headers, rawBody) => (rejection({ headers, rawBody }) === null ? 200 : 401);
    const ref = await payOne();
    const attempts = await eventually(() => h.receiver.about(ref).length === 2 && h.receiver.about(ref));
    expect(attempts.map((a) => a.status)).toEqual([401, 200]);
    expectInvalidSignature(rejection(attempts[0]!));
  });

  it('retries while the service is down and delivers once it answers 2xx', async () => {
    let refusals = 2;
    h.receiver.answer = () => (refusals-- > 0 ? 503 : 200);
    const ref = await payOne();
    const attempts = await eventually(() => h.receiver.about(ref).length === 3 && h.receiver.about(ref));
    expect(attempts.map((a) => a.status)).toEqual([503, 503, 200]);
  });

  it('with callbackDelayMs the callback still arrives, later', async () => {
    h.simulator.faults.callbackDelayMs = 100;
    const ref = await payOne();
    expect(rejection(await firstCallback(ref))).toBeNull();
  });

  it('can be pointed at another URL after start (the service learns its port only after listen)', async () => {
    const moved = new CallbackReceiver();
    await moved.start();
    h.simulator.setCallbackUrl(moved.url);
    try {
      const ref = await payOne();
      await eventually(() => moved.about(ref).length === 1);
      expect(h.receiver.about(ref)).toEqual([]);
    } finally {
      h.simulator.setCallbackUrl(h.receiver.url);
      await moved.close();
    }
  });

  it('POST /sim/faults sets switches over HTTP, with the simulator key only', async () => {
    const post = (body: object, key?: string) =>
      fetch(`${h.simulator.url}/sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { 'x-sim-key': key } : {}) },
        body: JSON.stringify(body),
      });
    expect((await post({ failNextRequests: 1 })).status).toBe(401);
    expect((await post({ failNextRequests: 1 }, 'wrong')).status).toBe(401);
    expect((await post({ failNextRequests: -1 }, h.apiKey)).status).toBe(400);
    expect((await post({ dropCallback: true }, h.apiKey)).status).toBe(400);
    const accepted = await post({ failNextRequests: 1 }, h.apiKey);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ failNextRequests: 1, dropCallbacks: false });
    await expect(h.channel.queryPayout('any-ref')).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(await h.channel.queryPayout('any-ref')).toEqual({ status: 'UNKNOWN' });
  });
});
