// Prometheus metrics, one registry per application instance (tests build several in one process).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  observe(request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * paygate_db_statements_total: the statements the store has run (on PostgreSQL, round trips). Read at
 * each scrape from the store's own count, so counting costs a request nothing.
 */
export function countStatements(registry: Registry, statements: () => number): void {
  new Counter({
    name: 'paygate_db_statements_total',
    help: 'Statements run on the database since the process started (on PostgreSQL, one round trip each).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(statements());
    },
  });
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request received to response sent, by route and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'http_requests_refused_total',
    help: 'Requests answered with 4xx or 5xx, by route and status.',
    labelNames: ['route', 'status'],
    registers: [registry],
  });
  return {
    registry,
    observe(request, reply) {
      const route = request.routeOptions.url ?? 'unmatched';
      const status = String(reply.statusCode);
      duration.observe({ method: request.method, route, status }, reply.elapsedTime / 1000);
      if (reply.statusCode >= 400) refusals.inc({ route, status });
    },
  };
}
