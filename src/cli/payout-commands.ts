// Operator commands for payouts: list those stuck in Processing, and query one at the upstream now.
import { DEFAULT_STUCK_AFTER_SECONDS } from '../domain/payouts/payout-limits.js';
import { flagString, requireFlag } from './args.js';
import type { CliCommand } from './command.js';

export const payoutCommands: CliCommand[] = [
  {
    name: 'payout stuck',
    summary: 'List payouts in Processing unchanged for longer than a threshold (default 15 minutes)',
    usage: 'payout stuck [--older-than-seconds N] [--json]',
    async run(args, services, io) {
      const raw = flagString(args, 'older-than-seconds');
      const seconds = raw === undefined ? DEFAULT_STUCK_AFTER_SECONDS : Number(raw);
      if (!Number.isSafeInteger(seconds) || seconds < 0) throw new Error('--older-than-seconds must be a whole number >= 0');
      const payouts = await services.payouts.stuck(seconds);
      if (args.flags.json === true) {
        io.out(JSON.stringify({ payouts }));
        return 0;
      }
      for (const p of payouts) {
        io.out(`${p.transactionRef}  ${p.merchantId}  ${p.currency} ${p.amount}  ${p.status}  ${p.ageSeconds}s  queries ${p.queryAttempts}  next ${p.nextActionAt ?? '-'}`);
      }
      if (payouts.length === 0) io.out('no stuck payouts');
      return 0;
    },
  },
  {
    name: 'payout query',
    summary: 'Ask the upstream about a payout now and apply its answer (never resubmits)',
    usage: 'payout query --ref TRANSACTION_REF',
    async run(args, services, io) {
      io.out(JSON.stringify(await services.payouts.forceQuery(requireFlag(args, 'ref')), null, 2));
      return 0;
    },
  },
];
