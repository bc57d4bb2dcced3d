// The console's page registry and request context: every page and action is registered here with the
// roles that may use it; this module signs the request in from its session cookie, sends operators
// without TOTP to enrolment, checks the CSRF token of every POST, runs the handler with the caller's
// address for the audit log, and renders the result in the shell. Pages never do any of that themselves.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withAuditOrigin } from '../audit/audit-context.js';
import { AppError } from '../core/errors.js';
import type { HtmlValue } from '../core/html.js';
import type { ConsoleRole } from '../people/roles.js';
import { consoleActor, type PeopleService } from '../people/service.js';
import type { Session } from '../people/sessions.js';
import type { ConsoleUser } from '../people/users.js';
import { CSRF_FIELD } from './components.js';
import { formFields, type FormFields } from './forms.js';
import { renderShell, type ConsoleAssets, type NavLink } from './layout.js';
import { isCrossSite, readCookies, setCookie, tokensEqual, type CookieNames } from './security.js';

export const OPERATOR_ROLES_ALL: readonly ConsoleRole[] = ['admin', 'support'];
export const OPERATOR_ADMIN: readonly ConsoleRole[] = ['admin'];
export const MERCHANT_ROLES_ALL: readonly ConsoleRole[] = ['owner', 'developer', 'viewer'];
export const EVERY_ROLE: readonly ConsoleRole[] = [...OPERATOR_ROLES_ALL, ...MERCHANT_ROLES_ALL];

export type PageResult =
  | { readonly kind: 'page'; readonly title: string; readonly body: HtmlValue; readonly status: number }
  | { readonly kind: 'redirect'; readonly location: string; readonly notice: string | null };

export interface PageContext {
  readonly request: FastifyRequest;
  readonly user: ConsoleUser;
  readonly session: Session;
  readonly csrfToken: string;
  /** The client address (request.ip), as recorded in the audit log. */
  readonly address: string;
  /** The audit actor of this user's actions: console:<email>. */
  readonly actor: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  /** The posted form (empty on GET). */
  readonly fields: FormFields;
  /** Whether the user has one of these roles (to show or hide a button; the action checks again). */
  can(roles: readonly ConsoleRole[]): boolean;
  page(title: string, body: HtmlValue, status?: number): PageResult;
  /** POST-redirect-GET, with a one-time notice shown on the next page. */
  redirect(location: string, notice?: string): PageResult;
}

export type PageHandler = (ctx: PageContext) => Promise<PageResult>;

export interface NavEntry {
  readonly label: string;
  /** Groups the menu: 'Operator', 'Merchant', 'Account'. */
  readonly section: string;
  /** Lower first within the section. */
  readonly order?: number;
}

export interface RouteOptions {
  /** Who may use it; anyone else gets 403 (and never sees its nav entry). */
  readonly roles: readonly ConsoleRole[];
  readonly nav?: NavEntry;
}

/** What a group of pages registers with (see src/console/README.md). */
export interface ConsoleRouter {
  /** A GET page under /console (path given without the prefix, e.g. '/merchants/:id'). */
  page(path: string, options: RouteOptions, handler: PageHandler): void;
  /** A POST action; the CSRF token is already checked when the handler runs. */
  action(path: string, options: RouteOptions, handler: PageHandler): void;
}

export type ConsolePages = (router: ConsoleRouter) => void;

/** Throws 403 unless the user has one of the roles: for a rule finer than the route's own (one merchant's data...). */
export function requireRole(ctx: Pick<PageContext, 'user'>, ...roles: ConsoleRole[]): void {
  if (!roles.includes(ctx.user.role)) throw new AppError('FORBIDDEN', 'Your role may not do this.');
}

/** A merchant user's merchant id; 403 for operators (merchant pages serve a merchant's own users only). */
export function ownMerchantId(ctx: Pick<PageContext, 'user'>): string {
  if (ctx.user.kind !== 'merchant' || !ctx.user.merchantId) throw new AppError('FORBIDDEN', 'This page is for merchant users.');
  return ctx.user.merchantId;
}

export interface ConsoleDeps {
  readonly people: PeopleService;
  readonly cookies: CookieNames;
  readonly assets: ConsoleAssets;
}

interface NavRecord extends NavLink {
  readonly roles: readonly ConsoleRole[];
  readonly order: number;
}

export const PREFIX = '/console';

/** The link an invitee opens (shown to the inviter; there is no mail server). */
export const invitationLink = (publicBaseUrl: string, token: string): string => `${publicBaseUrl}${PREFIX}/invitations/${token}`;
const HTML = 'text/html; charset=utf-8';
const NOTICE_MAX_CHARS = 200;

export interface SignedIn {
  readonly user: ConsoleUser;
  readonly session: Session;
}

/** The signed-in user of a request, or null (no cookie, unknown, expired or ended session). */
export async function signedIn(request: FastifyRequest, deps: ConsoleDeps): Promise<SignedIn | null> {
  const raw = readCookies(request).get(deps.cookies.session);
  return raw ? deps.people.sessionOf(raw) : null;
}

/** A POST's CSRF check: same-site by the browser's word, and the session's token in the form. */
export function checkCsrf(request: FastifyRequest, expected: string): void {
  if (isCrossSite(request) || !tokensEqual(formFields(request)[CSRF_FIELD], expected)) {
    throw new AppError('FORBIDDEN', 'The form expired or did not come from this console; reload the page and try again.');
  }
}

export function sendPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type(HTML).send(body);
}

export class ConsoleRegistry implements ConsoleRouter {
  private readonly nav: NavRecord[] = [];

  constructor(
    private readonly app: FastifyInstance,
    private readonly deps: ConsoleDeps,
  ) {}

  /** The menu of a role, in section order of first registration, then by order. */
  navFor(role: ConsoleRole): NavLink[] {
    const sections = [...new Set(this.nav.map((n) => n.section))];
    return this.nav
      .filter((n) => n.roles.includes(role))
      .sort((a, b) => sections.indexOf(a.section) - sections.indexOf(b.section) || a.order - b.order);
  }

  page(path: string, options: RouteOptions, handler: PageHandler): void {
    if (options.nav) this.nav.push({ label: options.nav.label, section: options.nav.section, order: options.nav.order ?? 100, path: `${PREFIX}${path}`, roles: options.roles });
    this.app.get(path, { schema: { hide: true } }, (request, reply) => this.serve(request, reply, options, handler, false));
  }

  action(path: string, options: RouteOptions, handler: PageHandler): void {
    this.app.post(path, { schema: { hide: true } }, (request, reply) => this.serve(request, reply, options, handler, true));
  }

  private async serve(request: FastifyRequest, reply: FastifyReply, options: RouteOptions, handler: PageHandler, isPost: boolean): Promise<FastifyReply> {
    const { deps } = this;
    const who = await signedIn(request, deps);
    if (!who) {
      if (isPost) throw new AppError('FORBIDDEN', 'Your session has ended; sign in again.');
      return reply.redirect(`${PREFIX}/login`, 303);
    }
    if (isPost) checkCsrf(request, who.session.csrfToken);
    if (who.session.stage !== 'full') {
      if (isPost) throw new AppError('FORBIDDEN', 'Set up two-factor sign-in first.');
      return reply.redirect(`${PREFIX}/enrol`, 303);
    }
    if (!options.roles.includes(who.user.role)) throw new AppError('FORBIDDEN', 'Your role may not see this page.');
    const cookies = readCookies(request);
    const notice = isPost ? null : (cookies.get(deps.cookies.notice) ?? null);
    if (notice !== null) setCookie(reply, deps.cookies, deps.cookies.notice, '', 0);
    const ctx: PageContext = {
      request,
      user: who.user,
      session: who.session,
      csrfToken: who.session.csrfToken,
      address: request.ip,
      actor: consoleActor(who.user),
      params: (request.params ?? {}) as Record<string, string>,
      query: Object.fromEntries(Object.entries((request.query ?? {}) as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string')),
      fields: isPost ? formFields(request) : {},
      can: (roles) => roles.includes(who.user.role),
      page: (title, body, status = 200) => ({ kind: 'page', title, body, status }),
      redirect: (location, message) => ({ kind: 'redirect', location, notice: message ?? null }),
    };
    const result = await withAuditOrigin({ address: request.ip }, () => handler(ctx));
    if (result.kind === 'redirect') {
      if (result.notice) setCookie(reply, deps.cookies, deps.cookies.notice, result.notice.slice(0, NOTICE_MAX_CHARS), 60);
      return reply.redirect(result.location, 303);
    }
    return sendPage(
      reply,
      result.status,
      renderShell({
        title: result.title,
        body: result.body,
        user: who.user,
        nav: this.navFor(who.user.role),
        currentPath: request.url.split('?')[0]!,
        csrfToken: who.session.csrfToken,
        notice,
        assets: deps.assets,
      }),
    );
  }
}
