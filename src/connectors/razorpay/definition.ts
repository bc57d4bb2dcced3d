// Razorpay (India): UPI pay-ins through UPI QR codes and their refunds, and RazorpayX payouts by
// IMPS to a bank account or UPI to a VPA.
import type { ConnectorDefinition } from '../connector.js';
import { RazorpayChannel } from './flows.js';
import { razorpayStatement } from './statement.js';

export const razorpayDefinition: ConnectorDefinition = {
  name: 'razorpay',
  displayName: 'Razorpay',
  // One host for test and live: the key pair (rzp_test_... or rzp_live_...) chooses the mode.
  defaultBaseUrl: 'https://api.razorpay.com',
  apiVersion:
    'Razorpay REST API v1: UPI QR Codes (https://razorpay.com/docs/api/qr-codes/), Refunds (https://razorpay.com/docs/api/refunds/), ' +
    'RazorpayX Payout Composite (https://razorpay.com/docs/api/x/payout-composite/), Payout Idempotency, Fetch All Payouts, ' +
    'Payout Status Details (https://razorpay.com/docs/errors/x/payout-status-details/), Composite Account Validation ' +
    '(https://razorpay.com/docs/api/x/composite-account-validation/), Settlement Recon (https://razorpay.com/docs/api/settlements/fetch-recon/), Webhooks (https://razorpay.com/docs/webhooks/)',
  credentials: [
    { name: 'keyId', description: 'API key id (rzp_live_... or rzp_test_...), Dashboard > Account & Settings > API Keys.', secret: false },
    { name: 'keySecret', description: 'API key secret shown once when the key is generated.', secret: true },
    { name: 'webhookSecret', description: 'The secret entered when adding the webhook (Dashboard > Webhooks), for X-Razorpay-Signature.', secret: true },
    { name: 'accountNumber', description: 'RazorpayX business account number payouts are paid from (RazorpayX > My Account & Settings > Banking).', secret: false },
  ],
  capabilities: [
    { currency: 'INR', direction: 'payin', method: 'NATIVE', refunds: true },
    { currency: 'INR', direction: 'payout', method: 'BANK' },
    { currency: 'INR', direction: 'payout', method: 'UPI' },
  ],
  statement: razorpayStatement,
  create: (options) =>
    new RazorpayChannel({
      baseUrl: options.baseUrl,
      keyId: options.credentials.keyId!,
      keySecret: options.credentials.keySecret!,
      webhookSecret: options.credentials.webhookSecret!,
      accountNumber: options.credentials.accountNumber!,
      timeoutMs: options.timeoutMs,
      clock: options.clock,
    }),
};
