// The operator API's bearer token, compared in constant time.
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.js';

const digest = (text: string): Buffer => crypto.createHash('sha256').update(text).digest();

export function requireAdmin(request: FastifyRequest, adminToken: string): void {
  const header = request.headers.authorization;
  const presented = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : '';
  // Hashing both sides gives equal lengths, so timingSafeEqual never leaks the token's length.
  if (!presented || !crypto.timingSafeEqual(digest(presented), digest(adminToken))) {
    throw new AppError('UNAUTHORIZED', 'A valid operator bearer token is required.');
  }
}

/** The actor of every operator API action in the audit log and the journal: there is one token. */
export const ADMIN_ACTOR = 'admin';

