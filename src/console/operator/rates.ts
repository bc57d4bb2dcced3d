// USDT reference rates and spreads: the rate in force per currency and the form to set one, checked
// with the operator API's RateBody and the same decimal rule (parseRateMicros).
import { AppError } from '../../core/errors.js';
import { html } from '../../core/html.js';
import { CURRENCIES, type Currency } from '../../core/money.js';
import { formatRateMicros, parseRateMicros, type UsdtRate } from '../../domain/rates.js';
import { RateBody } from '../../api/admin/rates.js';
import { isoFromMs } from '../../core/clock.js';
import { OPERATOR_ADMIN, OPERATOR_ROLES_ALL, PREFIX, type ConsolePages, type PageContext } from '../app.js';
import { field, form, formProblem, section, table, time } from '../components.js';
import { fieldErrorsOf, validateForm, type FieldErrors } from '../forms.js';
import type { OperatorPageOptions } from './index.js';

export function operatorRatePages({ rates }: OperatorPageOptions): ConsolePages {
  return (router) => {
    const render = async (ctx: PageContext, errors?: FieldErrors) => {
      const all: UsdtRate[] = [];
      for (const currency of CURRENCIES) {
        try {
          all.push(await rates.get(currency));
        } catch (error) {
          if (!(error instanceof AppError && error.reason === 'NOT_FOUND')) throw error;
        }
      }
      const list = table<UsdtRate>({
        caption: 'USDT rates in force',
        columns: [
          { label: 'Currency', cell: (r) => r.currency },
          { label: 'Reference per USDT', cell: (r) => formatRateMicros(r.referenceMicros), numeric: true },
          { label: 'Deposit rate', cell: (r) => html`${formatRateMicros(r.depositMicros)} <span class="hint">(${r.depositSpreadBps} bps)</span>`, numeric: true },
          { label: 'Withdraw rate', cell: (r) => html`${formatRateMicros(r.withdrawMicros)} <span class="hint">(${r.withdrawSpreadBps} bps)</span>`, numeric: true },
          { label: 'Set', cell: (r) => html`${time(isoFromMs(r.setAtMs))} by ${r.setBy}` },
        ],
        rows: all,
        empty: 'No rate is set yet.',
      });
      const setForm = ctx.can(OPERATOR_ADMIN)
        ? section(
            'Set a rate',
            html`${formProblem(errors, ['currency', 'reference', 'depositSpreadBps', 'withdrawSpreadBps'])}${form({
              action: `${PREFIX}/rates`,
              csrfToken: ctx.csrfToken,
              submit: 'Set rate',
              body: html`<div class="form-row">${field({ name: 'currency', label: 'Currency', options: CURRENCIES.map((c) => [c, c] as const), value: ctx.fields.currency, errors })}
                ${field({ name: 'reference', label: 'Reference (local currency per USDT)', inputmode: 'decimal', value: ctx.fields.reference, required: true, hint: 'Up to 6 decimals, e.g. 88.25', errors })}</div>
                <div class="form-row">${field({ name: 'depositSpreadBps', label: 'Deposit spread (bps)', type: 'number', inputmode: 'numeric', value: ctx.fields.depositSpreadBps ?? '50', required: true, errors })}
                ${field({ name: 'withdrawSpreadBps', label: 'Withdraw spread (bps)', type: 'number', inputmode: 'numeric', value: ctx.fields.withdrawSpreadBps ?? '50', required: true, errors })}</div>`,
            })}`,
          )
        : '';
      return ctx.page('USDT rates', html`${list}${setForm}`, errors ? 400 : 200);
    };

    router.page('/rates', { roles: OPERATOR_ROLES_ALL, nav: { label: 'USDT rates', section: 'Operator', order: 20 } }, (ctx) => render(ctx));

    router.action('/rates', { roles: OPERATOR_ADMIN }, async (ctx) => {
      const currency = ctx.fields.currency ?? '';
      const checked = validateForm(ctx.request, RateBody, ctx.fields);
      const currencyProblem = (CURRENCIES as readonly string[]).includes(currency) ? null : `must be one of ${CURRENCIES.join(', ')}`;
      if (!checked.ok || currencyProblem) return render(ctx, { ...(checked.ok ? {} : checked.errors), ...(currencyProblem ? { currency: currencyProblem } : {}) });
      const micros = parseRateMicros(checked.value.reference);
      if (micros === null) return render(ctx, { reference: 'must be a positive decimal string with at most 6 decimals' });
      try {
        await rates.set(currency as Currency, micros, checked.value.depositSpreadBps, checked.value.withdrawSpreadBps, ctx.actor);
      } catch (error) {
        const errors = fieldErrorsOf(error);
        if (!errors) throw error;
        return render(ctx, errors);
      }
      return ctx.redirect(`${PREFIX}/rates`, `The ${currency} rate is set.`);
    });
  };
}
