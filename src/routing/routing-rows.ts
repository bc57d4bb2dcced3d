// Row types of the connector settings the operator keeps (connector-settings.ts): each live
// connector's base URL, its credentials (sealed with SECRET_KEY) and the routes that pick connectors.

export interface ConnectorSettingsTable {
  connector: string;
  /** null: the definition's default (the provider's production API). */
  base_url: string | null;
  updated_at_ms: bigint;
}

export interface ConnectorCredentialsTable {
  connector: string;
  field: string;
  /** AES-256-GCM under SECRET_KEY (core/secrets.ts); never returned by any API. */
  sealed: string;
  /** Last four characters, for the operator to tell which value is in force. */
  last4: string;
  updated_at_ms: bigint;
}

export interface ConnectorRoutesTable {
  /** `*` for the default of every live merchant, else a merchant id (its override). */
  scope: string;
  currency: string;
  direction: string;
  method: string;
  /** Connector names in order, comma-separated: the first usable one serves, payouts fall back along the rest. */
  connectors: string;
  updated_at_ms: bigint;
}

export interface RoutingTables {
  connector_settings: ConnectorSettingsTable;
  connector_credentials: ConnectorCredentialsTable;
  connector_routes: ConnectorRoutesTable;
}
