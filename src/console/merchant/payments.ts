// The merchant's payments: the filtered list (reporting's payment/list), a payment's page (its record
// as payment/status answers it, timeline, ledger postings, webhook attempts) and the refund, which
// only an owner may make, after a confirm step, through the same service call as payment/refund.
import { PaymentListBody } from '../../api/schemas/reporting.js';
import { AppError } from '../../core/errors.js';
import { html } from '../../core/html.js';
import { PAYMENT_STATUSES } from '../../domain/payments/checkout-view.js';
import type { PaymentRecord } from '../../domain/payments/records.js';
import { PAYIN_METHOD_NAMES } from '../../domain/methods.js';
import { ownMerchantId, type ConsolePages, type PageContext } from '../app.js';
import { actionButton, badge, facts, moneyOfMajor, section, time } from '../components.js';
import { confirmStep } from '../confirm.js';
import { MERCHANT, OWNERS, READERS, SECTION } from './common.js';
import type { MerchantPageOptions } from './index.js';
import { postingsSection, recordActivity, recordList, timeline, webhookSection, type TimelineItem } from './records.js';

const paymentLink = (p: PaymentRecord) => html`<a href="${MERCHANT}/payments/${p.transactionRef}"><code>${p.transactionRef}</code></a>`;

export function paymentPages(options: MerchantPageOptions): ConsolePages {
  const { merchants, payments, reporting, db } = options;

  const detail = async (ctx: PageContext, problem?: string) => {
    const merchantId = ownMerchantId(ctx);
    const merchant = await merchants.get(merchantId);
    // payment/status's own lookup: another merchant's payment is NOT_FOUND, as in the API.
    const payment = await payments.status(merchant, { transactionRef: ctx.params.ref! });
    const refundRef = await db
      .selectFrom('payments')
      .select('refund_ref')
      .where('merchant_id', '=', merchantId)
      .where('transaction_ref', '=', payment.transactionRef)
      .executeTakeFirst();
    const refs = [payment.transactionRef, ...(refundRef?.refund_ref ? [refundRef.refund_ref] : [])];
    const { entries, events } = await recordActivity(options, merchantId, refs, payment.transactionRef);
    const items: TimelineItem[] = [
      { at: payment.createdAt, text: `Created: ${payment.method} for the payer` },
      ...(payment.completedAt ? [{ at: payment.completedAt, text: html`Completed ${badge(payment.status === 'Refund' ? 'Success' : payment.status)}` }] : []),
      ...(payment.refundedAt ? [{ at: payment.refundedAt, text: 'Refunded to the payer' }] : []),
      ...(payment.status === 'Expired' ? [{ at: payment.expiresAt, text: 'Expired unpaid' }] : []),
      ...entries.map((e) => ({ at: new Date(e.createdAtMs).toISOString(), text: html`Ledger: <code>${e.kind}</code>` })),
      ...events.map((e) => ({ at: e.createdAt, text: html`Webhook <code>${e.type}</code> ${badge(e.status)}` })),
    ];
    const canRefund = payment.refundable && ctx.can(OWNERS);
    const refund = canRefund
      ? section('Refund', html`<p>Refunds the full amount to the payer${payment.refundableUntil ? html`; possible until ${time(payment.refundableUntil)}` : ''}.</p>${actionButton(`${MERCHANT}/payments/${payment.transactionRef}/refund`, ctx.csrfToken, 'Refund this payment', { danger: true })}`)
      : '';
    return ctx.page(
      `Payment ${payment.merchantRef}`,
      html`${problem ? html`<div class="alert alert-error" role="alert"><p>${problem}</p></div>` : ''}
      ${section('Payment', facts([
        ['Status', badge(payment.status)],
        ['Amount', moneyOfMajor(payment.amount, payment.currency)],
        ['Paid', moneyOfMajor(payment.paidAmount, payment.currency)],
        ['Fee', moneyOfMajor(payment.fee, payment.currency)],
        ['Method', `${payment.currency} ${payment.method}`],
        ['transactionRef', html`<code>${payment.transactionRef}</code>`],
        ['merchantRef', html`<code>${payment.merchantRef}</code>`],
        ['Payer', payment.name],
        ['Email', payment.email],
        ['Phone', payment.phone],
        ['Created', time(payment.createdAt)],
        ['Refundable', payment.refundable ? html`yes, until ${time(payment.refundableUntil!)}` : 'no'],
        ...(payment.failureReason ? [['Failure', payment.failureReason] as const] : []),
      ]))}
      ${refund}
      ${timeline(items)}
      ${postingsSection(merchantId, entries)}
      ${webhookSection(events)}`,
      problem ? 422 : 200,
    );
  };

  return (router) => {
    router.page('/merchant/payments', { roles: READERS, nav: { label: 'Payments', section: SECTION, order: 20 } }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      const { body, status } = await recordList<PaymentRecord>(ctx, merchantId, {
        path: `${MERCHANT}/payments`,
        schema: PaymentListBody,
        statuses: PAYMENT_STATUSES,
        methods: PAYIN_METHOD_NAMES,
        caption: 'Payments',
        empty: 'No payments match.',
        load: (id, query) => reporting.listPayments(id, query),
        columns: [
          { label: 'Created', cell: (p) => time(p.createdAt) },
          { label: 'merchantRef', cell: (p) => p.merchantRef },
          { label: 'Payer', cell: (p) => p.name },
          { label: 'Method', cell: (p) => `${p.currency} ${p.method}` },
          { label: 'Status', cell: (p) => badge(p.status) },
          { label: 'Amount', cell: (p) => moneyOfMajor(p.amount, p.currency), numeric: true },
          { label: 'transactionRef', cell: paymentLink },
        ],
      });
      return ctx.page('Payments', body, status);
    });

    router.page('/merchant/payments/:ref', { roles: READERS }, (ctx) => detail(ctx));

    router.action('/merchant/payments/:ref/refund', { roles: OWNERS }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      const merchant = await merchants.get(merchantId);
      const payment = await payments.status(merchant, { transactionRef: ctx.params.ref! });
      const back = `${MERCHANT}/payments/${payment.transactionRef}`;
      const confirm = confirmStep(ctx, {
        title: 'Refund this payment?',
        message: html`<p>${moneyOfMajor(payment.paidAmount, payment.currency)} goes back to ${payment.name} (${payment.merchantRef}). This cannot be undone.</p>`,
        action: `${back}/refund`,
        submit: 'Yes, refund',
        back,
      });
      if (confirm) return confirm;
      try {
        // The audit row is written in the transaction that accepts the refund.
        await payments.refund(merchant, { transactionRef: payment.transactionRef }, ctx.actor);
      } catch (error) {
        // A refusal the contract names (not refundable, window over, balance short) is shown on the payment.
        if (error instanceof AppError && error.status < 500 && error.status !== 404) return detail(ctx, error.detail);
        throw error;
      }
      return ctx.redirect(back, 'Refund made.');
    });
  };
}
