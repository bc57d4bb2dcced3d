// Operations endpoints: liveness, readiness, Prometheus metrics and the OpenAPI document.
import { Type, type Static } from '@sinclair/typebox';
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

/** A metric's name as Prometheus spells one. */
const MetricName = Type.String({ pattern: '^[a-zA-Z_:][a-zA-Z0-9_:]*$', maxLength: 200 });
/** `?name[]=a&name[]=b`: one name arrives as a string, several as an array; other parameters are ignored. */
const MetricsQuery = Type.Object({ 'name[]': Type.Optional(Type.Union([MetricName, Type.Array(MetricName, { maxItems: 50 })])) });

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

  const registries = [metrics.registry, ...moreMetrics];
  const metricsSchema = {
    operationId: 'metrics',
    tags: ['ops'],
    summary: 'Prometheus metrics',
    description:
      'The whole page, or with `name[]` (repeatable) only the metrics of those names, as the Prometheus Python client does: a ' +
      'check that wants one figure then costs neither the other metrics\' collection (some read the database) nor their text. ' +
      'Unknown names are left out; other query parameters (a plain `name` among them) are ignored.',
    produces: ['text/plain'],
    querystring: MetricsQuery,
    response: { 200: { type: 'string', description: 'Prometheus text exposition format.' } },
  };
  app.get<{ Querystring: Static<typeof MetricsQuery> }>('/metrics', { schema: metricsSchema }, async (request, reply) => {
    const wanted = request.query['name[]'];
    if (wanted === undefined) {
      const pages = await Promise.all(registries.map((registry) => registry.metrics()));
      return reply.type(metrics.registry.contentType).send(pages.join('\n'));
    }
    // Which registry holds each metric, from the registries' own lists: a name is looked up in a Map,
    // never as a property of prom-client's internal object (where `constructor` would be found).
    const holders = new Map(registries.flatMap((registry) => registry.getMetricsAsArray().map((metric) => [metric.name, registry] as const)));
    const pages = await Promise.all(
      [...new Set([wanted].flat())].flatMap((name) => {
        const registry = holders.get(name);
        return registry === undefined ? [] : [registry.getSingleMetricAsString(name)];
      }),
    );
    // The exposition format ends every line, the last one included.
    return reply.type(metrics.registry.contentType).send(pages.length === 0 ? '' : `${pages.join('\n')}\n`);
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
};
