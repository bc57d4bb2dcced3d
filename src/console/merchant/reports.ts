// A merchant's CSV exports in the console (docs/reporting.md): the request form, checked with
// report/create's own schema and made through the same ReportingService call (the 10-minute repeat
// window included), and the merchant's recent reports with their status, rows and, once Ready, the
// service's signed download link (fresh on every page view, valid 15 minutes). Every merchant role may
// export: it reads, as the API's read scope does. Another merchant's report is a 404, as in the API.
import { html, type HtmlValue } from '../../core/html.js';
import { CURRENCIES } from '../../core/money.js';
import { ReportCreateBody } from '../../api/schemas/reporting.js';
import { REPORT_TYPES, type ReportStatus } from '../../reporting/report-rows.js';
import type { ReportView } from '../../reporting/reports.js';
import type { ReportingService } from '../../reporting/service.js';
import { MERCHANT_ROLES_ALL, ownMerchantId, PREFIX, type ConsolePages, type PageContext, type PageResult } from '../app.js';
import { badge, facts, field, form, formProblem, section, table, time } from '../components.js';
import { fieldErrorsOf, validateForm, type FieldErrors } from '../forms.js';

export interface MerchantReportPageOptions {
  readonly reporting: Pick<ReportingService, 'createReport' | 'reportStatus' | 'recentReports'>;
}

/** How many of the merchant's reports the page lists (files live 24 hours, so this is days of exports). */
const RECENT_REPORTS = 20;
const BASE = `${PREFIX}/merchant/reports`;
const TYPE_LABELS: Readonly<Record<(typeof REPORT_TYPES)[number], string>> = {
  payments: 'Payments',
  payouts: 'Payouts',
  statement: 'Balance statement',
  settlements: 'Daily settlements',
};
const TONES: Readonly<Record<ReportStatus, 'ok' | 'bad' | 'warn' | 'muted'>> = { Pending: 'warn', Running: 'warn', Ready: 'ok', Failed: 'bad', Expired: 'muted' };

const statusBadge = (r: ReportView) => badge(r.status, TONES[r.status]);
const reportLink = (r: ReportView) => html`<a href="${BASE}/${encodeURIComponent(r.reportId)}">${TYPE_LABELS[r.type]}</a>`;

function fileCell(r: ReportView): HtmlValue {
  if (r.downloadUrl) return html`<a class="button small" href="${r.downloadUrl}" download>Download CSV</a>`;
  if (r.status === 'Failed') return html`${r.failureReason ?? 'Failed'}: ask again`;
  if (r.status === 'Expired') return 'Deleted (24 hours after it was ready)';
  return html`Being written: <a href="${BASE}">refresh</a>`;
}

export function merchantReportPages({ reporting }: MerchantReportPageOptions): ConsolePages {
  return (router) => {
    const listPage = async (ctx: PageContext, errors?: FieldErrors): Promise<PageResult> => {
      const merchantId = ownMerchantId(ctx);
      const reports = await reporting.recentReports(merchantId, RECENT_REPORTS);
      const requestForm = section(
        'New export',
        html`${formProblem(errors, ['type', 'from', 'to', 'currency'])}${form({
          action: BASE,
          csrfToken: ctx.csrfToken,
          submit: 'Request export',
          body: html`<div class="form-row">${field({ name: 'type', label: 'Records', options: REPORT_TYPES.map((t) => [t, TYPE_LABELS[t]] as const), value: ctx.fields.type, errors })}
            ${field({ name: 'currency', label: 'Currency', options: [['', 'Any (payments, payouts)'], ...CURRENCIES.map((c) => [c, c] as const)], value: ctx.fields.currency ?? '', hint: 'Required for the statement and settlements.', errors })}</div>
            <div class="form-row">${field({ name: 'from', label: 'From', value: ctx.fields.from, required: true, hint: 'YYYY-MM-DD (midnight UTC) or an ISO-8601 time; included.', errors })}
            ${field({ name: 'to', label: 'To', value: ctx.fields.to, required: true, hint: 'Excluded: the records before it.', errors })}</div>`,
        })}`,
      );
      const list = section(
        'Recent exports',
        html`<p class="hint">The file is written in the background; <a href="${BASE}">refresh</a> to see it ready. Download links are valid 15 minutes from when the page was shown; files are kept 24 hours.</p>${table<ReportView>({
          caption: 'Recent exports, newest first',
          columns: [
            { label: 'Export', cell: reportLink },
            { label: 'Requested', cell: (r) => time(r.createdAt) },
            { label: 'Status', cell: statusBadge },
            { label: 'Rows', cell: (r) => String(r.rowCount), numeric: true },
            { label: 'File', cell: fileCell },
          ],
          rows: reports,
          empty: 'No export yet.',
        })}`,
      );
      return ctx.page('Exports', html`${requestForm}${list}`, errors ? 400 : 200);
    };

    router.page('/merchant/reports', { roles: MERCHANT_ROLES_ALL, nav: { label: 'Exports', section: 'Merchant', order: 60 } }, (ctx) => listPage(ctx));

    router.action('/merchant/reports', { roles: MERCHANT_ROLES_ALL }, async (ctx) => {
      const merchantId = ownMerchantId(ctx);
      const checked = validateForm(ctx.request, ReportCreateBody, ctx.fields);
      if (!checked.ok) return listPage(ctx, checked.errors);
      try {
        const report = await reporting.createReport(merchantId, checked.value);
        return ctx.redirect(BASE, `${TYPE_LABELS[report.type]} export requested (${report.status}).`);
      } catch (error) {
        const errors = fieldErrorsOf(error);
        if (!errors) throw error;
        return listPage(ctx, errors);
      }
    });

    router.page('/merchant/reports/:id', { roles: MERCHANT_ROLES_ALL }, async (ctx) => {
      // The merchant's own report only: another merchant's id is NOT_FOUND, as report/status answers.
      const report = await reporting.reportStatus(ownMerchantId(ctx), ctx.params.id!);
      return ctx.page(
        `${TYPE_LABELS[report.type]} export`,
        section(
          'Export',
          html`${facts([
            ['Report', html`<code>${report.reportId}</code>`],
            ['Status', statusBadge(report)],
            ['Rows', String(report.rowCount)],
            ['Requested', time(report.createdAt)],
            ['Completed', report.completedAt ? time(report.completedAt) : '—'],
            [report.status === 'Ready' ? 'File deleted at' : 'Given up at', time(report.expiresAt)],
            ['File', fileCell(report)],
          ])}<p><a href="${BASE}">All exports</a></p>`,
        ),
      );
    });
  };
}
