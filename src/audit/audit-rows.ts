// Row type of the operator audit log (audit-log.ts): one row per operator action, never a secret.
// Integer columns are bigint on both stores.

export interface AuditLogTable {
  /** UUID v7: ordering by id is ordering by time. */
  id: string;
  /** "admin" for the operator API, "cli:<os user>" for the CLI, "console:<email>" for the console, "merchant:<id>" for a merchant's own resend. */
  actor: string;
  action: string;
  /** What was acted on: a merchant, key, event, payment or currency. */
  target: string;
  /** The merchant concerned, when there is one (filters the log by merchant). */
  merchant_id: string | null;
  detail_json: string;
  /** The client address of the action (0015_console); null for the CLI, jobs and older rows. */
  address: string | null;
  created_at_ms: bigint;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
