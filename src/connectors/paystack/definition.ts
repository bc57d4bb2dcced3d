// The Paystack connector: what it does (NGN pay-in by bank transfer to a one-time account, NGN
// payouts to bank accounts), the one credential it needs, and how its Channel is built.
import type { ConnectorDefinition } from '../connector.js';
import { PaystackChannel } from './flows.js';
import { paystackStatement } from './statement.js';

export const paystackDefinition: ConnectorDefinition = {
  name: 'paystack',
  displayName: 'Paystack',
  defaultBaseUrl: 'https://api.paystack.co',
  apiVersion:
    'Paystack REST API (unversioned, api.paystack.co) as of 2025: Charge API "Pay with Transfer" (https://paystack.com/docs/payments/payment-methods/#bank-transfer), ' +
    'Verify Transaction (https://paystack.com/docs/api/transaction/#verify), Transfer Recipients and Transfers (https://paystack.com/docs/transfers/single-transfers/, ' +
    'https://paystack.com/docs/api/transfer/#verify), Banks and Resolve Account (https://paystack.com/docs/api/miscellaneous/#bank, https://paystack.com/docs/api/verification/#resolve-account), ' +
    'List Transactions and List Transfers for reconciliation (https://paystack.com/docs/api/transaction/#list, https://paystack.com/docs/api/transfer/#list), ' +
    'Webhooks (https://paystack.com/docs/payments/webhooks/), OpenAPI spec github.com/PaystackOSS/openapi',
  credentials: [
    {
      name: 'secretKey',
      description: 'Secret key (sk_live_... or sk_test_...) from Paystack Dashboard > Settings > API Keys & Webhooks; it also signs the webhooks.',
      secret: true,
    },
  ],
  capabilities: [
    { currency: 'NGN', direction: 'payin', method: 'TRANSFER', refunds: false },
    { currency: 'NGN', direction: 'payout', method: 'BANK' },
  ],
  statement: paystackStatement,
  create: (options) => new PaystackChannel({ baseUrl: options.baseUrl, secretKey: options.credentials.secretKey ?? '', timeoutMs: options.timeoutMs }),
};
