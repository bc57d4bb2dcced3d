// Opaque, tamper-proof list cursors: the keyset position of the last row served, MACed together with
// the merchant, the list and the filters it was issued for, so a cursor is good only for the very call
// that produced it. A cursor lives a day: a client holding one longer starts over.
import crypto from 'node:crypto';
import { validationError } from '../core/errors.js';

/** How long a cursor is accepted after it was issued. */
export const CURSOR_LIFETIME_MS = 24 * 60 * 60 * 1000;
const MAC_BYTES = 16;

/** What a cursor is bound to besides its position: who asked, on which list, with which filters. */
export interface CursorScope {
  readonly merchantId: string;
  /** payments, payouts or statement. */
  readonly list: string;
  /** filterFingerprint() of the call's filters. */
  readonly fingerprint: string;
}

/** A keyset position: string and bigint parts only, so nothing is lost in JSON. */
export type Position = readonly string[];

export class CursorCodec {
  constructor(
    private readonly key: Buffer,
    private readonly nowMs: () => number,
  ) {}

  encode(scope: CursorScope, position: Position): string {
    const payload = Buffer.from(JSON.stringify([String(this.nowMs()), ...position])).toString('base64url');
    return `${payload}.${this.mac(scope, payload)}`;
  }

  /** The position of a cursor issued for this scope; VALIDATION_FAILED on anything else. */
  decode(scope: CursorScope, cursor: string): Position {
    const [payload, mac, extra] = cursor.split('.');
    if (payload === undefined || mac === undefined || extra !== undefined) throw invalidCursor();
    const expected = Buffer.from(this.mac(scope, payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw invalidCursor();
    const parts = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as string[];
    const issuedAtMs = Number(parts[0]);
    if (!(this.nowMs() - issuedAtMs <= CURSOR_LIFETIME_MS)) throw validationError('cursor', 'has expired; start again without a cursor');
    return parts.slice(1);
  }

  private mac(scope: CursorScope, payload: string): string {
    return crypto
      .createHmac('sha256', this.key)
      .update(JSON.stringify([scope.merchantId, scope.list, scope.fingerprint, payload]))
      .digest()
      .subarray(0, MAC_BYTES)
      .toString('base64url');
  }
}

const invalidCursor = () => validationError('cursor', 'is not a cursor of this list with these filters');

/** A stable digest of the filters (not limit or cursor), so a cursor reused with other filters is refused. */
export function filterFingerprint(filters: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(filters)
    .filter(([name, value]) => value !== undefined && name !== 'limit' && name !== 'cursor')
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return crypto.createHash('sha256').update(JSON.stringify(entries)).digest('base64url').slice(0, 22);
}
