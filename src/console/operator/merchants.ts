// The operator's merchants: the list (server pages, newest first), creation (secrets shown once), and
// one merchant's page with its status, balances, fees and limits, credit line, security deposit and
// connector routes. Every form is checked with the operator API's own body schema and calls the same
// service as its /admin route.

import { formatMoney } from '../../core/currency-format.js';
import { CURRENCIES, isCurrency, type Currency } from '../../core/money.js';
import { html, type HtmlValue } from '../../core/html.js';
import { createMerchant, CreateMerchantBody } from '../../api/admin/merchants.js';
import { CreditBody, FeeBody, LimitBody, minorOf, SecurityBody } from '../../api/admin/ledger.js';
import { RouteBody } from '../../api/admin/connectors.js';
import type { Merchant } from '../../merchants/merchant-service.js';
import { OPERATOR_ADMIN, OPERATOR_ROLES_ALL, PREFIX, type ConsolePages, type PageContext, type PageResult } from '../app.js';
import { barChart } from '../charts.js';
import { actionButton, badge, facts, field, form, formProblem, money, section, table, time, urlWith } from '../components.js';
import { confirmStep } from '../confirm.js';
import { fieldErrorsOf, validateForm, type FieldErrors } from '../forms.js';
import type { OperatorPageOptions } from './index.js';

const PAGE_SIZE = 25;
const CURRENCY_OPTIONS = CURRENCIES.map((c) => [c, c] as const);
const DIRECTION_OPTIONS = [['payin', 'Pay-in'], ['payout', 'Payout']] as const;

/** Which form on the merchant page a problem belongs to. */
type FormName = 'fee' | 'limits' | 'credit' | 'security' | 'route';
interface FormState {
  readonly name: FormName;
  readonly errors: FieldErrors;
}

const merchantLink = (m: Pick<Merchant, 'id' | 'name'>) => html`<a href="${PREFIX}/merchants/${m.id}">${m.name}</a>`;

export function operatorMerchantPages(options: OperatorPageOptions): ConsolePages {
  const { merchants, ledger, fees, connectorSettings, refreshRouting, webhookConfig } = options;

  return (router) => {
    router.page('/merchants', { roles: OPERATOR_ROLES_ALL, nav: { label: 'Merchants', section: 'Operator', order: 10 } }, async (ctx) => {
      const status = ctx.query.status === 'active' || ctx.query.status === 'disabled' ? ctx.query.status : undefined;
      const page = await merchants.page({ before: ctx.query.before || undefined, limit: PAGE_SIZE, status });
      const filter = html`<form method="get" action="${PREFIX}/merchants" class="toolbar">
  ${field({ name: 'status', label: 'Status', options: [['', 'Any'], ['active', 'Active'], ['disabled', 'Disabled']], value: status ?? '' })}
  <button type="submit" class="button secondary">Filter</button>
  ${ctx.can(OPERATOR_ADMIN) ? html`<a class="button" href="${PREFIX}/merchants/new">New merchant</a>` : ''}
</form>`;
      return ctx.page(
        'Merchants',
        html`${filter}${table<Merchant>({
          caption: 'Merchants, newest first',
          columns: [
            { label: 'Name', cell: merchantLink },
            { label: 'Merchant ID', cell: (m) => html`<code>${m.id}</code>` },
            { label: 'Mode', cell: (m) => badge(m.mode) },
            { label: 'Status', cell: (m) => badge(m.status) },
            { label: 'Created', cell: (m) => time(m.createdAt) },
          ],
          rows: page.items,
          empty: 'No merchants match.',
          nextUrl: page.nextBefore ? urlWith(`${PREFIX}/merchants`, { before: page.nextBefore, status }) : null,
          firstUrl: ctx.query.before ? urlWith(`${PREFIX}/merchants`, { status }) : null,
        })}`,
      );
    });

    const newForm = (ctx: PageContext, errors?: FieldErrors) =>
      ctx.page(
        'New merchant',
        section(
          'Merchant',
          html`${formProblem(errors, ['name', 'mode', 'keyType', 'rateLimitPerSecond', 'paymentWebhookUrl', 'payoutWebhookUrl', 'publicKeyPem'])}${form({
            action: `${PREFIX}/merchants/new`,
            csrfToken: ctx.csrfToken,
            submit: 'Create merchant',
            body: html`${field({ name: 'name', label: 'Name', required: true, value: ctx.fields.name, errors })}
              <div class="form-row">${field({ name: 'mode', label: 'Mode', options: [['sandbox', 'Sandbox'], ['live', 'Live']], value: ctx.fields.mode ?? 'sandbox', errors })}
              ${field({ name: 'keyType', label: 'First API key', options: [['RSA-SHA512', 'RSA-SHA512'], ['HMAC-SHA256', 'HMAC-SHA256']], value: ctx.fields.keyType ?? 'RSA-SHA512', errors })}</div>
              ${field({ name: 'publicKeyPem', label: 'RSA public key (PEM)', type: 'textarea', value: ctx.fields.publicKeyPem, hint: 'Leave empty to generate a key pair (the private key is shown once).', errors })}
              ${field({ name: 'rateLimitPerSecond', label: 'Requests per second', type: 'number', inputmode: 'numeric', value: ctx.fields.rateLimitPerSecond, hint: 'Empty: the service default.', errors })}
              ${field({ name: 'paymentWebhookUrl', label: 'Payment webhook URL', type: 'url', value: ctx.fields.paymentWebhookUrl, errors })}
              ${field({ name: 'payoutWebhookUrl', label: 'Payout webhook URL', type: 'url', value: ctx.fields.payoutWebhookUrl, errors })}`,
          })}`,
        ),
        errors ? 400 : 200,
      );

    router.page('/merchants/new', { roles: OPERATOR_ADMIN }, async (ctx) => newForm(ctx));

    router.action('/merchants/new', { roles: OPERATOR_ADMIN }, async (ctx) => {
      const checked = validateForm(ctx.request, CreateMerchantBody, ctx.fields);
      if (!checked.ok) return newForm(ctx, checked.errors);
      const body = checked.value;
      try {
        const created = await createMerchant(merchants, webhookConfig, body, ctx.actor);
        const { merchant, key, webhookSecret } = created;
        return ctx.page(
          'Merchant created',
          html`<div class="alert alert-warn" role="alert"><p>Copy these secrets now: they are shown <strong>only once</strong> and stored only sealed or not at all.</p></div>
${section('Credentials', facts([
  ['Merchant', merchantLink(merchant)],
  ['MerchantID', html`<code>${merchant.id}</code>`],
  ['Key', html`<code>${key.keyId}</code> (${key.type})`],
  ['Webhook secret', html`<code class="secret">${webhookSecret}</code>`],
  ...(key.secret ? [['HMAC secret', html`<code class="secret">${key.secret}</code>`] as const] : []),
]))}
${key.privateKeyPem ? section('Private key (PEM)', html`<pre class="secret">${key.privateKeyPem}</pre>`) : ''}
<p><a class="button" href="${PREFIX}/merchants/${merchant.id}">Open the merchant</a></p>`,
        );
      } catch (error) {
        const errors = fieldErrorsOf(error);
        if (!errors) throw error;
        return newForm(ctx, errors);
      }
    });

    const detail = async (ctx: PageContext, state?: FormState): Promise<PageResult> => {
      const merchant = await merchants.get(ctx.params.id!);
      const currency: Currency = isCurrency(ctx.query.currency ?? ctx.fields.currency) ? ((ctx.query.currency ?? ctx.fields.currency) as Currency) : 'INR';
      const balances = await ledger.balances(merchant.id, currency);
      const terms = await fees.termsFor(merchant.id, currency);
      const routes = (await connectorSettings.listRoutes(merchant.id)).filter((r) => r.merchantId === merchant.id);
      const admin = ctx.can(OPERATOR_ADMIN);
      const base = `${PREFIX}/merchants/${merchant.id}`;
      const errorsOf = (name: FormName) => (state?.name === name ? state.errors : undefined);
      const valueOf = (name: FormName, field: string) => (state?.name === name ? ctx.fields[field] : undefined);

      const statusAction = admin
        ? merchant.status === 'active'
          ? actionButton(`${base}/disable`, ctx.csrfToken, 'Disable merchant', { danger: true })
          : actionButton(`${base}/enable`, ctx.csrfToken, 'Enable merchant')
        : '';

      const currencyTabs = html`<nav class="toolbar" aria-label="Currency">${CURRENCIES.map((c) =>
        c === currency ? html`<span class="button small" aria-current="page">${c}</span>` : html`<a class="button small secondary" href="${base}?currency=${c}">${c}</a>`,
      )}</nav>`;

      const kinds = [
        ['Available', balances.available, 'ok'],
        ['Pending', balances.pending, 'info'],
        ['Held for payouts', balances.held, 'warn'],
        ['Security deposit', balances.security, 'info'],
        ['Credit line', balances.credit, 'info'],
      ] as const;
      const balanceSection = section(
        `Balances in ${currency}`,
        html`<div class="stats">${kinds.map(([label, value]) => html`<div class="stat"><div class="label">${label}</div><div class="value">${money(value, currency)}</div></div>`)}</div>
        ${barChart(`${merchant.name}: balances in ${currency}`, kinds.map(([label, value, tone]) => ({ label, value: value < 0n ? 0n : value, text: formatMoney(value, currency), tone })))}`,
      );

      const termsTable = table({
        caption: `Fees and limits in ${currency}`,
        columns: [
          { label: 'Method', cell: (t: (typeof terms)[number]) => t.method },
          { label: 'Direction', cell: (t) => t.direction },
          { label: 'Fee', cell: (t) => html`${(Number(t.fee.bps) / 100).toFixed(2)}% + ${money(t.fee.fixedMinor, currency)}` },
          { label: 'Minimum', cell: (t) => money(t.bounds.minMinor, currency), numeric: true },
          { label: 'Maximum', cell: (t) => money(t.bounds.maxMinor, currency), numeric: true },
        ],
        rows: terms,
        empty: `No methods in ${currency}.`,
      });

      const methodOptions = [...new Set(terms.map((t) => t.method))].map((m) => [m, m] as const);
      const hiddenCurrency = html`<input type="hidden" name="currency" value="${currency}">`;
      const moneyForms: HtmlValue = admin
        ? html`<div class="grid">
${section('Set a fee', html`${formProblem(errorsOf('fee'), ['method', 'direction', 'bps', 'fixed'])}${form({
  action: `${base}/fees`,
  csrfToken: ctx.csrfToken,
  submit: 'Set fee',
  body: html`${hiddenCurrency}<div class="form-row">${field({ name: 'method', label: 'Method', options: methodOptions, value: valueOf('fee', 'method'), errors: errorsOf('fee') })}
    ${field({ name: 'direction', label: 'Direction', options: DIRECTION_OPTIONS, value: valueOf('fee', 'direction'), errors: errorsOf('fee') })}</div>
    <div class="form-row">${field({ name: 'bps', label: 'Percentage (basis points)', type: 'number', inputmode: 'numeric', value: valueOf('fee', 'bps'), hint: '100 = 1%', required: true, errors: errorsOf('fee') })}
    ${field({ name: 'fixed', label: `Fixed part (${currency})`, inputmode: 'decimal', value: valueOf('fee', 'fixed'), required: true, errors: errorsOf('fee') })}</div>`,
})}`)}
${section('Set limits', html`${formProblem(errorsOf('limits'), ['method', 'direction', 'min', 'max'])}${form({
  action: `${base}/limits`,
  csrfToken: ctx.csrfToken,
  submit: 'Set limits',
  body: html`${hiddenCurrency}<div class="form-row">${field({ name: 'method', label: 'Method', options: methodOptions, value: valueOf('limits', 'method'), errors: errorsOf('limits') })}
    ${field({ name: 'direction', label: 'Direction', options: DIRECTION_OPTIONS, value: valueOf('limits', 'direction'), errors: errorsOf('limits') })}</div>
    <div class="form-row">${field({ name: 'min', label: `Minimum (${currency})`, inputmode: 'decimal', value: valueOf('limits', 'min'), required: true, errors: errorsOf('limits') })}
    ${field({ name: 'max', label: `Maximum (${currency})`, inputmode: 'decimal', value: valueOf('limits', 'max'), required: true, errors: errorsOf('limits') })}</div>`,
})}`)}
${section('Credit line', html`${formProblem(errorsOf('credit'), ['action', 'amount', 'reason', 'idempotencyKey'])}${form({
  action: `${base}/credit`,
  csrfToken: ctx.csrfToken,
  submit: 'Post',
  body: html`${hiddenCurrency}${field({ name: 'action', label: 'Action', options: [['grant', 'Grant credit'], ['lower', 'Lower unused credit']], value: valueOf('credit', 'action'), errors: errorsOf('credit') })}
    ${field({ name: 'amount', label: `Amount (${currency})`, inputmode: 'decimal', value: valueOf('credit', 'amount'), required: true, errors: errorsOf('credit') })}
    ${field({ name: 'reason', label: 'Reason', value: valueOf('credit', 'reason'), required: true, hint: 'Kept in the journal and the audit log.', errors: errorsOf('credit') })}`,
})}`)}
${section('Security deposit', html`${formProblem(errorsOf('security'), ['action', 'amount', 'reason', 'idempotencyKey'])}${form({
  action: `${base}/security`,
  csrfToken: ctx.csrfToken,
  submit: 'Post',
  body: html`${hiddenCurrency}${field({ name: 'action', label: 'Action', options: [['deposit', 'Move available into the deposit'], ['release', 'Release the deposit to available']], value: valueOf('security', 'action'), errors: errorsOf('security') })}
    ${field({ name: 'amount', label: `Amount (${currency})`, inputmode: 'decimal', value: valueOf('security', 'amount'), required: true, errors: errorsOf('security') })}
    ${field({ name: 'reason', label: 'Reason', value: valueOf('security', 'reason'), required: true, errors: errorsOf('security') })}`,
})}`)}
</div>`
        : '';

      const routeTable = table({
        caption: 'Connector routes of this merchant',
        columns: [
          { label: 'Currency', cell: (r: (typeof routes)[number]) => r.currency },
          { label: 'Direction', cell: (r) => r.direction },
          { label: 'Method', cell: (r) => r.method },
          { label: 'Connectors, in order', cell: (r) => r.connectors.join(' → ') },
        ],
        rows: routes,
        empty: 'No routes of its own: a live merchant uses the default routes.',
      });
      const routeForm = admin
        ? html`${formProblem(errorsOf('route'), ['currency', 'direction', 'method', 'connectors'])}${form({
            action: `${base}/routes`,
            csrfToken: ctx.csrfToken,
            submit: 'Set route',
            body: html`<div class="form-row">${field({ name: 'currency', label: 'Currency', options: CURRENCY_OPTIONS, value: valueOf('route', 'currency') ?? currency, errors: errorsOf('route') })}
              ${field({ name: 'direction', label: 'Direction', options: DIRECTION_OPTIONS, value: valueOf('route', 'direction'), errors: errorsOf('route') })}
              ${field({ name: 'method', label: 'Method', value: valueOf('route', 'method'), required: true, errors: errorsOf('route') })}</div>
              ${field({ name: 'connectors', label: 'Connectors, in order', value: valueOf('route', 'connectors'), hint: 'Comma-separated names, e.g. razorpay, simulator. Empty removes the route.', errors: errorsOf('route') })}`,
          })}`
        : '';

      return ctx.page(
        merchant.name,
        html`${section('Merchant', html`${facts([
          ['MerchantID', html`<code>${merchant.id}</code>`],
          ['Mode', badge(merchant.mode)],
          ['Status', badge(merchant.status)],
          ['Rate limit', `${merchant.rateLimitPerSecond} requests/s`],
          ['Payment webhook', merchant.paymentWebhookUrl ?? '—'],
          ['Payout webhook', merchant.payoutWebhookUrl ?? '—'],
          ['Created', time(merchant.createdAt)],
        ])}<div class="actions">${statusAction}<a class="button small secondary" href="${PREFIX}/users?merchant=${merchant.id}">Console users</a><a class="button small secondary" href="${PREFIX}/audit?merchant=${merchant.id}">Audit log</a></div>`)}
        ${currencyTabs}${balanceSection}
        ${section(`Fees and limits in ${currency}`, termsTable)}
        ${moneyForms}
        ${section('Connector routes', html`${routeTable}${routeForm}`)}`,
        state ? 400 : 200,
      );
    };

    router.page('/merchants/:id', { roles: OPERATOR_ROLES_ALL }, (ctx) => detail(ctx));

    for (const [path, status, verb] of [['disable', 'disabled', 'Disable'], ['enable', 'active', 'Enable']] as const) {
      router.action(`/merchants/:id/${path}`, { roles: OPERATOR_ADMIN }, async (ctx) => {
        const merchant = await merchants.get(ctx.params.id!);
        const back = `${PREFIX}/merchants/${merchant.id}`;
        const confirm = confirmStep(ctx, {
          title: `${verb} ${merchant.name}?`,
          message:
            status === 'disabled'
              ? html`<p>Every API call of <strong>${merchant.name}</strong> will be refused with MERCHANT_DISABLED until it is enabled again. Payments and payouts already under way continue.</p>`
              : html`<p><strong>${merchant.name}</strong> will be able to call the API again.</p>`,
          action: `${back}/${path}`,
          submit: `${verb} merchant`,
          back,
        });
        if (confirm) return confirm;
        await merchants.setStatus(merchant.id, status, ctx.actor);
        return ctx.redirect(back, `${merchant.name} is ${status === 'disabled' ? 'disabled' : 'enabled'}.`);
      });
    }

    /** A money form: the API's schema, the same handling as its route, problems back on the merchant page. */
    const moneyAction = <T extends Parameters<typeof validateForm>[1]>(path: string, name: FormName, schema: T, run: (ctx: PageContext, value: any, currency: Currency) => Promise<string>) => {
      router.action(`/merchants/:id/${path}`, { roles: OPERATOR_ADMIN }, async (ctx) => {
        await merchants.get(ctx.params.id!);
        const checked = validateForm(ctx.request, schema, ctx.fields);
        if (!checked.ok) return detail(ctx, { name, errors: checked.errors });
        const currency = (checked.value as { currency: Currency }).currency;
        try {
          const notice = await run(ctx, checked.value, currency);
          return ctx.redirect(`${PREFIX}/merchants/${ctx.params.id}?currency=${currency}`, notice);
        } catch (error) {
          const errors = fieldErrorsOf(error);
          if (!errors) throw error;
          return detail(ctx, { name, errors });
        }
      });
    };

    moneyAction('fees', 'fee', FeeBody, async (ctx, body, currency) => {
      await fees.setFee({ merchantId: ctx.params.id!, currency, method: body.method, direction: body.direction, bps: BigInt(body.bps), fixedMinor: minorOf('fixed', body.fixed) }, ctx.actor);
      return `Fee for ${body.method} ${body.direction} set.`;
    });
    moneyAction('limits', 'limits', LimitBody, async (ctx, body, currency) => {
      await fees.setLimits({ merchantId: ctx.params.id!, currency, method: body.method, direction: body.direction, minMinor: minorOf('min', body.min), maxMinor: minorOf('max', body.max) }, ctx.actor);
      return `Limits for ${body.method} ${body.direction} set.`;
    });
    moneyAction('credit', 'credit', CreditBody, async (ctx, body, currency) => {
      const move = { merchantId: ctx.params.id!, currency, amountMinor: minorOf('amount', body.amount), reason: body.reason, actor: ctx.actor, ref: body.idempotencyKey };
      const result = body.action === 'grant' ? await ledger.grantCredit(move) : await ledger.lowerCredit(move);
      return `Credit ${body.action === 'grant' ? 'granted' : 'lowered'} (journal entry ${result.entryId}).`;
    });
    moneyAction('security', 'security', SecurityBody, async (ctx, body, currency) => {
      const move = { merchantId: ctx.params.id!, currency, amountMinor: minorOf('amount', body.amount), reason: body.reason, actor: ctx.actor, ref: body.idempotencyKey };
      const result = body.action === 'deposit' ? await ledger.moveToSecurity(move) : await ledger.releaseSecurity(move);
      return `Security deposit ${body.action === 'deposit' ? 'increased' : 'released'} (journal entry ${result.entryId}).`;
    });

    router.action('/merchants/:id/routes', { roles: OPERATOR_ADMIN }, async (ctx) => {
      const merchant = await merchants.get(ctx.params.id!);
      const connectors = (ctx.fields.connectors ?? '').split(',').map((name) => name.trim()).filter((name) => name.length > 0);
      const checked = validateForm(ctx.request, RouteBody, ctx.fields, { merchantId: merchant.id, connectors });
      if (!checked.ok) return detail(ctx, { name: 'route', errors: checked.errors });
      const { currency, direction, method } = checked.value;
      try {
        await connectorSettings.setRoute({ merchantId: merchant.id, currency, direction, method }, checked.value.connectors, ctx.actor);
        await refreshRouting();
      } catch (error) {
        const errors = fieldErrorsOf(error);
        if (!errors) throw error;
        return detail(ctx, { name: 'route', errors });
      }
      return ctx.redirect(`${PREFIX}/merchants/${merchant.id}?currency=${currency}`, `Route for ${currency} ${method} ${direction} ${connectors.length ? 'set' : 'removed'}.`);
    });
  };
}

