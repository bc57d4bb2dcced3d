// The merchant a signed request was authenticated as: the one thing every /v1/api handler reads
// from the request besides its body.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';
import type { Merchant } from '../merchants/merchant-service.js';

/** The authenticated merchant; routes under /v1/api never run without one. */
export function merchantOf(request: FastifyRequest): Merchant {
  if (!request.merchant) throw new AppError('INTERNAL_ERROR', 'Route reached without authentication.');
  return request.merchant;
}

/** The id of the API key that signed the request (auth.ts sets request.signingKey beside the merchant). */
export function apiKeyIdOf(request: FastifyRequest): string {
  if (!request.signingKey) throw new AppError('INTERNAL_ERROR', 'Route reached without authentication.');
  return request.signingKey.id;
}

/**
 * The config of a route that only reads this service's own database with any key: its read starts while
 * the Signature's record commits, and its answer waits for it (readAhead, registerSignedScope).
 */
export const DATABASE_READ = { changesState: false, keyScope: 'read', movesMoney: false, readAhead: true } as const;
