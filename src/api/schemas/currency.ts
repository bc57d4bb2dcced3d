// The currency field of every request and the body of the routes that take only a currency. This
// is the API's one currency check: a value outside the shared enum fails validation, and the error
// mapping (http/errors.ts) answers it as UNSUPPORTED_CURRENCY, so handlers receive a Currency.
import { Type } from '@sinclair/typebox';
import { Currency } from './enums.js';
import { ref } from './shared.js';

export const CurrencyField = ref(Currency, { examples: ['INR'] });

export const CurrencyBody = Type.Object({ currency: CurrencyField }, { additionalProperties: false });
