// Which page groups the web console has, and the services each is handed (composition, like
// server.ts for the route plugins): each group names what it uses in its own options, so console/
// never sees the whole Services container. Add a group here to add pages to the console.
import type { ConsolePages } from './console/app.js';
import { merchantPages } from './console/merchant/index.js';
import { merchantReportPages } from './console/merchant/reports.js';
import { operatorPages } from './console/operator/index.js';
import { TeamService } from './people/team.js';
import type { Services } from './services.js';

export function consolePageGroups(services: Services): ConsolePages[] {
  return [
    operatorPages({
      people: services.people,
      merchants: services.merchants,
      webhookConfig: services.config.webhooks,
      rates: services.rates,
      ledger: services.ledger,
      fees: services.fees,
      payouts: services.payouts,
      held: services.payments.held,
      webhooks: services.webhooks,
      db: services.store.db,
      connectorSettings: services.connectorSettings,
      refreshRouting: () => services.channels.refresh(),
      publicBaseUrl: services.config.publicBaseUrl,
      clock: services.clock,
      reconciliation: services.reconciliation,
    }),
    merchantPages({
      people: services.people,
      team: new TeamService(services.store.db, services.clock),
      merchants: services.merchants,
      payments: services.payments,
      payouts: services.payouts,
      reporting: services.reporting,
      ledger: services.ledger,
      webhooks: services.webhooks,
      webhookConfig: services.config.webhooks,
      db: services.store.db,
      clock: services.clock,
      publicBaseUrl: services.config.publicBaseUrl,
    }),
    merchantReportPages({ reporting: services.reporting }),
  ];
}
