// Paymob's Payouts API documents no notification we could authenticate: its pages describe token,
// instant cash-in, inquiry and budget endpoints, but no callback body and no signature over one. An
// unsigned "status update" would let anyone mark a payout paid, so every request to our callback
// endpoint for paymob is refused as not authentic, and payout states come from inquiry polling only.
import { AppError } from '../../core/errors.js';
import type { ChannelCallback } from '../channel.js';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

export function parsePaymobCallback(_headers: Headers, _rawBody: Buffer): ChannelCallback {
  throw new AppError(
    'INVALID_SIGNATURE',
    'paymob payout notifications cannot be authenticated (Paymob documents no signature for them); payout states are taken from inquiry only.',
  );
}
