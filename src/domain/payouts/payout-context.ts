// PayoutContext: what the payout module is handed by the rest of the service (store, clock, fees,
// ledger, channels, settings), named by role so the bootstrap and tests hand in the real pieces.
import type { Channel } from '../../connectors/channel.js';
import type { Clock } from '../../core/clock.js';
import type { Currency } from '../../core/money.js';
import type { LedgerService } from '../../ledger/service.js';
import type { StoreKind } from '../../store/db.js';
import type { Db } from '../../store/schema.js';
import type { PublicBankEntry } from '../banks/index.js';
import type { FeeService } from '../fees.js';
import type { Merchant } from '../../merchants/merchant-service.js';
import type { WebhookUrlCheck } from '../request-rules.js';

export interface PayoutChannels {
  /**
   * The channel that pays this merchant's payouts of this currency and method (sandbox: the
   * simulator), and the connectors a payout falls back to, in order, if that one refuses it at submission.
   */
  route(merchant: Merchant, currency: Currency, method: string, direction: 'payout'): { readonly channel: Channel; readonly fallbacks: readonly string[] };
  /** The channel a stored payout went through, by the name recorded on it. */
  byName(name: string): Channel;
}

/** Where surprises that do not fail a request go (an upstream's refusal, news about an unknown payout). */
export interface PayoutLog {
  warn(details: object, message: string): void;
}

export interface PayoutContext {
  readonly db: Db;
  readonly storeKind: StoreKind;
  readonly clock: Clock;
  readonly fees: FeeService;
  readonly ledger: LedgerService;
  readonly channels: PayoutChannels;
  /**
   * Live merchants: the bank codes their routed connector lists (banks/upstream-banks.ts), accepted
   * too, and the list with names (the name enquiry's bankName); without it, the service's own list.
   */
  readonly banks?: {
    upstreamCodes(merchant: Merchant, currency: Currency): Promise<ReadonlySet<string> | null>;
    banksFor?(merchant: Merchant, currency: Currency): Promise<readonly PublicBankEntry[]>;
  };
  readonly log?: PayoutLog;
  /** The webhook module's URL check (checkWebhookUrlSyntax with the operator's settings); without it, https only. */
  readonly webhookUrlCheck?: WebhookUrlCheck;
  /** The payout job's lease per claimed row (default PAYOUT_LEASE_MS); must exceed a channel request's deadline. */
  readonly leaseMs?: number;
  /** Payouts the job works on at once in this process (default DEFAULT_JOB_CONCURRENCY). */
  readonly concurrency?: number;
  /** The worker's pause when nothing is due; the payout job pauses at most PAYOUT_JOB_MAX_IDLE_MS. */
  readonly idleIntervalMs?: number;
}
