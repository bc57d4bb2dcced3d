// Console users: reads, creation (by the CLI, the quick start or an accepted invitation) and the
// paginated listing. Every creation is audited in its own transaction.
import type { Selectable } from 'kysely';
import { recordAudit } from '../audit/audit-log.js';
import { isoFromMs } from '../core/clock.js';
import { AppError, validationError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Executor } from '../store/schema.js';
import { MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS } from './passwords.js';
import type { ConsoleUsersTable } from './people-rows.js';
import { roleFitsKind, type ConsoleRole, type UserKind } from './roles.js';

export interface ConsoleUser {
  readonly id: string;
  readonly email: string;
  readonly kind: UserKind;
  readonly role: ConsoleRole;
  readonly merchantId: string | null;
  readonly totpEnabled: boolean;
  readonly status: 'active' | 'disabled';
  readonly createdAt: string;
}

export interface NewUser {
  readonly email: string;
  readonly kind: UserKind;
  readonly role: string;
  readonly merchantId?: string | null;
  readonly password: string;
}

export const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export function userOf(row: Selectable<ConsoleUsersTable>): ConsoleUser {
  return {
    id: row.id,
    email: row.email,
    kind: row.kind as UserKind,
    role: row.role as ConsoleRole,
    merchantId: row.merchant_id,
    totpEnabled: row.totp_enabled_at_ms !== null,
    status: row.status as 'active' | 'disabled',
    createdAt: isoFromMs(row.created_at_ms),
  };
}

export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_CHARS) throw validationError('password', `must be at least ${MIN_PASSWORD_CHARS} characters`);
  if (password.length > MAX_PASSWORD_CHARS) throw validationError('password', `must be at most ${MAX_PASSWORD_CHARS} characters`);
}

export function checkNewUser(user: Omit<NewUser, 'password'>): void {
  if (!EMAIL_PATTERN.test(normaliseEmail(user.email)) || user.email.length > 254) throw validationError('email', 'must be an email address');
  if (!roleFitsKind(user.kind, user.role)) {
    throw validationError('role', user.kind === 'operator' ? 'must be admin or support' : 'must be owner, developer or viewer');
  }
  if (user.kind === 'merchant' && !user.merchantId) throw validationError('merchantId', 'is required for a merchant user');
  if (user.kind === 'operator' && user.merchantId) throw validationError('merchantId', 'must be empty for an operator');
}

/** Inserts the user (the password is hashed here); CONFLICT when the email already has an account. */
/** The password is hashed before the transaction (by the caller), so no write lock waits on scrypt. */
export async function insertUser(trx: Executor, user: Omit<NewUser, 'password'>, passwordHash: string, actor: string, nowMs: number): Promise<ConsoleUser> {
  checkNewUser(user);
  const email = normaliseEmail(user.email);
  const existing = await trx.selectFrom('console_users').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) throw new AppError('CONFLICT', 'This email already has a console account.', [{ field: 'email', problem: 'already has a console account' }]);
  const row = {
    id: newId(),
    email,
    kind: user.kind,
    role: user.role,
    merchant_id: user.merchantId ?? null,
    password_hash: passwordHash,
    totp_secret_sealed: null,
    totp_enabled_at_ms: null,
    totp_last_step: null,
    status: 'active',
    created_by: actor,
    created_at_ms: BigInt(nowMs),
  };
  await trx.insertInto('console_users').values(row).execute();
  await recordAudit(trx, {
    actor,
    action: 'console_user.create',
    target: row.id,
    merchantId: row.merchant_id,
    details: { email, kind: user.kind, role: user.role },
    nowMs,
  });
  return userOf(row);
}
