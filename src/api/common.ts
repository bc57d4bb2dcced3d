// Schema pieces and checks shared by the merchant routes.
import { Type } from '@sinclair/typebox';
import { Text } from '../http/text.js';
import { AppError } from '../core/errors.js';
import type { Merchant } from '../merchants/merchant-service.js';
import { isCurrency, type Currency } from '../core/money.js';
import type { FastifyRequest } from 'fastify';
import { Currency as CurrencySchema } from './schemas/enums.js';
import { ref } from './schemas/shared.js';

/** An unknown currency fails the enum, which the error mapping reports as UNSUPPORTED_CURRENCY. */
export const CurrencyField = ref(CurrencySchema, { examples: ['INR'] });

export const CurrencyBody = Type.Object({ currency: CurrencyField }, { additionalProperties: false });

export function supportedCurrency(value: string): Currency {
  if (!isCurrency(value)) throw new AppError('UNSUPPORTED_CURRENCY', `Currency ${value} is not offered; use INR, EGP, NGN or IDR.`);
  return value;
}

/** The authenticated merchant; routes under /v1/api never run without one. */
export function merchantOf(request: FastifyRequest): Merchant {
  if (!request.merchant) throw new AppError('INTERNAL_ERROR', 'Route reached without authentication.');
  return request.merchant;
}
