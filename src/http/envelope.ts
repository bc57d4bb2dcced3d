// The contract's envelope, in one place: {code, message, data} for success and errors alike.
import { Type, type TSchema } from '@sinclair/typebox';
import type { AppError } from '../domain/errors.js';

export interface Envelope<T> {
  readonly code: string;
  readonly message: string;
  readonly data: T;
}

export const ok = <T>(data: T): Envelope<T> => ({ code: '200', message: 'SUCCESS', data });

export function errorBody(error: AppError): Envelope<{ detail: string; errors?: readonly { field: string; problem: string }[] }> {
  const data = error.errors && error.errors.length > 0 ? { detail: error.detail, errors: error.errors } : { detail: error.detail };
  return { code: String(error.status), message: error.reason, data };
}

/** Response schema of a successful call whose data is `data`. */
export const SuccessEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({
    code: Type.String({ examples: ['200'] }),
    message: Type.String({ examples: ['SUCCESS'] }),
    data,
  });

export const ErrorEnvelope = Type.Object(
  {
    code: Type.String({ examples: ['400'] }),
    message: Type.String({ examples: ['VALIDATION_FAILED'] }),
    data: Type.Object({
      detail: Type.String(),
      errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), problem: Type.String() }))),
    }),
  },
  { $id: 'ErrorEnvelope' },
);
