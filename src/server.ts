// The HTTP surface of the service, assembled from the framework glue (http/) and the route plugins
// (api/, checkout/, console/): the signed merchant API under /v1/api, the operator API under /admin, the
// upstream callbacks, the hosted checkout, the web console, the public key and the operations routes.
import swaggerUi from '@fastify/swagger-ui';
import { adminRoutes } from './api/admin/index.js';
import { callbackRoutes } from './api/callbacks.js';
import { merchantRoutes } from './api/index.js';
import { countListRecords, listRecordCaches } from './api/list-rendering.js';
import { registerOpenApi } from './api/openapi.js';
import { opsRoutes } from './api/ops.js';
import { publicKeyRoutes } from './api/public-key.js';
import { reportDownloadRoutes } from './api/report-download.js';
import { checkoutRoutes } from './checkout/routes.js';
import { consoleRoutes } from './console/routes.js';
import { consolePageGroups } from './console-pages.js';
import { createHttpApp, registerSignedScope, type AppHandle } from './http/app.js';
import { countStatements } from './http/metrics.js';
import { createRateLimiter } from './http/rate-limit.js';
import { ReplayGuard } from './http/replay-guard.js';
import type { Services } from './services.js';

export type { AppHandle } from './http/app.js';

const changesState = (method: string, config: { changesState?: boolean } | undefined): boolean =>
  config?.changesState ?? (method !== 'GET' && method !== 'HEAD');

export async function buildApp(services: Services): Promise<AppHandle> {
  const { config, clock, store, merchants, rates, ledger, fees, webhooks, channels, payments, payouts } = services;
  const settings = config.http;
  const http = createHttpApp({ logLevel: settings.logLevel, bodyLimitBytes: settings.bodyLimitBytes, trustedProxies: settings.trustedProxies });
  const { app } = http;
  countStatements(http.metrics.registry, store.statements);
  // A state change answered may be work for the background jobs: wake those that were backing off.
  // Merchant routes say whether they change state (all are POSTs); elsewhere the method says it.
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode < 400 && changesState(request.method, request.routeOptions.config)) services.activity.notify();
    done();
  });
  const listRecords = listRecordCaches();
  countListRecords(http.metrics.registry, listRecords);

  await registerOpenApi(app, config.publicBaseUrl);
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const replay = new ReplayGuard(store.db, clock, settings.replayTtlSeconds * 1000, settings.signatureWindowSeconds);
  const limiter = createRateLimiter(settings.rateLimitStore, store, clock);
  const auth = { merchants, clock, replay, limiter, windowSeconds: settings.signatureWindowSeconds };

  await registerSignedScope(app, '/v1/api', auth, http.isClosing, async (scope) => {
    await scope.register(merchantRoutes, { ledger, rates, banks: services.banks, payments, payouts, webhooks, reporting: services.reporting, listRecords });
  });
  await app.register(adminRoutes, {
    prefix: '/admin',
    adminToken: services.adminToken,
    merchants,
    webhookConfig: config.webhooks,
    rates,
    webhooks,
    ledger,
    fees,
    payouts,
    held: payments.held,
    db: store.db,
    payments,
    connectorSettings: services.connectorSettings,
    refreshRouting: () => channels.refresh(),
    reconciliation: services.reconciliation,
  });
  await app.register(callbackRoutes, { channels, payments, payouts });
  await app.register(publicKeyRoutes, { webhooks });
  await app.register(reportDownloadRoutes, { reporting: services.reporting });
  await app.register(checkoutRoutes, { source: payments, publicBaseUrl: config.publicBaseUrl, clock });
  await app.register(consoleRoutes, {
    people: services.people,
    secureCookie: config.console.secureCookie,
    bodyLimitBytes: settings.bodyLimitBytes,
    pages: consolePageGroups(services),
  });
  await app.register(opsRoutes, { store, metrics: http.metrics, moreMetrics: [services.connectorMetrics.registry], isClosing: http.isClosing });

  return {
    app,
    replay,
    drain: http.drain,
    close: async () => {
      http.drain();
      await app.close();
      replay.stop();
    },
  };
}
