// Operator API for live connectors: what each can do and which credentials it has (secrets shown by
// their last four characters only), setting and rotating credentials, its base URL, and the routes
// that decide which connectors serve a live merchant's currency, method and direction.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CURRENCIES } from '../../core/money.js';
import { ok } from '../../http/envelope.js';
import { Text } from '../../http/text.js';
import { DIRECTIONS, MAX_ROUTE_LENGTH, type ConnectorSettings } from '../../routing/connector-settings.js';
import { errorResponse, SuccessEnvelope } from '../schemas/responses.js';
import { StringEnum } from '../schemas/shared.js';
import { ADMIN_ACTOR } from './auth.js';

const ConnectorName = Text({ pattern: '^[a-z][a-z0-9_-]{0,31}$', description: 'The connector, e.g. xendit.' });

const Capability = Type.Object({
  currency: Type.String(),
  direction: Type.String(),
  method: Type.String(),
  refunds: Type.Optional(Type.Boolean()),
});

const CredentialState = Type.Object({
  name: Type.String(),
  description: Type.String(),
  secret: Type.Boolean(),
  optional: Type.Boolean(),
  set: Type.Boolean(),
  hint: Type.Union([Type.String(), Type.Null()], { description: 'Secrets: the last four characters only; identifiers: the value.' }),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
});

const Connector = Type.Object({
  name: Type.String(),
  displayName: Type.String(),
  apiVersion: Type.String(),
  baseUrl: Type.String(),
  defaultBaseUrl: Type.String(),
  callbackPath: Type.String({ description: 'Register <your public URL> + this path at the provider as the notification URL.' }),
  capabilities: Type.Array(Capability),
  credentials: Type.Array(CredentialState),
  ready: Type.Boolean({ description: 'Every required credential is set, so routes can use it.' }),
  missingCredentials: Type.Array(Type.String()),
});

const Route = Type.Object({
  merchantId: Type.Union([Type.String(), Type.Null()], { description: 'null: the default for every live merchant.' }),
  currency: Type.String(),
  direction: Type.String(),
  method: Type.String(),
  connectors: Type.Array(Type.String()),
  updatedAt: Type.String(),
});

const CredentialsBody = Type.Record(Text({ pattern: '^[A-Za-z][A-Za-z0-9]{0,39}$' }), Type.String({ maxLength: 4096 }), {
  description: 'Credential name to value; names not given keep their values. An empty string removes an optional credential.',
  minProperties: 1,
  maxProperties: 16,
});

export const RouteBody = Type.Object(
  {
    merchantId: Type.Optional(Text({ minLength: 1, maxLength: 64, description: 'Omit for the default route of every live merchant.' })),
    currency: StringEnum(CURRENCIES),
    direction: StringEnum(DIRECTIONS),
    method: Text({ pattern: '^[A-Z][A-Z0-9_]{0,31}$' }),
    connectors: Type.Array(ConnectorName, {
      maxItems: MAX_ROUTE_LENGTH,
      description: 'In order: the first ready connector serves; a payout refused at submission moves to the next. Empty removes the route.',
    }),
  },
  { additionalProperties: false },
);

export interface AdminConnectorRouteOptions {
  readonly connectorSettings: ConnectorSettings;
  /** Applies a change at once in this process (other processes re-read within ROUTING_REFRESH_MS). */
  readonly refreshRouting: () => Promise<void>;
}

const withCallbackPath = <T extends { readonly name: string }>(view: T) => ({ ...view, callbackPath: `/v1/callbacks/${view.name}` });

export const adminConnectorRoutes: FastifyPluginAsyncTypebox<AdminConnectorRouteOptions> = async (app, { connectorSettings, refreshRouting }) => {
  app.get(
    '/connectors',
    {
      schema: {
        operationId: 'adminListConnectors',
        tags: ['admin'],
        summary: 'Every live connector: capabilities, base URL, credential state',
        response: { 200: SuccessEnvelope(Type.Array(Connector), 'The connectors the service ships.') },
      },
    },
    async () => ok((await connectorSettings.list()).map(withCallbackPath)),
  );

  app.put(
    '/connectors/:name/credentials',
    {
      schema: {
        operationId: 'adminSetConnectorCredentials',
        tags: ['admin'],
        summary: "Set or rotate a connector's credentials (stored encrypted; never shown again in full)",
        params: Type.Object({ name: ConnectorName }),
        body: CredentialsBody,
        response: { 200: SuccessEnvelope(Connector, 'The connector with its credential state.'), 404: errorResponse('NOT_FOUND: no such connector.') },
      },
    },
    async (request) => {
      const view = await connectorSettings.setCredentials(request.params.name, request.body, ADMIN_ACTOR);
      await refreshRouting();
      return ok(withCallbackPath(view));
    },
  );

  app.put(
    '/connectors/:name/base-url',
    {
      schema: {
        operationId: 'adminSetConnectorBaseUrl',
        tags: ['admin'],
        summary: "Point a connector at the provider's test or live environment (null: the default)",
        params: Type.Object({ name: ConnectorName }),
        body: Type.Object({ baseUrl: Type.Union([Text({ maxLength: 2048 }), Type.Null()]) }, { additionalProperties: false }),
        response: { 200: SuccessEnvelope(Connector, 'The connector with its base URL.'), 404: errorResponse('NOT_FOUND: no such connector.') },
      },
    },
    async (request) => {
      const view = await connectorSettings.setBaseUrl(request.params.name, request.body.baseUrl, ADMIN_ACTOR);
      await refreshRouting();
      return ok(withCallbackPath(view));
    },
  );

  app.get(
    '/routes',
    {
      schema: {
        operationId: 'adminListRoutes',
        tags: ['admin'],
        summary: 'The routes: the defaults and every override, or the default and one merchant’s',
        querystring: Type.Object({ merchantId: Type.Optional(Text({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false }),
        response: { 200: SuccessEnvelope(Type.Array(Route), 'The routes.') },
      },
    },
    async (request) => ok(await connectorSettings.listRoutes(request.query.merchantId)),
  );

  app.put(
    '/routes',
    {
      schema: {
        operationId: 'adminSetRoute',
        tags: ['admin'],
        summary: 'Set which connectors, in order, serve a currency, method and direction (default or per merchant)',
        body: RouteBody,
        response: {
          200: SuccessEnvelope(Type.Union([Route, Type.Null()]), 'The route now in force, or null once removed.'),
          404: errorResponse('NOT_FOUND: no such merchant.'),
        },
      },
    },
    async (request) => {
      const { merchantId, currency, direction, method, connectors } = request.body;
      const route = await connectorSettings.setRoute({ merchantId: merchantId ?? null, currency, direction, method }, connectors, ADMIN_ACTOR);
      await refreshRouting();
      return ok(route);
    },
  );
};
