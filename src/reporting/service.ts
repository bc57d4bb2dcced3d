// Reporting: what a merchant reads about its own money. Lists of its payments and payouts, its
// ledger statement and daily settlement totals, and CSV exports of each. Reads the payment, payout
// and ledger tables (never writes them); owns only the reports table.
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../core/clock.js';
import { notFound } from '../core/errors.js';
import type { SecretBox } from '../core/secrets.js';
import type { Store } from '../store/db.js';
import { CursorCodec } from './cursor.js';
import { DownloadSigner } from './download-url.js';
import { reportFile, ReportExportJob } from './export-job.js';
import { createReport, findReport, recentReports, reportView, type ReportRequest, type ReportView } from './reports.js';
import { listPayments, listPayouts, listRendered, type ListContext, type ListQuery, type Page, type RecordKind, type RecordRow } from './lists.js';
import type { RenderedRecords } from './rendered-records.js';
import { SettlementDaysJob, settlementDays, settlementRange, settlementView, SETTLEMENT_MAX_DAYS, type SettlementQuery } from './settlements.js';
import { CURRENCIES } from '../core/money.js';
import { statement, type StatementContext, type StatementQuery } from './statement.js';

export interface ReportingOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly box: SecretBox;
  /** Report files go to <dataDir>/reports. */
  readonly dataDir: string;
  /** Download links start with it. */
  readonly publicBaseUrl: string;
}

/** A ready report's file, opened for streaming to the client. */
export interface ReportDownload {
  readonly fileName: string;
  readonly sizeBytes: number;
  readonly stream: fs.ReadStream;
}

export class ReportingService {
  private readonly lists: ListContext;
  private readonly statements: StatementContext;
  private readonly signer: DownloadSigner;
  private readonly directory: string;

  constructor(private readonly options: ReportingOptions) {
    const nowMs = () => options.clock.nowMs();
    const cursors = new CursorCodec(options.box.deriveKey('list-cursor'), nowMs);
    this.lists = { db: options.store.db, cursors, nowMs };
    this.statements = { db: options.store.db, storeKind: options.store.kind, cursors };
    this.signer = new DownloadSigner(options.box.deriveKey('report-download'), options.publicBaseUrl);
    this.directory = path.join(options.dataDir, 'reports');
  }

  async createReport(merchantId: string, request: ReportRequest): Promise<ReportView> {
    const nowMs = this.options.clock.nowMs();
    return reportView(await createReport(this.options.store.db, merchantId, request, nowMs), nowMs, this.signer);
  }

  async reportStatus(merchantId: string, reportId: string): Promise<ReportView> {
    const nowMs = this.options.clock.nowMs();
    return reportView(await findReport(this.options.store.db, merchantId, reportId), nowMs, this.signer);
  }

  /** The merchant's recent reports, newest first, each as report/status answers it (download link when Ready). */
  async recentReports(merchantId: string, limit: number): Promise<ReportView[]> {
    const nowMs = this.options.clock.nowMs();
    return (await recentReports(this.options.store.db, merchantId, limit)).map((row) => reportView(row, nowMs, this.signer));
  }

  /** Any merchant's report, for the operator (CLI): the same answer its merchant gets. */
  async operatorReportStatus(reportId: string): Promise<ReportView & { merchantId: string }> {
    const row = await this.options.store.db.selectFrom('reports').selectAll().where('id', '=', reportId).executeTakeFirst();
    if (!row) throw notFound('report');
    return { merchantId: row.merchant_id, ...reportView(row, this.options.clock.nowMs(), this.signer) };
  }

  /** The file behind a download link; NOT_FOUND for a forged or expired link or a report not (or no longer) ready. */
  async openDownload(reportId: string, expires: string, sig: string): Promise<ReportDownload> {
    if (!this.signer.verify(reportId, expires, sig, this.options.clock.nowMs())) throw notFound('report');
    const row = await this.options.store.db.selectFrom('reports').select(['type', 'status']).where('id', '=', reportId).executeTakeFirst();
    if (!row || row.status !== 'Ready') throw notFound('report');
    const file = reportFile(this.directory, reportId);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat === null) throw notFound('report');
    return { fileName: `${row.type}-${reportId}.csv`, sizeBytes: stat.size, stream: fs.createReadStream(file) };
  }

  /** The background export job (bootstrap hands it to the worker). */
  exportJob(idleIntervalMs: number, tuning: { pageRows?: number; pagesPerRun?: number } = {}): ReportExportJob {
    const { store, clock } = this.options;
    return new ReportExportJob({ db: store.db, storeKind: store.kind, clock, directory: this.directory, idleIntervalMs, ...tuning });
  }

  /** Keeps the merchants' newest closed days for account/settlements before they are asked for. */
  settlementDaysJob(): SettlementDaysJob {
    return new SettlementDaysJob(this.options.store.db, this.options.clock, CURRENCIES);
  }

  statement(merchantId: string, query: StatementQuery) {
    return statement(this.statements, merchantId, query);
  }

  async settlements(merchantId: string, query: SettlementQuery) {
    const nowMs = this.options.clock.nowMs();
    const days = await settlementDays(this.options.store.db, merchantId, query.currency, settlementRange(query, nowMs, SETTLEMENT_MAX_DAYS), nowMs);
    return { currency: query.currency, days: days.map((day) => settlementView(query.currency, day)) };
  }

  listPayments(merchantId: string, query: ListQuery) {
    return listPayments(this.lists, merchantId, query);
  }

  listPayouts(merchantId: string, query: ListQuery) {
    return listPayouts(this.lists, merchantId, query);
  }

  /** listPayments or listPayouts with each item as JSON text, from (and into) `records`. */
  listRendered<K extends RecordKind>(kind: K, merchantId: string, query: ListQuery, records: RenderedRecords<RecordRow<K>>): Promise<Page<string>> {
    return listRendered(this.lists, kind, records, merchantId, query);
  }
}
