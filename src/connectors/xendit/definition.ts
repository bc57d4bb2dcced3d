// The Xendit connector as the routing table and the admin API see it: IDR pay-ins by virtual
// account (BNI, BRI, Mandiri, Permata), QRIS and the OVO and DANA e-wallets, IDR bank and
// e-wallet payouts, callbacks authenticated by the account's callback verification token.
import type { ConnectorCapability, ConnectorDefinition } from '../connector.js';
import { XenditChannel } from './flows.js';
import { xenditStatement } from './statement.js';

const payin = (method: string, refunds: boolean): ConnectorCapability => ({ currency: 'IDR', direction: 'payin', method, refunds });

export const xenditDefinition: ConnectorDefinition = {
  name: 'xendit',
  displayName: 'Xendit',
  defaultBaseUrl: 'https://api.xendit.co',
  apiVersion:
    'Fixed Virtual Accounts, QR Codes (api-version 2022-07-31), e-wallet charges, Payouts v2 (/v2/payouts); ' +
    'https://archive.developers.xendit.co/api-reference/ and https://docs.xendit.co/apidocs/create-payout; List Transactions for reconciliation (https://docs.xendit.co/apidocs/list-transactions)',
  credentials: [
    { name: 'secretKey', description: 'Secret API key (Dashboard > Settings > API keys), with write access to money-in and money-out.', secret: true },
    { name: 'callbackToken', description: 'Webhook verification token (Dashboard > Settings > Webhooks), sent back as x-callback-token.', secret: true },
  ],
  capabilities: [
    payin('BNI', false),
    payin('BRI', false),
    payin('MANDIRI', false),
    payin('PERMATA', false),
    payin('QRIS', true),
    payin('OVO', true),
    payin('DANA', true),
    { currency: 'IDR', direction: 'payout', method: 'TRANSFER' },
  ],
  statement: xenditStatement,
  create: (options) =>
    new XenditChannel({
      baseUrl: options.baseUrl,
      secretKey: options.credentials.secretKey!,
      callbackToken: options.credentials.callbackToken!,
      timeoutMs: options.timeoutMs,
      clock: options.clock,
    }),
};
