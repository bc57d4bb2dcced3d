// Operator API for money: balances, journal, credit lines, security deposits, adjustments, fees,
// limits, the verifier and the settlement job. Thin: every rule lives in the ledger and fee services.
import { Type, type Static } from '@sinclair/typebox';
import { Text } from '../../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoFromMs } from '../../core/clock.js';
import { validationError } from '../../core/errors.js';
import { toMajor, toMinor, type Currency, type Minor } from '../../core/money.js';
import { ok } from '../../http/envelope.js';
import { ADJUSTABLE_KINDS } from '../../ledger/operator.js';
import { balanceView, JOURNAL_MAX_LIMIT, type JournalEntry } from '../../ledger/queries.js';
import type { LedgerService, OperatorResult } from '../../ledger/service.js';
import type { FeeService } from '../../domain/fees.js';
import type { MerchantService } from '../../merchants/merchant-service.js';
import { ADMIN_ACTOR } from './auth.js';
import { CurrencyField } from '../schemas/currency.js';
import { Balance } from '../schemas/payout.js';
import { errorResponse, SuccessEnvelope } from '../schemas/responses.js';
import { ref } from '../schemas/shared.js';

const Amount = Type.Number({ exclusiveMinimum: 0, description: 'Major units, at most 2 decimals', examples: [1500.5] });
const Reason = Text({ minLength: 1, maxLength: 500, description: 'Why; kept in the journal and the audit log' });
const IdempotencyKey = Type.Optional(
  Text({ minLength: 1, maxLength: 100, description: 'Repeating a request with the same key posts nothing new' }),
);
const MerchantParams = Type.Object({ id: Text({ minLength: 1, maxLength: 64 }) });
const NO_MERCHANT = { 404: errorResponse('NOT_FOUND: no such merchant.') };
const MOVE_ERRORS = {
  ...NO_MERCHANT,
  422: errorResponse('INSUFFICIENT_BALANCE: the move would make a balance negative; nothing was posted.'),
};

const PostedData = Type.Object({ entryId: Type.String(), replayed: Type.Boolean(), balances: ref(Balance) });

const JournalData = Type.Object({
  entries: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.String(),
      ref: Type.String(),
      currency: Type.String(),
      reason: Type.Union([Type.String(), Type.Null()]),
      actor: Type.Union([Type.String(), Type.Null()]),
      createdAt: Type.String(),
      postings: Type.Array(
        Type.Object({
          account: Type.String(),
          kind: Type.String(),
          channel: Type.Union([Type.String(), Type.Null()]),
          merchantId: Type.Union([Type.String(), Type.Null()]),
          amount: Type.Number(),
        }),
      ),
    }),
  ),
  /** Pass as `before` to get the next (older) page; null when this was the last. */
  nextBefore: Type.Union([Type.String(), Type.Null()]),
});

export const CreditBody = Type.Object(
  { currency: CurrencyField, amount: Amount, reason: Reason, action: Type.Union([Type.Literal('grant'), Type.Literal('lower')]), idempotencyKey: IdempotencyKey },
  { additionalProperties: false },
);
export const SecurityBody = Type.Object(
  { currency: CurrencyField, amount: Amount, reason: Reason, action: Type.Union([Type.Literal('deposit'), Type.Literal('release')]), idempotencyKey: IdempotencyKey },
  { additionalProperties: false },
);
const AdjustmentBody = Type.Object(
  {
    currency: CurrencyField,
    account: Type.Union(ADJUSTABLE_KINDS.map((k) => Type.Literal(k))),
    amount: Type.Number({ description: 'Signed major units: positive credits the account, negative debits it', examples: [-12.34] }),
    reason: Reason,
    idempotencyKey: IdempotencyKey,
  },
  { additionalProperties: false },
);
const Direction = Type.Union([Type.Literal('payin'), Type.Literal('payout')]);
const MethodField = Text({ minLength: 1, maxLength: 16 });
export const FeeBody = Type.Object(
  {
    currency: CurrencyField,
    method: MethodField,
    direction: Direction,
    bps: Type.Integer({ minimum: 0, maximum: 10_000, description: 'Basis points of the amount (100 = 1%)' }),
    fixed: Type.Number({ minimum: 0, description: 'Fixed part in major units' }),
  },
  { additionalProperties: false },
);
export const LimitBody = Type.Object(
  { currency: CurrencyField, method: MethodField, direction: Direction, min: Amount, max: Amount },
  { additionalProperties: false },
);

/** A JSON amount in major units (possibly signed) as minor units; at most two decimals. */
export function minorOf(field: string, amount: number): Minor {
  const minor = toMinor(Math.abs(amount));
  if (minor === null) throw validationError(field, 'must have at most 2 decimals');
  return amount < 0 ? -minor : minor;
}

function journalView(entries: JournalEntry[], limit: number): Static<typeof JournalData> {
  return {
    entries: entries.map((e) => ({
      id: e.id,
      kind: e.kind,
      ref: e.ref,
      currency: e.currency,
      reason: e.reason,
      actor: e.actor,
      createdAt: isoFromMs(e.createdAtMs),
      postings: e.postings.map((p) => ({ account: p.accountId, kind: p.kind, channel: p.channel, merchantId: p.merchantId, amount: toMajor(p.amountMinor) })),
    })),
    nextBefore: entries.length === limit ? entries[entries.length - 1]!.id : null,
  };
}

export interface AdminLedgerRouteOptions {
  readonly ledger: LedgerService;
  readonly fees: Pick<FeeService, 'setFee' | 'setLimits'>;
  /** Only to answer NOT_FOUND for an unknown merchant before reading its books. */
  readonly merchants: Pick<MerchantService, 'get'>;
}

export const adminLedgerRoutes: FastifyPluginAsyncTypebox<AdminLedgerRouteOptions> = async (app, { ledger, fees, merchants }) => {
  const posted = async (merchantId: string, currency: Currency, result: OperatorResult) => ({
    entryId: result.entryId,
    replayed: result.replayed,
    balances: balanceView(currency, await ledger.balances(merchantId, currency)),
  });

  app.get(
    '/merchants/:id/balances',
    {
      schema: {
        tags: ['admin'],
        operationId: 'adminGetBalances',
        summary: "A merchant's five balances in one currency",
        params: MerchantParams,
        querystring: Type.Object({ currency: CurrencyField }, { additionalProperties: false }),
        response: { 200: SuccessEnvelope(ref(Balance), 'The five balances.'), ...NO_MERCHANT },
      },
    },
    async (request) => {
      const { currency } = request.query;
      await merchants.get(request.params.id);
      return ok(balanceView(currency, await ledger.balances(request.params.id, currency)));
    },
  );

  app.get(
    '/merchants/:id/journal',
    {
      schema: {
        tags: ['admin'],
        operationId: 'adminGetJournal',
        summary: "A merchant's journal entries, newest first",
        params: MerchantParams,
        querystring: Type.Object(
          {
            limit: Type.Optional(Text({ pattern: '^[1-9][0-9]{0,3}$', description: `1 to ${JOURNAL_MAX_LIMIT}` })),
            before: Type.Optional(Text({ maxLength: 64 })),
            currency: Type.Optional(CurrencyField),
          },
          { additionalProperties: false },
        ),
        response: { 200: SuccessEnvelope(JournalData, 'One page of journal entries, newest first.'), ...NO_MERCHANT },
      },
    },
    async (request) => {
      await merchants.get(request.params.id);
      const limit = Math.min(Number(request.query.limit ?? 50), JOURNAL_MAX_LIMIT);
      const entries = await ledger.journal(request.params.id, { limit, before: request.query.before, currency: request.query.currency });
      return ok(journalView(entries, limit));
    },
  );

  app.post(
    '/merchants/:id/credit',
    {
      schema: {
        tags: ['admin'],
        operationId: 'adminCredit',
        summary: 'Grant a credit line or lower its unused part',
        params: MerchantParams,
        body: CreditBody,
        response: { 200: SuccessEnvelope(PostedData, 'The journal entry posted (or replayed) and the balances afterwards.'), ...MOVE_ERRORS },
      },
    },
    async (request) => {
      const { currency, amount, reason, action, idempotencyKey } = request.body;
      const move = { merchantId: request.params.id, currency, amountMinor: minorOf('amount', amount), reason, actor: ADMIN_ACTOR, ref: idempotencyKey };
      const result = action === 'grant' ? await ledger.grantCredit(move) : await ledger.lowerCredit(move);
      return ok(await posted(request.params.id, currency, result));
    },
  );

  app.post(
    '/merchants/:id/security',
    {
      schema: {
        tags: ['admin'],
        operationId: 'adminSecurityDeposit',
        summary: 'Move funds from available into the security deposit, or back',
        params: MerchantParams,
        body: SecurityBody,
        response: { 200: SuccessEnvelope(PostedData, 'The journal entry posted (or replayed) and the balances afterwards.'), ...MOVE_ERRORS },
      },
    },
    async (request) => {
      const { currency, amount, reason, action, idempotencyKey } = request.body;
      const move = { merchantId: request.params.id, currency, amountMinor: minorOf('amount', amount), reason, actor: ADMIN_ACTOR, ref: idempotencyKey };
      const result = action === 'deposit' ? await ledger.moveToSecurity(move) : await ledger.releaseSecurity(move);
      return ok(await posted(request.params.id, currency, result));
    },
  );

  app.post(
    '/merchants/:id/adjustments',
    {
      schema: {
        tags: ['admin'],
        operationId: 'adminAdjust',
        summary: 'Correct a balance against the platform adjustments account (reason required)',
        params: MerchantParams,
        body: AdjustmentBody,
        response: { 200: SuccessEnvelope(PostedData, 'The journal entry posted (or replayed) and the balances afterwards.'), ...MOVE_ERRORS },
      },
    },
    async (request) => {
      const { currency, account, amount, reason, idempotencyKey } = request.body;
      const result = await ledger.adjust({
        merchantId: request.params.id,
        currency,
        account,
        amountMinor: minorOf('amount', amount),
        reason,
        actor: ADMIN_ACTOR,
        ref: idempotencyKey,
      });
      return ok(await posted(request.params.id, currency, result));
    },
  );

  app.put(
    '/merchants/:id/fees',
    {
      schema: {
        tags: ['admin'],
        operationId: 'adminSetFee',
        summary: "Set a merchant's fee for one currency, method and direction",
        params: MerchantParams,
        body: FeeBody,
        response: {
          200: SuccessEnvelope(
            Type.Object({ currency: Type.String(), method: Type.String(), direction: Type.String(), bps: Type.Integer(), fixed: Type.Number() }),
            'The fee now in force.',
          ),
          ...NO_MERCHANT,
        },
      },
    },
    async (request) => {
      const { currency, method, direction, bps, fixed } = request.body;
      const fixedMinor = minorOf('fixed', fixed);
      await fees.setFee({ merchantId: request.params.id, currency, method, direction, bps: BigInt(bps), fixedMinor }, ADMIN_ACTOR);
      return ok({ currency, method, direction, bps, fixed: toMajor(fixedMinor) });
    },
  );

  app.put(
    '/merchants/:id/limits',
    {
      schema: {
        tags: ['admin'],
        operationId: 'adminSetLimits',
        summary: "Set a merchant's amount bounds for one currency, method and direction",
        params: MerchantParams,
        body: LimitBody,
        response: {
          200: SuccessEnvelope(
            Type.Object({ currency: Type.String(), method: Type.String(), direction: Type.String(), min: Type.Number(), max: Type.Number() }),
            'The bounds now in force.',
          ),
          ...NO_MERCHANT,
        },
      },
    },
    async (request) => {
      const { currency, method, direction, min, max } = request.body;
      const minMinor = minorOf('min', min);
      const maxMinor = minorOf('max', max);
      await fees.setLimits({ merchantId: request.params.id, currency, method, direction, minMinor, maxMinor }, ADMIN_ACTOR);
      return ok({ currency, method, direction, min: toMajor(minMinor), max: toMajor(maxMinor) });
    },
  );

  app.get(
    '/ledger/verify',
    {
      schema: {
        tags: ['admin'],
        operationId: 'adminVerifyLedger',
        summary: 'Check every ledger invariant; ok is false when any is violated',
        response: {
          200: SuccessEnvelope(
            Type.Object({ ok: Type.Boolean(), violations: Type.Array(Type.Object({ code: Type.String(), subject: Type.String(), detail: Type.String() })) }),
            'The verdict and every violation found.',
          ),
        },
      },
    },
    async () => {
      const violations = await ledger.verify();
      return ok({ ok: violations.length === 0, violations });
    },
  );

  app.post(
    '/ledger/settle',
    {
      schema: {
        tags: ['admin'],
        operationId: 'adminSettle',
        summary: 'Run the settlement job once (pending money past its delay moves to available)',
        response: {
          200: SuccessEnvelope(
            Type.Object({
              settled: Type.Array(
                Type.Object({ merchantId: Type.String(), currency: Type.String(), amount: Type.Number(), repaidCredit: Type.Number() }),
              ),
              more: Type.Boolean(),
            }),
            'What was settled; more is true when another run has work left.',
          ),
        },
      },
    },
    async () => {
      const run = await ledger.settlePending();
      const settled = run.groups.map((g) => ({ merchantId: g.merchantId, currency: g.currency, amount: toMajor(g.settledMinor), repaidCredit: toMajor(g.repaidCreditMinor) }));
      return ok({ settled, more: run.more });
    },
  );
};
