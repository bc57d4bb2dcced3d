// The hosted checkout under /checkout: the payer's page, the status JSON its script polls, the
// sandbox Pay/Decline action, and the page's two static files. Data comes only from CheckoutSource.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { Text } from '../http/text.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { systemClock, type Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import type { CheckoutSource, CheckoutView } from '../domain/payments/checkout-view.js';
import { errorBody } from '../http/envelope.js';
import { toAppError } from '../http/errors.js';
import { needsQr } from './instructions.js';
import { renderCheckoutPage, renderMessagePage, renderNotFoundPage, renderUnavailablePage, type PageAssets } from './page.js';
import { qrSvg } from './qr.js';
import { isSameOriginAction, SECURITY_HEADERS } from './security.js';
import { shownStatus, statusBody } from './state.js';

export interface CheckoutRoutesOptions {
  readonly source: CheckoutSource;
  /** The service's public origin, accepted as the Origin of the page's own requests. */
  readonly publicBaseUrl: string;
  /** Decides when a pending payment is shown as expired; the service's clock. */
  readonly clock?: Clock;
}

const PREFIX = '/checkout';
const HTML = 'text/html; charset=utf-8';
const NO_STORE = 'no-store';
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Tokens are URL-safe; anything else cannot be one, and is answered 404 without a lookup. */
const TOKEN_PATTERN = /^[A-Za-z0-9._~-]{1,256}$/;

interface Asset {
  readonly path: string;
  readonly body: Buffer;
  readonly type: string;
  /** A content hash: the page links `path?v=version`, so a year of caching never serves a stale file. */
  readonly version: string;
}

function loadAsset(name: string, type: string): Asset {
  const body = readFileSync(new URL(`./assets/${name}`, import.meta.url));
  return { path: `/assets/${name}`, body, type, version: createHash('sha256').update(body).digest('hex').slice(0, 16) };
}

const SandboxBody = Type.Object(
  { outcome: Type.Union([Type.Literal('Success'), Type.Literal('Failed')]) },
  { additionalProperties: false },
);

const TokenParams = Type.Object({ token: Text() });

/** The page route renders HTML errors; every other route answers with the JSON envelope. */
const PAGE_ROUTE = `${PREFIX}/:token`;
const isPageRequest = (request: FastifyRequest): boolean => request.routeOptions.url === PAGE_ROUTE;

function sendHtml(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type(HTML).header('cache-control', NO_STORE).send(body);
}

async function checkoutPlugin(app: FastifyInstance, options: CheckoutRoutesOptions): Promise<void> {
  const { source, publicBaseUrl } = options;
  const clock = options.clock ?? systemClock;
  const script = loadAsset('checkout.js', 'text/javascript; charset=utf-8');
  const style = loadAsset('checkout.css', 'text/css; charset=utf-8');
  const assets: PageAssets = {
    scriptUrl: `${PREFIX}${script.path}?v=${script.version}`,
    styleUrl: `${PREFIX}${style.path}?v=${style.version}`,
  };
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  const viewOf = async (token: string): Promise<CheckoutView | null> =>
    TOKEN_PATTERN.test(token) ? source.viewByToken(token) : null;

  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS).header('cache-control', NO_STORE);
  });

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    request.log[appError.status >= 500 ? 'error' : 'info']({ err: error, reason: appError.reason }, 'checkout request refused');
    void reply.headers(SECURITY_HEADERS);
    if (!isPageRequest(request)) return reply.code(appError.status).headers(appError.headers ?? {}).send(errorBody(appError));
    if (appError.status === 404) return sendHtml(reply, 404, renderNotFoundPage(assets));
    if (appError.status >= 500) return sendHtml(reply, appError.status, renderUnavailablePage(assets));
    return sendHtml(reply, appError.status, renderMessagePage('Request refused', 'This request could not be handled.', assets));
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return sendHtml(reply, 404, renderNotFoundPage(assets));
    return reply.code(404).send(errorBody(new AppError('NOT_FOUND', 'No such checkout resource.')));
  });

  for (const asset of [script, style]) {
    app.get(asset.path, { schema: { hide: true } }, async (_request, reply) =>
      reply.type(asset.type).header('cache-control', ASSET_CACHE).header('etag', `"${asset.version}"`).send(asset.body),
    );
  }

  routes.get('/:token', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    const view = await viewOf(request.params.token);
    if (!view) return sendHtml(reply, 404, renderNotFoundPage(assets));
    const nowMs = clock.nowMs();
    const pending = shownStatus(view, nowMs) === 'Pending';
    const qr = pending && view.instructions && needsQr(view.instructions) ? await qrSvg(view.instructions.qrPayload!) : null;
    const base = `${PREFIX}/${encodeURIComponent(request.params.token)}`;
    const page = renderCheckoutPage({ view, nowMs, assets, qr, statusUrl: `${base}/status`, sandboxUrl: `${base}/sandbox` });
    return sendHtml(reply, 200, page);
  });

  routes.get('/:token/status', { schema: { hide: true, params: TokenParams } }, async (request) => {
    const view = await viewOf(request.params.token);
    if (!view) throw new AppError('NOT_FOUND', 'No such checkout.');
    return statusBody(view, clock.nowMs());
  });

  routes.post(
    '/:token/sandbox',
    {
      schema: { hide: true, params: TokenParams, body: SandboxBody },
      // Before the body is even parsed: a request not made by the page's own script is refused.
      onRequest: async (request) => {
        if (!isSameOriginAction(request, publicBaseUrl)) {
          throw new AppError('FORBIDDEN', 'This action is accepted only from the checkout page.');
        }
      },
    },
    async (request) => {
      const { token } = request.params;
      const outcome: Static<typeof SandboxBody>['outcome'] = request.body.outcome;
      const view = await viewOf(token);
      if (!view) throw new AppError('NOT_FOUND', 'No such checkout.');
      if (!view.sandbox) throw new AppError('FORBIDDEN', 'Only sandbox payments can be completed from the checkout page.');
      if (shownStatus(view, clock.nowMs()) !== 'Pending') throw new AppError('CONFLICT', 'The payment is no longer pending.');
      const completed = await source.sandboxCompleteByToken(token, outcome);
      return statusBody(completed, clock.nowMs());
    },
  );
}

/** Registered once at the root: `app.register(checkoutRoutes, { source, publicBaseUrl, clock })`. */
export const checkoutRoutes: FastifyPluginAsync<CheckoutRoutesOptions> = async (app, options) => {
  await app.register(checkoutPlugin, { ...options, prefix: PREFIX });
};
