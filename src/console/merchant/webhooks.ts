// The merchant's webhook events: the list filtered by delivery status (webhook/events), an event with
// its body and every attempt (webhook/event), and resending it (webhook/resend) for owners and
// developers. Another merchant's event is 404, as in the API.
import { ListBody } from '../../api/webhook.js';
import { AppError } from '../../core/errors.js';
import { html } from '../../core/html.js';
import { WEBHOOK_EVENT_STATUSES, type WebhookEventView } from '../../webhooks/service.js';
import { ownMerchantId, type ConsolePages, type PageContext } from '../app.js';
import { actionButton, badge, facts, section, table, time, urlWith } from '../components.js';
import { validateForm } from '../forms.js';
import { anyOf, DEVELOPERS, filterBar, MERCHANT, READERS, SECTION } from './common.js';
import type { MerchantPageOptions } from './index.js';
import { attemptsTable, PAGE_SIZE } from './records.js';

const tone = (status: string) => (status === 'delivered' ? 'ok' : status === 'failed' ? 'bad' : status === 'pending' ? 'warn' : 'muted');

const recordLink = (e: Pick<WebhookEventView, 'resourceKind' | 'resourceRef'>) =>
  e.resourceKind === 'payment' ? html`<a href="${MERCHANT}/payments/${e.resourceRef}"><code>${e.resourceRef}</code></a>` : e.resourceKind === 'payout' ? html`<a href="${MERCHANT}/payouts/${e.resourceRef}"><code>${e.resourceRef}</code></a>` : html`<code>${e.resourceRef}</code>`;

export function merchantWebhookPages({ webhooks }: MerchantPageOptions): ConsolePages {
  const detail = async (ctx: PageContext, problem?: string) => {
    const merchantId = ownMerchantId(ctx);
    const event = await webhooks.getEvent(ctx.params.id!, merchantId);
    const resend = ctx.can(DEVELOPERS) ? actionButton(`${MERCHANT}/webhooks/${event.id}/resend`, ctx.csrfToken, 'Send again now') : '';
    return ctx.page(
      `Webhook ${event.type}`,
      html`${problem ? html`<div class="alert alert-error" role="alert"><p>${problem}</p></div>` : ''}
      ${section('Event', html`${facts([
        ['Status', badge(event.status, tone(event.status))],
        ['Event id', html`<code>${event.id}</code>`],
        ['Record', recordLink(event)],
        ['URL', event.url ?? 'none configured'],
        ['Attempts', event.attemptCount],
        ['Created', time(event.createdAt)],
        ['Delivered', event.deliveredAt ? time(event.deliveredAt) : '—'],
        ['Next attempt', event.nextAttemptAt ? time(event.nextAttemptAt) : '—'],
      ])}<div class="actions">${resend}</div>`)}
      ${section('Attempts', attemptsTable(event))}
      ${section('Body as sent', html`<pre class="pem">${JSON.stringify(event.payload, null, 2)}</pre>`)}`,
      problem ? 409 : 200,
    );
  };

  return (router) => {
    router.page('/merchant/webhooks', { roles: READERS, nav: { label: 'Webhook events', section: SECTION, order: 50 } }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      const path = `${MERCHANT}/webhooks`;
      const checked = validateForm(ctx.request, ListBody, { status: ctx.query.status ?? '', before: ctx.query.before ?? '' }, { limit: PAGE_SIZE });
      const page = checked.ok ? await webhooks.listEvents(merchantId, checked.value) : { events: [], nextBefore: null };
      const list = table<WebhookEventView>({
        caption: 'Webhook events',
        columns: [
          { label: 'Created', cell: (e) => time(e.createdAt) },
          { label: 'Type', cell: (e) => html`<a href="${path}/${e.id}">${e.type}</a>` },
          { label: 'Record', cell: recordLink },
          { label: 'Status', cell: (e) => badge(e.status, tone(e.status)) },
          { label: 'Attempts', cell: (e) => e.attemptCount, numeric: true },
          { label: 'Last error', cell: (e) => e.lastError ?? '' },
        ],
        rows: page.events,
        empty: checked.ok ? 'No webhook events match.' : 'Correct the filter above.',
        nextUrl: page.nextBefore ? urlWith(path, { status: ctx.query.status, before: page.nextBefore }) : null,
        firstUrl: ctx.query.before ? urlWith(path, { status: ctx.query.status }) : null,
      });
      const bar = filterBar(path, [{ name: 'status', label: 'Delivery status', options: anyOf(WEBHOOK_EVENT_STATUSES), value: ctx.query.status }], checked.ok ? undefined : checked.errors);
      const expired = !checked.ok && checked.errors.before ? html`<div class="alert alert-error" role="alert"><p>The page link is not valid; start from the first page.</p></div>` : '';
      return ctx.page('Webhook events', html`${bar}${expired}${list}`, checked.ok ? 200 : 400);
    });

    router.page('/merchant/webhooks/:id', { roles: READERS }, (ctx) => detail(ctx));

    router.action('/merchant/webhooks/:id/resend', { roles: DEVELOPERS }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      try {
        await webhooks.resend(ctx.params.id!, merchantId, ctx.actor);
      } catch (error) {
        // No URL configured for this kind of event: said on the event's page, nothing changed.
        if (error instanceof AppError && error.reason === 'CONFLICT') return detail(ctx, error.detail);
        throw error;
      }
      return ctx.redirect(`${MERCHANT}/webhooks/${ctx.params.id}`, 'Sent again: the first attempt is due now.');
    });
  };
}
