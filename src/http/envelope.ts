// The contract's envelope, in one place: {code, message, data} for success and errors alike.
import type { AppError } from '../core/errors.js';

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
