// Schema pieces and checks shared by the merchant routes.
import { Type } from '@sinclair/typebox';
import { Text } from '../http/text.js';
import { AppError } from '../domain/errors.js';
import type { Merchant } from '../domain/merchants.js';
import { isCurrency, type Currency } from '../domain/money.js';
import type { FastifyRequest } from 'fastify';
import { ErrorEnvelope } from '../http/envelope.js';

/** Currency is a plain string in the schema so an unknown one gets UNSUPPORTED_CURRENCY, not VALIDATION_FAILED. */
export const CurrencyField = Text({ minLength: 1, maxLength: 8, description: 'INR, EGP, NGN or IDR', examples: ['INR'] });

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

export const MERCHANT_SECURITY = [{ MerchantID: [], Timestamp: [], Signature: [] }];

/** The error answers every signed route can give, for the OpenAPI document. */
export const errorResponses = {
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  403: ErrorEnvelope,
  413: ErrorEnvelope,
  415: ErrorEnvelope,
  429: ErrorEnvelope,
  500: ErrorEnvelope,
  503: ErrorEnvelope,
};
