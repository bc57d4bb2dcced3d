// FawryPay (Egypt): EGP pay-ins only. FAWRY is a PayAtFawry reference paid at an outlet or in the
// app (cash: not refundable); WALLET a mobile-wallet request-to-pay (refundable). No payouts.
import type { ConnectorDefinition } from '../connector.js';
import { FawryChannel } from './flows.js';

export const fawryDefinition: ConnectorDefinition = {
  name: 'fawry',
  displayName: 'FawryPay',
  defaultBaseUrl: 'https://www.atfawry.com',
  apiVersion:
    'FawryPay server APIs (ECommerceWeb/Fawry/payments: charge, status/v2, refund) and Server Notification V2; ' +
    'https://developer.fawrystaging.com/docs/server-apis/create-payment-refno-apis, ' +
    'https://developer.fawrystaging.com/docs/server-apis/mobile-wallet-payment, ' +
    'https://developer.fawrystaging.com/docs/payment-notifications/get-payment-status-v2, ' +
    'https://developer.fawrystaging.com/docs/server-apis/refund-issue-api, ' +
    'https://developer.fawrystaging.com/docs/server-apis/payment-notifications/server-notification-v2',
  credentials: [
    { name: 'merchantCode', description: 'The merchant code FawryPay issued at account setup (merchant portal, integration settings).', secret: false },
    { name: 'secureKey', description: 'The secure (hash) key FawryPay issued with the merchant code; signs requests and notifications.', secret: true },
  ],
  capabilities: [
    { currency: 'EGP', direction: 'payin', method: 'FAWRY', refunds: false },
    { currency: 'EGP', direction: 'payin', method: 'WALLET', refunds: true },
  ],
  create: (options) => new FawryChannel(options),
};
