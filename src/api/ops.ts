// Operations endpoints: liveness, readiness, Prometheus metrics and the OpenAPI document.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Registry } from 'prom-client';
import type { Metrics } from '../http/metrics.js';
import type { Store } from '../store/db.js';

interface OpsOptions {
  /** Readiness asks the database and names which store answers. */
  readonly store: Pick<Store, 'ping' | 'kind'>;
  readonly metrics: Metrics;
  /** Other registries exposed on the same page (the connectors' calls, notifications and backlogs). */
  readonly moreMetrics?: readonly Registry[];
  readonly isClosing: () => boolean;
}

const Readiness = Type.Object({ status: Type.String({ examples: ['ready'] }), store: Type.String({ examples: ['sqlite'] }) });

export const opsRoutes: FastifyPluginAsync<OpsOptions> = async (app, { store, metrics, moreMetrics = [], isClosing }) => {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'health',
        tags: ['ops'],
        summary: 'Liveness: the process answers',
        response: { 200: Type.Object({ status: Type.String({ examples: ['ok'] }) }, { description: 'Alive.' }) },
      },
    },
    async () => ({ status: 'ok' }),
  );

  const readyz = {
    operationId: 'readiness',
    tags: ['ops'],
    summary: 'Readiness: the database answers and the service is not shutting down',
    response: {
      200: { ...Readiness, description: 'Ready to serve.' },
      503: { ...Readiness, description: 'Not ready: shutting down or the database is unreachable.' },
    },
  };
  app.get('/readyz', { schema: readyz }, async (_request, reply) => {
    const ready = !isClosing() && (await store.ping());
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', store: store.kind });
  });

  const metricsSchema = {
    operationId: 'metrics',
    tags: ['ops'],
    summary: 'Prometheus metrics',
    produces: ['text/plain'],
    response: { 200: { type: 'string', description: 'Prometheus text exposition format.' } },
  };
  app.get('/metrics', { schema: metricsSchema }, async (_request, reply) => {
    const pages = await Promise.all([metrics.registry, ...moreMetrics].map((registry) => registry.metrics()));
    return reply.type(metrics.registry.contentType).send(pages.join('\n'));
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
};
