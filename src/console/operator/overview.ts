// The operator's first page: what needs attention now, at a glance. Counts come from the same reads
// as the pages they link to, capped (a list of hundreds is "100+", not a slow count).
import { html } from '../../core/html.js';
import { DEFAULT_STUCK_AFTER_SECONDS } from '../../domain/payouts/payout-limits.js';
import { OPERATOR_ROLES_ALL, PREFIX, type ConsolePages } from '../app.js';
import { barChart } from '../charts.js';
import { section } from '../components.js';
import type { OperatorPageOptions } from './index.js';

const CAP = 100;
const DAY_MS = 86_400_000;

const capped = (count: number, more: boolean): string => (more ? `${CAP}+` : String(count));

export function operatorOverviewPages({ merchants, payouts, held, webhooks, clock }: OperatorPageOptions): ConsolePages {
  return (router) => {
    router.page('/overview', { roles: OPERATOR_ROLES_ALL, nav: { label: 'Overview', section: 'Operator', order: 0 } }, async (ctx) => {
      const counts = await merchants.countByStatus();
      const stuck = await payouts.stuck(DEFAULT_STUCK_AFTER_SECONDS, CAP + 1);
      const open = await held.list({ status: 'open', limit: CAP });
      const failing = await webhooks.failingEndpoints({ sinceMs: clock.nowMs() - DAY_MS, limit: CAP });
      const tiles: Array<[string, string, string, string]> = [
        ['Active merchants', String(counts.active), `${PREFIX}/merchants?status=active`, 'ok'],
        ['Disabled merchants', String(counts.disabled), `${PREFIX}/merchants?status=disabled`, counts.disabled > 0 ? 'warn' : 'ok'],
        ['Stuck payouts', capped(Math.min(stuck.length, CAP), stuck.length > CAP), `${PREFIX}/payouts/stuck`, stuck.length > 0 ? 'bad' : 'ok'],
        ['Open held money', capped(open.items.length, open.nextCursor !== null), `${PREFIX}/held`, open.items.length > 0 ? 'warn' : 'ok'],
        ['Failing webhook endpoints (24 h)', capped(failing.items.length, failing.nextAfter !== null), `${PREFIX}/webhooks?days=1`, failing.items.length > 0 ? 'bad' : 'ok'],
      ];
      const attention = barChart('Needs attention now', [
        { label: 'Stuck payouts', value: BigInt(Math.min(stuck.length, CAP)), text: capped(Math.min(stuck.length, CAP), stuck.length > CAP), tone: 'bad' },
        { label: 'Held money', value: BigInt(open.items.length), text: capped(open.items.length, open.nextCursor !== null), tone: 'warn' },
        { label: 'Failing hooks', value: BigInt(failing.items.length), text: capped(failing.items.length, failing.nextAfter !== null), tone: 'bad' },
      ]);
      return ctx.page(
        'Overview',
        html`<div class="stats">${tiles.map(([label, value, link, tone]) => html`<a class="stat stat-${tone}" href="${link}"><div class="label">${label}</div><div class="value">${value}</div></a>`)}</div>
        ${section('At a glance', attention)}`,
      );
    });
  };
}
