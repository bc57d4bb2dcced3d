// Turns anything thrown while handling a request into the contract's error envelope. AppError, Fastify's
// client errors and the database's data exceptions become 4xx; the rest is a 500 that reveals nothing.
import type { FastifyError } from 'fastify';
import { AppError, type FieldProblem, type Reason } from '../core/errors.js';
import { isTextRule } from './text.js';

interface AjvIssue {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params: Record<string, unknown>;
}

/** SQLSTATE class 22, data exception: a value PostgreSQL refuses to store (NUL, bad encoding, out of range). */
const DATA_EXCEPTION_CLASS = /^22[0-9A-Z]{3}$/;

const STORE_UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P02', '57P03', '25P03', '08001', '08006', 'SQLITE_BUSY']);
/**
 * node-postgres's own errors, which carry no code: a connection the server ended (store/db.ts), one
 * closed under a query, a new connection the server did not answer within PG_CONNECTION_WAIT_MS, and
 * the pool's wait for a free connection running out (the same limit).
 */
const STORE_UNAVAILABLE_MESSAGES = new Set([
  'Client has encountered a connection error and is not queryable',
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
]);

function fieldOf(issue: AjvIssue): string {
  const base = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const child = issue.params.missingProperty ?? issue.params.additionalProperty;
  if (typeof child === 'string') return base ? `${base}.${child}` : child;
  return base || '(body)';
}

function problemOf(issue: AjvIssue): string {
  if (issue.keyword === 'required') return 'is required';
  if (issue.keyword === 'additionalProperties') return 'is not a known field';
  if (issue.keyword === 'pattern' && isTextRule(issue.params.pattern)) return 'must not contain control characters or unpaired surrogates';
  if (issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)) return `must be one of ${issue.params.allowedValues.join(', ')}`;
  return issue.message ?? 'is invalid';
}

export function validationProblems(issues: readonly AjvIssue[]): FieldProblem[] {
  return issues.map((issue) => ({ field: fieldOf(issue), problem: problemOf(issue) }));
}

/** A value outside the currency or method enum is the contract's own reason, not a generic validation failure. */
const ENUM_REASONS: Readonly<Record<string, Reason>> = { currency: 'UNSUPPORTED_CURRENCY', method: 'UNSUPPORTED_METHOD' };

function reasonOf(issue: AjvIssue | undefined, field: string | undefined): Reason {
  if (issue?.keyword !== 'enum' || field === undefined) return 'VALIDATION_FAILED';
  return ENUM_REASONS[field] ?? 'VALIDATION_FAILED';
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as Partial<FastifyError> & { validation?: AjvIssue[] };
  if (Array.isArray(fastifyError.validation)) {
    const errors = validationProblems(fastifyError.validation);
    const first = errors[0];
    const detail = first ? `${first.field} ${first.problem}.` : 'The request body is invalid.';
    return new AppError(reasonOf(fastifyError.validation[0], first?.field), detail, errors);
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than this route accepts (64 KiB; 1 MiB for payout/batch).');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('INVALID_JSON', 'The request body is not a JSON object.');
    default:
      break;
  }
  // The schemas refuse such values first; should one slip through, the caller sent it, so it is a 400.
  if (typeof fastifyError.code === 'string' && DATA_EXCEPTION_CLASS.test(fastifyError.code)) {
    return new AppError('VALIDATION_FAILED', 'A field holds a value that cannot be stored.');
  }
  const storeGone =
    (typeof fastifyError.code === 'string' && STORE_UNAVAILABLE_CODES.has(fastifyError.code)) ||
    (fastifyError.code === undefined && typeof fastifyError.message === 'string' && STORE_UNAVAILABLE_MESSAGES.has(fastifyError.message));
  if (storeGone) {
    return new AppError('UNAVAILABLE', 'The service is temporarily unavailable; retry shortly.');
  }
  const status = fastifyError.statusCode;
  if (status === 404) return new AppError('NOT_FOUND', 'No such resource.');
  if (status === 405) return new AppError('METHOD_NOT_ALLOWED', 'This method is not allowed here.');
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError('VALIDATION_FAILED', 'The request is malformed.');
  }
  return new AppError('INTERNAL_ERROR', 'Something went wrong on our side; nothing was changed. Quote the Request-Id if you contact us.');
}
