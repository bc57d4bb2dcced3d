// The webhook routes on a bare Fastify instance (the full app wires them behind signature auth and
// the admin token): schemas validate the input and serialize every field of the answers.
import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminWebhookRoutes } from '../../src/api/admin/webhooks.js';
import { publicKeyRoutes } from '../../src/api/public-key.js';
import { merchantWebhookRoutes } from '../../src/api/webhook.js';
import type { Merchant } from '../../src/merchants/merchant-service.js';
import { registerSharedSchemas } from '../../src/api/schemas/index.js';
import { errorBody } from '../../src/http/envelope.js';
import { toAppError } from '../../src/http/errors.js';
import { openBench, Receiver, type Bench } from './helpers.js';

async function buildRoutesApp(bench: Bench): Promise<FastifyInstance> {
  const app = Fastify({ ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true } } }).withTypeProvider<TypeBoxTypeProvider>();
  const { webhooks } = bench;
  app.setErrorHandler((error, _request, reply) => {
    const appError = toAppError(error);
    void reply.code(appError.status).send(errorBody(appError));
  });
  app.decorateRequest('merchant', null);
  registerSharedSchemas(app);
  await app.register(
    async (api) => {
      api.addHook('preHandler', async (request) => {
        request.merchant = { id: String(request.headers.merchantid) } as Merchant;
      });
      await api.register(merchantWebhookRoutes, { webhooks });
    },
    { prefix: '/v1/api' },
  );
  await app.register(adminWebhookRoutes, { prefix: '/admin', webhooks });
  await app.register(publicKeyRoutes, { webhooks });
  return app;
}

describe('webhook routes', () => {
  let bench: Bench;
  let app: FastifyInstance;
  let receiver: Receiver;
  beforeEach(async () => {
    bench = await openBench();
    app = await buildRoutesApp(bench);
    receiver = await new Receiver().listen();
  });
  afterEach(async () => {
    await app.close();
    await receiver.close();
    await bench.close();
  });

  const post = (merchantId: string, url: string, payload: object) =>
    app.inject({ method: 'POST', url: `/v1/api${url}`, headers: { merchantid: merchantId }, payload });

  it('lists, shows and resends a merchant\'s own events, and hides everyone else\'s', async () => {
    const a = await bench.createMerchant({ payment: receiver.url });
    const b = await bench.createMerchant();
    const eventId = await bench.enqueue({ merchantId: a.id });
    await bench.dispatcher().dispatchDue();

    const list = await post(a.id, '/webhook/events', { limit: 10 });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ code: '200', message: 'SUCCESS', data: { events: [{ id: eventId, status: 'delivered', attemptCount: 1 }], nextBefore: null } });

    const shown = await post(a.id, '/webhook/event', { eventId });
    expect(shown.json().data).toMatchObject({ id: eventId, payload: { event: { id: eventId } }, attempts: [{ attemptNo: 1, httpStatus: 200 }] });

    expect((await post(a.id, '/webhook/resend', { eventId })).json().data).toMatchObject({ id: eventId, status: 'pending' });
    expect((await post(b.id, '/webhook/events', {})).json().data.events).toEqual([]);
    for (const path of ['/webhook/event', '/webhook/resend']) {
      const refused = await post(b.id, path, { eventId });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ code: '404', message: 'NOT_FOUND' });
    }
  });

  it('rejects unknown fields and malformed ids', async () => {
    const a = await bench.createMerchant();
    expect((await post(a.id, '/webhook/events', { limit: 10, page: 2 })).json()).toMatchObject({ code: '400', message: 'VALIDATION_FAILED' });
    expect((await post(a.id, '/webhook/resend', { eventId: 'evt_nope' })).json()).toMatchObject({ code: '400', message: 'VALIDATION_FAILED' });
    expect((await post(a.id, '/webhook/events', { status: 'lost' })).statusCode).toBe(400);
  });

  it('gives the operator every merchant\'s events, one event, and resend', async () => {
    const a = await bench.createMerchant({ payment: receiver.url });
    const b = await bench.createMerchant();
    const eventOfA = await bench.enqueue({ merchantId: a.id });
    const eventOfB = await bench.enqueue({ merchantId: b.id });

    const all = await app.inject({ method: 'GET', url: '/admin/webhooks/events?limit=10' });
    expect(all.json().data.events.map((e: { id: string }) => e.id).sort()).toEqual([eventOfA, eventOfB].sort());
    const ofB = await app.inject({ method: 'GET', url: `/admin/webhooks/events?merchantId=${b.id}&status=no_destination` });
    expect(ofB.json().data.events).toMatchObject([{ id: eventOfB, url: null, status: 'no_destination' }]);
    const one = await app.inject({ method: 'GET', url: `/admin/webhooks/events/${eventOfA}` });
    expect(one.json().data).toMatchObject({ id: eventOfA, merchantId: a.id, attempts: [] });
    const resent = await app.inject({ method: 'POST', url: `/admin/webhooks/events/${eventOfB}/resend` });
    expect(resent.statusCode).toBe(409);
    expect(resent.json()).toMatchObject({ message: 'CONFLICT' });
    expect((await app.inject({ method: 'GET', url: '/admin/webhooks/events?limit=0' })).statusCode).toBe(400);
  });

  it('publishes the service public key', async () => {
    const answer = await app.inject({ method: 'GET', url: '/v1/public-key' });
    expect(answer.json()).toMatchObject({
      code: '200',
      message: 'SUCCESS',
      data: { algorithm: 'RSA-SHA512', publicKeyPem: bench.serviceKey.publicKeyPem, keyId: bench.serviceKey.keyId },
    });
    expect(answer.json().data.keys).toEqual([expect.objectContaining({ keyId: bench.serviceKey.keyId, status: 'current', retiresAt: null })]);
  });
});
