// Operator command for the audit log: every operator action with its actor, newest first.
import { AUDIT_PAGE_MAX, listAudit, parseSince } from '../audit/audit-log.js';
import { flagString } from './args.js';
import type { CliCommand } from './command.js';

export const auditCommands: CliCommand[] = [
  {
    name: 'audit list',
    summary: 'List operator actions (who did what to which merchant), newest first',
    usage: 'audit list [--merchant ID] [--action ACTION] [--since ISO_TIME] [--limit N] [--cursor ID] [--json]',
    async run(args, services, io) {
      const rawLimit = flagString(args, 'limit');
      const limit = rawLimit === undefined ? undefined : Number(rawLimit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_PAGE_MAX)) throw new Error(`--limit must be 1 to ${AUDIT_PAGE_MAX}`);
      const since = flagString(args, 'since');
      const page = await listAudit(services.store.db, {
        merchantId: flagString(args, 'merchant'),
        action: flagString(args, 'action'),
        sinceMs: since === undefined ? undefined : parseSince(since),
        limit,
        cursor: flagString(args, 'cursor'),
      });
      if (args.flags.json === true) {
        io.out(JSON.stringify(page));
        return 0;
      }
      for (const e of page.items) io.out(`${e.createdAt}  ${e.actor.padEnd(16)}  ${e.action.padEnd(22)}  ${e.target}  ${JSON.stringify(e.details)}${e.address ? `  from ${e.address}` : ''}`);
      if (page.nextCursor) io.out(`more: --cursor ${page.nextCursor}`);
      return 0;
    },
  },
];
