// The API's named enums, built from the constants the code itself checks against, so the document,
// request validation and generated clients list exactly the values the service knows.
import { CURRENCIES } from '../../core/money.js';
import { PAYIN_METHOD_NAMES, PAYOUT_METHOD_NAMES } from '../../domain/methods.js';
import { PAYMENT_STATUSES } from '../../domain/payments/checkout-view.js';
import { PAYOUT_STATUSES } from '../../domain/payouts/payout-rows.js';
import { WEBHOOK_EVENT_STATUSES, WEBHOOK_EVENT_TYPES } from '../../webhooks/webhook-rows.js';
import { shared, StringEnum } from './shared.js';

export const Currency = shared('Currency', StringEnum(CURRENCIES, { description: 'INR, EGP, NGN or IDR.' }));

export const PayInMethod = shared(
  'PayInMethod',
  StringEnum(PAYIN_METHOD_NAMES, { description: 'Pay-in method; which ones a currency offers is listed by payment/methods.' }),
);

export const PayoutMethod = shared(
  'PayoutMethod',
  StringEnum(PAYOUT_METHOD_NAMES, { description: 'Payout method; NGN bank payouts are answered as TRANSFER.' }),
);

export const PaymentStatus = shared(
  'PaymentStatus',
  StringEnum(PAYMENT_STATUSES, { description: 'Pending -> Success | Failed | Expired; Success -> Refund.' }),
);

export const PayoutStatus = shared(
  'PayoutStatus',
  StringEnum(PAYOUT_STATUSES, {
    description: 'Initiated -> Processing -> Success | Failed; Initiated -> Failed. Above your approval threshold: PendingApproval -> Initiated (approved) | Failed (rejected, expired).',
  }),
);

export const WebhookEventType = shared('WebhookEventType', StringEnum(WEBHOOK_EVENT_TYPES, { description: 'What happened to the payment or payout.' }));

export const WebhookDeliveryStatus = shared(
  'WebhookDeliveryStatus',
  StringEnum(WEBHOOK_EVENT_STATUSES, {
    description: 'pending (being delivered or retried), delivered, failed (retries exhausted), no_destination (no URL configured; nothing sent).',
  }),
);

export const ENUM_SCHEMAS = [Currency, PayInMethod, PayoutMethod, PaymentStatus, PayoutStatus, WebhookEventType, WebhookDeliveryStatus];
