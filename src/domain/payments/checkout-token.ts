// Checkout tokens: the unguessable part of a checkout URL. Only their sha256 is searchable in the
// store, so a copy of the database does not open anyone's checkout page.
import crypto from 'node:crypto';

const TOKEN_BYTES = 32;
/** base64url of 32 bytes. Anything else cannot be a token and is refused before a lookup. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const newCheckoutToken = (): string => crypto.randomBytes(TOKEN_BYTES).toString('base64url');

export const hashCheckoutToken = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');

export const isWellFormedToken = (token: string): boolean => TOKEN_PATTERN.test(token);

export const checkoutUrl = (publicBaseUrl: string, token: string): string => `${publicBaseUrl}/checkout/${token}`;
