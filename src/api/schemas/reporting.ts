// What the reporting routes take and answer: the list filters, the pages of records (the same
// PaymentRecord and PayoutRecord as status answers), the statement, the settlements and reports.
import { Type, type TSchema } from '@sinclair/typebox';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../../reporting/lists.js';
import { ISO_INSTANT_PATTERN } from '../../reporting/time-range.js';
import { Text } from '../../http/text.js';
import { CurrencyField } from './currency.js';
import { PaymentStatus, PayInMethod, PayoutMethod, PayoutStatus } from './enums.js';
import { PaymentRecord } from './payment.js';
import { PayoutRecord } from './payout.js';
import { TransactionRef } from './references.js';
import { MERCHANT_REF_PATTERN } from '../../domain/request-rules.js';
import { Nullable, ref, shared } from './shared.js';

export const Instant = (description: string) =>
  Text({ pattern: ISO_INSTANT_PATTERN, description: `${description} ISO-8601: a date (midnight UTC) or a date-time with Z or an offset.`, examples: ['2026-11-01'] });

export const RangeFields = {
  from: Type.Optional(Instant('Created at or after (inclusive).')),
  to: Type.Optional(Instant('Created before (exclusive); must be after from.')),
};

export const PageFields = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIST_MAX_LIMIT, default: LIST_DEFAULT_LIMIT, description: `Items per page, 1 to ${LIST_MAX_LIMIT}.` })),
  cursor: Type.Optional(Text({ minLength: 1, maxLength: 1024, description: 'nextCursor of the previous page, with the same filters.' })),
};

const recordFilters = <S extends TSchema, M extends TSchema>(status: S, method: M) => ({
  status: Type.Optional(status),
  currency: Type.Optional(CurrencyField),
  method: Type.Optional(method),
  ...RangeFields,
  merchantRef: Type.Optional(Text({ pattern: MERCHANT_REF_PATTERN, description: 'Exactly this merchantRef.' })),
  transactionRef: Type.Optional(TransactionRef),
});

export const PaymentListBody = Type.Object(
  { ...recordFilters(ref(PaymentStatus), ref(PayInMethod)), ...PageFields },
  { additionalProperties: false, description: 'Every filter given must match; none given lists every payment.' },
);

export const PayoutListBody = Type.Object(
  { ...recordFilters(ref(PayoutStatus), ref(PayoutMethod, { description: 'TRANSFER also matches NGN bank payouts (stored as BANK).' })), ...PageFields },
  { additionalProperties: false, description: 'Every filter given must match; none given lists every payout.' },
);

const NextCursor = Nullable(Type.String({ description: 'Pass as cursor, with the same filters, for the next (older) page; null on the last page.' }));

export const PaymentPage = shared('PaymentPage', Type.Object({ items: Type.Array(ref(PaymentRecord)), nextCursor: NextCursor }));
export const PayoutPage = shared('PayoutPage', Type.Object({ items: Type.Array(ref(PayoutRecord)), nextCursor: NextCursor }));

export const REPORTING_SCHEMAS = [PaymentPage, PayoutPage];
