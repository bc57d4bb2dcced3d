// PaymentContext: what the pay-in module is handed by the rest of the service (store, clock,
// merchants, fees, ledger, channels, settings), named by role so tests and the bootstrap hand in
// the real pieces without the module knowing how they are built.
import type { Channel, SandboxPayer } from '../../connectors/channel.js';
import type { LedgerService } from '../../ledger/service.js';
import type { Db } from '../../store/schema.js';
import type { Clock } from '../../core/clock.js';
import type { FeeService } from '../fees.js';
import type { Merchant, MerchantService } from '../../merchants/merchant-service.js';
import type { Currency } from '../../core/money.js';
import type { SecretBox } from '../../core/secrets.js';
import type { WebhookUrlCheck } from '../request-rules.js';

/** How payments reach upstreams: which channel collects a new payment, and the channel of a stored one. */
export interface PaymentChannels {
  /** The channel that collects this merchant's payments of this currency and method (sandbox: the simulator). */
  channelFor(merchant: Merchant, currency: Currency, method: string): Channel;
  /** The channel a stored payment went through, by the name recorded on it. */
  byName(name: string): Channel;
  /** The simulator's payer action, for sandbox completion. */
  sandboxPayer(): SandboxPayer;
  /** Can this merchant use (currency, method, direction) now? payment/methods lists only those. Absent: all. */
  enabled?(merchant: Merchant, currency: Currency, method: string, direction: 'payin' | 'payout'): boolean;
}

/** Where surprises that do not fail a request go (a channel's refusal, a callback for an unknown payment). */
export interface PaymentLog {
  warn(details: object, message: string): void;
}

export interface PaymentContext {
  readonly db: Db;
  readonly clock: Clock;
  /** Seals checkout tokens at rest. */
  readonly box: SecretBox;
  readonly merchants: MerchantService;
  readonly fees: FeeService;
  readonly ledger: LedgerService;
  readonly channels: PaymentChannels;
  /** e.g. https://pay.example.com; checkout URLs are built on it. */
  readonly publicBaseUrl: string;
  readonly log?: PaymentLog;
  /** The webhook module's URL check (checkWebhookUrlSyntax with the operator's settings); without it, https only. */
  readonly webhookUrlCheck?: WebhookUrlCheck;
  /** Rows each pay-in job has with the channels at once (UPSTREAM_CONCURRENCY, default DEFAULT_JOB_CONCURRENCY). */
  readonly upstreamConcurrency?: number;
}
