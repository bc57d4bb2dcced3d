// Operator commands to look at any merchant's payment or payout, with the connector that serves it
// and its reference there.
import { requireFlag } from './args.js';
import type { CliCommand } from './command.js';

export const recordCommands: CliCommand[] = [
  {
    name: 'payment show',
    summary: "Show any merchant's payment with its connector, upstream reference and collection state",
    usage: 'payment show --ref TRANSACTION_REF [--json]',
    async run(args, services, io) {
      const view = await services.payments.operatorGet(requireFlag(args, 'ref'));
      if (args.flags.json === true) io.out(JSON.stringify(view));
      else
        io.out(
          `${view.transactionRef}  ${view.merchantId}  ${view.currency} ${view.method} ${view.amount}  ${view.status}${view.failureReason ? ` (${view.failureReason})` : ''}  via ${view.channel} ${view.upstreamRef ?? '(no upstream ref yet)'}  collection ${view.collectionState}`,
        );
      return 0;
    },
  },
  {
    name: 'payout show',
    summary: "Show any merchant's payout with its connector, fallbacks, upstream reference and attempts",
    usage: 'payout show --ref TRANSACTION_REF [--json]',
    async run(args, services, io) {
      const view = await services.payouts.operatorGet(requireFlag(args, 'ref'));
      if (args.flags.json === true) io.out(JSON.stringify(view));
      else
        io.out(
          `${view.transactionRef}  ${view.merchantId}  ${view.currency} ${view.method} ${view.amount}  ${view.status}${view.failureReason ? ` (${view.failureReason})` : ''}  via ${view.channel}${view.fallbackChannels.length > 0 ? ` (then ${view.fallbackChannels.join(', ')})` : ''} ${view.upstreamRef ?? '(no upstream ref yet)'}  submits ${view.submitAttempts}, queries ${view.queryAttempts}`,
        );
      return 0;
    },
  },
];
