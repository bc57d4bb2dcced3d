// The audit log of the owner's own merchant: every console and operator (admin API) action recorded
// with this merchant's id, newest first, filtered by action; the operator's table (audit-table.ts).
import { listAudit } from '../../audit/audit-log.js';
import { html } from '../../core/html.js';
import { ownMerchantId, type ConsolePages } from '../app.js';
import { auditTable } from '../audit-table.js';
import { urlWith } from '../components.js';
import { filterBar, MERCHANT, OWNERS, SECTION } from './common.js';
import type { MerchantPageOptions } from './index.js';

const PAGE_SIZE = 50;
const ACTION = /^[a-z_.]{1,64}$/;

export function merchantAuditPages({ db }: MerchantPageOptions): ConsolePages {
  return (router) => {
    router.page('/merchant/audit', { roles: OWNERS, nav: { label: 'Audit log', section: SECTION, order: 80 } }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      const path = `${MERCHANT}/audit`;
      const action = ctx.query.action?.trim() || undefined;
      const errors = action && !ACTION.test(action) ? { action: 'is an action name such as key.add or console.login' } : undefined;
      const cursor = ctx.query.cursor || undefined;
      const page = errors ? { items: [], nextCursor: null } : await listAudit(db, { merchantId, action, limit: PAGE_SIZE, cursor });
      return ctx.page(
        'Audit log',
        html`<p class="hint">Every action taken on your merchant, in this console or by the platform's operators, with who, when and from where.</p>
        ${filterBar(path, [{ name: 'action', label: 'Action', value: action, hint: 'e.g. key.add, payment.refund, console.login' }], errors)}
        ${auditTable(page.items, page.nextCursor ? urlWith(path, { action, cursor: page.nextCursor }) : null, cursor ? urlWith(path, { action }) : null)}`,
        errors ? 400 : 200,
      );
    });
  };
}
