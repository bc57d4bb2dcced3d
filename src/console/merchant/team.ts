// The merchant's team, for its owners: who has access and as what, invitations by single-use link
// (the operator's invitation form and schema, limited to merchant roles and to this merchant),
// changing a member's role and removing a member. A merchant always keeps an owner (people/team.ts).
import { html } from '../../core/html.js';
import { MERCHANT_ROLES, ROLE_LABELS } from '../../people/roles.js';
import type { ConsoleUser } from '../../people/users.js';
import { ownMerchantId, type ConsolePages, type PageContext } from '../app.js';
import { badge, csrfField, field, form, formProblem, section, table, time } from '../components.js';
import { confirmStep } from '../confirm.js';
import { fieldErrorsOf, validateForm, type FieldErrors } from '../forms.js';
import { invitationLink } from '../app.js';
import { InvitationForm } from '../operator/users.js';
import { MERCHANT, OWNERS, SECTION } from './common.js';
import type { MerchantPageOptions } from './index.js';

const PATH = `${MERCHANT}/team`;
const ROLE_OPTIONS = MERCHANT_ROLES.map((r) => [r, ROLE_LABELS[r]] as const);
const TEAM_LIMIT = 100;

export function teamPages({ people, team, publicBaseUrl }: MerchantPageOptions): ConsolePages {
  const render = async (ctx: PageContext, errors?: FieldErrors, link?: string) => {
    const merchantId = ownMerchantId(ctx);
    const members = (await people.listUsers({ merchantId, kind: 'merchant', limit: TEAM_LIMIT })).items;
    const roleForm = (u: ConsoleUser) =>
      html`<form method="post" action="${PATH}/${u.id}/role" class="inline">${csrfField(ctx.csrfToken)}<label class="visually-hidden" for="role-${u.id}">Role of ${u.email}</label><select id="role-${u.id}" name="role">${ROLE_OPTIONS.map(([value, label]) => html`<option value="${value}"${u.role === value ? html` selected` : ''}>${label}</option>`)}</select> <button type="submit" class="button small secondary">Change role</button></form>`;
    const list = table<ConsoleUser>({
      caption: 'Team',
      columns: [
        { label: 'Email', cell: (u) => html`${u.email}${u.id === ctx.user.id ? html` ${badge('you', 'info')}` : ''}` },
        { label: 'Role', cell: (u) => (u.status === 'active' ? roleForm(u) : ROLE_LABELS[u.role]) },
        { label: 'Two-factor', cell: (u) => (u.totpEnabled ? badge('on', 'ok') : badge('off', 'muted')) },
        { label: 'Status', cell: (u) => badge(u.status === 'disabled' ? 'removed' : u.status, u.status === 'active' ? 'ok' : 'muted') },
        { label: 'Since', cell: (u) => time(u.createdAt) },
        { label: '', cell: (u) => (u.status === 'active' ? html`<form method="post" action="${PATH}/${u.id}/remove" class="inline">${csrfField(ctx.csrfToken)}<button type="submit" class="button small danger">Remove</button></form>` : '') },
      ],
      rows: members,
      empty: 'No one yet.',
    });
    const invite = section(
      'Invite someone',
      html`${link ? html`<div class="once" role="status"><p>Invitation created. Send this link to the person; it works once, for 72 hours:</p><p><code class="secret">${link}</code></p></div>` : ''}
      ${formProblem(errors, ['email', 'role'])}
      ${form({
        action: `${PATH}/invite`,
        csrfToken: ctx.csrfToken,
        submit: 'Create invitation link',
        body: html`${field({ name: 'email', label: 'Email', type: 'email', required: true, value: link ? '' : ctx.fields.email, errors })}
          ${field({ name: 'role', label: 'Role', options: ROLE_OPTIONS, value: ctx.fields.role ?? 'viewer', errors, hint: 'Owner: everything. Developer: keys, webhooks, reading. Viewer: reading only.' })}`,
      })}`,
    );
    return ctx.page('Team', html`${errors?._form ? html`<div class="alert alert-error" role="alert"><p>${errors._form}</p></div>` : ''}${list}${invite}`, errors ? 400 : 200);
  };

  return (router) => {
    router.page('/merchant/team', { roles: OWNERS, nav: { label: 'Team', section: SECTION, order: 70 } }, (ctx) => render(ctx));

    router.action('/merchant/team/invite', { roles: OWNERS }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      const checked = validateForm(ctx.request, InvitationForm, { email: ctx.fields.email ?? '', role: ctx.fields.role ?? '' }, { merchantId });
      const roleProblem = (MERCHANT_ROLES as readonly string[]).includes(ctx.fields.role ?? '') ? null : 'must be owner, developer or viewer';
      if (!checked.ok || roleProblem) return render(ctx, { ...(checked.ok ? {} : checked.errors), ...(roleProblem ? { role: roleProblem } : {}) });
      try {
        const invitation = await people.invite({ email: checked.value.email, kind: 'merchant', role: checked.value.role, merchantId }, ctx.actor);
        return render(ctx, undefined, invitationLink(publicBaseUrl, invitation.token));
      } catch (error) {
        const errors = fieldErrorsOf(error);
        if (!errors) throw error;
        return render(ctx, errors);
      }
    });

    router.action('/merchant/team/:id/role', { roles: OWNERS }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      try {
        const member = await team.changeRole(merchantId, ctx.params.id!, ctx.fields.role ?? '', ctx.actor);
        return ctx.redirect(PATH, `${member.email} is now ${ROLE_LABELS[member.role]}.`);
      } catch (error) {
        const errors = fieldErrorsOf(error);
        if (!errors || (error as { status?: number }).status === 404) throw error;
        return render(ctx, { _form: `Role not changed: ${Object.values(errors).join('; ')}.` });
      }
    });

    router.action('/merchant/team/:id/remove', { roles: OWNERS }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      const confirm = confirmStep(ctx, {
        title: 'Remove this person?',
        message: html`<p>They lose access at once and every session of theirs ends. Invite them again to give access back.</p>`,
        action: `${PATH}/${ctx.params.id}/remove`,
        submit: 'Yes, remove',
        back: PATH,
      });
      if (confirm) return confirm;
      try {
        await team.remove(merchantId, ctx.params.id!, ctx.actor);
      } catch (error) {
        const errors = fieldErrorsOf(error);
        if (!errors || (error as { status?: number }).status === 404) throw error;
        return render({ ...ctx, fields: {} }, { _form: `Not removed: ${Object.values(errors).join('; ')}.` });
      }
      return ctx.redirect(PATH, 'Removed.');
    });
  };
}
