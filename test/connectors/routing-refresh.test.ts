// The routing's refreshes apply in the order they read the settings. Two can run at once (the
// periodic one and an operator's change, or two operators' changes); one that read the settings
// before a change must never be applied after the change's own refresh, or the router would serve
// the old routes and credentials until its next read (never, with ROUTING_REFRESH_MS=0).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { XenditFake } from '../fakes/xendit.js';
import { connect, eventually, operator, startLive, type LiveSetup } from './live.js';

let live: LiveSetup;
let fake: XenditFake;

beforeAll(async () => {
  live = await startLive();
  fake = await XenditFake.start({ callbackUrl: `${live.server.baseUrl}/v1/callbacks/xendit` });
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await live?.close();
});

const payinMethods = async (): Promise<string[]> =>
  (await live.merchant.client.paymentMethods({ currency: 'IDR' })).data.payin.map((m: { method: string }) => m.method);

it('a refresh that read the settings before an operator removed a route never puts the route back', async () => {
  await connect(live.server, 'xendit', {
    baseUrl: fake.url,
    credentials: { secretKey: fake.secretKey, callbackToken: fake.callbackToken },
    routes: [{ currency: 'IDR', direction: 'payin', method: 'BNI' }],
  });
  expect(await payinMethods()).toEqual(['BNI']);

  // The next read of the settings is held after it read them (BNI still routed), before the
  // router applies it; later reads go through.
  const settings = live.server.services.connectorSettings;
  const read = settings.snapshot.bind(settings);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let readBeforeRemoval!: () => void;
  const firstRead = new Promise<void>((resolve) => (readBeforeRemoval = resolve));
  let calls = 0;
  settings.snapshot = async () => {
    const snapshot = await read();
    if (++calls === 1) {
      readBeforeRemoval();
      await gate;
    }
    return snapshot;
  };

  const early = live.server.services.channels.refresh();
  await firstRead;
  const removal = live.server.admin('PUT', '/routes', { currency: 'IDR', direction: 'payin', method: 'BNI', connectors: [] });
  // Refreshing one at a time, the removal's refresh waits behind the held one and cannot answer
  // before it is released: the route is gone from the database and the held refresh goes on.
  // Refreshing at once (the fault this test is for), the removal answers first, and the held
  // refresh would then apply the settings it read before.
  const removedInDatabase = eventually('the route removed', () => operator(live.server, 'GET', '/routes'), (routes: unknown[]) => routes.length === 0);
  await Promise.race([removal, removedInDatabase.then(() => new Promise((resolve) => setTimeout(resolve, 100)))]);
  release();
  await early;
  expect((await removal).status).toBe(200);
  expect(await payinMethods()).toEqual([]);
  expect(calls).toBe(2);
});
