// What a live connector declares about itself: its name, what it can do (currency, method,
// direction), the credentials the operator must give it, its default base URL, and how to build its
// Channel from those. The routing table and the admin API read these; nothing else outside
// src/connectors/ learns a provider's name.
import type { Clock } from '../core/clock.js';
import type { Currency } from '../core/money.js';
import type { Channel } from './channel.js';
import type { StatementFormat } from './statement.js';

export type ConnectorDirection = 'payin' | 'payout';

/** One thing the connector can do: take `method` pay-ins, or send `method` payouts, in `currency`. */
export interface ConnectorCapability {
  readonly currency: Currency;
  readonly direction: ConnectorDirection;
  readonly method: string;
  /** Pay-ins only: can the connector refund this method through the provider? */
  readonly refunds?: boolean;
}

/** A credential the operator sets (API key, callback token, webhook secret...). */
export interface CredentialField {
  /** camelCase key, e.g. `secretKey`, `callbackToken`. */
  readonly name: string;
  /** One line for the operator: where to find it at the provider. */
  readonly description: string;
  /** false for values that are identifiers, not secrets (a merchant code, an account number); shown in full. */
  readonly secret: boolean;
  /** Optional credentials may be left unset (e.g. a second webhook secret). */
  readonly optional?: boolean;
}

export interface ConnectorOptions {
  /** The provider's API origin (and base path), without a trailing slash: the live or test environment, or a fake. */
  readonly baseUrl: string;
  /** Every required credential of the definition is present; optional ones may be missing. */
  readonly credentials: Readonly<Record<string, string>>;
  /** Deadline of each request to the provider, connection to last body byte. */
  readonly timeoutMs: number;
  readonly clock: Clock;
  /** Our notification endpoint for this connector (https://<service>/v1/callbacks/<name>), for providers that take it per request. */
  readonly callbackUrl: string;
}

export interface ConnectorDefinition {
  /** Lower-case, the folder's name and the `channel` recorded on payments and payouts. */
  readonly name: string;
  /** As the provider calls itself, for the operator. */
  readonly displayName: string;
  /** The provider's production API base URL; the operator may point it at the test environment. */
  readonly defaultBaseUrl: string;
  /** The provider's API version and the documentation pages the connector follows (for docs and the admin API). */
  readonly apiVersion: string;
  readonly credentials: readonly CredentialField[];
  readonly capabilities: readonly ConnectorCapability[];
  /**
   * Reconciliation: how to read the provider's statement (docs/reconciliation.md). Absent: the
   * provider documents no statement we read, and its connector page says so. Where the provider has
   * an API for it, the Channel also has `fetchStatement`.
   */
  readonly statement?: StatementFormat;
  create(options: ConnectorOptions): Channel;
}

/** Does the definition serve (currency, direction, method)? */
export const supports = (definition: ConnectorDefinition, currency: string, direction: ConnectorDirection, method: string): boolean =>
  definition.capabilities.some((c) => c.currency === currency && c.direction === direction && c.method === method);

/** The names of the required credentials the given set lacks. */
export const missingCredentials = (definition: ConnectorDefinition, given: Readonly<Record<string, string>>): string[] =>
  definition.credentials.filter((field) => !field.optional && !given[field.name]).map((field) => field.name);
