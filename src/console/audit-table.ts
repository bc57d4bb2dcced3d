// The audit log as a table: the operator's Audit log page and a merchant owner's view of its own
// merchant's log (listAudit with merchantId) show the same columns.
import type { AuditEntry } from '../audit/audit-log.js';
import { html } from '../core/html.js';
import { table, time } from './components.js';

/** The audit table, shared with a merchant owner's view of its own merchant's log. */
export function auditTable(items: readonly AuditEntry[], nextUrl: string | null, firstUrl: string | null) {
  return table<AuditEntry>({
    caption: 'Audit log, newest first',
    columns: [
      { label: 'When', cell: (e) => time(e.createdAt) },
      { label: 'Who', cell: (e) => e.actor },
      { label: 'Action', cell: (e) => html`<code>${e.action}</code>` },
      { label: 'Target', cell: (e) => html`<code>${e.target}</code>` },
      { label: 'Merchant', cell: (e) => e.merchantId ?? '—' },
      { label: 'Address', cell: (e) => e.address ?? '—' },
      { label: 'Details', cell: (e) => html`<code>${JSON.stringify(e.details)}</code>` },
    ],
    rows: items,
    empty: 'No entries match.',
    nextUrl,
    firstUrl,
  });
}
