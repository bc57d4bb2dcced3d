// The whole database as Kysely sees it: each module declares the row types of the tables it owns,
// and this file only puts them together (type-only imports: the store depends on no module's code).
import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { AuditTables } from '../audit/audit-rows.js';
import type { FeeTables } from '../domain/fee-rows.js';
import type { PaymentTables } from '../domain/payments/payment-rows.js';
import type { PayoutBatchTables } from '../domain/payouts/batch-rows.js';
import type { PayoutTables } from '../domain/payouts/payout-rows.js';
import type { PeopleTables } from '../people/people-rows.js';
import type { RateTables } from '../domain/rate-rows.js';
import type { RequestGuardTables } from '../http/request-guard-rows.js';
import type { ReconciliationTables } from '../reconciliation/reconciliation-rows.js';
import type { ReportTables } from '../reporting/report-rows.js';
import type { RoutingTables } from '../routing/routing-rows.js';
import type { LedgerTables } from '../ledger/ledger-rows.js';
import type { MerchantTables } from '../merchants/merchant-rows.js';
import type { WebhookTables } from '../webhooks/webhook-rows.js';

export interface Database
  extends MerchantTables,
    AuditTables,
    RequestGuardTables,
    RateTables,
    FeeTables,
    LedgerTables,
    PaymentTables,
    WebhookTables,
    PayoutTables,
    PayoutBatchTables,
    RoutingTables,
    ReconciliationTables,
    PeopleTables,
    ReportTables {}

export type Db = Kysely<Database>;
/** A handle usable inside or outside a transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** Does this executor talk to PostgreSQL? (Queries compiled or written per dialect branch on it.) */
export const isPostgres = (db: Executor): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
