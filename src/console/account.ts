// The signed-in user's own page, for every role: who they are, password change, two-factor status and
// recovery codes left, and sign-out everywhere.
import { html } from '../core/html.js';
import { ROLE_LABELS } from '../people/roles.js';
import type { PeopleService } from '../people/service.js';
import { EVERY_ROLE, PREFIX, type ConsolePages } from './app.js';
import { actionButton, badge, facts, field, form, formProblem, section } from './components.js';
import { fieldErrorsOf, type FieldErrors } from './forms.js';

export function accountPages(people: PeopleService): ConsolePages {
  return (router) => {
    const render = async (ctx: Parameters<Parameters<typeof router.page>[2]>[0], errors?: FieldErrors) => {
      const codesLeft = ctx.user.totpEnabled ? await people.recoveryCodesLeft(ctx.user.id) : 0;
      const sessions = await people.sessions.countFor(ctx.user.id);
      return ctx.page(
        'Your account',
        html`${section('Profile', facts([
          ['Email', ctx.user.email],
          ['Role', ROLE_LABELS[ctx.user.role]],
          ['Two-factor sign-in', ctx.user.totpEnabled ? html`${badge('on', 'ok')} ${codesLeft} recovery codes left` : html`${badge('off', 'warn')} <a href="${PREFIX}/enrol">Set it up</a>`],
          ['Signed in on', `${sessions} ${sessions === 1 ? 'device' : 'devices'}`],
        ]))}
        ${section('Change password', html`${formProblem(errors, ['currentPassword', 'password', 'confirm'])}${form({
          action: `${PREFIX}/account/password`,
          csrfToken: ctx.csrfToken,
          submit: 'Change password',
          body: html`${field({ name: 'currentPassword', label: 'Current password', type: 'password', required: true, autocomplete: 'current-password', errors })}
            ${field({ name: 'password', label: 'New password', type: 'password', required: true, autocomplete: 'new-password', hint: 'At least 12 characters. Your other sessions end.', errors })}
            ${field({ name: 'confirm', label: 'Repeat the new password', type: 'password', required: true, autocomplete: 'new-password', errors })}`,
        })}`)}
        ${ctx.user.totpEnabled
          ? section('Recovery codes', html`<p>New codes replace all the old ones. Enter the code your authenticator app shows now.</p>${formProblem(errors, ['code'])}${form({
              action: `${PREFIX}/account/recovery-codes`,
              csrfToken: ctx.csrfToken,
              submit: 'Make new recovery codes',
              body: field({ name: 'code', label: 'Code from the app', inputmode: 'numeric', autocomplete: 'one-time-code', required: true, errors }),
            })}`)
          : ''}
        ${section('Sign out everywhere', html`<p>Ends every session of your account, on every device, including this one.</p>${actionButton(`${PREFIX}/account/logout-everywhere`, ctx.csrfToken, 'Sign out everywhere', { danger: true })}`)}`,
        errors ? 400 : 200,
      );
    };

    router.page('/account', { roles: EVERY_ROLE, nav: { label: 'Your account', section: 'Account', order: 900 } }, (ctx) => render(ctx));

    router.action('/account/password', { roles: EVERY_ROLE }, async (ctx) => {
      if ((ctx.fields.password ?? '') !== (ctx.fields.confirm ?? '')) return render(ctx, { confirm: 'does not match the new password' });
      try {
        await people.changePassword(ctx.user, ctx.session, ctx.fields.currentPassword ?? '', ctx.fields.password ?? '');
      } catch (error) {
        const errors = fieldErrorsOf(error);
        if (!errors) throw error;
        return render(ctx, errors);
      }
      return ctx.redirect(`${PREFIX}/account`, 'Password changed; your other sessions have ended.');
    });

    router.action('/account/recovery-codes', { roles: EVERY_ROLE }, async (ctx) => {
      const codes = await people.renewRecoveryCodes(ctx.user, ctx.fields.code ?? '');
      if (!codes) return render(ctx, { code: 'is not the code the app shows now; wait for the next one' });
      return ctx.page(
        'Your new recovery codes',
        html`<p>Each signs you in once instead of a code from the app. They are shown <strong>only now</strong>; the old ones no longer work.</p>
<ol class="codes">${codes.map((code) => html`<li><code>${code}</code></li>`)}</ol>
<p><a class="button" href="${PREFIX}/account">Back to your account</a></p>`,
      );
    });

    router.action('/account/logout-everywhere', { roles: EVERY_ROLE }, async (ctx) => {
      await people.logoutEverywhere(ctx.user);
      return ctx.redirect(`${PREFIX}/login`);
    });
  };
}
