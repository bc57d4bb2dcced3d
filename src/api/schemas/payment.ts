// What the payment routes answer: the initiate and refund answers, the full record (status, fetch,
// sandbox completion and every payment webhook), and the methods of a currency.
import { Type } from '@sinclair/typebox';
import { Currency, PayInMethod, PaymentStatus, PayoutMethod } from './enums.js';
import { ref, shared } from './shared.js';

const Iso = (description?: string) => Type.String({ description: description ?? 'ISO-8601 UTC.', examples: ['2026-11-22T10:00:00.000Z'] });
const Major = (description: string) => Type.Number({ description });

export const PaymentInitiateResult = shared(
  'PaymentInitiateResult',
  Type.Object({
    transactionRef: Type.String({ description: 'The reference the service assigned (UUID v7).' }),
    merchantRef: Type.String(),
    method: ref(PayInMethod),
    currency: Type.Optional(ref(Currency, { description: 'Absent in INR answers, as in the original interface.' })),
    amount: Major('Major units.'),
    checkoutUrl: Type.String({ description: "Open in the payer's browser; valid for 30 minutes." }),
    status: ref(PaymentStatus),
    expiresAt: Iso('When the checkout closes and an unpaid payment becomes Expired.'),
  }),
);

export const PaymentRecord = shared(
  'PaymentRecord',
  Type.Object({
    transactionRef: Type.String(),
    merchantRef: Type.String(),
    method: ref(PayInMethod),
    currency: ref(Currency),
    amount: Major('Major units.'),
    name: Type.String(),
    email: Type.String(),
    phone: Type.String(),
    redirectUrl: Type.String(),
    webhookUrl: Type.Optional(Type.String()),
    status: ref(PaymentStatus),
    paidAmount: Major('What the payer paid; 0 until the payment succeeded.'),
    fee: Major('Fixed at creation; charged only when the payment succeeds.'),
    createdAt: Iso(),
    updatedAt: Iso(),
    completedAt: Type.Optional(Iso('When the payment reached Success, Failed or Expired.')),
    expiresAt: Iso(),
    refundedAt: Type.Optional(Iso()),
    failureReason: Type.Optional(Type.String({ description: 'UPPER_SNAKE, on Failed payments.' })),
    refundable: Type.Boolean({ description: 'Would payment/refund be accepted now?' }),
    refundableUntil: Type.Optional(Iso('Last moment of the refund window (successful payments of refundable methods).')),
  }),
);

export const PaymentRefundResult = shared(
  'PaymentRefundResult',
  Type.Object({
    transactionRef: Type.String(),
    merchantRef: Type.String(),
    currency: ref(Currency),
    method: ref(PayInMethod),
    amount: Major('Major units.'),
    paidAmount: Major('What was paid, and so refunded.'),
    fee: Major('The fee of the payment; a refund does not return it.'),
    status: ref(PaymentStatus),
    refundedAt: Type.Optional(Iso()),
  }),
);

const Fee = Type.Object({
  bps: Type.Integer({ description: 'Percentage part in basis points (150 = 1.5 %).' }),
  percent: Type.Number(),
  fixed: Major('Fixed part in major units.'),
});

const terms = <M extends typeof PayInMethod | typeof PayoutMethod>(method: M) => ({
  method: ref(method),
  minAmount: Type.Number(),
  maxAmount: Type.Number(),
  fee: Fee,
});

export const PaymentMethods = shared(
  'PaymentMethods',
  Type.Object({
    currency: ref(Currency),
    payin: Type.Array(
      Type.Object({ ...terms(PayInMethod), refundable: Type.Boolean({ description: 'Can a successful payment be refunded?' }) }),
    ),
    payout: Type.Array(Type.Object(terms(PayoutMethod))),
  }),
);

export const PAYMENT_SCHEMAS = [PaymentInitiateResult, PaymentRecord, PaymentRefundResult, PaymentMethods];
