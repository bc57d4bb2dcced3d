// The merchant's payouts: the filtered list (reporting's payout/list) and a payout's page (its record
// as payout/status answers it, timeline, ledger postings, webhook attempts). Read only: payouts are
// made through the API.
import { PayoutListBody } from '../../api/schemas/reporting.js';
import { html } from '../../core/html.js';
import { PAYOUT_METHOD_NAMES } from '../../domain/methods.js';
import type { PayoutRecord } from '../../domain/payouts/payout-records.js';
import { PAYOUT_STATUSES } from '../../domain/payouts/payout-rows.js';
import { ownMerchantId, type ConsolePages } from '../app.js';
import { badge, facts, moneyOfMajor, section, time } from '../components.js';
import { MERCHANT, READERS, SECTION } from './common.js';
import type { MerchantPageOptions } from './index.js';
import { postingsSection, recordActivity, recordList, timeline, webhookSection, type TimelineItem } from './records.js';

export function payoutPages(options: MerchantPageOptions): ConsolePages {
  const { merchants, payouts, reporting } = options;
  return (router) => {
    router.page('/merchant/payouts', { roles: READERS, nav: { label: 'Payouts', section: SECTION, order: 30 } }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      const { body, status } = await recordList<PayoutRecord>(ctx, merchantId, {
        path: `${MERCHANT}/payouts`,
        schema: PayoutListBody,
        statuses: PAYOUT_STATUSES,
        methods: PAYOUT_METHOD_NAMES,
        caption: 'Payouts',
        empty: 'No payouts match.',
        load: (id, query) => reporting.listPayouts(id, query),
        columns: [
          { label: 'Created', cell: (p) => time(p.createdAt) },
          { label: 'merchantRef', cell: (p) => p.merchantRef },
          { label: 'Beneficiary', cell: (p) => p.name },
          { label: 'Method', cell: (p) => `${p.currency} ${p.method}` },
          { label: 'Status', cell: (p) => badge(p.status) },
          { label: 'Amount', cell: (p) => moneyOfMajor(p.amount, p.currency), numeric: true },
          { label: 'transactionRef', cell: (p) => html`<a href="${MERCHANT}/payouts/${p.transactionRef}"><code>${p.transactionRef}</code></a>` },
        ],
      });
      return ctx.page('Payouts', body, status);
    });

    router.page('/merchant/payouts/:ref', { roles: READERS }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      // payout/status's own lookup: another merchant's payout is NOT_FOUND, as in the API.
      const payout = await payouts.status(await merchants.get(merchantId), { transactionRef: ctx.params.ref! });
      const { entries, events } = await recordActivity(options, merchantId, [payout.transactionRef], payout.transactionRef);
      const items: TimelineItem[] = [
        { at: payout.createdAt, text: `Created: ${payout.method} to ${payout.name}` },
        ...(payout.completedAt ? [{ at: payout.completedAt, text: html`Completed ${badge(payout.status)}` }] : []),
        ...entries.map((e) => ({ at: new Date(e.createdAtMs).toISOString(), text: html`Ledger: <code>${e.kind}</code>` })),
        ...events.map((e) => ({ at: e.createdAt, text: html`Webhook <code>${e.type}</code> ${badge(e.status)}` })),
      ];
      return ctx.page(
        `Payout ${payout.merchantRef}`,
        html`${section('Payout', facts([
          ['Status', badge(payout.status)],
          ['Amount', moneyOfMajor(payout.amount, payout.currency)],
          ['Fee', moneyOfMajor(payout.fee, payout.currency)],
          ['Method', `${payout.currency} ${payout.method}`],
          ['transactionRef', html`<code>${payout.transactionRef}</code>`],
          ['merchantRef', html`<code>${payout.merchantRef}</code>`],
          ['Beneficiary', payout.name],
          ['Account', payout.account],
          ...(payout.bankCode ? [['Bank code', payout.bankCode] as const] : []),
          ['Email', payout.email],
          ['Created', time(payout.createdAt)],
          ...(payout.utr ? [['UTR', payout.utr] as const] : []),
          ...(payout.failureReason ? [['Failure', payout.failureReason] as const] : []),
          ...(payout.nameCheck ? [['Name check', `${payout.nameCheck.resolvedName} (score ${payout.nameCheck.score})`] as const] : []),
        ]))}
        ${timeline(items)}
        ${postingsSection(merchantId, entries)}
        ${webhookSection(events)}`,
      );
    });
  };
}
