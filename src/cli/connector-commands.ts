// Operator commands for live connectors and routes: list connectors (capabilities, credential state),
// set or rotate credentials (read from a JSON file or stdin, never from the command line, where shell
// history and the process list would keep them), point a connector at another base URL, and set or
// list the routes. The running service picks changes up within ROUTING_REFRESH_MS.
import fs from 'node:fs';
import { isCurrency } from '../core/money.js';
import { DIRECTIONS, type ConnectorView, type RouteView } from '../routing/connector-settings.js';
import type { ConnectorDirection } from '../connectors/connector.js';
import { flagString, requireFlag, type ParsedArgs } from './args.js';
import { cliActor, type CliCommand, type CliOutput } from './command.js';

function connectorLines(view: ConnectorView): string[] {
  const credentials = view.credentials.map((c) => `${c.name}=${c.set ? c.hint : c.optional ? '(optional, unset)' : '(unset)'}`).join('  ');
  const can = view.capabilities.map((c) => `${c.currency} ${c.method} ${c.direction}${c.refunds ? ' (refunds)' : ''}`).join(', ');
  return [
    `${view.name} (${view.displayName})  ${view.ready ? 'ready' : `not ready: missing ${view.missingCredentials.join(', ')}`}`,
    `  base URL: ${view.baseUrl}${view.baseUrl === view.defaultBaseUrl ? ' (default)' : ''}`,
    `  callback path: /v1/callbacks/${view.name}`,
    `  credentials: ${credentials}`,
    `  serves: ${can}`,
  ];
}

const routeLine = (r: RouteView): string =>
  `${(r.merchantId ?? 'default').padEnd(28)}  ${r.currency} ${r.method.padEnd(8)} ${r.direction.padEnd(6)}  ${r.connectors.join(' -> ')}  (${r.updatedAt})`;

function print<T>(io: CliOutput, args: ParsedArgs, value: T, lines: (value: T) => string[]): number {
  if (args.flags.json === true) io.out(JSON.stringify(value));
  else for (const line of lines(value)) io.out(line);
  return 0;
}

/** A JSON object of string values, from --file PATH or, with --file -, from stdin. */
function readCredentials(args: ParsedArgs): Record<string, string> {
  const file = requireFlag(args, 'file');
  const text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('the credentials file must hold a JSON object such as {"secretKey": "..."}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.values(parsed).every((v) => typeof v === 'string')) {
    throw new Error('the credentials file must hold a JSON object of string values');
  }
  return parsed as Record<string, string>;
}

function directionOf(raw: string | undefined): ConnectorDirection {
  const direction = DIRECTIONS.find((d) => d === raw);
  if (!direction) throw new Error(`--direction must be ${DIRECTIONS.join(' or ')}`);
  return direction;
}

export const connectorCommands: CliCommand[] = [
  {
    name: 'connector list',
    summary: 'List live connectors: what each serves, its base URL, which credentials are set (secrets by last four only)',
    usage: 'connector list [--json]',
    async run(args, services, io) {
      return print(io, args, await services.connectorSettings.list(), (views) => views.flatMap(connectorLines));
    },
  },
  {
    name: 'connector credentials',
    summary: "Set or rotate a connector's credentials from a JSON file (--file -: stdin); names not given keep their values",
    usage: 'connector credentials --connector NAME --file PATH|- [--json]',
    async run(args, services, io) {
      const name = requireFlag(args, 'connector');
      const view = await services.connectorSettings.setCredentials(name, readCredentials(args), cliActor());
      return print(io, args, view, connectorLines);
    },
  },
  {
    name: 'connector base-url',
    summary: "Point a connector at the provider's test or live API, or back to its default",
    usage: 'connector base-url --connector NAME --url URL|default [--json]',
    async run(args, services, io) {
      const name = requireFlag(args, 'connector');
      const url = requireFlag(args, 'url');
      const view = await services.connectorSettings.setBaseUrl(name, url === 'default' ? null : url, cliActor());
      return print(io, args, view, connectorLines);
    },
  },
  {
    name: 'route list',
    summary: 'List routes: the defaults and every merchant override, or the default and one merchant’s',
    usage: 'route list [--merchant ID] [--json]',
    async run(args, services, io) {
      return print(io, args, await services.connectorSettings.listRoutes(flagString(args, 'merchant')), (routes) =>
        routes.length === 0 ? ['no routes: live merchants can use no method'] : routes.map(routeLine),
      );
    },
  },
  {
    name: 'route set',
    summary: 'Set the connectors, in order, that serve a currency, method and direction (default, or one merchant with --merchant); --connectors "" removes it',
    usage: 'route set --currency CUR --method METHOD --direction payin|payout --connectors NAME[,NAME...] [--merchant ID] [--json]',
    async run(args, services, io) {
      const currency = requireFlag(args, 'currency').toUpperCase();
      if (!isCurrency(currency)) throw new Error('--currency must be INR, EGP, NGN or IDR');
      const raw = args.flags.connectors;
      if (raw === undefined) throw new Error('missing --connectors');
      const connectors = typeof raw === 'string' ? raw.split(',').map((n) => n.trim()).filter((n) => n !== '') : [];
      const key = {
        merchantId: flagString(args, 'merchant') ?? null,
        currency,
        direction: directionOf(flagString(args, 'direction')),
        method: requireFlag(args, 'method').toUpperCase(),
      };
      const route = await services.connectorSettings.setRoute(key, connectors, cliActor());
      if (args.flags.json === true) io.out(JSON.stringify(route));
      else io.out(route ? routeLine(route) : `removed: ${key.currency} ${key.method} ${key.direction} (${key.merchantId ?? 'default'})`);
      return 0;
    },
  },
];
