// payout/initiate, payout/status (and its alias payout/fetch), payout/accountInquiry; payout/batch and
// payout/batchStatus are in payout-batch.ts. payout/bankCode lives in bank.ts.
import { Type } from '@sinclair/typebox';
import { Text } from '../http/text.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  NAME_MAX_LENGTH,
  NAME_PATTERN,
  PHONE_PATTERN,
  URL_MAX_LENGTH,
} from '../domain/request-rules.js';
import { ACCOUNT_MAX_LENGTH, BANK_CODE_MAX_LENGTH } from '../domain/payouts/payout-request.js';
import type { PayoutService } from '../domain/payouts/service.js';
import { ok } from '../http/envelope.js';
import { merchantOf } from './merchant-request.js';
import { registerRecordLookup } from './record-lookup.js';
import { CurrencyField } from './schemas/currency.js';
import { PayoutMethod } from './schemas/enums.js';
import { AccountInquiryResult, PayoutInitiateResult, PayoutRecord } from './schemas/payout.js';
import { merchantRefField, statusBody } from './schemas/references.js';
import { errorResponse, MERCHANT_SECURITY, merchantErrors, SuccessEnvelope } from './schemas/responses.js';
import { ref } from './schemas/shared.js';

const MerchantRef = merchantRefField('payouts', 'wd-10023');

const BankCodeField = Text({
  minLength: 1,
  maxLength: BANK_CODE_MAX_LENGTH,
  description: 'INR BANK: the 11-character IFSC; NGN, IDR, EGP BANK: a code from payout/bankCode; omitted for INR UPI and EGP WALLET.',
  examples: ['HDFC0001234'],
});
const AccountField = Text({
  minLength: 1,
  maxLength: ACCOUNT_MAX_LENGTH,
  description: 'Bank account number (digits; NGN 10 digits), UPI VPA (INR UPI) or 11-digit mobile number (EGP WALLET).',
  examples: ['50100012345678'],
});
const PayoutMethodField = ref(PayoutMethod, {
  description: 'INR: BANK (IMPS) or UPI; NGN: BANK (TRANSFER accepted); IDR: TRANSFER; EGP: BANK or WALLET.',
  examples: ['BANK'],
});

/** The body of payout/initiate; payout/batch checks each of its items against it too. */
export const InitiateBody = Type.Object(
  {
    merchantRef: MerchantRef,
    currency: CurrencyField,
    method: PayoutMethodField,
    amount: Type.Number({ exclusiveMinimum: 0, description: 'Major units, at most 2 decimals, within the method bounds. The fee is charged on top.', examples: [2500] }),
    bankCode: Type.Optional(BankCodeField),
    name: Text({ minLength: 1, maxLength: NAME_MAX_LENGTH, pattern: NAME_PATTERN, description: 'Beneficiary name.' }),
    account: AccountField,
    phone: Text({ pattern: PHONE_PATTERN, description: 'Beneficiary phone, 6 to 15 digits.' }),
    email: Text({ minLength: 3, maxLength: EMAIL_MAX_LENGTH, pattern: EMAIL_PATTERN, description: 'Beneficiary e-mail.' }),
    webhookUrl: Type.Optional(Text({ minLength: 1, maxLength: URL_MAX_LENGTH, description: "Where this payout's webhooks go; defaults to your configured payout webhook URL." })),
    nameCheck: Type.Optional(
      Type.Boolean({
        description:
          "true: resolve the account's holder first and refuse 422 ACCOUNT_NAME_MISMATCH (nothing reserved or stored) when it does not match name; " +
          'the record then carries nameCheck {resolvedName, score, threshold}. Part of the request: a repeat needs the same value.',
      }),
    ),
  },
  { additionalProperties: false },
);

const InquiryBody = Type.Object(
  {
    currency: CurrencyField,
    method: PayoutMethodField,
    bankCode: Type.Optional(BankCodeField),
    account: AccountField,
  },
  { additionalProperties: false },
);

const StatusBody = statusBody(MerchantRef);

export interface PayoutRouteOptions {
  readonly payouts: Pick<PayoutService, 'initiate' | 'status' | 'accountInquiry'>;
}

export const payoutRoutes: FastifyPluginAsyncTypebox<PayoutRouteOptions> = async (app, { payouts }) => {
  app.post(
    '/payout/initiate',
    {
      config: { changesState: true, keyScope: 'payouts', movesMoney: true },
      schema: {
        operationId: 'payoutInitiate',
        tags: ['payout'],
        summary: 'Send money to a bank account, UPI VPA or mobile wallet',
        description:
          'Reserves amount + fee from available (then credit) and answers Initiated; the payout reaches the upstream at most once and ' +
          'its outcome arrives by webhook (payout.succeeded / payout.failed) and payout/status. Idempotent per merchantRef: the same body ' +
          'again answers the original payout; another body under a used merchantRef is 409 DUPLICATE_MERCHANT_REF. ' +
          '422 INSUFFICIENT_BALANCE when amount + fee exceeds available + credit (nothing is stored).',
        security: MERCHANT_SECURITY,
        body: InitiateBody,
        response: {
          200: SuccessEnvelope(ref(PayoutInitiateResult), 'The payout (new, or the original one for a repeated body).'),
          ...merchantErrors,
          409: errorResponse('DUPLICATE_MERCHANT_REF: the merchantRef was used with a different body.'),
          422: errorResponse(
            'INSUFFICIENT_BALANCE: amount + fee exceeds available + credit; nothing was stored. With nameCheck: ACCOUNT_NAME_MISMATCH, INVALID_ACCOUNT or ' +
              'NAME_ENQUIRY_UNAVAILABLE, nothing reserved or stored.',
          ),
          503: errorResponse('UNAVAILABLE: shutting down, the database is unreachable, or (nameCheck) the bank did not answer the name enquiry; nothing was stored, safe to retry.'),
        },
      },
    },
    async (request) => ok(await payouts.initiate(merchantOf(request), request.body)),
  );

  app.post(
    '/payout/accountInquiry',
    {
      config: { changesState: false, keyScope: 'payouts', movesMoney: false },
      schema: {
        operationId: 'payoutAccountInquiry',
        tags: ['payout'],
        summary: "The holder's name of an account a payout would go to (name enquiry)",
        description:
          'Checks currency, method, bankCode and account as payout/initiate does, then asks the bank through the provider that would pay the payout ' +
          '(sandbox: the simulator, whose names derive from the account). Answers are kept about 10 minutes (unknown accounts 1 minute). ' +
          '422 INVALID_ACCOUNT: no such account; 422 NAME_ENQUIRY_UNAVAILABLE: that provider cannot resolve names; 503 UNAVAILABLE: the bank did not answer in time.',
        security: MERCHANT_SECURITY,
        body: InquiryBody,
        response: {
          200: SuccessEnvelope(ref(AccountInquiryResult), 'The account holder.'),
          ...merchantErrors,
          422: errorResponse('INVALID_ACCOUNT: the bank has no such account; NAME_ENQUIRY_UNAVAILABLE: the provider of these payouts cannot resolve names.'),
          503: errorResponse('UNAVAILABLE: the bank did not answer the name enquiry in time (or the service is shutting down); safe to retry.'),
        },
      },
    },
    async (request) => ok(await payouts.accountInquiry(merchantOf(request), request.body)),
  );

  registerRecordLookup(app, { kind: 'payout', record: PayoutRecord, body: StatusBody, lookup: (merchant, body) => payouts.status(merchant, body) });
};
