// The routing table at work: which channel serves a payment or payout. Sandbox merchants reach the
// simulated bank only; a live merchant's (currency, method, direction) is served by the first
// connector of its route (the merchant's override, else the default) whose credentials are all set.
// The router keeps a snapshot of the operator's settings in memory, rebuilt after every change made
// through this process and every few seconds for changes made by another process.
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import type { Currency } from '../core/money.js';
import type { Channel, SandboxPayer } from '../connectors/channel.js';
import { callbackPath, type ChannelRegistry } from '../connectors/registry.js';
import type { InProcessBank, SimulatorConnection } from '../connectors/simulator/connection.js';
import { simulatorStatement } from '../connectors/simulator/statement.js';
import type { StatementFile, StatementFormat } from '../connectors/statement.js';
import { missingCredentials, type ConnectorDirection } from '../connectors/connector.js';
import type { ConnectorMetrics } from './connector-metrics.js';
import { DEFAULT_SCOPE, routeKey, type ConnectorSettings, type RoutingSnapshot } from './connector-settings.js';

export const ROUTING_REFRESH_MS = 5_000;
/** A replaced channel is closed this long after, so calls already under way finish. */
const RETIRE_AFTER_MS = 60_000;

export interface Routed {
  readonly channel: Channel;
  /** The connectors after it in the route that are usable now, in order (payouts fall back along them). */
  readonly fallbacks: readonly string[];
}

interface LiveChannel {
  readonly fingerprint: string;
  readonly channel: Channel;
}

export interface RouterOptions {
  readonly settings: ConnectorSettings;
  readonly metrics: ConnectorMetrics;
  readonly clock: Clock;
  /** Deadline of each request to a provider. */
  readonly timeoutMs: number;
  /** The service's public address: providers are told to notify `<publicBaseUrl>/v1/callbacks/<name>`. */
  readonly publicBaseUrl: string;
  readonly refreshMs?: number;
  readonly log?: { warn(object: object, message: string): void; error(object: object, message: string): void };
}

/** `Bank`: the in-process simulated bank's type, known only to the composition root and the tests. */
export class ConnectorRouter<Bank extends InProcessBank = InProcessBank> {
  private snapshot: RoutingSnapshot = { baseUrls: new Map(), credentials: new Map(), routes: new Map() };
  private live = new Map<string, LiveChannel>();
  private timer: NodeJS.Timeout | null = null;
  private readonly retiring = new Set<NodeJS.Timeout>();
  /** The refresh under way or last run (refresh): the next one starts after it. */
  private refreshing: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: ChannelRegistry<Bank>,
    private readonly options: RouterOptions,
  ) {}

  /** The simulated bank sandbox merchants reach. */
  get simulator(): SimulatorConnection<Bank> {
    return this.registry.simulator;
  }

  /** Reads the settings now and then every few seconds (refreshMs 0: only when asked). */
  async start(): Promise<this> {
    await this.refresh();
    const every = this.options.refreshMs ?? ROUTING_REFRESH_MS;
    if (every > 0) {
      this.timer = setInterval(() => {
        this.refresh().catch((error: unknown) => this.options.log?.error({ err: error }, 'routing: reading the connector settings failed; the previous ones stay'));
      }, every);
      this.timer.unref();
    }
    return this;
  }

  /**
   * Rebuilds the channels whose base URL or credentials changed; the others keep their connections.
   * Refreshes run one at a time, each reading the settings after the one before applied its own: run
   * at once (the timer's and an operator's change, two operators' changes), one that read the
   * settings before a change could finish after the change's own refresh and put the old routes and
   * credentials back until the next read.
   */
  refresh(): Promise<void> {
    const run = this.refreshing.then(() => this.refreshNow());
    this.refreshing = run.catch(() => undefined);
    return run;
  }

  private async refreshNow(): Promise<void> {
    const snapshot = await this.options.settings.snapshot();
    const next = new Map<string, LiveChannel>();
    for (const definition of this.options.settings.catalog) {
      const credentials = snapshot.credentials.get(definition.name) ?? {};
      if (missingCredentials(definition, credentials).length > 0) continue;
      const baseUrl = snapshot.baseUrls.get(definition.name) ?? definition.defaultBaseUrl;
      const fingerprint = JSON.stringify([baseUrl, Object.entries(credentials).sort()]);
      const current = this.live.get(definition.name);
      if (current && current.fingerprint === fingerprint) {
        next.set(definition.name, current);
        continue;
      }
      const channel = definition.create({
        baseUrl,
        credentials,
        timeoutMs: this.options.timeoutMs,
        clock: this.options.clock,
        callbackUrl: this.options.publicBaseUrl.replace(/\/+$/, '') + callbackPath(definition.name),
      });
      next.set(definition.name, { fingerprint, channel: this.options.metrics.instrument(channel, definition.name) });
    }
    for (const [name, old] of this.live) {
      if (next.get(name) !== old) this.retire(old.channel);
    }
    this.live = next;
    this.snapshot = snapshot;
  }

  /** The channel for a merchant's payment (payin) or payout, and the usable connectors after it. */
  route(merchant: { readonly id: string; readonly mode: 'sandbox' | 'live' }, currency: Currency, method: string, direction: ConnectorDirection): Routed {
    if (merchant.mode === 'sandbox') return { channel: this.registry.simulator.channel, fallbacks: [] };
    const names = this.routeOf(merchant.id, currency, method, direction);
    const what = `${currency} ${method} ${direction === 'payin' ? 'pay-ins' : 'payouts'}`;
    if (!names) throw new AppError('METHOD_NOT_ENABLED', `${what} are not enabled for this merchant.`);
    const usable = names.filter((name) => this.live.has(name));
    if (usable.length === 0) {
      // The merchant's message stays generic; the operator's log says what is missing.
      const missing = names.map((name) => {
        const definition = this.options.settings.definition(name);
        return { connector: name, missingCredentials: definition ? missingCredentials(definition, this.snapshot.credentials.get(name) ?? {}) : ['(unknown connector)'] };
      });
      this.options.log?.warn({ merchantId: merchant.id, currency, method, direction, route: missing }, 'routing: no connector of the route has its credentials; refused METHOD_NOT_ENABLED');
      throw new AppError('METHOD_NOT_ENABLED', `${what} are not enabled for this merchant.`);
    }
    return { channel: this.live.get(usable[0]!)!.channel, fallbacks: usable.slice(1) };
  }

  /** Payments: the channel of the route (see route). */
  channelFor(merchant: { readonly id: string; readonly mode: 'sandbox' | 'live' }, currency: Currency, method: string): Channel {
    return this.route(merchant, currency, method, 'payin').channel;
  }

  /** Is (currency, method, direction) usable for this merchant now? (payment/methods lists only those.) */
  enabled(merchant: { readonly id: string; readonly mode: 'sandbox' | 'live' }, currency: Currency, method: string, direction: ConnectorDirection): boolean {
    if (merchant.mode === 'sandbox') return true;
    return this.routeOf(merchant.id, currency, method, direction)?.some((name) => this.live.has(name)) ?? false;
  }

  /** The merchant's own route of (currency, method, direction), else the default one. */
  private routeOf(merchantId: string, currency: Currency, method: string, direction: ConnectorDirection): readonly string[] | undefined {
    const routes = this.snapshot.routes;
    return routes.get(routeKey(merchantId, currency, direction, method)) ?? routes.get(routeKey(DEFAULT_SCOPE, currency, direction, method));
  }

  /** The channel a record names (its `channel`), or one a callback at /v1/callbacks/:channel is for. */
  byName(name: string): Channel {
    if (name === this.registry.simulator.channel.name) return this.registry.simulator.channel;
    const live = this.live.get(name);
    if (live) return live.channel;
    const known = this.options.settings.definition(name) !== undefined;
    throw new AppError(known ? 'UNAVAILABLE' : 'NOT_FOUND', `The channel ${name} is not available${known ? ': its credentials are not set' : ''}.`);
  }

  /** How the named connector's statement reads (reconciliation); undefined when it offers none. */
  statementFormat(name: string): StatementFormat | undefined {
    if (name === this.registry.simulator.channel.name) return simulatorStatement;
    return this.options.settings.definition(name)?.statement;
  }

  /** The connectors whose statement can be fetched now: the simulator and every live one with credentials and a report API. */
  statementSources(): { readonly connector: string; fetch(dayStartMs: number): Promise<StatementFile> }[] {
    const channels = [this.registry.simulator.channel as Channel, ...[...this.live.values()].map((live) => live.channel)];
    return channels.flatMap((channel) => {
      const fetch = channel.fetchStatement?.bind(channel);
      return fetch && this.statementFormat(channel.name) ? [{ connector: channel.name, fetch }] : [];
    });
  }

  sandboxPayer(): SandboxPayer {
    return this.registry.sandboxPayer();
  }

  setServiceBaseUrl(baseUrl: string): void {
    this.registry.setServiceBaseUrl(baseUrl);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    // A refresh under way would otherwise open channels after they are closed here.
    await this.refreshing;
    for (const timer of this.retiring) clearTimeout(timer);
    this.retiring.clear();
    await Promise.all([...this.live.values()].map((live) => live.channel.close?.()));
    this.live.clear();
    // The simulator's connection, and the in-process bank with it: its port, its entry in the data
    // directory (simulator.json) and its state file's lock are given back.
    await this.registry.close();
  }

  private retire(channel: Channel): void {
    const timer = setTimeout(() => {
      this.retiring.delete(timer);
      void channel.close?.();
    }, RETIRE_AFTER_MS);
    timer.unref();
    this.retiring.add(timer);
  }
}
