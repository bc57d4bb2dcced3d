// The whole database as Kysely sees it: each module contributes its tables.
import type { Kysely, Transaction } from 'kysely';
import type { FoundationTables } from './tables.js';
import type { LedgerTables } from '../ledger/tables.js';
import type { PaymentTables } from '../domain/payments/tables.js';
import type { WebhookTables } from '../webhooks/tables.js';
import type { PayoutTables } from '../domain/payouts/tables.js';

export interface Database extends FoundationTables, LedgerTables, PaymentTables, WebhookTables, PayoutTables {}

export type Db = Kysely<Database>;
/** A handle usable inside or outside a transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;
