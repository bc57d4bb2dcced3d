// The web console under /console: server-rendered pages over the same services as the operator API,
// plain forms (POST, then redirect), one stylesheet, no client framework and no build step. Which
// page groups exist is decided by server.ts (`pages`); each registers through ConsoleRouter.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { AppError } from '../core/errors.js';
import { html } from '../core/html.js';
import { toAppError } from '../http/errors.js';
import type { PeopleService } from '../people/service.js';
import { accountPages } from './account.js';
import { ConsoleRegistry, PREFIX, sendPage, signedIn, type ConsoleDeps, type ConsolePages } from './app.js';
import { registerAuthPages } from './auth-pages.js';
import { registerFormParser } from './forms.js';
import { renderBare, type ConsoleAssets } from './layout.js';
import { cookieNames, SECURITY_HEADERS } from './security.js';

export interface ConsoleRoutesOptions {
  readonly people: PeopleService;
  /** The Secure flag and __Host- cookie names (behind https). */
  readonly secureCookie: boolean;
  readonly bodyLimitBytes: number;
  /** The page groups, in menu order: the operator's, the merchant's... */
  readonly pages: readonly ConsolePages[];
}

const ASSET_CACHE = 'public, max-age=31536000, immutable';

function loadStyle(): { body: Buffer; version: string } {
  const body = readFileSync(new URL('./assets/console.css', import.meta.url));
  return { body, version: createHash('sha256').update(body).digest('hex').slice(0, 16) };
}

const TITLES: Readonly<Record<number, string>> = { 400: 'Request refused', 401: 'Sign in again', 403: 'Not allowed', 404: 'Not found', 409: 'Conflict' };

async function consolePlugin(app: FastifyInstance, options: ConsoleRoutesOptions): Promise<void> {
  const style = loadStyle();
  const assets: ConsoleAssets = { styleUrl: `${PREFIX}/assets/console.css?v=${style.version}` };
  const deps: ConsoleDeps = { people: options.people, cookies: cookieNames(options.secureCookie), assets };

  registerFormParser(app, options.bodyLimitBytes);
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    request.log[appError.status >= 500 ? 'error' : 'info']({ err: error, reason: appError.reason }, 'console request refused');
    void reply.headers(SECURITY_HEADERS);
    const title = appError.status >= 500 ? 'Something went wrong' : (TITLES[appError.status] ?? 'Request refused');
    const message = appError.status >= 500 ? 'Nothing was changed. Try again in a moment; if it persists, quote the request id to the platform team.' : appError.detail;
    return sendPage(reply, appError.status, renderBare(title, html`<p>${message}</p><p><a href="${PREFIX}">Back to the console</a></p>`, assets));
  });
  app.setNotFoundHandler((_request, reply) => sendPage(reply, 404, renderBare('Not found', html`<p>There is no such page.</p><p><a href="${PREFIX}">Back to the console</a></p>`, assets)));

  app.get('/assets/console.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', ASSET_CACHE).send(style.body),
  );

  registerAuthPages(app, deps);
  const registry = new ConsoleRegistry(app, deps);
  for (const pages of options.pages) pages(registry);
  accountPages(options.people)(registry);

  // The console's front door: the first page of the user's menu.
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const who = await signedIn(request, deps);
    if (!who) return reply.redirect(`${PREFIX}/login`, 303);
    if (who.session.stage !== 'full') return reply.redirect(`${PREFIX}/enrol`, 303);
    const first = registry.navFor(who.user.role)[0];
    if (!first) throw new AppError('FORBIDDEN', 'Your role has no pages.');
    return reply.redirect(first.path, 303);
  });
}

/** Registered once at the root: `app.register(consoleRoutes, { people, secureCookie, bodyLimitBytes, pages })`. */
export const consoleRoutes: FastifyPluginAsync<ConsoleRoutesOptions> = async (app, options) => {
  await app.register(consolePlugin, { ...options, prefix: PREFIX });
};
