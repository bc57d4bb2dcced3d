// The reports table: a merchant's export requests, their answer (report/status), and the job's
// claims and progress. Another merchant's report is NOT_FOUND, as if it did not exist.
import { isoFromMs } from '../core/clock.js';
import { notFound, validationError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Currency } from '../core/money.js';
import type { Db } from '../store/schema.js';
import type { DownloadSigner } from './download-url.js';
import type { ReportFilters } from './export-sources.js';
import type { ReportsTable, ReportStatus, ReportType } from './report-rows.js';
import { parseRange } from './time-range.js';

/** How long a finished file stays downloadable before the job deletes it. */
export const REPORT_FILE_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** How long a request may wait to be written before it is given up (the job keeps up far sooner). */
export const REPORT_REQUEST_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export interface ReportRequest {
  readonly type: ReportType;
  readonly from: string;
  readonly to: string;
  readonly currency?: Currency;
}

export interface ReportView {
  readonly reportId: string;
  readonly type: ReportType;
  readonly status: ReportStatus;
  readonly rowCount: number;
  readonly createdAt: string;
  readonly completedAt?: string;
  /** Ready: when the file is deleted; before that: when an unwritten request is given up. */
  readonly expiresAt: string;
  readonly downloadUrl?: string;
  readonly downloadUrlExpiresAt?: string;
  readonly failureReason?: string;
}

export function reportFilters(request: ReportRequest): ReportFilters {
  const range = parseRange(request);
  const needsCurrency = request.type === 'statement' || request.type === 'settlements';
  if (needsCurrency && request.currency === undefined) throw validationError('currency', `is required for ${request.type} reports`);
  return { fromMs: range.fromMs!, toMs: range.toMs!, ...(request.currency === undefined ? {} : { currency: request.currency }) };
}

export function reportView(row: ReportsTable, nowMs: number, signer: DownloadSigner): ReportView {
  const link = row.status === 'Ready' ? signer.sign(row.id, nowMs) : null;
  return {
    reportId: row.id,
    type: row.type,
    status: row.status,
    rowCount: Number(row.row_count),
    createdAt: isoFromMs(row.created_at_ms),
    ...(row.completed_at_ms === null ? {} : { completedAt: isoFromMs(row.completed_at_ms) }),
    expiresAt: isoFromMs(row.expires_at_ms),
    ...(link === null ? {} : { downloadUrl: link.url, downloadUrlExpiresAt: isoFromMs(link.expiresAtMs) }),
    ...(row.failure === null ? {} : { failureReason: row.failure }),
  };
}

/**
 * How long the same request answers the same report: the window in which a merchant may repeat a
 * signed request (contract section 6), so a retry never makes a second export, while a request made
 * later (when the records may have changed) makes a fresh one.
 */
export const REPORT_REPEAT_WINDOW_MS = 10 * 60 * 1000;

/** Records a request, or answers the report of the same request made within the repeat window. */
export async function createReport(db: Db, merchantId: string, request: ReportRequest, nowMs: number): Promise<ReportsTable> {
  const filtersJson = JSON.stringify(reportFilters(request));
  const existing = await db
    .selectFrom('reports')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('type', '=', request.type)
    .where('filters_json', '=', filtersJson)
    .where('status', 'in', ['Pending', 'Running', 'Ready'])
    .where('created_at_ms', '>=', BigInt(nowMs - REPORT_REPEAT_WINDOW_MS))
    .orderBy('created_at_ms', 'desc')
    .executeTakeFirst();
  if (existing) return existing;
  const row: ReportsTable = {
    id: newId(),
    merchant_id: merchantId,
    type: request.type,
    filters_json: filtersJson,
    status: 'Pending',
    row_count: 0n,
    file_name: null,
    progress_json: null,
    lease_owner: null,
    lease_until_ms: null,
    failure: null,
    created_at_ms: BigInt(nowMs),
    updated_at_ms: BigInt(nowMs),
    completed_at_ms: null,
    expires_at_ms: BigInt(nowMs + REPORT_REQUEST_LIFETIME_MS),
  };
  await db.insertInto('reports').values(row).execute();
  return row;
}

/** The merchant's own report; NOT_FOUND for an unknown id or another merchant's. */
export async function findReport(db: Db, merchantId: string, reportId: string): Promise<ReportsTable> {
  const row = await db.selectFrom('reports').selectAll().where('id', '=', reportId).where('merchant_id', '=', merchantId).executeTakeFirst();
  if (!row) throw notFound('report');
  return row;
}

/** The merchant's most recent reports, newest first (the console's Exports page). */
export async function recentReports(db: Db, merchantId: string, limit: number): Promise<ReportsTable[]> {
  return db.selectFrom('reports').selectAll().where('merchant_id', '=', merchantId).orderBy('created_at_ms', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
