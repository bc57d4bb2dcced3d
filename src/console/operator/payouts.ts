// Payouts stuck at the upstream: in Processing and unchanged past a threshold, oldest first, with the
// forced status query (asks the upstream now, applies its answer, never submits again).
import { html } from '../../core/html.js';
import { DEFAULT_STUCK_AFTER_SECONDS, STUCK_PAGE_DEFAULT } from '../../domain/payouts/payout-limits.js';
import type { OperatorPayoutView } from '../../domain/payouts/payout-records.js';
import { OPERATOR_ADMIN, OPERATOR_ROLES_ALL, PREFIX, type ConsolePages } from '../app.js';
import { actionButton, badge, field, moneyOfMajor, table, time } from '../components.js';
import type { OperatorPageOptions } from './index.js';

const THRESHOLDS: ReadonlyArray<readonly [string, string]> = [
  ['300', '5 minutes'],
  [String(DEFAULT_STUCK_AFTER_SECONDS), '15 minutes'],
  ['3600', '1 hour'],
  ['86400', '1 day'],
];

const age = (seconds: number): string =>
  seconds >= 86_400 ? `${Math.floor(seconds / 86_400)} d` : seconds >= 3600 ? `${Math.floor(seconds / 3600)} h` : `${Math.floor(seconds / 60)} min`;

export function operatorPayoutPages({ payouts }: OperatorPageOptions): ConsolePages {
  return (router) => {
    router.page('/payouts/stuck', { roles: OPERATOR_ROLES_ALL, nav: { label: 'Stuck payouts', section: 'Operator', order: 40 } }, async (ctx) => {
      const threshold = THRESHOLDS.some(([value]) => value === ctx.query.olderThan) ? Number(ctx.query.olderThan) : DEFAULT_STUCK_AFTER_SECONDS;
      const stuck = await payouts.stuck(threshold, STUCK_PAGE_DEFAULT);
      const admin = ctx.can(OPERATOR_ADMIN);
      return ctx.page(
        'Payouts stuck at the upstream',
        html`<form method="get" action="${PREFIX}/payouts/stuck" class="toolbar">${field({ name: 'olderThan', label: 'Unchanged for at least', options: THRESHOLDS, value: String(threshold) })}<button type="submit" class="button secondary">Show</button></form>
        <p class="hint">Oldest first; at most ${STUCK_PAGE_DEFAULT} are shown (the oldest need attention first).</p>
        ${table<OperatorPayoutView>({
          caption: 'Stuck payouts',
          columns: [
            { label: 'Reference', cell: (p) => html`<code>${p.transactionRef}</code>` },
            { label: 'Merchant', cell: (p) => html`<a href="${PREFIX}/merchants/${p.merchantId}">${p.merchantId}</a>` },
            { label: 'Amount', cell: (p) => moneyOfMajor(p.amount, p.currency), numeric: true },
            { label: 'Status', cell: (p) => badge(p.status) },
            { label: 'Connector', cell: (p) => p.channel },
            { label: 'Unchanged for', cell: (p) => age(p.ageSeconds) },
            { label: 'Created', cell: (p) => time(p.createdAt) },
            ...(admin ? [{ label: 'Action', cell: (p: OperatorPayoutView) => actionButton(`${PREFIX}/payouts/${encodeURIComponent(p.transactionRef)}/query`, ctx.csrfToken, 'Ask the upstream') }] : []),
          ],
          rows: stuck,
          empty: 'No payout is stuck past this threshold.',
        })}`,
      );
    });

    router.action('/payouts/:ref/query', { roles: OPERATOR_ADMIN }, async (ctx) => {
      const result = await payouts.forceQuery(ctx.params.ref!);
      const answer = result.upstream ? `The upstream says ${result.upstream.status}.` : (result.note ?? 'The upstream could not be asked.');
      return ctx.redirect(`${PREFIX}/payouts/stuck`, `Payout ${result.payout.transactionRef} is ${result.payout.status}. ${answer}`);
    });
  };
}
