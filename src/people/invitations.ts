// Invitations by link: no mail server, so the link is printed by the CLI or shown to the inviter, who
// passes it on. The token is single-use and expires; only its hash is stored.
import { recordAudit } from '../audit/audit-log.js';
import { isoFromMs } from '../core/clock.js';
import type { Executor } from '../store/schema.js';
import { randomToken, sha256Hex } from './sessions.js';
import { checkNewUser, normaliseEmail } from './users.js';
import type { ConsoleRole, UserKind } from './roles.js';

export interface InvitationRequest {
  readonly email: string;
  readonly kind: UserKind;
  readonly role: string;
  readonly merchantId?: string | null;
}

export interface Invitation {
  readonly email: string;
  readonly kind: UserKind;
  readonly role: ConsoleRole;
  readonly merchantId: string | null;
  readonly expiresAt: string;
}

export interface IssuedInvitation extends Invitation {
  /** Goes in the link (/console/invitations/<token>) and nowhere else. */
  readonly token: string;
}

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export async function insertInvitation(trx: Executor, request: InvitationRequest, actor: string, nowMs: number, ttlMs: number): Promise<IssuedInvitation> {
  checkNewUser(request);
  const token = randomToken();
  const email = normaliseEmail(request.email);
  const expiresAtMs = nowMs + ttlMs;
  await trx
    .insertInto('console_invitations')
    .values({
      token_hash: sha256Hex(token),
      email,
      kind: request.kind,
      role: request.role,
      merchant_id: request.merchantId ?? null,
      created_by: actor,
      created_at_ms: BigInt(nowMs),
      expires_at_ms: BigInt(expiresAtMs),
      used_at_ms: null,
    })
    .execute();
  await recordAudit(trx, {
    actor,
    action: 'console_invitation.create',
    target: email,
    merchantId: request.merchantId ?? null,
    details: { email, kind: request.kind, role: request.role, expiresAt: isoFromMs(expiresAtMs) },
    nowMs,
  });
  return { token, email, kind: request.kind, role: request.role as ConsoleRole, merchantId: request.merchantId ?? null, expiresAt: isoFromMs(expiresAtMs) };
}

/** The open invitation of a token (unused, unexpired), or null. */
export async function findInvitation(db: Executor, token: string, nowMs: number): Promise<(Invitation & { tokenHash: string }) | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await db
    .selectFrom('console_invitations')
    .selectAll()
    .where('token_hash', '=', sha256Hex(token))
    .where('used_at_ms', 'is', null)
    .where('expires_at_ms', '>', BigInt(nowMs))
    .executeTakeFirst();
  if (!row) return null;
  return {
    tokenHash: row.token_hash,
    email: row.email,
    kind: row.kind as UserKind,
    role: row.role as ConsoleRole,
    merchantId: row.merchant_id,
    expiresAt: isoFromMs(row.expires_at_ms),
  };
}

/** Marks it used; false when another request used it first (the conditional update decides). */
export async function useInvitation(trx: Executor, tokenHash: string, nowMs: number): Promise<boolean> {
  const result = await trx
    .updateTable('console_invitations')
    .set({ used_at_ms: BigInt(nowMs) })
    .where('token_hash', '=', tokenHash)
    .where('used_at_ms', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
