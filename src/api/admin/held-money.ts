// Operator API for held money (late payments kept in suspense): list it, and resolve each item by
// returning it to the payer through the channel or crediting it to the merchant.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HELD_PAGE_MAX, HELD_STATUSES, type HeldMoneyService, type HeldResolution } from '../../domain/payments/held-money.js';
import { ok } from '../../http/envelope.js';
import { errorResponse, SuccessEnvelope } from '../schemas/responses.js';
import { Text } from '../../http/text.js';
import { ADMIN_ACTOR } from './auth.js';

const Ref = Text({ minLength: 1, maxLength: 64, description: "The payment's transactionRef" });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const HeldItem = Type.Object({
  transactionRef: Type.String(),
  merchantId: Type.String(),
  merchantRef: Type.String(),
  currency: Type.String(),
  method: Type.String(),
  paymentStatus: Type.String({ description: 'Expired or Failed: the payment is never resurrected' }),
  reason: Type.Literal('late'),
  amountAsked: Type.Number(),
  amountHeld: Type.Number(),
  amountMismatch: Type.Boolean(),
  receivedAt: Type.String(),
  status: Type.Union(HELD_STATUSES.map((s) => Type.Literal(s))),
  heldBecause: Nullable(Type.String()),
  resolvedBy: Nullable(Type.String()),
  resolvedAt: Nullable(Type.String()),
  note: Nullable(Type.String()),
  fee: Nullable(Type.Number()),
  credited: Nullable(Type.Number()),
  refundRef: Nullable(Type.String()),
});

const ListQuery = Type.Object(
  {
    merchantId: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
    status: Type.Optional(Type.Union(HELD_STATUSES.map((s) => Type.Literal(s)))),
    limit: Type.Optional(Text({ pattern: '^[1-9][0-9]{0,2}$', description: `1 to ${HELD_PAGE_MAX}, default 50` })),
    cursor: Type.Optional(Ref),
  },
  { additionalProperties: false },
);

export const ResolveBody = Type.Object(
  { reason: Text({ minLength: 1, maxLength: 500, description: 'Why; kept with the item, in the journal entry and the audit log' }) },
  { additionalProperties: false },
);

const Resolution = SuccessEnvelope(
  Type.Object({ item: HeldItem, replayed: Type.Boolean({ description: 'true when the item was already resolved this way; nothing changed' }) }),
  'The item after the resolution.',
);
const NO_ITEM = { 404: errorResponse('NOT_FOUND: no held money for this transactionRef.') };
const RESOLVE_ERRORS = {
  ...NO_ITEM,
  409: errorResponse('CONFLICT: the item was already resolved the other way.'),
  422: errorResponse('PAYMENT_NOT_REFUNDABLE: the channel cannot send this money back, or refused to.'),
  503: errorResponse('UNAVAILABLE: the channel did not answer; the item stays returning and the call may be repeated.'),
};
const view = (resolution: HeldResolution) => ({ item: resolution.item, replayed: resolution.replayed });

export interface AdminHeldMoneyRouteOptions {
  readonly held: Pick<HeldMoneyService, 'list' | 'get' | 'returnToPayer' | 'credit'>;
}

export const adminHeldMoneyRoutes: FastifyPluginAsyncTypebox<AdminHeldMoneyRouteOptions> = async (app, { held }) => {
  app.get(
    '/held-money',
    {
      schema: {
        operationId: 'adminListHeldMoney',
        tags: ['admin'],
        summary: 'Late money held for the operator, newest payment first',
        querystring: ListQuery,
        response: { 200: SuccessEnvelope(Type.Object({ items: Type.Array(HeldItem), nextCursor: Nullable(Type.String()) }), 'One page of held items.') },
      },
    },
    async (request) => {
      const { merchantId, status, limit, cursor } = request.query;
      return ok(await held.list({ merchantId, status, cursor, limit: limit === undefined ? undefined : Number(limit) }));
    },
  );

  app.get(
    '/held-money/:ref',
    {
      schema: {
        operationId: 'adminGetHeldMoney',
        tags: ['admin'],
        summary: 'One held item',
        params: Type.Object({ ref: Ref }),
        response: { 200: SuccessEnvelope(HeldItem, 'The held item.'), ...NO_ITEM },
      },
    },
    async (request) => ok(await held.get(request.params.ref)),
  );

  app.post(
    '/held-money/:ref/return',
    {
      schema: {
        operationId: 'adminReturnHeldMoney',
        tags: ['admin'],
        summary: 'Send held money back to the payer through its channel (422 PAYMENT_NOT_REFUNDABLE where the channel cannot)',
        params: Type.Object({ ref: Ref }),
        body: ResolveBody,
        response: { 200: Resolution, ...RESOLVE_ERRORS },
      },
    },
    async (request) => ok(view(await held.returnToPayer(request.params.ref, ADMIN_ACTOR, request.body.reason))),
  );

  app.post(
    '/held-money/:ref/credit',
    {
      schema: {
        operationId: 'adminCreditHeldMoney',
        tags: ['admin'],
        summary: "Credit held money to the merchant as a late payment (the payment's fee applies); sends payment.late_credited",
        params: Type.Object({ ref: Ref }),
        body: ResolveBody,
        response: { 200: Resolution, ...RESOLVE_ERRORS },
      },
    },
    async (request) => ok(view(await held.credit(request.params.ref, ADMIN_ACTOR, request.body.reason))),
  );
};
