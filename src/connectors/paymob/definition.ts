// Paymob as a live connector: EGP payouts to mobile wallets and bank accounts through Paymob's
// Payouts (disbursement) API. No pay-ins: Paymob Accept is a different product and is not used here.
import type { ConnectorDefinition } from '../connector.js';
import { PaymobChannel } from './flows.js';

export const paymobDefinition: ConnectorDefinition = {
  name: 'paymob',
  displayName: 'Paymob Payouts',
  // Production {ENV}; the staging environment is https://stagingpayouts.paymobsolutions.com/api/secure.
  defaultBaseUrl: 'https://payouts.paymobsolutions.com/api/secure',
  apiVersion:
    'Paymob Payouts (disbursement) API, {ENV}/o/token/, {ENV}/disburse/, {ENV}/transaction/inquire/: ' +
    'https://payouts.paymobsolutions.com/docs/generate_and_refresh_token_api, https://payouts.paymobsolutions.com/docs/instant_cashin_api, ' +
    'https://developers.paymob.com/egypt/payouts/bulk-transaction-inquiry-api-endpoint, https://developers.paymob.com/paymob-docs/payouts/overview-1',
  credentials: [
    { name: 'clientId', description: 'OAuth2 client id Paymob sends with your Payouts (Send) API credentials.', secret: false },
    { name: 'clientSecret', description: 'OAuth2 client secret that comes with the client id.', secret: true },
    { name: 'username', description: 'Payouts API user name Paymob provisions for your account.', secret: false },
    { name: 'password', description: 'Password of that Payouts API user.', secret: true },
  ],
  capabilities: [
    { currency: 'EGP', direction: 'payout', method: 'WALLET' },
    { currency: 'EGP', direction: 'payout', method: 'BANK' },
  ],
  create: (options) => new PaymobChannel(options),
};
