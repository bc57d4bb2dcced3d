// The pages around a session: sign-in (password and code on one form, one generic answer), TOTP
// enrolment with its recovery codes, sign-out, and accepting an invitation. Pre-session forms carry a
// double-submit token (a random value in a SameSite=Strict cookie and in the form), so even sign-in
// cannot be posted from another site.
import QRCode from 'qrcode';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withAuditOrigin } from '../audit/audit-context.js';
import { AppError } from '../core/errors.js';
import { html, trustedSvg, type SafeHtml } from '../core/html.js';
import { ROLE_LABELS } from '../people/roles.js';
import { randomToken } from '../people/sessions.js';
import { checkCsrf, PREFIX, sendPage, signedIn, type ConsoleDeps } from './app.js';
import { CSRF_FIELD, csrfField, field, formProblem } from './components.js';
import { fieldErrorsOf, formFields, type FieldErrors } from './forms.js';
import { renderBare } from './layout.js';
import { readCookies, setCookie, tokensEqual } from './security.js';

/** The one answer to every failed sign-in, whatever was wrong. */
export const LOGIN_FAILED = 'Wrong email, password or code.';
const LOGIN_TOKEN_SECONDS = 3600;

function loginToken(request: FastifyRequest, reply: FastifyReply, deps: ConsoleDeps): string {
  const existing = readCookies(request).get(deps.cookies.login);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomToken();
  setCookie(reply, deps.cookies, deps.cookies.login, token, LOGIN_TOKEN_SECONDS);
  return token;
}

function checkLoginToken(request: FastifyRequest, deps: ConsoleDeps): void {
  const cookie = readCookies(request).get(deps.cookies.login);
  if (!cookie || !tokensEqual(formFields(request)[CSRF_FIELD], cookie)) {
    throw new AppError('FORBIDDEN', 'The form expired or did not come from this console; reload the page and try again.');
  }
}

function startSession(reply: FastifyReply, deps: ConsoleDeps, rawId: string): void {
  // A session cookie without Max-Age: it also ends with the browser; the server's expiry is the real one.
  setCookie(reply, deps.cookies, deps.cookies.session, rawId);
  setCookie(reply, deps.cookies, deps.cookies.login, '', 0);
}

function loginForm(token: string, email: string, problem: string | null): SafeHtml {
  return html`${problem ? html`<div class="alert alert-error" role="alert"><p>${problem}</p></div>` : ''}
<form method="post" action="${PREFIX}/login" class="form" novalidate>
  <input type="hidden" name="${CSRF_FIELD}" value="${token}">
  ${field({ name: 'email', label: 'Email', type: 'email', value: email, required: true, autocomplete: 'username' })}
  ${field({ name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password' })}
  ${field({ name: 'code', label: 'Authenticator code', inputmode: 'numeric', autocomplete: 'one-time-code', hint: 'The 6-digit code from your authenticator app, or one of your recovery codes. Leave empty on your first sign-in as an operator.' })}
  <div class="actions"><button type="submit" class="button">Sign in</button></div>
</form>`;
}

async function qrOf(uri: string): Promise<SafeHtml> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return trustedSvg(svg);
}

function enrolBody(secret: string, qr: SafeHtml, csrfToken: string, errors: FieldErrors | undefined): SafeHtml {
  return html`<p>From now on you sign in with your password and a code from an authenticator app (any app that supports TOTP, RFC 6238). Scan the QR code, or type the key, then enter the 6-digit code the app shows.</p>
<div class="enrol">
  <div class="qr" role="img" aria-label="QR code of the authenticator key">${qr}</div>
  <p>Key: <code class="secret">${secret.replace(/(.{4})/g, '$1 ').trim()}</code></p>
</div>
${formProblem(errors, ['code'])}
<form method="post" action="${PREFIX}/enrol" class="form" novalidate>
  ${csrfField(csrfToken)}
  ${field({ name: 'code', label: 'Code from the app', inputmode: 'numeric', autocomplete: 'one-time-code', required: true, errors })}
  <div class="actions"><button type="submit" class="button">Turn on two-factor sign-in</button></div>
</form>`;
}

function recoveryBody(codes: readonly string[]): SafeHtml {
  return html`<div class="alert alert-ok" role="status"><p>Two-factor sign-in is on.</p></div>
<p>These recovery codes each sign you in once if you lose your phone. They are shown <strong>only now</strong>: store them somewhere safe.</p>
<ol class="codes">${codes.map((code) => html`<li><code>${code}</code></li>`)}</ol>
<p><a class="button" href="${PREFIX}">Continue to the console</a></p>`;
}

export function registerAuthPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const { people, assets } = deps;
  const bare = (reply: FastifyReply, status: number, title: string, body: SafeHtml) => sendPage(reply, status, renderBare(title, body, assets));

  app.get('/login', { schema: { hide: true } }, async (request, reply) => {
    if (await signedIn(request, deps)) return reply.redirect(PREFIX, 303);
    return bare(reply, 200, 'Sign in', loginForm(loginToken(request, reply, deps), '', null));
  });

  app.post('/login', { schema: { hide: true } }, async (request, reply) => {
    checkLoginToken(request, deps);
    const fields = formFields(request);
    const email = (fields.email ?? '').slice(0, 254);
    const result = await withAuditOrigin({ address: request.ip }, () =>
      people.login({ email, password: (fields.password ?? '').slice(0, 1024), code: (fields.code ?? '').slice(0, 32), address: request.ip }),
    );
    if (!result.ok) return bare(reply, 401, 'Sign in', loginForm(loginToken(request, reply, deps), email, LOGIN_FAILED));
    startSession(reply, deps, result.session.rawId);
    return reply.redirect(result.session.stage === 'enrol' ? `${PREFIX}/enrol` : PREFIX, 303);
  });

  app.get('/enrol', { schema: { hide: true } }, async (request, reply) => {
    const who = await signedIn(request, deps);
    if (!who) return reply.redirect(`${PREFIX}/login`, 303);
    if (who.user.totpEnabled) return reply.redirect(PREFIX, 303);
    const { secret, uri } = await people.beginTotp(who.user.id);
    return bare(reply, 200, 'Set up two-factor sign-in', enrolBody(secret, await qrOf(uri), who.session.csrfToken, undefined));
  });

  app.post('/enrol', { schema: { hide: true } }, async (request, reply) => {
    const who = await signedIn(request, deps);
    if (!who) throw new AppError('FORBIDDEN', 'Your session has ended; sign in again.');
    checkCsrf(request, who.session.csrfToken);
    if (who.user.totpEnabled) return reply.redirect(PREFIX, 303);
    const codes = await withAuditOrigin({ address: request.ip }, () => people.confirmTotp(who.user.id, who.session, formFields(request).code ?? ''));
    if (!codes) {
      const { secret, uri } = await people.beginTotp(who.user.id);
      return bare(reply, 400, 'Set up two-factor sign-in', enrolBody(secret, await qrOf(uri), who.session.csrfToken, { code: 'is not the code the app shows now; try the next one' }));
    }
    return bare(reply, 200, 'Save your recovery codes', recoveryBody(codes));
  });

  app.post('/logout', { schema: { hide: true } }, async (request, reply) => {
    const who = await signedIn(request, deps);
    if (who) {
      checkCsrf(request, who.session.csrfToken);
      await withAuditOrigin({ address: request.ip }, () => people.logout(who.session, who.user));
    }
    setCookie(reply, deps.cookies, deps.cookies.session, '', 0);
    return reply.redirect(`${PREFIX}/login`, 303);
  });

  const invitationPage = (token: string, csrf: string, invitation: { email: string; role: keyof typeof ROLE_LABELS; kind: string }, errors?: FieldErrors) => html`
<p>You are invited to the Paygate console as <strong>${ROLE_LABELS[invitation.role]}</strong> with the email <strong>${invitation.email}</strong>.</p>
${invitation.kind === 'operator' ? html`<p>Operators also set up an authenticator app on the next page.</p>` : ''}
${formProblem(errors, ['password', 'confirm'])}
<form method="post" action="${PREFIX}/invitations/${token}" class="form" novalidate>
  <input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
  ${field({ name: 'password', label: 'Choose a password', type: 'password', required: true, autocomplete: 'new-password', hint: 'At least 12 characters.', errors })}
  ${field({ name: 'confirm', label: 'Repeat the password', type: 'password', required: true, autocomplete: 'new-password', errors })}
  <div class="actions"><button type="submit" class="button">Create my account</button></div>
</form>`;

  const GONE = html`<p>This invitation link is unknown, already used or expired. Ask for a new one.</p>`;

  app.get('/invitations/:token', { schema: { hide: true } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const invitation = await people.invitation(token);
    if (!invitation) return bare(reply, 404, 'Invitation', GONE);
    return bare(reply, 200, 'Join the Paygate console', invitationPage(token, loginToken(request, reply, deps), invitation));
  });

  app.post('/invitations/:token', { schema: { hide: true } }, async (request, reply) => {
    checkLoginToken(request, deps);
    const { token } = request.params as { token: string };
    const invitation = await people.invitation(token);
    if (!invitation) return bare(reply, 404, 'Invitation', GONE);
    const fields = formFields(request);
    const again = (errors: FieldErrors) => bare(reply, 400, 'Join the Paygate console', invitationPage(token, loginToken(request, reply, deps), invitation, errors));
    if ((fields.password ?? '') !== (fields.confirm ?? '')) return again({ confirm: 'does not match the password' });
    try {
      const accepted = await withAuditOrigin({ address: request.ip }, () => people.acceptInvitation(token, fields.password ?? '', request.ip));
      startSession(reply, deps, accepted.session.rawId);
      return reply.redirect(accepted.session.stage === 'enrol' ? `${PREFIX}/enrol` : PREFIX, 303);
    } catch (error) {
      const errors = fieldErrorsOf(error);
      if (!errors || (error instanceof AppError && error.status === 404)) throw error;
      return again(errors);
    }
  });
}
