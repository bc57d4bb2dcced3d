// Odd and late money held for the operator: payments that arrived after expiry (or for a different
// amount), kept in suspense until the operator returns them to the payer or credits the merchant.
import { html } from '../../core/html.js';
import { HELD_STATUSES, type HeldMoneyItem, type HeldStatus } from '../../domain/payments/held-money.js';
import { ResolveBody } from '../../api/admin/held-money.js';
import { OPERATOR_ADMIN, OPERATOR_ROLES_ALL, PREFIX, type ConsolePages, type PageContext } from '../app.js';
import { badge, csrfField, field, formProblem, moneyOfMajor, section, table, time, urlWith } from '../components.js';
import { confirmStep } from '../confirm.js';
import { fieldErrorsOf, validateForm, type FieldErrors } from '../forms.js';
import type { OperatorPageOptions } from './index.js';

const PAGE_SIZE = 25;

export function operatorHeldPages({ held }: OperatorPageOptions): ConsolePages {
  return (router) => {
    router.page('/held', { roles: OPERATOR_ROLES_ALL, nav: { label: 'Held money', section: 'Operator', order: 50 } }, async (ctx) => {
      const status: HeldStatus = (HELD_STATUSES as readonly string[]).includes(ctx.query.status ?? '') ? (ctx.query.status as HeldStatus) : 'open';
      const page = await held.list({ status, limit: PAGE_SIZE, cursor: ctx.query.after || undefined, merchantId: ctx.query.merchant || undefined });
      return ctx.page(
        'Held money',
        html`<form method="get" action="${PREFIX}/held" class="toolbar">${field({ name: 'status', label: 'Status', options: HELD_STATUSES.map((s) => [s, s] as const), value: status })}${field({ name: 'merchant', label: 'Merchant ID', value: ctx.query.merchant })}<button type="submit" class="button secondary">Filter</button></form>
        ${table<HeldMoneyItem>({
          caption: 'Held money, newest first',
          columns: [
            { label: 'Payment', cell: (h) => html`<a href="${PREFIX}/held/${encodeURIComponent(h.transactionRef)}"><code>${h.transactionRef}</code></a>` },
            { label: 'Merchant', cell: (h) => html`<a href="${PREFIX}/merchants/${h.merchantId}">${h.merchantId}</a>` },
            { label: 'Asked', cell: (h) => moneyOfMajor(h.amountAsked, h.currency), numeric: true },
            { label: 'Held', cell: (h) => html`${moneyOfMajor(h.amountHeld, h.currency)}${h.amountMismatch ? html` ${badge('different amount', 'warn')}` : ''}`, numeric: true },
            { label: 'Payment status', cell: (h) => badge(h.paymentStatus) },
            { label: 'Status', cell: (h) => badge(h.status, h.status === 'open' ? 'warn' : 'muted') },
            { label: 'Received', cell: (h) => time(h.receivedAt) },
          ],
          rows: page.items,
          empty: `No ${status} held money.`,
          nextUrl: page.nextCursor ? urlWith(`${PREFIX}/held`, { status, merchant: ctx.query.merchant, after: page.nextCursor }) : null,
          firstUrl: ctx.query.after ? urlWith(`${PREFIX}/held`, { status, merchant: ctx.query.merchant }) : null,
        })}`,
      );
    });

    const itemPage = async (ctx: PageContext, errors?: FieldErrors) => {
      const item = await held.get(ctx.params.ref!);
      const base = `${PREFIX}/held/${encodeURIComponent(item.transactionRef)}`;
      const actions =
        ctx.can(OPERATOR_ADMIN) && item.status === 'open'
          ? section(
              'Resolve',
              html`${formProblem(errors, ['reason'])}<form method="post" class="form" action="${base}/resolve" novalidate>${csrfField(ctx.csrfToken)}
                ${field({ name: 'reason', label: 'Reason', required: true, value: ctx.fields.reason, hint: 'Kept with the item, in the journal entry and the audit log.', errors })}
                <div class="actions"><button type="submit" name="resolution" value="credit" class="button">Credit the merchant</button><button type="submit" name="resolution" value="return" class="button danger">Return to the payer</button></div></form>`,
            )
          : '';
      return ctx.page(
        `Held payment ${item.transactionRef}`,
        html`${section('Payment', html`<dl class="facts">
          <div><dt>Merchant</dt><dd><a href="${PREFIX}/merchants/${item.merchantId}">${item.merchantId}</a></dd></div>
          <div><dt>Merchant reference</dt><dd>${item.merchantRef}</dd></div>
          <div><dt>Method</dt><dd>${item.method}</dd></div>
          <div><dt>Asked</dt><dd>${moneyOfMajor(item.amountAsked, item.currency)}</dd></div>
          <div><dt>Arrived</dt><dd>${moneyOfMajor(item.amountHeld, item.currency)}</dd></div>
          <div><dt>Status</dt><dd>${badge(item.status, item.status === 'open' ? 'warn' : 'muted')}</dd></div>
          <div><dt>Held because</dt><dd>${item.heldBecause ?? 'it arrived after the payment ended'}</dd></div>
          <div><dt>Resolved</dt><dd>${item.resolvedBy ? html`${item.resolvedBy}, ${item.resolvedAt ? time(item.resolvedAt) : ''}: ${item.note ?? ''}` : '—'}</dd></div>
        </dl>`)}${actions}`,
        errors ? 400 : 200,
      );
    };

    router.page('/held/:ref', { roles: OPERATOR_ROLES_ALL }, (ctx) => itemPage(ctx));

    router.action('/held/:ref/resolve', { roles: OPERATOR_ADMIN }, async (ctx) => {
      const item = await held.get(ctx.params.ref!);
      const resolution = ctx.fields.resolution === 'return' ? 'return' : 'credit';
      const checked = validateForm(ctx.request, ResolveBody, ctx.fields);
      if (!checked.ok) return itemPage(ctx, checked.errors);
      const base = `${PREFIX}/held/${encodeURIComponent(item.transactionRef)}`;
      const confirm = confirmStep(ctx, {
        title: resolution === 'return' ? 'Return the money to the payer?' : 'Credit the merchant?',
        message:
          resolution === 'return'
            ? html`<p>${moneyOfMajor(item.amountHeld, item.currency)} goes back to the payer through the channel. This cannot be undone.</p>`
            : html`<p>${moneyOfMajor(item.amountHeld, item.currency)}, less the pay-in fee, is credited to merchant ${item.merchantId}. This cannot be undone.</p>`,
        action: `${base}/resolve`,
        submit: resolution === 'return' ? 'Return to the payer' : 'Credit the merchant',
        back: base,
      });
      if (confirm) return confirm;
      try {
        if (resolution === 'return') await held.returnToPayer(item.transactionRef, ctx.actor, checked.value.reason);
        else await held.credit(item.transactionRef, ctx.actor, checked.value.reason);
      } catch (error) {
        const errors = fieldErrorsOf(error);
        if (!errors) throw error;
        return itemPage(ctx, errors);
      }
      return ctx.redirect(base, resolution === 'return' ? 'The return to the payer is under way.' : 'The merchant is credited.');
    });
  };
}
