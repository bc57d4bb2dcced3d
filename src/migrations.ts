// The schema's history: every module's migration steps under the names they shipped with, which each
// database records in its kysely_migration table. Append new names; never rename, drop or edit one.
import { addAuditAddress, createAuditLog, generaliseAuditLog } from './audit/audit-migrations.js';
import { createFeeAndLimitOverrides } from './domain/fee-migrations.js';
import { addCollectionLeases, addLateResolutions, createPaymentTables, indexLiveQueuesOnly, indexPaymentCompletion, indexPaymentsForStatements } from './domain/payments/payment-migrations.js';
import { addPayoutApprovals, indexApprovalDeadlines } from './domain/payouts/approval-migrations.js';
import { createPayoutBatches } from './domain/payouts/batch-migrations.js';
import { addPayoutNameChecks } from './domain/payouts/name-check-migrations.js';
import { addPayoutFallbacks, createPayoutsTable, dropPayoutsTable, indexLivePayoutsByDueTime, indexPayoutQueuesByTime, indexPayoutsForStatements } from './domain/payouts/payout-migrations.js';
import { createUsdtRates } from './domain/rate-migrations.js';
import { addSignaturePaths, createRateLimitWindows, createSignatureClaims, createUsedSignatures, dropSignatureClaimsExpiry } from './http/request-guard-migrations.js';
import { createLedgerTables, dropReservationsStatusIndex, indexPendingLotsByDue } from './ledger/ledger-migrations.js';
import { addIpAllowListsAndKeyScopes } from './merchants/access-migrations.js';
import { createMerchantsAndKeys } from './merchants/merchant-migrations.js';
import { addPreviousWebhookSecret } from './merchants/webhook-secret-migrations.js';
import { createReconciliationTables } from './reconciliation/reconciliation-migrations.js';
import { createPeopleTables } from './people/people-migrations.js';
import { createReporting, createSettlementDays } from './reporting/report-migrations.js';
import { coverCompletionCounts, createRoutingTables } from './routing/routing-migrations.js';
import { migrationOf, type Migrations } from './store/migrator.js';
import { addServiceKeyRetirement } from './webhooks/service-key-migrations.js';
import { createWebhookTables, indexEventsByMerchantResource } from './webhooks/webhook-migrations.js';

/** A migration shipped when one file held several modules' tables is now their steps, in the order they first ran. */
export const MIGRATIONS: Migrations = {
  '0001_foundation': migrationOf(createMerchantsAndKeys, createUsedSignatures, createUsdtRates, createAuditLog),
  '0002_ledger': migrationOf(createLedgerTables, createFeeAndLimitOverrides),
  '0003_payments': migrationOf(createPaymentTables),
  '0004_webhooks': migrationOf(createWebhookTables),
  '0005_payouts': { ...migrationOf(createPayoutsTable), down: dropPayoutsTable },
  '0006_held_money_and_audit': migrationOf(generaliseAuditLog, addLateResolutions),
  '0007_signature_paths_rate_windows': migrationOf(addSignaturePaths, createRateLimitWindows),
  '0008_connectors': migrationOf(createRoutingTables, addPayoutFallbacks, indexPaymentCompletion),
  '0009_name_checks': migrationOf(addPayoutNameChecks),
  '0010_payout_batches': migrationOf(createPayoutBatches),
  '0011_ip_allow_lists_key_scopes': migrationOf(addIpAllowListsAndKeyScopes),
  '0012_payout_approvals_key_rotation': migrationOf(addPayoutApprovals, addPreviousWebhookSecret, addServiceKeyRetirement),
  '0013_reporting': migrationOf(createReporting),
  '0014_reconciliation': migrationOf(createReconciliationTables, indexPaymentsForStatements, indexPayoutsForStatements),
  '0015_console': migrationOf(addAuditAddress, createPeopleTables),
  '0016_collection_leases': migrationOf(addCollectionLeases),
  '0017_signature_claims': migrationOf(createSignatureClaims),
  '0018_payouts_live_due': migrationOf(indexLivePayoutsByDueTime),
  '0019_signature_claims_key_only': migrationOf(dropSignatureClaimsExpiry),
  '0020_payments_live_queues': migrationOf(indexLiveQueuesOnly),
  '0021_payouts_live_queues': migrationOf(indexPayoutQueuesByTime),
  '0022_payouts_approval_deadlines': migrationOf(indexApprovalDeadlines),
  '0023_reservations_by_ref': migrationOf(dropReservationsStatusIndex),
  '0024_pending_lots_by_due': migrationOf(indexPendingLotsByDue),
  '0025_webhook_events_by_merchant_resource': migrationOf(indexEventsByMerchantResource),
  '0026_settlement_days': migrationOf(createSettlementDays),
  '0027_completions_by_connector': migrationOf(coverCompletionCounts),
};
