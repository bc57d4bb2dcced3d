// Operator API for the audit log: every operator action with its actor, newest first.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUDIT_PAGE_MAX, listAudit, parseSince } from '../../audit/audit-log.js';
import { ok } from '../../http/envelope.js';
import { SuccessEnvelope } from '../schemas/responses.js';
import type { Executor } from '../../store/schema.js';
import { Text } from '../../http/text.js';

const AuditQuery = Type.Object(
  {
    merchantId: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
    action: Type.Optional(Text({ minLength: 1, maxLength: 64, pattern: '^[a-z_.]+$', examples: ['merchant.disable'] })),
    since: Type.Optional(Text({ minLength: 1, maxLength: 40, description: 'ISO-8601 time: entries at or after it', examples: ['2025-06-01T00:00:00Z'] })),
    limit: Type.Optional(Text({ pattern: '^[1-9][0-9]{0,2}$', description: `1 to ${AUDIT_PAGE_MAX}, default 50` })),
    cursor: Type.Optional(Text({ minLength: 1, maxLength: 64, description: 'nextCursor of the previous page' })),
  },
  { additionalProperties: false },
);

const AuditEntry = Type.Object({
  id: Type.String(),
  actor: Type.String({ examples: ['admin', 'cli:ops', 'console:ops@example.com'] }),
  action: Type.String(),
  target: Type.String(),
  merchantId: Type.Union([Type.String(), Type.Null()]),
  details: Type.Record(Type.String(), Type.Unknown()),
  address: Type.Union([Type.String(), Type.Null()], { description: 'The client address of the action (operator API and console); null for the CLI and background jobs.' }),
  createdAt: Type.String(),
});

export interface AdminAuditRouteOptions {
  /** The audit log is read straight from the store: it has no service of its own. */
  readonly db: Executor;
}

export const adminAuditRoutes: FastifyPluginAsyncTypebox<AdminAuditRouteOptions> = async (app, { db }) => {
  app.get(
    '/audit',
    {
      schema: {
        operationId: 'adminListAudit',
        tags: ['admin'],
        summary: 'The audit log of operator actions, newest first, optionally of one merchant or action',
        querystring: AuditQuery,
        response: { 200: SuccessEnvelope(Type.Object({ items: Type.Array(AuditEntry), nextCursor: Type.Union([Type.String(), Type.Null()]) }), 'One page of audit entries.') },
      },
    },
    async (request) => {
      const { merchantId, action, since, limit, cursor } = request.query;
      return ok(
        await listAudit(db, {
          merchantId,
          action,
          cursor,
          sinceMs: since === undefined ? undefined : parseSince(since),
          limit: limit === undefined ? undefined : Number(limit),
        }),
      );
    },
  );
};
