// The audit log: every operator and console action, who did it, when and from which address, newest
// first, filtered by merchant, action, actor and time (audit/audit-log.ts, as `audit list`).
import { listAudit, parseSince } from '../../audit/audit-log.js';
import { html } from '../../core/html.js';
import { OPERATOR_ROLES_ALL, PREFIX, type ConsolePages } from '../app.js';
import { auditTable } from '../audit-table.js';
import { field, urlWith } from '../components.js';
import { fieldErrorsOf, type FieldErrors } from '../forms.js';
import type { OperatorPageOptions } from './index.js';

const PAGE_SIZE = 50;

export function operatorAuditPages({ db }: OperatorPageOptions): ConsolePages {
  return (router) => {
    router.page('/audit', { roles: OPERATOR_ROLES_ALL, nav: { label: 'Audit log', section: 'Operator', order: 70 } }, async (ctx) => {
      const filters = {
        merchant: ctx.query.merchant?.trim() || undefined,
        action: ctx.query.action?.trim() || undefined,
        actor: ctx.query.actor?.trim() || undefined,
        since: ctx.query.since?.trim() || undefined,
      };
      let errors: FieldErrors | undefined;
      let sinceMs: number | undefined;
      try {
        sinceMs = filters.since ? parseSince(filters.since) : undefined;
      } catch (error) {
        errors = fieldErrorsOf(error) ?? undefined;
      }
      const page = errors
        ? { items: [], nextCursor: null }
        : await listAudit(db, { merchantId: filters.merchant, action: filters.action, actor: filters.actor, sinceMs, limit: PAGE_SIZE, cursor: ctx.query.cursor || undefined });
      return ctx.page(
        'Audit log',
        html`<form method="get" action="${PREFIX}/audit" class="toolbar">
          ${field({ name: 'merchant', label: 'Merchant ID', value: filters.merchant })}
          ${field({ name: 'action', label: 'Action', value: filters.action, hint: 'e.g. merchant.disable, console.login' })}
          ${field({ name: 'actor', label: 'Who', value: filters.actor, hint: 'e.g. console:ops@example.com, admin' })}
          ${field({ name: 'since', label: 'Since', value: filters.since, hint: 'ISO time, e.g. 2026-01-31T00:00:00Z', errors })}
          <button type="submit" class="button secondary">Filter</button>
        </form>
        ${auditTable(page.items, page.nextCursor ? urlWith(`${PREFIX}/audit`, { ...filters, cursor: page.nextCursor }) : null, ctx.query.cursor ? urlWith(`${PREFIX}/audit`, filters) : null)}`,
        errors ? 400 : 200,
      );
    });
  };
}
