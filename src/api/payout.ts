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
import { apiKeyIdOf, merchantOf } from './merchant-request.js';
import { registerRecordLookup } from './record-lookup.js';
import { CurrencyField } from './schemas/currency.js';
import { PayoutMethod } from './schemas/enums.js';
import { AccountInquiryResult, PayoutInitiateResult, PayoutRecord } from './schemas/payout.js';
import { merchantRefField, statusBody, TransactionRef } from './schemas/references.js';
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

const DecisionBody = Type.Object(
  {
    transactionRef: TransactionRef,
    reason: Type.Optional(Text({ minLength: 1, maxLength: 500, description: 'Why; kept on the payout for your records.' })),
  },
  { additionalProperties: false },
);

export interface PayoutRouteOptions {
  readonly payouts: Pick<PayoutService, 'initiate' | 'status' | 'accountInquiry' | 'approve' | 'reject'>;
}

const decisionErrors = {
  ...merchantErrors,
  403: errorResponse(
    "MERCHANT_DISABLED; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; KEY_SCOPE when the signing key's scope does not " +
      'cover this call (see x-key-scope); APPROVER_SAME_KEY: signed with the key that initiated the payout, use another of your keys.',
  ),
  404: errorResponse('NOT_FOUND: no such payout of yours.'),
  409: errorResponse('PAYOUT_NOT_PENDING_APPROVAL: the payout is not (or no longer) waiting for approval.'),
};

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
          '422 INSUFFICIENT_BALANCE when amount + fee exceeds available + credit (nothing is stored). Above your approval threshold ' +
          '(operator setting) it answers PendingApproval instead: funds reserved, sent upstream only once another key calls payout/approve.',
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
    async (request) => ok(await payouts.initiate(merchantOf(request), request.body, apiKeyIdOf(request))),
  );

  app.post(
    '/payout/approve',
    {
      config: { changesState: true, keyScope: 'payouts', movesMoney: true },
      schema: {
        operationId: 'payoutApprove',
        tags: ['payout'],
        summary: 'Approve a payout waiting in PendingApproval (maker-checker)',
        description:
          'Sign with another of your keys than the one that initiated the payout. The payout becomes Initiated and goes upstream; ' +
          'its outcome arrives as usual (payout.succeeded / payout.failed).',
        security: MERCHANT_SECURITY,
        body: DecisionBody,
        response: { 200: SuccessEnvelope(ref(PayoutRecord), 'The payout afterwards (Initiated).'), ...decisionErrors },
      },
    },
    async (request) =>
      ok(await payouts.approve({ merchant: merchantOf(request), keyId: apiKeyIdOf(request) }, request.body.transactionRef, request.body.reason)),
  );

  app.post(
    '/payout/reject',
    {
      config: { changesState: true, keyScope: 'payouts', movesMoney: true },
      schema: {
        operationId: 'payoutReject',
        tags: ['payout'],
        summary: 'Reject a payout waiting in PendingApproval (maker-checker)',
        description:
          'Sign with another of your keys than the one that initiated the payout. The payout ends Failed with failureReason ' +
          'REJECTED_BY_MERCHANT, its amount and fee return to your balance, and payout.failed is sent.',
        security: MERCHANT_SECURITY,
        body: DecisionBody,
        response: { 200: SuccessEnvelope(ref(PayoutRecord), 'The payout afterwards (Failed).'), ...decisionErrors },
      },
    },
    async (request) =>
      ok(await payouts.reject({ merchant: merchantOf(request), keyId: apiKeyIdOf(request) }, request.body.transactionRef, request.body.reason)),
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
