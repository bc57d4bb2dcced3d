// What the payout and account routes answer: the payout initiate answer and record (status, fetch
// and every payout webhook), bank codes, balances and USDT rates.
import { Type } from '@sinclair/typebox';
import { Currency, PayoutMethod, PayoutStatus } from './enums.js';
import { Nullable, ref, shared } from './shared.js';

export const PayoutInitiateResult = shared(
  'PayoutInitiateResult',
  Type.Object({
    transactionRef: Type.String({ description: 'The reference the service assigned (UUID v7).' }),
    merchantRef: Type.String(),
    method: ref(PayoutMethod, { description: 'NGN bank payouts answer TRANSFER, as the original interface does.' }),
    currency: ref(Currency),
    amount: Type.Number(),
    fee: Type.Number({ description: 'Reserved with the amount; charged when the payout succeeds, returned when it fails.' }),
    status: ref(PayoutStatus),
  }),
);

export const PayoutRecord = shared(
  'PayoutRecord',
  Type.Object({
    transactionRef: Type.String(),
    merchantRef: Type.String(),
    method: ref(PayoutMethod),
    currency: ref(Currency),
    amount: Type.Number(),
    fee: Type.Number(),
    bankCode: Type.Optional(Type.String()),
    name: Type.String(),
    account: Type.String(),
    phone: Type.String(),
    email: Type.String(),
    webhookUrl: Type.Optional(Type.String()),
    status: ref(PayoutStatus),
    createdAt: Type.String(),
    updatedAt: Type.String(),
    completedAt: Type.Optional(Type.String({ description: 'When the payout reached Success or Failed.' })),
    failureReason: Type.Optional(Type.String({ description: 'UPPER_SNAKE, on Failed payouts (e.g. INVALID_ACCOUNT).' })),
    upstreamRef: Type.Optional(Type.String({ description: "The upstream's reference of the transfer (its payout id, NIP session id ...)." })),
    utr: Type.Optional(Type.String({ description: "The bank's reference of the transfer (India: the UTR), where the channel gives one besides its own id." })),
    approvalExpiresAt: Type.Optional(
      Type.String({ description: 'PendingApproval only: when the payout fails with APPROVAL_EXPIRED unless approved or rejected first.' }),
    ),
    nameCheck: Type.Optional(
      Type.Object(
        {
          resolvedName: Type.String({ description: "The account holder's name as the bank resolved it." }),
          score: Type.Number({ minimum: 0, maximum: 1, description: 'How well `name` matched it, 0 to 1 (docs/payouts.md, Name check).' }),
          threshold: Type.Number({ minimum: 0, maximum: 1, description: 'The score a match needed.' }),
        },
        { description: 'Present when the payout was initiated with nameCheck: true: the check it passed.' },
      ),
    ),
  }),
);

export const AccountInquiryResult = shared(
  'AccountInquiryResult',
  Type.Object({
    accountName: Type.String({ description: "The account holder's name as the bank resolved it.", examples: ['ASHA RAO'] }),
    bankCode: Nullable(Type.String({ description: 'The bank code sent (null for INR UPI and EGP WALLET).' })),
    bankName: Nullable(Type.String({ description: "The bank's name as payout/bankCode lists it (an IFSC by its bank); null when it has none." })),
    account: Type.String({ description: 'The account, masked but for its last four characters.', examples: ['****5678'] }),
  }),
);

export const BankEntry = shared('BankEntry', Type.Object({ bankCode: Type.String(), bankName: Type.String() }));

export const Balance = shared(
  'Balance',
  Type.Object({
    currency: ref(Currency),
    available: Type.Number(),
    pending: Type.Number(),
    held: Type.Number(),
    credit: Type.Number(),
    security: Type.Number(),
  }),
);

export const UsdtRate = shared(
  'UsdtRate',
  Type.Object({
    currency: ref(Currency),
    deposit: Type.Number({ description: 'Local currency credited per USDT deposited (reference less the deposit spread).' }),
    withdraw: Type.Number({ description: 'Local currency charged per USDT withdrawn (reference plus the withdraw spread).' }),
    updatedAt: Type.String({ description: 'When the operator set this rate (ISO-8601 UTC).' }),
  }),
);

export const PAYOUT_SCHEMAS = [PayoutInitiateResult, PayoutRecord, AccountInquiryResult, BankEntry, Balance, UsdtRate];
