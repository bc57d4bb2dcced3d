// What the reporting routes take and answer: the list filters, the pages of records (the same
// PaymentRecord and PayoutRecord as status answers), the statement, the settlements and reports.
import { Type, type TSchema } from '@sinclair/typebox';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../../reporting/lists.js';
import { ISO_INSTANT_PATTERN } from '../../reporting/time-range.js';
import { Text } from '../../http/text.js';
import { CurrencyField } from './currency.js';
import { Currency, PaymentStatus, PayInMethod, PayoutMethod, PayoutStatus } from './enums.js';
import { PaymentRecord } from './payment.js';
import { PayoutRecord } from './payout.js';
import { TransactionRef } from './references.js';
import { MERCHANT_REF_PATTERN } from '../../domain/request-rules.js';
import { Nullable, ref, shared, StringEnum } from './shared.js';
import { BALANCE_KINDS } from '../../ledger/accounts.js';
import { REPORT_STATUSES, REPORT_TYPES } from '../../reporting/report-rows.js';
import { SETTLEMENT_DEFAULT_DAYS, SETTLEMENT_MAX_DAYS } from '../../reporting/settlements.js';

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

const Major = (description: string) => Type.Number({ description });

export const StatementBody = Type.Object(
  { currency: CurrencyField, ...RangeFields, ...PageFields },
  { additionalProperties: false, description: 'Movements of your five balances in one currency, newest first.' },
);

export const StatementLine = shared(
  'StatementLine',
  Type.Object({
    entryId: Type.String({ description: 'The ledger entry; one entry may move several buckets (one line each).' }),
    type: Type.String({ description: 'What moved the money: payment_credit, refund, refund_reversal, payout_reserve, payout_release, payout_complete, settlement, late_credit, credit_grant, credit_lower, security_deposit, security_release, adjustment.' }),
    bucket: StringEnum(BALANCE_KINDS, { description: 'The balance moved.' }),
    amount: Major('Signed major units: positive into the bucket, negative out of it.'),
    fee: Major('What the platform earned in this entry (a payment fee, a paid-out payout fee); 0 otherwise.'),
    balanceAfter: Major("The bucket's balance right after this movement."),
    paymentRef: Type.Optional(Type.String({ description: 'The transactionRef of the payment this belongs to.' })),
    payoutRef: Type.Optional(Type.String({ description: 'The transactionRef of the payout this belongs to.' })),
    createdAt: Type.String({ description: 'ISO-8601 UTC.' }),
  }),
);

export const StatementPage = shared('StatementPage', Type.Object({ items: Type.Array(ref(StatementLine)), nextCursor: NextCursor }));

export const SettlementsBody = Type.Object(
  { currency: CurrencyField, ...RangeFields },
  { additionalProperties: false, description: `Default: the last ${SETTLEMENT_DEFAULT_DAYS} UTC days up to today; at most ${SETTLEMENT_MAX_DAYS} days.` },
);

export const SettlementDay = shared(
  'SettlementDay',
  Type.Object({
    date: Type.String({ description: 'The UTC day, YYYY-MM-DD.', examples: ['2026-11-22'] }),
    currency: ref(Currency),
    collected: Major('Gross paid in by successful (and late credited) payments, fees included.'),
    refunded: Major('Refunded to payers, less refunds the upstream refused and returned.'),
    paidOut: Major('Payout amounts paid to beneficiaries (payouts that reached Success), fees excluded.'),
    fees: Major('Fees charged: payment fees and the fees of payouts paid out.'),
    settled: Major('Moved from pending to available (or to repaying credit) by settlement.'),
    net: Major('The change of your five balances together over the day: the sum of the statement amounts of that day.'),
  }),
);

export const Settlements = shared(
  'Settlements',
  Type.Object({ currency: ref(Currency), days: Type.Array(ref(SettlementDay), { description: 'Newest day first; days without movement are left out.' }) }),
);

export const ReportType = shared('ReportType', StringEnum(REPORT_TYPES, { description: 'What the CSV holds.' }));
export const ReportStatus = shared(
  'ReportStatus',
  StringEnum(REPORT_STATUSES, { description: 'Pending -> Running -> Ready | Failed; Ready -> Expired when the file is deleted (24 hours after it was ready).' }),
);

export const ReportCreateBody = Type.Object(
  {
    type: ref(ReportType),
    from: Instant('Created at or after (inclusive).'),
    to: Instant('Created before (exclusive); must be after from.'),
    currency: Type.Optional(ref(Currency, { description: 'Required for statement and settlements; narrows payments and payouts.' })),
  },
  { additionalProperties: false },
);

export const ReportStatusBody = Type.Object({ reportId: Text({ minLength: 1, maxLength: 64, description: 'The reportId report/create answered.' }) }, { additionalProperties: false });

export const Report = shared(
  'Report',
  Type.Object({
    reportId: Type.String(),
    type: ref(ReportType),
    status: ref(ReportStatus),
    rowCount: Type.Integer({ description: 'Data rows written so far (the header not counted).' }),
    createdAt: Type.String(),
    completedAt: Type.Optional(Type.String()),
    expiresAt: Type.String({ description: 'Ready: when the file is deleted. Before: when an unwritten request is given up.' }),
    downloadUrl: Type.Optional(Type.String({ description: 'Ready only: GET it (no signature headers) for the CSV; valid 15 minutes; ask report/status again for a fresh one.' })),
    downloadUrlExpiresAt: Type.Optional(Type.String()),
    failureReason: Type.Optional(Type.String({ description: 'Failed only: EXPORT_FAILED; ask for the report again.' })),
  }),
);

export const REPORTING_SCHEMAS = [PaymentPage, PayoutPage, StatementLine, StatementPage, SettlementDay, Settlements, ReportType, ReportStatus, Report];
