// Failing webhook endpoints: which merchants' URLs keep refusing or never answer (events given up on,
// or still retrying after errors), and the events given up on, each with a resend.
import { AppError } from '../../core/errors.js';
import { html } from '../../core/html.js';
import type { FailingEndpoint } from '../../webhooks/endpoint-health.js';
import type { WebhookEventView } from '../../webhooks/service.js';
import { OPERATOR_ADMIN, OPERATOR_ROLES_ALL, PREFIX, type ConsolePages } from '../app.js';
import { barChart } from '../charts.js';
import { actionButton, badge, field, section, table, time, urlWith } from '../components.js';
import type { OperatorPageOptions } from './index.js';

const PAGE_SIZE = 25;

/** A short label for a chart row: the URL's host (the table below has the whole URL). */
function hostOf(url: string): string {
  try {
    const host = new URL(url).host;
    return host.length > 16 ? `${host.slice(0, 15)}…` : host;
  } catch {
    return url.slice(0, 16);
  }
}
const WINDOWS: ReadonlyArray<readonly [string, string]> = [['1', 'Last day'], ['7', 'Last 7 days'], ['30', 'Last 30 days']];

export function operatorWebhookPages({ webhooks, clock }: OperatorPageOptions): ConsolePages {
  return (router) => {
    router.page('/webhooks', { roles: OPERATOR_ROLES_ALL, nav: { label: 'Failing webhooks', section: 'Operator', order: 60 } }, async (ctx) => {
      const days = WINDOWS.some(([value]) => value === ctx.query.days) ? Number(ctx.query.days) : 7;
      const sinceMs = clock.nowMs() - days * 86_400_000;
      const endpoints = await webhooks.failingEndpoints({ sinceMs, limit: PAGE_SIZE, after: ctx.query.after || undefined });
      const events = await webhooks.listEvents(null, { status: 'failed', limit: PAGE_SIZE, before: ctx.query.before || undefined });
      const admin = ctx.can(OPERATOR_ADMIN);
      const chart =
        endpoints.items.length > 0
          ? barChart(
              'Failing events per endpoint (red: some given up on; amber: still retrying)',
              endpoints.items.slice(0, 10).map((e) => ({ label: hostOf(e.url), value: BigInt(e.failed + e.retrying), text: String(e.failed + e.retrying), tone: e.failed > 0 ? ('bad' as const) : ('warn' as const) })),
            )
          : '';
      return ctx.page(
        'Failing webhook endpoints',
        html`<form method="get" action="${PREFIX}/webhooks" class="toolbar">${field({ name: 'days', label: 'Events created', options: WINDOWS, value: String(days) })}<button type="submit" class="button secondary">Show</button></form>
        ${chart}
        ${section('Endpoints', table<FailingEndpoint>({
          caption: 'Failing endpoints by merchant',
          columns: [
            { label: 'Merchant', cell: (e) => html`<a href="${PREFIX}/merchants/${e.merchantId}">${e.merchantId}</a>` },
            { label: 'URL', cell: (e) => html`<code>${e.url}</code>` },
            { label: 'Given up', cell: (e) => (e.failed > 0 ? badge(String(e.failed), 'bad') : '0'), numeric: true },
            { label: 'Retrying', cell: (e) => (e.retrying > 0 ? badge(String(e.retrying), 'warn') : '0'), numeric: true },
            { label: 'Last error', cell: (e) => e.lastError ?? '—' },
            { label: 'Last event', cell: (e) => time(e.lastEventAt) },
          ],
          rows: endpoints.items,
          empty: 'No endpoint is failing in this period.',
          nextUrl: endpoints.nextAfter ? urlWith(`${PREFIX}/webhooks`, { days: String(days), after: endpoints.nextAfter }) : null,
          firstUrl: ctx.query.after ? urlWith(`${PREFIX}/webhooks`, { days: String(days) }) : null,
        }))}
        ${section('Events given up on', table<WebhookEventView>({
          caption: 'Failed webhook events, newest first',
          columns: [
            { label: 'Event', cell: (e) => html`<code>${e.id}</code>` },
            { label: 'Type', cell: (e) => e.type },
            { label: 'Merchant', cell: (e) => html`<a href="${PREFIX}/merchants/${e.merchantId}">${e.merchantId}</a>` },
            { label: 'Attempts', cell: (e) => String(e.attemptCount), numeric: true },
            { label: 'Last error', cell: (e) => e.lastError ?? '—' },
            { label: 'Created', cell: (e) => time(e.createdAt) },
            ...(admin ? [{ label: 'Action', cell: (e: WebhookEventView) => actionButton(`${PREFIX}/webhooks/${encodeURIComponent(e.id)}/resend`, ctx.csrfToken, 'Resend') }] : []),
          ],
          rows: events.events,
          empty: 'No event was given up on.',
          nextUrl: events.nextBefore ? urlWith(`${PREFIX}/webhooks`, { days: String(days), before: events.nextBefore }) : null,
          firstUrl: ctx.query.before ? urlWith(`${PREFIX}/webhooks`, { days: String(days) }) : null,
        }))}`,
      );
    });

    router.action('/webhooks/:id/resend', { roles: OPERATOR_ADMIN }, async (ctx) => {
      try {
        const event = await webhooks.resend(ctx.params.id!, null, ctx.actor);
        return ctx.redirect(`${PREFIX}/webhooks`, `Event ${event.id} is queued again.`);
      } catch (error) {
        // A refusal the operator can act on (no URL configured...) comes back as the notice.
        if (error instanceof AppError && error.status < 500 && error.status !== 404) return ctx.redirect(`${PREFIX}/webhooks`, error.detail);
        throw error;
      }
    });
  };
}
