// The Fastify application: JSON parsing that keeps the raw bytes for signatures, the envelope on
// every answer, request ids, metrics, OpenAPI, and the three route families (merchant API under
// /v1/api with signature auth, operator API under /admin with a bearer token, operations).
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AppError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { Services } from '../services.js';
import { errorBody } from './envelope.js';
import { toAppError } from './errors.js';
import { answerClientError } from './client-errors.js';
import { authenticateMerchant, requireDeclaredEffect } from './auth.js';
import { createRateLimiter } from './rate-limit.js';
import { ReplayGuard } from './replay-guard.js';
import { createMetrics } from './metrics.js';
import { registerOpenApi } from './openapi.js';
import { merchantRoutes } from '../api/index.js';
import { adminRoutes } from '../api/admin/index.js';
import { opsRoutes } from '../api/ops.js';
import { callbackRoutes } from '../api/callbacks.js';
import { publicKeyRoutes } from '../api/public-key.js';
import { checkoutRoutes } from '../checkout/routes.js';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody: Buffer | null;
    bodyError: string | null;
    merchant: import('../domain/merchants.js').Merchant | null;
  }
}

export type App = FastifyInstance<any, any, any, any, TypeBoxTypeProvider>;

export interface AppHandle {
  readonly app: App;
  readonly replay: ReplayGuard;
  /**
   * Starts the drain: every new request, on an open connection or a new one, gets 503 UNAVAILABLE with
   * Connection: close, and /readyz fails, while the listener stays open so nothing is reset or refused.
   */
  drain(): void;
  /** Drains, stops listening, closes idle connections and waits for in-flight requests to finish. */
  close(): Promise<void>;
}

const JSON_MEDIA_TYPE = 'application/json';
const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

function isJsonRequest(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && type.split(';')[0]!.trim().toLowerCase() === JSON_MEDIA_TYPE;
}

function registerJsonParser(app: App, bodyLimitBytes: number): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: 'buffer', bodyLimit: bodyLimitBytes }, (request, raw, done) => {
    const body = raw as Buffer;
    request.rawBody = body;
    // A broken body is reported after authentication, so unsigned callers learn nothing from it.
    parseJson(request, body.toString('utf8'), (error, value) => {
      const isObject = !error && value !== null && typeof value === 'object' && !Array.isArray(value);
      request.bodyError = isObject ? null : 'The request body is not a JSON object.';
      done(null, isObject ? value : undefined);
    });
  });
}

function logLevelFor(status: number): 'error' | 'info' {
  return status >= 500 ? 'error' : 'info';
}

export async function buildApp(services: Services): Promise<AppHandle> {
  const { config } = services;
  let closing = false;
  const app: App = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.signature', 'req.headers.authorization', 'req.headers.cookie'],
    },
    bodyLimit: config.bodyLimitBytes,
    genReqId: (_req: IncomingMessage) => newId(),
    requestIdHeader: false,
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: false } },
    // Errors the router raises before any hook runs (a malformed URL) still get the envelope.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const appError = new AppError('NOT_FOUND', 'The URL is malformed.');
      request.log.info({ err: error }, 'request refused');
      void reply.code(appError.status).header('request-id', request.id).send(errorBody(appError));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('rawBody', null);
  app.decorateRequest('bodyError', null);
  app.decorateRequest('merchant', null);
  registerJsonParser(app, config.bodyLimitBytes);

  const metrics = createMetrics();
  app.addHook('onRequest', async (request, reply) => {
    reply.header('request-id', request.id);
    // The probes answer for themselves while draining: /readyz says 503 unavailable in its own shape,
    // /healthz stays ok (the process is alive), so an orchestrator sees why traffic stops.
    if (closing && !PROBE_PATHS.has(request.url)) throw new AppError('UNAVAILABLE', 'The service is shutting down; retry shortly.');
  });
  // While closing, every answer ends its connection: a kept-alive socket would hold shutdown open.
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (request, reply) => metrics.observe(request, reply));

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    request.log[logLevelFor(appError.status)]({ err: error, reason: appError.reason }, 'request refused');
    void reply.code(appError.status).headers(appError.headers ?? {}).send(errorBody(appError));
  });
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody(new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`)));
  });

  await registerOpenApi(app, config.publicBaseUrl);
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const replay = new ReplayGuard(services.store.db, services.clock, config.replayTtlSeconds * 1000, config.signatureWindowSeconds);
  const limiter = createRateLimiter(config.rateLimitStore, services.store, services.clock);
  const authDeps = { merchants: services.merchants, clock: services.clock, replay, limiter, windowSeconds: config.signatureWindowSeconds };

  await app.register(
    async (api) => {
      api.addHook('onRoute', requireDeclaredEffect);
      api.addHook('preValidation', async (request) => {
        if (!isJsonRequest(request)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
        request.merchant = await authenticateMerchant(request, authDeps);
        if (request.bodyError) throw new AppError('INVALID_JSON', request.bodyError);
      });
      await api.register(merchantRoutes, { services });
    },
    { prefix: '/v1/api' },
  );
  await app.register(adminRoutes, { prefix: '/admin', services });
  await app.register(callbackRoutes, { channels: services.channels, payments: services.payments, payouts: services.payouts });
  await app.register(publicKeyRoutes, { services });
  await app.register(checkoutRoutes, { source: services.payments, publicBaseUrl: config.publicBaseUrl, clock: services.clock });
  await app.register(opsRoutes, { services, metrics, isClosing: () => closing });

  return {
    app,
    replay,
    drain: () => {
      closing = true;
    },
    close: async () => {
      closing = true;
      await app.close();
      replay.stop();
    },
  };
}

export { swagger };
