// The console's people: users and roles, password sign-in with TOTP, sessions, recovery codes,
// invitations and the login throttle. The console's pages and the CLI call only this.
import { recordAudit } from '../audit/audit-log.js';
import type { Clock } from '../core/clock.js';
import { AppError, validationError } from '../core/errors.js';
import type { SecretBox } from '../core/secrets.js';
import type { Db } from '../store/schema.js';
import { withTransaction } from '../store/transactions.js';
import { findInvitation, insertInvitation, useInvitation, type Invitation, type InvitationRequest, type IssuedInvitation } from './invitations.js';
import { DECOY_HASH, hashPassword, verifyPassword } from './passwords.js';
import { consumeRecoveryCode, issueRecoveryCodes, unusedRecoveryCodes } from './recovery-codes.js';
import { totpRequired, type UserKind } from './roles.js';
import { SessionStore, type NewSession, type Session, type SessionSettings } from './sessions.js';
import { accountKey, addressKey, LoginThrottle, type ThrottleSettings } from './throttle.js';
import { matchTotp, newTotpSecret, otpauthUri } from './totp.js';
import { checkNewUser, checkPassword, insertUser, normaliseEmail, userOf, type ConsoleUser, type NewUser } from './users.js';

export interface PeopleSettings extends SessionSettings, ThrottleSettings {
  readonly invitationTtlMs: number;
}

export interface LoginAttempt {
  readonly email: string;
  readonly password: string;
  /** A TOTP code or a recovery code; ignored for a user without TOTP. */
  readonly code: string;
  readonly address: string | null;
}

/** Every failure is the same `{ ok: false }`: which part was wrong, or a lockout, is never told. */
export type LoginResult = { readonly ok: true; readonly user: ConsoleUser; readonly session: NewSession } | { readonly ok: false };

export interface UserPage {
  readonly items: ConsoleUser[];
  readonly nextCursor: string | null;
}

export const consoleActor = (user: Pick<ConsoleUser, 'email'>): string => `console:${user.email}`;

export class PeopleService {
  readonly sessions: SessionStore;
  private readonly throttle: LoginThrottle;

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    readonly settings: PeopleSettings,
  ) {
    this.sessions = new SessionStore(db, clock, settings);
    this.throttle = new LoginThrottle(db, settings);
  }

  async user(id: string): Promise<ConsoleUser | null> {
    const row = await this.db.selectFrom('console_users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? userOf(row) : null;
  }

  async userByEmail(email: string): Promise<ConsoleUser | null> {
    const row = await this.db.selectFrom('console_users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();
    return row ? userOf(row) : null;
  }

  /** Users by id (creation order), optionally of one merchant or kind; keyset-paginated. */
  async listUsers(query: { merchantId?: string; kind?: UserKind; cursor?: string; limit: number }): Promise<UserPage> {
    const rows = await this.db
      .selectFrom('console_users')
      .selectAll()
      .$if(query.merchantId !== undefined, (qb) => qb.where('merchant_id', '=', query.merchantId!))
      .$if(query.kind !== undefined, (qb) => qb.where('kind', '=', query.kind!))
      .$if(query.cursor !== undefined, (qb) => qb.where('id', '>', query.cursor!))
      .orderBy('id')
      .limit(query.limit + 1)
      .execute();
    const page = rows.slice(0, query.limit).map(userOf);
    return { items: page, nextCursor: rows.length > query.limit ? page[page.length - 1]!.id : null };
  }

  async createUser(user: NewUser, actor: string): Promise<ConsoleUser> {
    checkNewUser(user);
    checkPassword(user.password);
    const passwordHash = await hashPassword(user.password);
    return withTransaction(this.db, (trx) => insertUser(trx, user, passwordHash, actor, this.clock.nowMs()));
  }

  async operatorCount(): Promise<number> {
    const rows = await this.db.selectFrom('console_users').select('id').where('kind', '=', 'operator').limit(1).execute();
    return rows.length;
  }

  async login(attempt: LoginAttempt): Promise<LoginResult> {
    const email = normaliseEmail(attempt.email).slice(0, 254);
    const nowMs = this.clock.nowMs();
    const keys = attempt.address ? [accountKey(email), addressKey(attempt.address)] : [accountKey(email)];
    const locked = await this.throttle.isLocked(keys, nowMs);
    const row = await this.db.selectFrom('console_users').selectAll().where('email', '=', email).executeTakeFirst();
    // The hash runs whatever happens, so an unknown email or a lockout answers in the same time.
    const passwordOk = await verifyPassword(attempt.password, row?.password_hash ?? DECOY_HASH);
    const fail = async (why: string): Promise<LoginResult> => {
      await this.throttle.fail(email, attempt.address, nowMs);
      await recordAudit(this.db, {
        actor: `console:${email}`,
        action: 'console.login_failed',
        target: email,
        merchantId: row?.merchant_id ?? null,
        details: { why },
        address: attempt.address,
        nowMs,
      });
      return { ok: false };
    };
    if (locked) return fail('locked');
    if (!row || !passwordOk) return fail(row ? 'password' : 'unknown email');
    if (row.status !== 'active') return fail('disabled');
    const user = userOf(row);
    return withTransaction(this.db, async (trx) => {
      if (user.totpEnabled) {
        const code = attempt.code.replace(/\s+/g, '');
        const secret = this.box.open(row.totp_secret_sealed!);
        const step = matchTotp(secret, code, nowMs);
        if (step !== null) {
          // Conditional on the last step, so the same code cannot open two sessions.
          const used = await trx
            .updateTable('console_users')
            .set({ totp_last_step: step })
            .where('id', '=', user.id)
            .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
            .executeTakeFirst();
          if (Number(used.numUpdatedRows) !== 1) return { ok: false as const, why: 'code reused' };
        } else if (!(await consumeRecoveryCode(trx, user.id, code, nowMs))) {
          return { ok: false as const, why: 'code' };
        }
      }
      const stage = totpRequired(user.kind) && !user.totpEnabled ? 'enrol' : 'full';
      const session = await this.sessions.create(trx, user.id, stage, attempt.address);
      await recordAudit(trx, { actor: consoleActor(user), action: 'console.login', target: user.id, merchantId: user.merchantId, details: { stage }, address: attempt.address, nowMs });
      return { ok: true as const, user, session };
    }).then(async (result) => {
      if (!result.ok) return fail(result.why);
      await this.throttle.succeed(email);
      return { ok: true, user: result.user, session: result.session };
    });
  }

  /** The session of a cookie with its user, or null when expired, ended or the user is disabled. */
  async sessionOf(rawId: string): Promise<{ session: Session; user: ConsoleUser } | null> {
    const session = await this.sessions.find(rawId);
    if (!session) return null;
    const user = await this.user(session.userId);
    if (!user || user.status !== 'active') return null;
    return { session, user };
  }

  async logout(session: Session, user: ConsoleUser): Promise<void> {
    await withTransaction(this.db, async (trx) => {
      await trx.deleteFrom('console_sessions').where('id_hash', '=', session.idHash).execute();
      await recordAudit(trx, { actor: consoleActor(user), action: 'console.logout', target: user.id, merchantId: user.merchantId, nowMs: this.clock.nowMs() });
    });
  }

  async logoutEverywhere(user: ConsoleUser): Promise<number> {
    return withTransaction(this.db, async (trx) => {
      const ended = await this.sessions.endAll(trx, user.id);
      await recordAudit(trx, { actor: consoleActor(user), action: 'console.logout_everywhere', target: user.id, merchantId: user.merchantId, details: { sessions: ended }, nowMs: this.clock.nowMs() });
      return ended;
    });
  }

  /**
   * The secret to enrol (a new one unless an unconfirmed one waits), and the otpauth:// URI the QR code
   * carries. Refused once TOTP is on: a second enrolment would let a stolen session replace the factor.
   */
  async beginTotp(userId: string): Promise<{ secret: string; uri: string }> {
    const row = await this.db.selectFrom('console_users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    if (row.totp_enabled_at_ms !== null) throw new AppError('CONFLICT', 'Two-factor sign-in is already set up.');
    let secret: string;
    if (row.totp_secret_sealed) {
      secret = this.box.open(row.totp_secret_sealed);
    } else {
      secret = newTotpSecret();
      await this.db.updateTable('console_users').set({ totp_secret_sealed: this.box.seal(secret) }).where('id', '=', userId).execute();
    }
    return { secret, uri: otpauthUri(secret, row.email) };
  }

  /** Confirms enrolment with a first code; returns the ten recovery codes (shown once), or null for a wrong code. */
  async confirmTotp(userId: string, session: Session, code: string): Promise<string[] | null> {
    const nowMs = this.clock.nowMs();
    const row = await this.db.selectFrom('console_users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    if (row.totp_enabled_at_ms !== null || !row.totp_secret_sealed) throw new AppError('CONFLICT', 'There is no enrolment to confirm.');
    const step = matchTotp(this.box.open(row.totp_secret_sealed), code.replace(/\s+/g, ''), nowMs);
    if (step === null) return null;
    return withTransaction(this.db, async (trx) => {
      await trx.updateTable('console_users').set({ totp_enabled_at_ms: BigInt(nowMs), totp_last_step: step }).where('id', '=', userId).execute();
      const codes = await issueRecoveryCodes(trx, userId);
      await this.sessions.promote(trx, session.idHash);
      await recordAudit(trx, { actor: `console:${row.email}`, action: 'console.totp_enrol', target: userId, merchantId: row.merchant_id, nowMs });
      return codes;
    });
  }

  /** Ten new recovery codes (the old ones stop working), after a current TOTP code; null for a wrong code. */
  async renewRecoveryCodes(user: ConsoleUser, code: string): Promise<string[] | null> {
    const nowMs = this.clock.nowMs();
    const row = await this.db.selectFrom('console_users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    if (row.totp_enabled_at_ms === null || !row.totp_secret_sealed) throw new AppError('CONFLICT', 'Two-factor sign-in is not set up.');
    const step = matchTotp(this.box.open(row.totp_secret_sealed), code.replace(/\s+/g, ''), nowMs);
    if (step === null || (row.totp_last_step !== null && step <= row.totp_last_step)) return null;
    return withTransaction(this.db, async (trx) => {
      await trx.updateTable('console_users').set({ totp_last_step: step }).where('id', '=', user.id).execute();
      const codes = await issueRecoveryCodes(trx, user.id);
      await recordAudit(trx, { actor: consoleActor(user), action: 'console.recovery_codes_renew', target: user.id, merchantId: user.merchantId, nowMs });
      return codes;
    });
  }

  /**
   * For someone who lost both phone and recovery codes: turns TOTP off, drops the codes and ends every
   * session; an operator then enrols again at the next sign-in (password still needed).
   */
  async resetTotp(userId: string, actor: string): Promise<ConsoleUser> {
    return withTransaction(this.db, async (trx) => {
      const updated = await trx
        .updateTable('console_users')
        .set({ totp_secret_sealed: null, totp_enabled_at_ms: null, totp_last_step: null })
        .where('id', '=', userId)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new AppError('NOT_FOUND', 'No such console user.');
      await trx.deleteFrom('console_recovery_codes').where('user_id', '=', userId).execute();
      await this.sessions.endAll(trx, userId);
      const row = await trx.selectFrom('console_users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
      await recordAudit(trx, { actor, action: 'console_user.totp_reset', target: userId, merchantId: row.merchant_id, details: { email: row.email }, nowMs: this.clock.nowMs() });
      return userOf(row);
    });
  }

  async recoveryCodesLeft(userId: string): Promise<number> {
    return unusedRecoveryCodes(this.db, userId);
  }

  async invite(request: InvitationRequest, actor: string): Promise<IssuedInvitation> {
    const email = normaliseEmail(request.email);
    if (await this.userByEmail(email)) throw new AppError('CONFLICT', 'This email already has a console account.', [{ field: 'email', problem: 'already has a console account' }]);
    return withTransaction(this.db, (trx) => insertInvitation(trx, { ...request, email }, actor, this.clock.nowMs(), this.settings.invitationTtlMs));
  }

  async invitation(token: string): Promise<Invitation | null> {
    return findInvitation(this.db, token, this.clock.nowMs());
  }

  /** Creates the invited user with the chosen password and signs them in (operators then enrol TOTP). */
  async acceptInvitation(token: string, password: string, address: string | null): Promise<{ user: ConsoleUser; session: NewSession }> {
    checkPassword(password);
    const nowMs = this.clock.nowMs();
    const invitation = await findInvitation(this.db, token, nowMs);
    if (!invitation) throw new AppError('NOT_FOUND', 'This invitation is unknown, used or expired.');
    const passwordHash = await hashPassword(password);
    return withTransaction(this.db, async (trx) => {
      if (!(await useInvitation(trx, invitation.tokenHash, nowMs))) throw new AppError('NOT_FOUND', 'This invitation is unknown, used or expired.');
      const actor = `console:${invitation.email}`;
      const user = await insertUser(trx, { email: invitation.email, kind: invitation.kind, role: invitation.role, merchantId: invitation.merchantId }, passwordHash, actor, nowMs);
      const stage = totpRequired(user.kind) ? 'enrol' : 'full';
      const session = await this.sessions.create(trx, user.id, stage, address);
      return { user, session };
    });
  }

  /** Disables (ending every session at once) or enables a user; audited. NOT_FOUND for an unknown id. */
  async setUserStatus(userId: string, status: 'active' | 'disabled', actor: string): Promise<ConsoleUser> {
    return withTransaction(this.db, async (trx) => {
      const updated = await trx.updateTable('console_users').set({ status }).where('id', '=', userId).executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new AppError('NOT_FOUND', 'No such console user.');
      if (status === 'disabled') await this.sessions.endAll(trx, userId);
      const row = await trx.selectFrom('console_users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
      await recordAudit(trx, { actor, action: status === 'disabled' ? 'console_user.disable' : 'console_user.enable', target: userId, merchantId: row.merchant_id, details: { email: row.email }, nowMs: this.clock.nowMs() });
      return userOf(row);
    });
  }

  /** Changes the password after checking the current one; ends every other session of the user. */
  async changePassword(user: ConsoleUser, session: Session, current: string, next: string): Promise<void> {
    const row = await this.db.selectFrom('console_users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    if (!(await verifyPassword(current, row.password_hash))) throw validationError('currentPassword', 'is not your current password');
    checkPassword(next);
    const passwordHash = await hashPassword(next);
    await withTransaction(this.db, async (trx) => {
      await trx.updateTable('console_users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
      await trx.deleteFrom('console_sessions').where('user_id', '=', user.id).where('id_hash', '!=', session.idHash).execute();
      await recordAudit(trx, { actor: consoleActor(user), action: 'console.password_change', target: user.id, merchantId: user.merchantId, nowMs: this.clock.nowMs() });
    });
  }
}
