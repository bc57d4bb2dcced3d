// Server-side console sessions: the cookie holds a random 256-bit id, the database only its sha-256,
// so a copy of the table opens no session. A session ends after an idle period or at an absolute
// age, whichever comes first, on logout, or when its user logs out everywhere.
import crypto from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Db, Executor } from '../store/schema.js';

export interface SessionSettings {
  readonly idleMs: number;
  readonly absoluteMs: number;
}

export type SessionStage = 'enrol' | 'full';

export interface Session {
  readonly idHash: string;
  readonly userId: string;
  readonly csrfToken: string;
  readonly stage: SessionStage;
  readonly createdAtMs: number;
}

/** The raw id goes in the cookie and nowhere else. */
export interface NewSession {
  readonly rawId: string;
  readonly csrfToken: string;
  readonly stage: SessionStage;
}

/** Last-seen is written at most this often, so reading pages does not write on every request. */
const TOUCH_EVERY_MS = 10_000;

export const sha256Hex = (text: string): string => crypto.createHash('sha256').update(text).digest('hex');
export const randomToken = (): string => crypto.randomBytes(32).toString('base64url');

export class SessionStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: SessionSettings,
  ) {}

  async create(trx: Executor, userId: string, stage: SessionStage, address: string | null): Promise<NewSession> {
    const rawId = randomToken();
    const csrfToken = randomToken();
    const nowMs = BigInt(this.clock.nowMs());
    // Sessions nobody came back for are removed here, so the table holds only live ones and a few stale.
    await trx
      .deleteFrom('console_sessions')
      .where((eb) => eb.or([eb('last_seen_ms', '<', nowMs - BigInt(this.settings.idleMs)), eb('created_at_ms', '<', nowMs - BigInt(this.settings.absoluteMs))]))
      .execute();
    await trx
      .insertInto('console_sessions')
      .values({ id_hash: sha256Hex(rawId), user_id: userId, csrf_token: csrfToken, stage, created_at_ms: nowMs, last_seen_ms: nowMs, address })
      .execute();
    return { rawId, csrfToken, stage };
  }

  /** The live session of a cookie value, or null (an expired one is deleted on sight). */
  async find(rawId: string): Promise<Session | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(rawId)) return null;
    const idHash = sha256Hex(rawId);
    const row = await this.db.selectFrom('console_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
    if (!row) return null;
    const nowMs = this.clock.nowMs();
    const idle = nowMs - Number(row.last_seen_ms) > this.settings.idleMs;
    const old = nowMs - Number(row.created_at_ms) > this.settings.absoluteMs;
    if (idle || old) {
      await this.db.deleteFrom('console_sessions').where('id_hash', '=', idHash).execute();
      return null;
    }
    if (nowMs - Number(row.last_seen_ms) > TOUCH_EVERY_MS) {
      await this.db.updateTable('console_sessions').set({ last_seen_ms: BigInt(nowMs) }).where('id_hash', '=', idHash).execute();
    }
    return { idHash, userId: row.user_id, csrfToken: row.csrf_token, stage: row.stage as SessionStage, createdAtMs: Number(row.created_at_ms) };
  }

  async promote(trx: Executor, idHash: string): Promise<void> {
    await trx.updateTable('console_sessions').set({ stage: 'full' }).where('id_hash', '=', idHash).execute();
  }

  async end(idHash: string): Promise<void> {
    await this.db.deleteFrom('console_sessions').where('id_hash', '=', idHash).execute();
  }

  /** Every session of the user, on every device. */
  async endAll(trx: Executor, userId: string): Promise<number> {
    const result = await trx.deleteFrom('console_sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async countFor(userId: string): Promise<number> {
    const row = await this.db.selectFrom('console_sessions').select((eb) => eb.fn.countAll<string | number | bigint>().as('n')).where('user_id', '=', userId).executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
