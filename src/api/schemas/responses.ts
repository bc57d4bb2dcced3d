// The envelopes and the response map of every route: one Error schema for all error answers, a
// description for every status, and the security requirement of each route family.
import { Type, type TSchema } from '@sinclair/typebox';
import { REASON_STATUS, type Reason } from '../../core/errors.js';
import { ref, shared, StringEnum } from './shared.js';

export const ErrorReason = shared(
  'ErrorReason',
  StringEnum(Object.keys(REASON_STATUS) as Reason[], { description: 'Stable UPPER_SNAKE reason; docs/errors.md says when each is given.' }),
);

export const ErrorSchema = shared(
  'Error',
  Type.Object(
    {
      code: Type.String({ description: 'The HTTP status as a string.', examples: ['400'] }),
      message: ref(ErrorReason),
      data: Type.Object({
        detail: Type.String({ description: 'One human sentence.' }),
        errors: Type.Optional(
          Type.Array(Type.Object({ field: Type.String(), problem: Type.String() }), { description: 'Validation failures only: each refused field.' }),
        ),
      }),
    },
    { description: 'The envelope of every error answer.' },
  ),
);

/** Response schema of a successful call whose data is `data`. */
export const SuccessEnvelope = <T extends TSchema>(data: T, description = 'SUCCESS') =>
  Type.Object(
    {
      code: Type.String({ examples: ['200'] }),
      message: Type.String({ examples: ['SUCCESS'] }),
      data,
    },
    { description },
  );

export const errorResponse = (description: string) => ref(ErrorSchema, { description });

export const MERCHANT_SECURITY = [{ MerchantID: [], Timestamp: [], Signature: [] }];
export const ADMIN_SECURITY = [{ AdminToken: [] }];

/** The error answers every signed merchant route can give. */
export const merchantErrors = {
  400: errorResponse('The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD, INVALID_BANK_CODE.'),
  401: errorResponse('Authentication failed: MISSING_CREDENTIALS, INVALID_TIMESTAMP, TIMESTAMP_OUT_OF_WINDOW, UNKNOWN_MERCHANT, INVALID_SIGNATURE, SIGNATURE_REUSED.'),
  403: errorResponse(
    "MERCHANT_DISABLED; METHOD_NOT_ENABLED for what this merchant may not use; IP_NOT_ALLOWED from an address outside the merchant's IP allow-list; " +
      "KEY_SCOPE when the signing key's scope does not cover this call (see x-key-scope).",
  ),
  413: errorResponse('PAYLOAD_TOO_LARGE: the body is over 64 KiB.'),
  415: errorResponse('UNSUPPORTED_MEDIA_TYPE: send the body as application/json.'),
  429: errorResponse("RATE_LIMITED: over the merchant's request rate; retry after the Retry-After seconds."),
  500: errorResponse('INTERNAL_ERROR: nothing partial was stored; quote the Request-Id header.'),
  503: errorResponse('UNAVAILABLE: shutting down or the database is unreachable; safe to retry.'),
};

export const notFound = (what: string) => errorResponse(`NOT_FOUND: no such ${what} for this merchant (another merchant's looks the same).`);

/** The error answers of the operator API; routes add 404, 409 and 422 where they can give them. */
export const adminErrors = {
  400: errorResponse('The request was refused and changed nothing: INVALID_JSON, VALIDATION_FAILED (with data.errors), UNSUPPORTED_CURRENCY, UNSUPPORTED_METHOD.'),
  401: errorResponse('UNAUTHORIZED: a valid operator bearer token is required.'),
  500: errorResponse('INTERNAL_ERROR: nothing partial was stored.'),
  503: errorResponse('UNAVAILABLE: shutting down or the database is unreachable; safe to retry.'),
};
