// Builds the service container from configuration: secrets, store (migrated), domain services,
// channels (the in-process simulator unless SIMULATOR_URL is set) and the background jobs, which
// each module defines beside the service they drive.
// Shared by the server (main.ts), the operator CLI and the tests, so all see the same wiring.
import type { Config } from './config.js';
import { ChannelRegistry } from './connectors/registry.js';
import { systemClock, type Clock } from './core/clock.js';
import { FeeService } from './domain/fees.js';
import { BankDirectory } from './domain/banks/upstream-banks.js';
import { MerchantService } from './merchants/merchant-service.js';
import { PaymentService } from './domain/payments/service.js';
import { PayoutService } from './domain/payouts/service.js';
import { PeopleService } from './people/service.js';
import { RateService } from './domain/rates.js';
import { loadOrCreateLocalSecrets, SecretBox } from './core/secrets.js';
import { ReportingService } from './reporting/service.js';
import { LedgerService } from './ledger/service.js';
import type { Services } from './services.js';
import { MIGRATIONS } from './migrations.js';
import { openStore } from './store/db.js';
import { startChannels } from './upstreams.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { WebhookService } from './webhooks/service.js';
import { loadOrCreateServiceKey, ServiceKeyring } from './webhooks/signer.js';
import { checkWebhookUrlSyntax } from './webhooks/ssrf.js';
import { WorkSignal, type Job, type WorkerOptions } from './core/worker.js';
import { pino } from 'pino';
import type { ConnectorDefinition } from './connectors/connector.js';
import { ConnectorMetrics } from './routing/connector-metrics.js';
import { ConnectorSettings } from './routing/connector-settings.js';
import { ConnectorRouter } from './routing/router.js';
import type { SimulatorHandle } from './simulator/server.js';
import { dailyReconciliationJob } from './reconciliation/daily-job.js';
import { WebhookRetentionJob } from './webhooks/retention.js';
import { ReconciliationService } from './reconciliation/service.js';
import { StatementRecords } from './domain/statement-records.js';

export interface Runtime {
  readonly services: Services;
  /** Every background job of this process's role. */
  readonly jobs: readonly Job[];
  /** How a Worker running `jobs` backs off while idle and what wakes it (WORKER_IDLE_MAX_MS, services.activity). */
  readonly workerOptions: WorkerOptions;
  /** Closes channels and the store, after the HTTP server and the worker have stopped. */
  close(): Promise<void>;
}

/**
 * `upstream`: 'start' for the service (its own in-process simulator unless SIMULATOR_URL, published
 * in the data directory); 'attach' for tools beside it (the CLI), which reach the service's simulator.
 */
export interface RuntimeOptions {
  /** The live connectors offered (default: every connector the service ships; tests add more). */
  readonly connectors?: readonly ConnectorDefinition[];
}

export async function buildRuntime(
  config: Config,
  clock: Clock = systemClock,
  upstream: 'start' | 'attach' = 'start',
  options: RuntimeOptions = {},
): Promise<Runtime> {
  // The background work's own log (the HTTP server logs requests through Fastify's): what upstreams
  // refused, what routing could not serve. Never given a secret or a full account number.
  const logger = pino({ level: config.http.logLevel, base: { component: 'worker' } });
  const local = config.adminToken && config.secretKey ? null : loadOrCreateLocalSecrets(config.dataDir);
  const adminToken = config.adminToken ?? local!.adminToken;
  const box = new SecretBox(config.secretKey ?? local!.secretKey);
  const store = await openStore(config, MIGRATIONS);
  const merchants = new MerchantService(store.db, box, clock, {
    rateLimitPerSecond: config.defaultRateLimitPerSecond,
    credentialCacheMs: config.credentialCacheMs,
    webhookSecretOverlapSeconds: config.rotation.webhookSecretOverlapSeconds,
  });
  const ledger = new LedgerService(store, clock);
  const fees = new FeeService(store.db, clock, { cacheMs: config.credentialCacheMs });
  const serviceKey = new ServiceKeyring(store.db, box, clock, config.rotation.serviceKeyOverlapSeconds, await loadOrCreateServiceKey(store.db, box, clock));
  const webhooks = new WebhookService(store.db, serviceKey, clock);
  const registry =
    upstream === 'start'
      ? await startChannels(config.simulator, config.simulatorBank, clock, `http://127.0.0.1:${config.port}`, config.dataDir, (message) =>
          logger.warn(message),
        )
      : await ChannelRegistry.attach(config.simulator, clock, config.dataDir);
  const connectorSettings = new ConnectorSettings(store.db, box, clock, options.connectors);
  const connectorMetrics = new ConnectorMetrics(store.db, clock);
  const channels = await new ConnectorRouter<SimulatorHandle>(registry as ChannelRegistry<SimulatorHandle>, {
    settings: connectorSettings,
    metrics: connectorMetrics,
    clock,
    timeoutMs: config.connectors.timeoutMs,
    publicBaseUrl: config.publicBaseUrl,
    refreshMs: config.connectors.refreshMs,
    log: logger,
  }).start();
  const payments = new PaymentService({
    db: store.db,
    clock,
    box,
    merchants,
    fees,
    ledger,
    channels,
    publicBaseUrl: config.publicBaseUrl,
    webhookUrlCheck: (raw) => checkWebhookUrlSyntax(raw, config.webhooks),
    upstreamConcurrency: config.upstreamConcurrency,
    log: logger,
  });
  const banks = new BankDirectory(channels, () => clock.nowMs(), logger);
  const payouts = new PayoutService({
    db: store.db,
    storeKind: store.kind,
    clock,
    fees,
    ledger,
    channels,
    banks,
    webhookUrlCheck: (raw) => checkWebhookUrlSyntax(raw, config.webhooks),
    concurrency: config.upstreamConcurrency,
    idleIntervalMs: config.workerIdleMs,
    log: logger,
  });
  const reconciliation = new ReconciliationService({ db: store.db, clock, channels, records: new StatementRecords(store.db) });
  const reporting = new ReportingService({ store, clock, box, dataDir: config.dataDir, publicBaseUrl: config.publicBaseUrl });
  const dispatcher = new WebhookDispatcher({ store, box, serviceKey, clock, config: config.webhooks, idleIntervalMs: config.workerIdleMs });
  const services: Services = {
    config,
    store,
    clock,
    box,
    adminToken,
    merchants,
    rates: new RateService(store.db, clock),
    ledger,
    fees,
    webhooks,
    channels,
    connectorSettings,
    connectorMetrics,
    banks,
    payments,
    payouts,
    reconciliation,
    people: new PeopleService(store.db, box, clock, config.console),
    reporting,
    activity: new WorkSignal(),
  };
  const retentionJobs = config.webhookRetentionDays > 0 ? [new WebhookRetentionJob({ db: store.db, clock, retentionDays: config.webhookRetentionDays })] : [];
  const reconciliationJobs = config.reconciliation.daily ? [dailyReconciliationJob(reconciliation, { clock, hourUtc: config.reconciliation.hourUtc, log: logger })] : [];
  return {
    services,
    workerOptions: { maxIdleMs: config.workerIdleMaxMs, activity: services.activity },
    jobs: [...Object.values(payments.jobs), ...Object.values(payouts.jobs), dispatcher.job, ledger.settlementJob(config.workerIdleMs), reporting.exportJob(config.workerIdleMs), reporting.settlementDaysJob(), ...retentionJobs, ...reconciliationJobs],
    close: async () => {
      // Upstream calls in flight finish and are applied; their rows would otherwise wait out their leases.
      await Promise.all([payments.closeJobs(), payouts.closeJobs()]);
      // Records deliveries in flight, so they are not sent again after their lease.
      await dispatcher.close();
      await channels.close();
      await store.close();
    },
  };
}

/** The services alone, for the CLI: no HTTP server, no background jobs, no simulator of its own. */
export async function buildServices(config: Config, clock: Clock = systemClock): Promise<Services & { close(): Promise<void> }> {
  const runtime = await buildRuntime(config, clock, 'attach');
  return { ...runtime.services, close: runtime.close };
}
