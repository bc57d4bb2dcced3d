// Operator commands for CSV exports: ask for a merchant's report (the running service's export job
// writes it) and see where a report stands, with its download link once it is ready.
import { isCurrency } from '../core/money.js';
import { REPORT_TYPES, type ReportType } from '../reporting/report-rows.js';
import type { ReportView } from '../reporting/reports.js';
import { flagString, requireFlag } from './args.js';
import type { CliCommand, CliOutput } from './command.js';

function show(view: ReportView & { merchantId?: string }, json: boolean, io: CliOutput): void {
  if (json) {
    io.out(JSON.stringify(view));
    return;
  }
  const link = view.downloadUrl === undefined ? '' : `  ${view.downloadUrl} (until ${view.downloadUrlExpiresAt})`;
  io.out(`${view.reportId}  ${view.type}  ${view.status}${view.failureReason ? ` (${view.failureReason})` : ''}  ${view.rowCount} rows${link}`);
}

export const reportCommands: CliCommand[] = [
  {
    name: 'report create',
    summary: "Ask for a CSV export of a merchant's payments, payouts, statement or settlements over [from, to)",
    usage: 'report create --merchant ID --type payments|payouts|statement|settlements --from ISO_DATE --to ISO_DATE [--currency C] [--json]',
    async run(args, services, io) {
      const type = requireFlag(args, 'type');
      if (!(REPORT_TYPES as readonly string[]).includes(type)) throw new Error(`--type must be one of ${REPORT_TYPES.join(', ')}`);
      const currencyText = flagString(args, 'currency')?.toUpperCase();
      if (currencyText !== undefined && !isCurrency(currencyText)) throw new Error('--currency must be INR, EGP, NGN or IDR');
      const merchant = await services.merchants.get(requireFlag(args, 'merchant'));
      const view = await services.reporting.createReport(merchant.id, {
        type: type as ReportType,
        from: requireFlag(args, 'from'),
        to: requireFlag(args, 'to'),
        ...(currencyText === undefined ? {} : { currency: currencyText }),
      });
      show(view, args.flags.json === true, io);
      return 0;
    },
  },
  {
    name: 'report status',
    summary: 'Show where a report stands, with a 15-minute download link once it is ready',
    usage: 'report status --id REPORT_ID [--json]',
    async run(args, services, io) {
      show(await services.reporting.operatorReportStatus(requireFlag(args, 'id')), args.flags.json === true, io);
      return 0;
    },
  },
];
