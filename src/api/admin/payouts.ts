// Operator API for payouts: those stuck in Processing, and a status query of one payout now.
import { Type } from '@sinclair/typebox';
import { Text } from '../../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_STUCK_AFTER_SECONDS } from '../../domain/payouts/payout-limits.js';
import type { PayoutService } from '../../domain/payouts/service.js';
import { ok } from '../../http/envelope.js';
import { errorResponse, SuccessEnvelope } from '../schemas/responses.js';

const StuckQuery = Type.Object(
  {
    olderThanSeconds: Type.Optional(Text({ pattern: '^[0-9]{1,9}$', description: `Unchanged for at least this long; default ${DEFAULT_STUCK_AFTER_SECONDS}.` })),
    limit: Type.Optional(Text({ pattern: '^[1-9][0-9]{0,2}$', description: '1 to 500, default 100.' })),
  },
  { additionalProperties: false },
);

const RefParams = Type.Object({ ref: Text({ minLength: 1, maxLength: 64 }) });

const OperatorPayout = Type.Object(
  {
    transactionRef: Type.String(),
    merchantId: Type.String(),
    merchantRef: Type.String(),
    status: Type.String(),
    submitAttempts: Type.Integer(),
    queryAttempts: Type.Integer(),
    ageSeconds: Type.Integer(),
  },
  { additionalProperties: true },
);

export interface AdminPayoutRouteOptions {
  readonly payouts: Pick<PayoutService, 'stuck' | 'forceQuery'>;
}

export const adminPayoutRoutes: FastifyPluginAsyncTypebox<AdminPayoutRouteOptions> = async (app, { payouts }) => {
  app.get(
    '/payouts/stuck',
    {
      schema: {
        operationId: 'adminStuckPayouts',
        tags: ['admin'],
        summary: 'Payouts in Processing unchanged for longer than olderThanSeconds, oldest first',
        querystring: StuckQuery,
        response: { 200: SuccessEnvelope(Type.Object({ payouts: Type.Array(OperatorPayout) }), 'The stuck payouts, oldest first.') },
      },
    },
    async (request) => {
      const { olderThanSeconds, limit } = request.query;
      const stuck = await payouts.stuck(
        olderThanSeconds === undefined ? DEFAULT_STUCK_AFTER_SECONDS : Number(olderThanSeconds),
        limit === undefined ? undefined : Number(limit),
      );
      return ok({ payouts: stuck });
    },
  );

  app.post(
    '/payouts/:ref/query',
    {
      schema: {
        operationId: 'adminQueryPayout',
        tags: ['admin'],
        summary: "Ask the upstream about a payout now and apply its answer (never resubmits)",
        params: RefParams,
        response: {
          200: SuccessEnvelope(
            Type.Object({
              payout: OperatorPayout,
              upstream: Type.Union([Type.Null(), Type.Object({ status: Type.String() }, { additionalProperties: true })]),
              note: Type.Optional(Type.String()),
            }),
            "The payout after the upstream's answer was applied.",
          ),
          404: errorResponse('NOT_FOUND: no such payout.'),
        },
      },
    },
    async (request) => ok(await payouts.forceQuery(request.params.ref)),
  );
};
