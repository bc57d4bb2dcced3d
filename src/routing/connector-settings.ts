// What the operator sets about live connectors: credentials (sealed with SECRET_KEY, shown again
// only by their last four characters), base URLs, and routes (which connectors, in which order,
// serve a currency, method and direction; a default for all live merchants and overrides per
// merchant). Every change is audited in its own transaction; the router reads a snapshot of all three.
import { recordAudit } from '../audit/audit-log.js';
import type { Clock } from '../core/clock.js';
import { isoFromMs } from '../core/clock.js';
import { AppError, validationError } from '../core/errors.js';
import { CURRENCIES, type Currency } from '../core/money.js';
import type { SecretBox } from '../core/secrets.js';
import { CONNECTORS } from '../connectors/catalog.js';
import { missingCredentials, supports, type ConnectorCapability, type ConnectorDefinition, type ConnectorDirection } from '../connectors/connector.js';
import type { Db } from '../store/schema.js';
import { withTransaction } from '../store/transactions.js';

export const DEFAULT_SCOPE = '*';
export const DIRECTIONS: readonly ConnectorDirection[] = ['payin', 'payout'];
const MAX_CREDENTIAL_LENGTH = 4096;
export const MAX_ROUTE_LENGTH = 5;

export interface CredentialView {
  readonly name: string;
  readonly description: string;
  readonly secret: boolean;
  readonly optional: boolean;
  readonly set: boolean;
  /** Secrets: the last four characters only; identifiers: the whole value. */
  readonly hint: string | null;
  readonly updatedAt: string | null;
}

export interface ConnectorView {
  readonly name: string;
  readonly displayName: string;
  readonly apiVersion: string;
  readonly baseUrl: string;
  readonly defaultBaseUrl: string;
  readonly capabilities: ConnectorCapability[];
  readonly credentials: CredentialView[];
  /** Every required credential is set: the connector can serve routes. */
  readonly ready: boolean;
  readonly missingCredentials: string[];
}

export interface RouteKey {
  /** null: the default for every live merchant. */
  readonly merchantId: string | null;
  readonly currency: Currency;
  readonly direction: ConnectorDirection;
  readonly method: string;
}

export interface RouteView extends RouteKey {
  readonly connectors: string[];
  readonly updatedAt: string;
}

/** Everything the router needs, read at once. Credentials are open here: never log a snapshot. */
export interface RoutingSnapshot {
  readonly baseUrls: ReadonlyMap<string, string>;
  readonly credentials: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** Keyed by routeKey(scope, currency, direction, method). */
  readonly routes: ReadonlyMap<string, readonly string[]>;
}

export const routeKey = (scope: string, currency: string, direction: string, method: string): string => `${scope}|${currency}|${direction}|${method}`;

const hintOf = (value: string, secret: boolean): string => (secret ? `…${value.slice(-4)}` : value);

export class ConnectorSettings {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    /** The connectors the service ships (tests may add more). */
    readonly catalog: readonly ConnectorDefinition[] = CONNECTORS,
  ) {}

  definition(name: string): ConnectorDefinition | undefined {
    return this.catalog.find((c) => c.name === name);
  }

  private requireConnector(name: string): ConnectorDefinition {
    const definition = this.definition(name);
    if (!definition) throw new AppError('NOT_FOUND', `No connector ${name}; known: ${this.catalog.map((c) => c.name).join(', ') || 'none'}.`);
    return definition;
  }

  /** Every connector the service ships, with what it can do and which credentials are set. */
  async list(): Promise<ConnectorView[]> {
    const [settings, credentials] = await Promise.all([
      this.db.selectFrom('connector_settings').selectAll().execute(),
      this.db.selectFrom('connector_credentials').selectAll().execute(),
    ]);
    return this.catalog.map((definition) => {
      const mine = credentials.filter((row) => row.connector === definition.name);
      const present = Object.fromEntries(mine.map((row) => [row.field, 'set']));
      const missing = missingCredentials(definition, present);
      const configured = settings.find((row) => row.connector === definition.name)?.base_url ?? null;
      return {
        name: definition.name,
        displayName: definition.displayName,
        apiVersion: definition.apiVersion,
        baseUrl: configured ?? definition.defaultBaseUrl,
        defaultBaseUrl: definition.defaultBaseUrl,
        capabilities: [...definition.capabilities],
        credentials: definition.credentials.map((field) => {
          const row = mine.find((r) => r.field === field.name);
          return {
            name: field.name,
            description: field.description,
            secret: field.secret,
            optional: field.optional ?? false,
            set: row !== undefined,
            hint: row ? (field.secret ? `…${row.last4}` : this.box.open(row.sealed)) : null,
            updatedAt: row ? isoFromMs(Number(row.updated_at_ms)) : null,
          };
        }),
        ready: missing.length === 0,
        missingCredentials: missing,
      };
    });
  }

  async get(name: string): Promise<ConnectorView> {
    this.requireConnector(name);
    return (await this.list()).find((view) => view.name === name)!;
  }

  /**
   * Sets (or rotates) some of a connector's credentials; the others keep their values. An empty
   * string removes an optional one. Nothing is stored unless every given field is valid.
   */
  async setCredentials(name: string, values: Readonly<Record<string, string>>, actor: string): Promise<ConnectorView> {
    const definition = this.requireConnector(name);
    const entries = Object.entries(values);
    if (entries.length === 0) throw validationError('credentials', 'must name at least one credential');
    for (const [field, value] of entries) {
      const spec = definition.credentials.find((f) => f.name === field);
      if (!spec) {
        throw validationError(field, `is not a credential of ${name}; it takes ${definition.credentials.map((f) => f.name).join(', ')}`);
      }
      if (typeof value !== 'string' || value.length > MAX_CREDENTIAL_LENGTH || (value === '' && !spec.optional) || /[\u0000-\u001f\u007f]/.test(value)) {
        throw validationError(field, `must be a non-empty string of printable characters, at most ${MAX_CREDENTIAL_LENGTH} long`);
      }
    }
    const nowMs = this.clock.nowMs();
    await withTransaction(this.db, async (trx) => {
      for (const [field, value] of entries) {
        await trx.deleteFrom('connector_credentials').where('connector', '=', name).where('field', '=', field).execute();
        if (value === '') continue;
        await trx
          .insertInto('connector_credentials')
          .values({ connector: name, field, sealed: this.box.seal(value), last4: value.slice(-4), updated_at_ms: BigInt(nowMs) })
          .execute();
      }
      const hints = Object.fromEntries(
        entries.map(([field, value]) => [field, value === '' ? 'removed' : hintOf(value, definition.credentials.find((f) => f.name === field)!.secret)]),
      );
      await recordAudit(trx, { actor, action: 'connector.credentials_set', target: name, details: { credentials: hints }, nowMs });
    });
    return this.get(name);
  }

  /** Points the connector at another environment (the provider's test API, or a fake); null restores the default. */
  async setBaseUrl(name: string, baseUrl: string | null, actor: string): Promise<ConnectorView> {
    const definition = this.requireConnector(name);
    const normalised = baseUrl === null ? null : checkBaseUrl(baseUrl);
    const nowMs = this.clock.nowMs();
    await withTransaction(this.db, async (trx) => {
      await trx.deleteFrom('connector_settings').where('connector', '=', name).execute();
      await trx.insertInto('connector_settings').values({ connector: name, base_url: normalised, updated_at_ms: BigInt(nowMs) }).execute();
      await recordAudit(trx, {
        actor,
        action: 'connector.base_url_set',
        target: name,
        details: { baseUrl: normalised ?? definition.defaultBaseUrl, default: normalised === null },
        nowMs,
      });
    });
    return this.get(name);
  }

  /**
   * Sets the ordered connectors of one route; an empty list removes it (a merchant's override falls
   * back to the default; the default leaves the method disabled for live merchants). Every connector
   * named must offer that currency, direction and method.
   */
  async setRoute(key: RouteKey, connectors: readonly string[], actor: string): Promise<RouteView | null> {
    if (!(CURRENCIES as readonly string[]).includes(key.currency)) throw new AppError('UNSUPPORTED_CURRENCY', `${key.currency} is not a supported currency.`);
    if (!DIRECTIONS.includes(key.direction)) throw validationError('direction', 'must be payin or payout');
    if (connectors.length > MAX_ROUTE_LENGTH) throw validationError('connectors', `must name at most ${MAX_ROUTE_LENGTH} connectors`);
    if (new Set(connectors).size !== connectors.length) throw validationError('connectors', 'must not name a connector twice');
    for (const name of connectors) {
      const definition = this.definition(name);
      if (!definition) throw validationError('connectors', `${name} is not a connector; known: ${this.catalog.map((c) => c.name).join(', ')}`);
      if (!supports(definition, key.currency, key.direction, key.method)) {
        throw validationError('connectors', `${name} does not offer ${key.currency} ${key.method} ${key.direction === 'payin' ? 'pay-ins' : 'payouts'}`);
      }
    }
    const scope = key.merchantId ?? DEFAULT_SCOPE;
    if (key.merchantId !== null) {
      const merchant = await this.db.selectFrom('merchants').select('id').where('id', '=', key.merchantId).executeTakeFirst();
      if (!merchant) throw new AppError('NOT_FOUND', `No merchant ${key.merchantId}.`);
    }
    const nowMs = this.clock.nowMs();
    await withTransaction(this.db, async (trx) => {
      await trx
        .deleteFrom('connector_routes')
        .where('scope', '=', scope)
        .where('currency', '=', key.currency)
        .where('direction', '=', key.direction)
        .where('method', '=', key.method)
        .execute();
      if (connectors.length > 0) {
        await trx
          .insertInto('connector_routes')
          .values({ scope, currency: key.currency, direction: key.direction, method: key.method, connectors: connectors.join(','), updated_at_ms: BigInt(nowMs) })
          .execute();
      }
      await recordAudit(trx, {
        actor,
        action: connectors.length > 0 ? 'route.set' : 'route.remove',
        target: `${key.currency} ${key.method} ${key.direction}`,
        merchantId: key.merchantId,
        details: { connectors },
        nowMs,
      });
    });
    return connectors.length > 0 ? { ...key, connectors: [...connectors], updatedAt: isoFromMs(nowMs) } : null;
  }

  /** The routes: all of them, or the default and one merchant's overrides. */
  async listRoutes(merchantId?: string): Promise<RouteView[]> {
    let query = this.db.selectFrom('connector_routes').selectAll();
    if (merchantId !== undefined) query = query.where('scope', 'in', [DEFAULT_SCOPE, merchantId]);
    const rows = await query.orderBy('scope').orderBy('currency').orderBy('direction').orderBy('method').execute();
    return rows.map((row) => ({
      merchantId: row.scope === DEFAULT_SCOPE ? null : row.scope,
      currency: row.currency as Currency,
      direction: row.direction as ConnectorDirection,
      method: row.method,
      connectors: row.connectors.split(','),
      updatedAt: isoFromMs(Number(row.updated_at_ms)),
    }));
  }

  async snapshot(): Promise<RoutingSnapshot> {
    const [settings, credentials, routes] = await Promise.all([
      this.db.selectFrom('connector_settings').selectAll().execute(),
      this.db.selectFrom('connector_credentials').selectAll().execute(),
      this.db.selectFrom('connector_routes').selectAll().execute(),
    ]);
    const opened = new Map<string, Record<string, string>>();
    for (const row of credentials) {
      const values = opened.get(row.connector) ?? {};
      values[row.field] = this.box.open(row.sealed);
      opened.set(row.connector, values);
    }
    return {
      baseUrls: new Map(settings.filter((row) => row.base_url !== null).map((row) => [row.connector, row.base_url!])),
      credentials: opened,
      routes: new Map(routes.map((row) => [routeKey(row.scope, row.currency, row.direction, row.method), row.connectors.split(',')])),
    };
  }
}

/** http(s) only, no credentials in the URL, no query or fragment; the trailing slash dropped. */
function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationError('baseUrl', 'must be an absolute http(s) URL');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) {
    throw validationError('baseUrl', 'must be an http(s) URL without credentials, query or fragment');
  }
  return url.toString().replace(/\/+$/, '');
}
