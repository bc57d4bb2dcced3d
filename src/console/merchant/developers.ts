// The developers page: the merchant's API keys (register an RSA public key, create an HMAC key whose
// secret is shown once, revoke), the default webhook URLs, rotating the webhook secret (shown once, the
// old one keeps signing for the overlap) and the service's public keys that sign webhooks. Each form is
// checked with the operator API's own schema and goes through the same MerchantService call.
import { AddKeyBody, WebhooksBody } from '../../api/admin/merchants.js';
import { html, type SafeHtml } from '../../core/html.js';
import { KEY_SCOPES } from '../../merchants/access.js';
import type { ApiKeyInfo } from '../../merchants/merchant-service.js';
import { checkWebhookUrl } from '../../webhooks/ssrf.js';
import { ownMerchantId, type ConsolePages, type PageContext } from '../app.js';
import { actionButton, badge, facts, field, form, formProblem, section, table, time } from '../components.js';
import { confirmStep } from '../confirm.js';
import { fieldErrorsOf, validateForm, type FieldErrors } from '../forms.js';
import { DEVELOPERS, MERCHANT, SECTION } from './common.js';
import type { MerchantPageOptions } from './index.js';

const PATH = `${MERCHANT}/developers`;
const SCOPE_OPTIONS = KEY_SCOPES.map((s) => [s, s] as const);

interface Problems {
  readonly rsa?: FieldErrors;
  readonly hmac?: FieldErrors;
  readonly urls?: FieldErrors;
}

/** A secret shown once, on the answer to the POST that made it, never again. */
const shownOnce = (title: string, secret: string, note: string): SafeHtml =>
  html`<div class="once" role="status"><p><strong>${title}</strong> ${note}</p><p><code class="secret">${secret}</code></p></div>`;

export function developerPages({ merchants, webhooks, webhookConfig }: MerchantPageOptions): ConsolePages {
  const render = async (ctx: PageContext, problems: Problems = {}, once: SafeHtml | '' = '') => {
    const merchantId = ownMerchantId(ctx);
    const [merchant, keys, serviceKeys] = await Promise.all([merchants.get(merchantId), merchants.listKeys(merchantId), webhooks.servicePublicKeys()]);
    const keyTable = table<ApiKeyInfo>({
      caption: 'API keys',
      columns: [
        { label: 'Key id', cell: (k) => html`<code>${k.id}</code>` },
        { label: 'Type', cell: (k) => k.type },
        { label: 'Scope', cell: (k) => k.scope },
        { label: 'Label', cell: (k) => k.label ?? '' },
        { label: 'Status', cell: (k) => badge(k.status, k.status === 'active' ? 'ok' : 'muted') },
        { label: 'Created', cell: (k) => time(k.createdAt) },
        { label: '', cell: (k) => (k.status === 'active' ? actionButton(`${PATH}/keys/${k.id}/revoke`, ctx.csrfToken, 'Revoke', { danger: true }) : '') },
      ],
      rows: keys,
      empty: 'No API keys.',
    });
    const value = (name: string) => ctx.fields[name];
    const rsaForm = form({
      action: `${PATH}/keys/rsa`,
      csrfToken: ctx.csrfToken,
      submit: 'Register public key',
      body: html`${formProblem(problems.rsa, ['publicKeyPem', 'label', 'scope'])}
        ${field({ name: 'publicKeyPem', label: 'RSA public key (PEM)', type: 'textarea', required: true, value: problems.rsa ? value('publicKeyPem') : '', hint: 'At least 2048 bits. Keep the private key yourself; we never see it.', errors: problems.rsa })}
        ${field({ name: 'label', label: 'Label', value: problems.rsa ? value('label') : '', errors: problems.rsa })}
        ${field({ name: 'scope', label: 'Scope', options: SCOPE_OPTIONS, value: (problems.rsa && value('scope')) || 'all', errors: problems.rsa })}`,
    });
    const hmacForm = form({
      action: `${PATH}/keys/hmac`,
      csrfToken: ctx.csrfToken,
      submit: 'Create HMAC key',
      body: html`${formProblem(problems.hmac, ['label', 'scope'])}
        ${field({ name: 'label', label: 'Label', value: problems.hmac ? value('label') : '', errors: problems.hmac })}
        ${field({ name: 'scope', label: 'Scope', options: SCOPE_OPTIONS, value: (problems.hmac && value('scope')) || 'all', errors: problems.hmac })}`,
    });
    const urlForm = form({
      action: `${PATH}/webhook-urls`,
      csrfToken: ctx.csrfToken,
      submit: 'Save webhook URLs',
      body: html`${formProblem(problems.urls, ['paymentWebhookUrl', 'payoutWebhookUrl'])}
        ${field({ name: 'paymentWebhookUrl', label: 'Payment webhook URL', type: 'url', value: problems.urls ? value('paymentWebhookUrl') : merchant.paymentWebhookUrl, hint: 'Empty: no default (a payment may still name its own).', errors: problems.urls })}
        ${field({ name: 'payoutWebhookUrl', label: 'Payout webhook URL', type: 'url', value: problems.urls ? value('payoutWebhookUrl') : merchant.payoutWebhookUrl, errors: problems.urls })}`,
    });
    return ctx.page(
      'Developers',
      html`${once}
      ${section('API keys', html`${keyTable}<p class="hint">At most two active keys: add the new one, switch your servers to it, then revoke the old one.</p>`)}
      <div class="grid">${section('Register an RSA public key', rsaForm)}${section('Create an HMAC key', hmacForm)}</div>
      ${section('Default webhook URLs', urlForm)}
      ${section('Webhook secret', html`<p>Signs every webhook (webhook-signature). Rotating shows the new secret once; the old one keeps signing beside it for the overlap, so your receiver can switch without losing a delivery.</p>${actionButton(`${PATH}/webhook-secret`, ctx.csrfToken, 'Rotate webhook secret', { danger: true })}`)}
      ${section('Our public key', html`<p>Webhooks also carry a Signature header made with this key (Signature-Key-Id names it).</p>${serviceKeys.map(
        (k) => html`${facts([['Key id', html`<code>${k.keyId}</code>`], ['Status', badge(k.status, k.status === 'current' ? 'ok' : 'muted')], ['Algorithm', k.algorithm]])}<pre class="pem">${k.publicKeyPem}</pre>`,
      )}`)}`,
      Object.keys(problems).length > 0 ? 400 : 200,
    );
  };

  return (router) => {
    router.page('/merchant/developers', { roles: DEVELOPERS, nav: { label: 'Developers', section: SECTION, order: 60 } }, (ctx) => render(ctx));

    const addKey = (type: 'RSA-SHA512' | 'HMAC-SHA256', which: 'rsa' | 'hmac') => async (ctx: PageContext) => {
      const merchantId = ownMerchantId(ctx);
      const fields = type === 'HMAC-SHA256' ? { label: ctx.fields.label ?? '', scope: ctx.fields.scope ?? '' } : ctx.fields;
      const checked = validateForm(ctx.request, AddKeyBody, fields, { type });
      // The console registers merchant-held RSA keys only: it never makes a private key for anyone.
      if (type === 'RSA-SHA512' && !ctx.fields.publicKeyPem?.trim()) return render(ctx, { [which]: { ...(checked.ok ? {} : checked.errors), publicKeyPem: 'is required' } });
      if (!checked.ok) return render(ctx, { [which]: checked.errors });
      try {
        const issued = await merchants.addKey(merchantId, checked.value, ctx.actor);
        const once = issued.secret
          ? shownOnce(`HMAC key ${issued.keyId} created.`, issued.secret, 'Copy the secret now: it is shown only this once.')
          : html`<div class="alert alert-ok" role="status"><p>Public key registered as ${issued.keyId}.</p></div>`;
        return render({ ...ctx, fields: {} }, {}, once);
      } catch (error) {
        const errors = fieldErrorsOf(error);
        if (!errors) throw error;
        return render(ctx, { [which]: errors });
      }
    };
    router.action('/merchant/developers/keys/rsa', { roles: DEVELOPERS }, addKey('RSA-SHA512', 'rsa'));
    router.action('/merchant/developers/keys/hmac', { roles: DEVELOPERS }, addKey('HMAC-SHA256', 'hmac'));

    router.action('/merchant/developers/keys/:keyId/revoke', { roles: DEVELOPERS }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      const confirm = confirmStep(ctx, {
        title: 'Revoke this key?',
        message: html`<p>Requests signed with <code>${ctx.params.keyId}</code> are refused from now on. This cannot be undone.</p>`,
        action: `${PATH}/keys/${ctx.params.keyId}/revoke`,
        submit: 'Yes, revoke',
        back: PATH,
      });
      if (confirm) return confirm;
      await merchants.revokeKey(merchantId, ctx.params.keyId!, ctx.actor);
      return ctx.redirect(PATH, 'Key revoked.');
    });

    router.action('/merchant/developers/webhook-urls', { roles: DEVELOPERS }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      // An emptied field clears the default (the API's null).
      const given = (name: string) => (ctx.fields[name]?.trim() ? ctx.fields[name]!.trim() : null);
      const fixed = { paymentWebhookUrl: given('paymentWebhookUrl'), payoutWebhookUrl: given('payoutWebhookUrl') };
      const checked = validateForm(ctx.request, WebhooksBody, {}, fixed);
      // The operator API's address rules (scheme, allowed hosts, no private addresses), field by field.
      const errors: Record<string, string> = { ...(checked.ok ? {} : checked.errors) };
      for (const name of ['paymentWebhookUrl', 'payoutWebhookUrl'] as const) {
        if (errors[name]) continue;
        try {
          checkWebhookUrl(name, fixed[name], webhookConfig);
        } catch (error) {
          const problems = fieldErrorsOf(error);
          if (!problems) throw error;
          Object.assign(errors, problems);
        }
      }
      if (Object.keys(errors).length > 0) return render(ctx, { urls: errors });
      await merchants.setWebhookUrls(merchantId, { payment: fixed.paymentWebhookUrl, payout: fixed.payoutWebhookUrl }, ctx.actor);
      return ctx.redirect(PATH, 'Webhook URLs saved.');
    });

    router.action('/merchant/developers/webhook-secret', { roles: DEVELOPERS }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      const confirm = confirmStep(ctx, {
        title: 'Rotate the webhook secret?',
        message: html`<p>A new secret signs every webhook from now on; the current one keeps signing beside it for the overlap, then stops.</p>`,
        action: `${PATH}/webhook-secret`,
        submit: 'Yes, rotate',
        back: PATH,
      });
      if (confirm) return confirm;
      const rotated = await merchants.rotateWebhookSecretWithOverlap(merchantId, ctx.actor);
      const note = rotated.previousSecretExpiresAt ? `Shown only this once. The previous secret keeps signing until ${rotated.previousSecretExpiresAt}.` : 'Shown only this once.';
      return render({ ...ctx, fields: {} }, {}, shownOnce('New webhook secret.', rotated.webhookSecret, note));
    });
  };
}
