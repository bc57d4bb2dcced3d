// Console users as the operator sees them: every user of every merchant and the operators, and
// invitations (an operator admin may invite operators, and users for any merchant).
import { Type } from '@sinclair/typebox';
import { html } from '../../core/html.js';
import { ROLE_LABELS } from '../../people/roles.js';
import { EMAIL_PATTERN, type ConsoleUser } from '../../people/users.js';
import { Text } from '../../http/text.js';
import { invitationLink, OPERATOR_ADMIN, OPERATOR_ROLES_ALL, PREFIX, type ConsolePages, type PageContext } from '../app.js';
import { actionButton, badge, field, form, formProblem, section, table, time, urlWith } from '../components.js';
import { confirmStep } from '../confirm.js';
import { fieldErrorsOf, validateForm, type FieldErrors } from '../forms.js';
import type { OperatorPageOptions } from './index.js';

const PAGE_SIZE = 25;

/** The invitation form's schema (console-only: the operator API has no invitation route). */
export const InvitationForm = Type.Object(
  {
    email: Text({ maxLength: 254, pattern: EMAIL_PATTERN.source }),
    role: Type.Union(['admin', 'support', 'owner', 'developer', 'viewer'].map((r) => Type.Literal(r))),
    merchantId: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);

const ROLE_OPTIONS: ReadonlyArray<readonly [string, string]> = [
  ['support', ROLE_LABELS.support],
  ['admin', ROLE_LABELS.admin],
  ['owner', 'Merchant owner'],
  ['developer', 'Merchant developer'],
  ['viewer', 'Merchant viewer'],
];

export function operatorUserPages({ people, merchants, publicBaseUrl }: OperatorPageOptions): ConsolePages {
  return (router) => {
    const render = async (ctx: PageContext, errors?: FieldErrors, link?: string) => {
      const cursor = ctx.query.after;
      const page = await people.listUsers({ cursor, limit: PAGE_SIZE, merchantId: ctx.query.merchant || undefined });
      const list = table<ConsoleUser>({
        caption: 'Console users',
        columns: [
          { label: 'Email', cell: (u) => u.email },
          { label: 'Role', cell: (u) => ROLE_LABELS[u.role] },
          { label: 'Merchant', cell: (u) => (u.merchantId ? html`<a href="${PREFIX}/merchants/${u.merchantId}">${u.merchantId}</a>` : '—') },
          { label: 'Two-factor', cell: (u) => (u.totpEnabled ? badge('on', 'ok') : badge('off', 'muted')) },
          { label: 'Status', cell: (u) => badge(u.status) },
          { label: 'Created', cell: (u) => time(u.createdAt) },
          ...(ctx.can(OPERATOR_ADMIN)
            ? [{
                label: 'Action',
                cell: (u: ConsoleUser) =>
                  u.id === ctx.user.id
                    ? ''
                    : html`${u.status === 'active'
                        ? actionButton(`${PREFIX}/users/${u.id}/disable`, ctx.csrfToken, 'Disable', { danger: true })
                        : actionButton(`${PREFIX}/users/${u.id}/enable`, ctx.csrfToken, 'Enable')} ${u.totpEnabled ? actionButton(`${PREFIX}/users/${u.id}/reset-totp`, ctx.csrfToken, 'Reset two-factor') : ''}`,
              }]
            : []),
        ],
        rows: page.items,
        empty: 'No console users yet.',
        nextUrl: page.nextCursor ? urlWith(`${PREFIX}/users`, { after: page.nextCursor, merchant: ctx.query.merchant }) : null,
        firstUrl: cursor ? urlWith(`${PREFIX}/users`, { merchant: ctx.query.merchant }) : null,
      });
      const inviteForm = ctx.can(OPERATOR_ADMIN)
        ? section(
            'Invite someone',
            html`${link ? html`<div class="alert alert-ok" role="status"><p>Invitation created. Send this link to the person; it works once, for 72 hours:</p><p><code class="secret">${link}</code></p></div>` : ''}
            ${formProblem(errors, ['email', 'role', 'merchantId'])}
            ${form({
              action: `${PREFIX}/users/invite`,
              csrfToken: ctx.csrfToken,
              submit: 'Create invitation link',
              body: html`${field({ name: 'email', label: 'Email', type: 'email', required: true, value: ctx.fields.email, errors })}
                ${field({ name: 'role', label: 'Role', options: ROLE_OPTIONS, value: ctx.fields.role ?? 'support', errors })}
                ${field({ name: 'merchantId', label: 'Merchant ID', value: ctx.fields.merchantId, hint: 'Only for merchant roles: the merchant the person belongs to.', errors })}`,
            })}`,
          )
        : '';
      return ctx.page('Console users', html`${inviteForm}${list}`, errors ? 400 : 200);
    };

    router.page('/users', { roles: OPERATOR_ROLES_ALL, nav: { label: 'Console users', section: 'Operator', order: 80 } }, (ctx) => render(ctx));

    for (const [path, status] of [['disable', 'disabled'], ['enable', 'active']] as const) {
      router.action(`/users/:id/${path}`, { roles: OPERATOR_ADMIN }, async (ctx) => {
        const target = await people.user(ctx.params.id!);
        if (!target) return ctx.redirect(`${PREFIX}/users`, 'No such console user.');
        // Locking oneself out is never what an admin meant; another admin can do it.
        if (target.id === ctx.user.id) return ctx.redirect(`${PREFIX}/users`, 'You cannot disable your own account.');
        if (status === 'disabled') {
          const confirm = confirmStep(ctx, {
            title: `Disable ${target.email}?`,
            message: html`<p><strong>${target.email}</strong> is signed out everywhere at once and cannot sign in until enabled again.</p>`,
            action: `${PREFIX}/users/${target.id}/disable`,
            submit: 'Disable user',
            back: `${PREFIX}/users`,
          });
          if (confirm) return confirm;
        }
        await people.setUserStatus(target.id, status, ctx.actor);
        return ctx.redirect(`${PREFIX}/users`, `${target.email} is ${status === 'disabled' ? 'disabled' : 'enabled'}.`);
      });
    }

    router.action('/users/:id/reset-totp', { roles: OPERATOR_ADMIN }, async (ctx) => {
      const target = await people.user(ctx.params.id!);
      if (!target) return ctx.redirect(`${PREFIX}/users`, 'No such console user.');
      if (target.id === ctx.user.id) return ctx.redirect(`${PREFIX}/users`, 'Ask another admin to reset your own two-factor sign-in.');
      const confirm = confirmStep(ctx, {
        title: `Reset two-factor sign-in of ${target.email}?`,
        message: html`<p>For someone who lost both their phone and their recovery codes. <strong>${target.email}</strong> is signed out everywhere; ${target.kind === 'operator' ? 'they set up a new authenticator at their next sign-in' : 'they sign in with their password alone until they set it up again'}. Make sure you know it is them.</p>`,
        action: `${PREFIX}/users/${target.id}/reset-totp`,
        submit: 'Reset two-factor sign-in',
        back: `${PREFIX}/users`,
      });
      if (confirm) return confirm;
      await people.resetTotp(target.id, ctx.actor);
      return ctx.redirect(`${PREFIX}/users`, `Two-factor sign-in of ${target.email} is reset.`);
    });

    router.action('/users/invite', { roles: OPERATOR_ADMIN }, async (ctx) => {
      const checked = validateForm(ctx.request, InvitationForm, ctx.fields);
      const role = ctx.fields.role ?? '';
      const kind = role === 'admin' || role === 'support' ? 'operator' : 'merchant';
      const merchantId = ctx.fields.merchantId?.trim() || undefined;
      // Which merchant is a rule of invitations, not of the form's shape: checked beside the schema's problems.
      let merchantProblem: string | null = null;
      if (kind === 'merchant' && !merchantId) merchantProblem = 'is required for a merchant role';
      else if (kind === 'merchant' && !(await merchants.get(merchantId!).then(() => true, () => false))) merchantProblem = 'is not a merchant';
      if (!checked.ok || merchantProblem) {
        const errors = { ...(checked.ok ? {} : checked.errors), ...(merchantProblem ? { merchantId: merchantProblem } : {}) };
        return render(ctx, errors);
      }
      const { email } = checked.value;
      try {
        const invitation = await people.invite({ email, kind, role: checked.value.role, merchantId: kind === 'merchant' ? merchantId : null }, ctx.actor);
        return render(ctx, undefined, invitationLink(publicBaseUrl, invitation.token));
      } catch (error) {
        const errors = fieldErrorsOf(error);
        if (!errors) throw error;
        return render(ctx, errors);
      }
    });
  };
}
