// The framework glue of the HTTP server: JSON parsing that keeps the raw bytes for signatures, the
// envelope on every answer, request ids, the drain at shutdown, metrics, and the signed scope that
// merchant routes live in. Which routes exist is decided above this folder (src/server.ts).
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AppError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { errorBody } from './envelope.js';
import { toAppError } from './errors.js';
import { answerClientError } from './client-errors.js';
import { admitVerifiedRequest, mayReadAhead, verifyMerchantSignature, requireDeclaredAccess, requireDeclaredEffect, type AuthDeps, type SigningKey } from './auth.js';
import type { ReplayGuard } from './replay-guard.js';
import { createMetrics, type Metrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody: Buffer | null;
    bodyError: string | null;
    merchant: import('../merchants/merchant-service.js').Merchant | null;
    /** The API key that signed a merchant request. */
    signingKey: SigningKey | null;
    /** A readAhead route's one-time rule and rate limit, still to be judged when its answer is sent. */
    admission: Promise<void> | null;
  }
}

export type App = FastifyInstance<any, any, any, any, TypeBoxTypeProvider>;

export interface HttpAppOptions {
  readonly logLevel: string;
  readonly bodyLimitBytes: number;
  /**
   * Proxies (normalised CIDR ranges) whose X-Forwarded-For is believed: request.ip is then the
   * right-most address not among them. Empty: request.ip is the socket's peer and the header is ignored.
   */
  readonly trustedProxies: readonly string[];
}

/** The bare server: glue only, no routes yet. */
export interface HttpApp {
  readonly app: App;
  readonly metrics: Metrics;
  /** Whether the drain has begun. */
  isClosing(): boolean;
  drain(): void;
}

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

/** Logs why a request is refused and gives the reply the error's status and headers; answers its envelope. */
function refusal(error: unknown, request: FastifyRequest, reply: FastifyReply): ReturnType<typeof errorBody> {
  const appError = toAppError(error);
  request.log[logLevelFor(appError.status)]({ err: error, reason: appError.reason }, 'request refused');
  void reply.code(appError.status).headers(appError.headers ?? {});
  return errorBody(appError);
}

export function createHttpApp(options: HttpAppOptions): HttpApp {
  let closing = false;
  const app: App = Fastify({
    logger: {
      level: options.logLevel,
      redact: ['req.headers.signature', 'req.headers.authorization', 'req.headers.cookie'],
    },
    bodyLimit: options.bodyLimitBytes,
    trustProxy: options.trustedProxies.length > 0 ? [...options.trustedProxies] : false,
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
  app.decorateRequest('signingKey', null);
  app.decorateRequest('admission', null);
  registerJsonParser(app, options.bodyLimitBytes);

  const metrics = createMetrics();
  // These three hooks take Fastify's callback, not a promise: they run on every request and never wait.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('request-id', request.id);
    // The probes answer for themselves while draining: /readyz says 503 unavailable in its own shape,
    // /healthz stays ok (the process is alive), so an orchestrator sees why traffic stops.
    if (closing && !PROBE_PATHS.has(request.url)) done(new AppError('UNAVAILABLE', 'The service is shutting down; retry shortly.'));
    else done();
  });
  // While closing, every answer ends its connection: a kept-alive socket would hold shutdown open.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observe(request, reply);
    done();
  });

  app.setErrorHandler((error, request, reply) => {
    void reply.send(refusal(error, request, reply));
  });
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody(new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`)));
  });

  return {
    app,
    metrics,
    isClosing: () => closing,
    drain: () => {
      closing = true;
    },
  };
}

/**
 * The merchant API's scope: every route in it needs application/json, a valid signature and a
 * declared effect (read or state-changing, for the one-time signature rule), key scope and money
 * movement (for the key's scope and the IP allow-list) before its schema runs.
 *
 * A route that declares readAhead starts its read as soon as the signature verifies, while the
 * Signature's record commits (one database round trip and one fsync, on PostgreSQL the longest wait of a
 * read), unless the merchant's rate budget is known to be spent (mayReadAhead): its answer, whatever it
 * is, is held until that record is on disk and the rate limit has counted it, and replaced by their
 * error (or by the record's own failure, 503 or 500) if they refuse the request. Every other route runs
 * only after both.
 */
export async function registerSignedScope(
  app: App,
  prefix: string,
  auth: AuthDeps,
  isClosing: () => boolean,
  routes: (scope: App) => Promise<void>,
): Promise<void> {
  await app.register(
    async (scope) => {
      scope.addHook('onRoute', requireDeclaredEffect);
      scope.addHook('onRoute', requireDeclaredAccess);
      scope.addHook('preValidation', async (request) => {
        if (!isJsonRequest(request)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
        const verified = await verifyMerchantSignature(request, auth);
        request.merchant = verified.merchant;
        request.signingKey = verified.key;
        const admission = admitVerifiedRequest(request, auth, verified);
        if (mayReadAhead(request, auth, verified)) {
          // Judged in onSend below; handled here so that an answer never sent (the client gone) leaves
          // no unhandled rejection behind. A refused request's read is thrown away: a request refused
          // by the one-time rule (a Signature first accepted on a state-changing path) still costs one.
          admission.catch(() => undefined);
          request.admission = admission;
        } else {
          await admission;
        }
        if (request.bodyError) throw new AppError('INVALID_JSON', request.bodyError);
      });
      scope.addHook('onSend', async (request, reply, payload) => {
        const admission = request.admission;
        if (admission === null) return payload;
        request.admission = null;
        let answer = payload;
        try {
          await admission;
        } catch (error) {
          answer = JSON.stringify(refusal(error, request, reply));
          void reply.type('application/json; charset=utf-8');
        }
        // The drain may have begun while the answer waited (the app's own onSend ran before).
        if (isClosing()) reply.header('connection', 'close');
        return answer;
      });
      await routes(scope);
    },
    { prefix },
  );
}
