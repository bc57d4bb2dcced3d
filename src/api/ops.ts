// Operations endpoints: liveness, readiness, Prometheus metrics and the OpenAPI document.
import type { FastifyPluginAsync } from 'fastify';
import type { Metrics } from '../http/metrics.js';
import type { Services } from '../services.js';

interface OpsOptions {
  readonly services: Services;
  readonly metrics: Metrics;
  readonly isClosing: () => boolean;
}

export const opsRoutes: FastifyPluginAsync<OpsOptions> = async (app, { services, metrics, isClosing }) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const ready = !isClosing() && (await services.store.ping());
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', store: services.store.kind });
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
};
