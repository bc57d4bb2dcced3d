// The balance statement: reporting's account/statement for one currency (every movement of the five
// balances, newest first, with the bucket's balance after it), its range checked with the API's schema.
import { StatementBody } from '../../api/schemas/reporting.js';
import { html } from '../../core/html.js';
import { CURRENCIES } from '../../core/money.js';
import type { StatementLine } from '../../reporting/statement.js';
import { ownMerchantId, type ConsolePages } from '../app.js';
import { moneyOfMajor, table, time, urlWith } from '../components.js';
import { fieldErrorsOf, validateForm, type FieldErrors } from '../forms.js';
import { filterBar, filtersOf, MERCHANT, READERS, SECTION } from './common.js';
import type { MerchantPageOptions } from './index.js';
import { PAGE_SIZE } from './records.js';

export function statementPages({ reporting, db }: MerchantPageOptions): ConsolePages {
  return (router) => {
    router.page('/merchant/statement', { roles: READERS, nav: { label: 'Balance statement', section: SECTION, order: 40 } }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      const path = `${MERCHANT}/statement`;
      // Without a choice, the currency the merchant's latest money moved in (else INR).
      const latest = ctx.query.currency ? undefined : await db.selectFrom('ledger_entries').select('currency').where('merchant_id', '=', merchantId).orderBy('id', 'desc').limit(1).executeTakeFirst();
      const query = { currency: latest?.currency ?? 'INR', ...filtersOf(ctx.query, ['currency', 'from', 'to', 'cursor']) };
      const checked = validateForm(ctx.request, StatementBody, query, { limit: PAGE_SIZE });
      let errors: FieldErrors | undefined = checked.ok ? undefined : checked.errors;
      let page: { items: StatementLine[]; nextCursor: string | null } = { items: [], nextCursor: null };
      if (checked.ok) {
        try {
          page = await reporting.statement(merchantId, checked.value);
        } catch (error) {
          errors = fieldErrorsOf(error) ?? undefined;
          if (!errors) throw error;
        }
      }
      const currency = query.currency;
      const kept = filtersOf(ctx.query, ['currency', 'from', 'to']);
      const lines = table<StatementLine>({
        caption: `${currency} statement`,
        columns: [
          { label: 'When', cell: (l) => time(l.createdAt) },
          { label: 'Movement', cell: (l) => html`<code>${l.type}</code>` },
          { label: 'Balance', cell: (l) => l.bucket },
          { label: 'Record', cell: (l) => (l.paymentRef ? html`<a href="${MERCHANT}/payments/${l.paymentRef}">payment</a>` : l.payoutRef ? html`<a href="${MERCHANT}/payouts/${l.payoutRef}">payout</a>` : '—') },
          { label: 'Amount', cell: (l) => moneyOfMajor(l.amount, currency), numeric: true },
          { label: 'Fee', cell: (l) => (l.fee === 0 ? '' : moneyOfMajor(l.fee, currency)), numeric: true },
          { label: 'Balance after', cell: (l) => moneyOfMajor(l.balanceAfter, currency), numeric: true },
        ],
        rows: page.items,
        empty: errors ? 'Correct the filters above.' : 'No movement in this range.',
        nextUrl: page.nextCursor ? urlWith(path, { ...kept, cursor: page.nextCursor }) : null,
        firstUrl: ctx.query.cursor ? urlWith(path, kept) : null,
      });
      const bar = filterBar(
        path,
        [
          { name: 'currency', label: 'Currency', options: CURRENCIES.map((c) => [c, c] as const), value: currency },
          { name: 'from', label: 'From', hint: 'YYYY-MM-DD, UTC', value: ctx.query.from },
          { name: 'to', label: 'Before', hint: 'YYYY-MM-DD, UTC', value: ctx.query.to },
        ],
        errors,
      );
      const problem = errors?.cursor ? html`<div class="alert alert-error" role="alert"><p>The page link expired; start from the first page.</p></div>` : '';
      return ctx.page('Balance statement', html`<p class="hint">Newest first; one line per balance an entry moves, with that balance right after it.</p>${bar}${problem}${lines}`, errors ? 400 : 200);
    });
  };
}
