// The export job: claims one report at a time with a lease, streams it page by page (a keyset page of
// rows per step) into DATA_DIR/reports/<id>.csv, and after every page records, under its lease, the
// last row written and the file's length. A process that dies mid-way leaves that record: whoever
// takes the report over cuts the file back to the recorded length and continues after the recorded
// row, so every row is in the file exactly once. It also deletes files whose time is up.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../core/clock.js';
import { newId } from '../core/ids.js';
import type { Job } from '../core/worker.js';
import type { StoreKind } from '../store/db.js';
import type { Db } from '../store/schema.js';
import { REPORT_SOURCES, type ReportFilters } from './export-sources.js';
import { headerLine } from './csv.js';
import type { ReportsTable } from './report-rows.js';
import { REPORT_FILE_LIFETIME_MS } from './reports.js';

export const EXPORT_PAGE_ROWS = 1000;
/** Pages per run: the worker calls again at once while there is work, and a stop waits at most this long. */
export const EXPORT_PAGES_PER_RUN = 20;
/** A claim lasts this long unless renewed (every page renews it). */
export const EXPORT_LEASE_MS = 60_000;
const EXPIRED_PER_RUN = 100;

interface Progress {
  /** The last row written, as its source's keyset position; null before the first page. */
  readonly position: readonly string[] | null;
  /** The file's length after that row (header included). */
  readonly bytes: number;
}

export interface ExportJobOptions {
  readonly db: Db;
  readonly storeKind: StoreKind;
  readonly clock: Clock;
  readonly directory: string;
  readonly idleIntervalMs: number;
  readonly pageRows?: number;
  readonly pagesPerRun?: number;
}

export const reportFile = (directory: string, reportId: string): string => path.join(directory, `${reportId}.csv`);

export class ReportExportJob implements Job {
  readonly name = 'report-export';
  readonly idleIntervalMs: number;
  /** This instance's lease identity: progress is recorded only while the lease is still ours. */
  private readonly owner = newId();

  constructor(private readonly options: ExportJobOptions) {
    this.idleIntervalMs = options.idleIntervalMs;
  }

  async runOnce(): Promise<number> {
    const removed = await this.removeExpired();
    const report = await this.claim();
    if (!report) return removed;
    try {
      await this.write(report);
    } catch (error) {
      // A report that cannot be written says so; the merchant may ask again. The worker logs the cause.
      await this.options.db
        .updateTable('reports')
        .set({ status: 'Failed', failure: 'EXPORT_FAILED', lease_owner: null, lease_until_ms: null, updated_at_ms: BigInt(this.now()) })
        .where('id', '=', report.id)
        .where('lease_owner', '=', this.owner)
        .execute();
      throw error;
    }
    return removed + 1;
  }

  private now(): number {
    return this.options.clock.nowMs();
  }

  /** The oldest report due: pending, or running under a lease that ran out (or is this instance's own). */
  private async claim(): Promise<ReportsTable | null> {
    const { db } = this.options;
    const nowMs = BigInt(this.now());
    const due = (qb: any) =>
      qb.where((eb: any) =>
        eb.or([
          eb('status', '=', 'Pending'),
          eb.and([eb('status', '=', 'Running'), eb.or([eb('lease_until_ms', '<', nowMs), eb('lease_owner', '=', this.owner)])]),
        ]),
      );
    const candidate = await due(db.selectFrom('reports').selectAll()).orderBy('created_at_ms').limit(1).executeTakeFirst();
    if (!candidate) return null;
    const claimed = await due(
      db
        .updateTable('reports')
        .set({ status: 'Running', lease_owner: this.owner, lease_until_ms: nowMs + BigInt(EXPORT_LEASE_MS), updated_at_ms: nowMs })
        .where('id', '=', candidate.id),
    ).executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1 ? { ...candidate, lease_owner: this.owner } : null;
  }

  private async write(report: ReportsTable): Promise<void> {
    const { directory } = this.options;
    const source = REPORT_SOURCES[report.type];
    const file = reportFile(directory, report.id);
    await fs.mkdir(directory, { recursive: true });
    let progress = report.progress_json === null ? null : (JSON.parse(report.progress_json) as Progress);
    let rowCount = report.row_count;
    if (progress !== null && (await fileLength(file)) < progress.bytes) {
      // The file is shorter than recorded (lost with a disk or deleted): start over cleanly.
      progress = null;
      rowCount = 0n;
    }
    const handle = await fs.open(file, progress === null ? 'w' : 'r+');
    try {
      if (progress === null) {
        const header = Buffer.from(headerLine(source.header));
        await handle.write(header, 0, header.length, 0);
        progress = { position: null, bytes: header.length };
      }
      // Anything written after the last recorded page belongs to a page that is written again now.
      await handle.truncate(progress.bytes);
      const ctx = {
        db: this.options.db,
        storeKind: this.options.storeKind,
        merchantId: report.merchant_id,
        filters: JSON.parse(report.filters_json) as ReportFilters,
        pageRows: this.options.pageRows ?? EXPORT_PAGE_ROWS,
        clock: this.options.clock,
      };
      for (let page = 0; page < (this.options.pagesPerRun ?? EXPORT_PAGES_PER_RUN); page += 1) {
        const next = await source.next(ctx, progress.position);
        const bytes = Buffer.from(next.lines);
        await handle.write(bytes, 0, bytes.length, progress.bytes);
        await handle.sync();
        rowCount += BigInt(next.rows);
        progress = { position: next.position, bytes: progress.bytes + bytes.length };
        const finished = next.position === null;
        if (!(await this.record(report.id, progress, rowCount, finished)) || finished) return;
      }
    } finally {
      await handle.close();
    }
  }

  /** Records a page under the lease (renewing it); false when the lease was lost to another process. */
  private async record(reportId: string, progress: Progress, rowCount: bigint, finished: boolean): Promise<boolean> {
    const nowMs = this.now();
    const result = await this.options.db
      .updateTable('reports')
      .set({
        progress_json: JSON.stringify(progress),
        row_count: rowCount,
        file_name: `${reportId}.csv`,
        updated_at_ms: BigInt(nowMs),
        ...(finished
          ? { status: 'Ready' as const, completed_at_ms: BigInt(nowMs), expires_at_ms: BigInt(nowMs + REPORT_FILE_LIFETIME_MS), lease_owner: null, lease_until_ms: null }
          : { lease_until_ms: BigInt(nowMs + EXPORT_LEASE_MS) }),
      })
      .where('id', '=', reportId)
      .where('lease_owner', '=', this.owner)
      .where('status', '=', 'Running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Deletes the files of reports whose time is up; the report then answers Expired. */
  private async removeExpired(): Promise<number> {
    const { db } = this.options;
    const nowMs = BigInt(this.now());
    const expired = await db
      .selectFrom('reports')
      .select(['id'])
      .where('status', 'in', ['Pending', 'Running', 'Ready', 'Failed'])
      .where('expires_at_ms', '<=', nowMs)
      .limit(EXPIRED_PER_RUN)
      .execute();
    for (const { id } of expired) {
      await fs.rm(reportFile(this.options.directory, id), { force: true });
      await db
        .updateTable('reports')
        .set({ status: 'Expired', file_name: null, progress_json: null, lease_owner: null, lease_until_ms: null, updated_at_ms: nowMs })
        .where('id', '=', id)
        .execute();
    }
    return expired.length;
  }
}

async function fileLength(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return -1;
  }
}
