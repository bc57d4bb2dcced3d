// A merchant's own team, as its owner manages it from the console: change a member's role, remove a
// member (disabled, every session ended: the row stays so the audit log keeps naming them). Always
// scoped to one merchant, so an owner can never reach another merchant's users. A merchant keeps at
// least one active owner: neither action may take away the last one.
import { recordAudit } from '../audit/audit-log.js';
import type { Clock } from '../core/clock.js';
import { AppError, notFound, validationError } from '../core/errors.js';
import type { Db, Executor } from '../store/schema.js';
import { withTransaction } from '../store/transactions.js';
import { isMerchantRole, type MerchantRole } from './roles.js';
import { userOf, type ConsoleUser } from './users.js';

async function memberOf(trx: Executor, merchantId: string, userId: string): Promise<ConsoleUser> {
  const row = await trx
    .selectFrom('console_users')
    .selectAll()
    .where('id', '=', userId)
    .where('merchant_id', '=', merchantId)
    .where('kind', '=', 'merchant')
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (!row) throw notFound('team member');
  return userOf(row);
}

async function otherOwners(trx: Executor, merchantId: string, userId: string): Promise<number> {
  const rows = await trx
    .selectFrom('console_users')
    .select('id')
    .where('merchant_id', '=', merchantId)
    .where('role', '=', 'owner')
    .where('status', '=', 'active')
    .where('id', '!=', userId)
    .limit(1)
    .execute();
  return rows.length;
}

export class TeamService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async changeRole(merchantId: string, userId: string, role: string, actor: string): Promise<ConsoleUser> {
    if (!isMerchantRole(role)) throw validationError('role', 'must be owner, developer or viewer');
    return withTransaction(this.db, async (trx) => {
      const member = await memberOf(trx, merchantId, userId);
      if (member.role === role) return member;
      if (member.role === 'owner' && (await otherOwners(trx, merchantId, userId)) === 0) {
        throw new AppError('CONFLICT', 'The merchant needs an owner: make someone else owner first.', [{ field: 'role', problem: 'cannot take away the last owner' }]);
      }
      await trx.updateTable('console_users').set({ role }).where('id', '=', userId).execute();
      await recordAudit(trx, { actor, action: 'console_user.role', target: userId, merchantId, details: { email: member.email, from: member.role, to: role }, nowMs: this.clock.nowMs() });
      return { ...member, role: role as MerchantRole };
    });
  }

  async remove(merchantId: string, userId: string, actor: string): Promise<void> {
    await withTransaction(this.db, async (trx) => {
      const member = await memberOf(trx, merchantId, userId);
      if (member.role === 'owner' && (await otherOwners(trx, merchantId, userId)) === 0) {
        throw new AppError('CONFLICT', 'The merchant needs an owner: make someone else owner first.', [{ field: '_form', problem: 'cannot remove the last owner' }]);
      }
      await trx.updateTable('console_users').set({ status: 'disabled' }).where('id', '=', userId).execute();
      await trx.deleteFrom('console_sessions').where('user_id', '=', userId).execute();
      await recordAudit(trx, { actor, action: 'console_user.remove', target: userId, merchantId, details: { email: member.email, role: member.role }, nowMs: this.clock.nowMs() });
    });
  }
}
