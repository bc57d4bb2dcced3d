// Row types of the ledger's tables: accounts, journal entries and postings, payout reservations and
// pending lots. Every integer column is bigint on both stores, so money never passes a float.

/** One account: a merchant balance, a merchant's credit-line counter-account, or a platform account. */
export interface LedgerAccountsTable {
  /** Deterministic, see accountId(): the posting path never looks an account up by its parts. */
  id: string;
  /** null for platform accounts. */
  merchant_id: string | null;
  currency: string;
  kind: string;
  /** Upstream channel of an upstream_clearing account, otherwise null. */
  channel: string | null;
  /** Cached sum of every posting to this account, updated in the posting's transaction. */
  balance_minor: bigint;
  created_at_ms: bigint;
}

/** The header of one journal entry: (kind, ref) is unique, which makes every operation idempotent. */
export interface LedgerEntriesTable {
  /** UUID v7, so ordering by id is ordering by time. */
  id: string;
  kind: string;
  /** Business reference (payment or payout transactionRef, operator idempotency key...). */
  ref: string;
  merchant_id: string | null;
  currency: string;
  /** How many postings the entry has; verify checks that all of them are there. */
  posting_count: bigint;
  reason: string | null;
  actor: string | null;
  created_at_ms: bigint;
}

export interface LedgerPostingsTable {
  entry_id: string;
  account_id: string;
  /** Signed; the postings of one entry sum to zero. */
  amount_minor: bigint;
}

/** Funds reserved for a payout and where they came from, so a release puts them back there. */
export interface LedgerReservationsTable {
  ref: string;
  merchant_id: string;
  currency: string;
  amount_minor: bigint;
  fee_minor: bigint;
  from_available_minor: bigint;
  from_credit_minor: bigint;
  status: 'held' | 'released' | 'completed';
  created_at_ms: bigint;
  updated_at_ms: bigint;
}

/** Money in `pending` and when it may settle; the lots of a merchant and currency sum to its pending balance. */
export interface LedgerPendingLotsTable {
  id: string;
  merchant_id: string;
  currency: string;
  /** The business reference that created the lot (a payment's transactionRef), so its refund consumes it first. */
  ref: string;
  remaining_minor: bigint;
  due_at_ms: bigint;
  created_at_ms: bigint;
}

export interface LedgerTables {
  ledger_accounts: LedgerAccountsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_postings: LedgerPostingsTable;
  ledger_reservations: LedgerReservationsTable;
  ledger_pending_lots: LedgerPendingLotsTable;
}
