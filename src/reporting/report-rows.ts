// Row type of the reports table (migration 0013): one CSV export a merchant asked for, its progress
// while the job writes it, and its file until it expires.
export const REPORT_TYPES = ['payments', 'payouts', 'statement', 'settlements'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const REPORT_STATUSES = ['Pending', 'Running', 'Ready', 'Failed', 'Expired'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export interface ReportsTable {
  /** UUID v7, the reportId. */
  id: string;
  merchant_id: string;
  type: ReportType;
  /** The request's filters (from, to, currency, ...) as JSON, exactly as the job applies them. */
  filters_json: string;
  status: ReportStatus;
  /** Rows written so far (data rows, without the header). */
  row_count: bigint;
  /** File name under DATA_DIR/reports once the job started writing. */
  file_name: string | null;
  /** Where the job continues after a restart: the last row written and the file's length at that point, as JSON. */
  progress_json: string | null;
  /** Which job instance holds the lease: progress is recorded only by the holder. */
  lease_owner: string | null;
  /** The job's lease while a process writes the file; another process takes over once it passed. */
  lease_until_ms: bigint | null;
  failure: string | null;
  created_at_ms: bigint;
  updated_at_ms: bigint;
  completed_at_ms: bigint | null;
  /** When the file is deleted and the report answers Expired. */
  expires_at_ms: bigint;
}

/**
 * One closed UTC day of a merchant's ledger in one currency, as account/settlements sums it (migration
 * 0026): the ledger is append-only and a day takes no entry once it has closed, so its sums never change
 * and are read from here instead of from every posting of the day again.
 */
export interface SettlementDaysTable {
  merchant_id: string;
  currency: string;
  /** Days since 1970-01-01 (UTC). */
  day: bigint;
  /** The day's sums, each `[entry kind, account kind, minor units as text]`; `[]` when nothing moved. */
  sums_json: string;
  created_at_ms: bigint;
}

export interface ReportTables {
  reports: ReportsTable;
  settlement_days: SettlementDaysTable;
}
