// Ledger verification: every invariant the ledger keeps (balanced entries, balances equal to their
// postings, no negative balance...), checked on demand with the same verifier as `ledger verify`.
import { html } from '../../core/html.js';
import { OPERATOR_ROLES_ALL, PREFIX, type ConsolePages } from '../app.js';
import { badge, section, table } from '../components.js';
import type { OperatorPageOptions } from './index.js';

export function operatorLedgerPages({ ledger }: OperatorPageOptions): ConsolePages {
  return (router) => {
    router.page('/ledger', { roles: OPERATOR_ROLES_ALL, nav: { label: 'Ledger verify', section: 'Operator', order: 30 } }, async (ctx) => {
      // A read, however long: a GET with ?run=1 (nothing changes, so no CSRF token is needed and support may run it).
      if (ctx.query.run !== '1') {
        return ctx.page(
          'Ledger verify',
          section('Check every ledger invariant', html`<p>Reads the whole journal and every balance and reports each violation found. Nothing is changed.</p><p><a class="button" href="${PREFIX}/ledger?run=1">Run verification</a></p>`),
        );
      }
      const violations = await ledger.verify();
      const verdict = violations.length === 0
        ? html`<div class="alert alert-ok" role="status"><p>${badge('ok', 'ok')} The ledger holds every invariant.</p></div>`
        : html`<div class="alert alert-error" role="alert"><p>${violations.length} ${violations.length === 1 ? 'violation' : 'violations'} found.</p></div>`;
      return ctx.page(
        'Ledger verify',
        html`${verdict}${table({
          caption: 'Violations',
          columns: [
            { label: 'Code', cell: (v: (typeof violations)[number]) => badge(v.code, 'bad') },
            { label: 'Subject', cell: (v) => html`<code>${v.subject}</code>` },
            { label: 'Detail', cell: (v) => v.detail },
          ],
          rows: violations,
          empty: 'No violations.',
        })}<p><a class="button secondary" href="${PREFIX}/ledger?run=1">Run again</a></p>`,
      );
    });
  };
}
