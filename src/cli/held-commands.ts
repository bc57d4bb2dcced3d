// Operator commands for held money (late payments kept in suspense): list, return to the payer
// through the channel, or credit to the merchant.
import { HELD_PAGE_MAX, HELD_STATUSES, type HeldMoneyItem, type HeldResolution, type HeldStatus } from '../domain/payments/held-money.js';
import { flagString, requireFlag, type ParsedArgs } from './args.js';
import { cliActor, type CliCommand, type CliOutput } from './command.js';

function statusOf(args: ParsedArgs): HeldStatus | undefined {
  const raw = flagString(args, 'status');
  if (raw === undefined) return undefined;
  const status = HELD_STATUSES.find((s) => s === raw);
  if (!status) throw new Error(`--status must be one of ${HELD_STATUSES.join(', ')}`);
  return status;
}

function limitOf(args: ParsedArgs): number | undefined {
  const raw = flagString(args, 'limit');
  if (raw === undefined) return undefined;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > HELD_PAGE_MAX) throw new Error(`--limit must be 1 to ${HELD_PAGE_MAX}`);
  return limit;
}

function reasonOf(args: ParsedArgs): string {
  const reason = flagString(args, 'reason')?.trim();
  if (!reason) throw new Error('--reason is required: say why the money goes where it goes');
  return reason;
}

const line = (i: HeldMoneyItem): string =>
  `${i.transactionRef}  ${i.merchantId}  ${i.merchantRef}  ${i.currency} ${i.amountHeld} (asked ${i.amountAsked})  ${i.reason}  received ${i.receivedAt}  ${i.status}`;

function printResolution(io: CliOutput, args: ParsedArgs, resolution: HeldResolution): number {
  if (args.flags.json === true) io.out(JSON.stringify(resolution));
  else io.out(`${resolution.replayed ? 'Already ' : ''}${resolution.item.status}: ${line(resolution.item)}`);
  return 0;
}

export const heldCommands: CliCommand[] = [
  {
    name: 'held list',
    summary: 'List late money held for the operator, newest payment first',
    usage: 'held list [--merchant ID] [--status open|returning|returned|credited] [--limit N] [--cursor REF] [--json]',
    async run(args, services, io) {
      const page = await services.payments.held.list({
        merchantId: flagString(args, 'merchant'),
        status: statusOf(args),
        limit: limitOf(args),
        cursor: flagString(args, 'cursor'),
      });
      if (args.flags.json === true) {
        io.out(JSON.stringify(page));
        return 0;
      }
      for (const item of page.items) io.out(line(item));
      if (page.items.length === 0) io.out('no held money');
      if (page.nextCursor) io.out(`more: --cursor ${page.nextCursor}`);
      return 0;
    },
  },
  {
    name: 'held return',
    summary: 'Send held money back to the payer through its channel (refused where the channel cannot)',
    usage: 'held return --ref TRANSACTION_REF --reason "..." [--json]',
    async run(args, services, io) {
      return printResolution(io, args, await services.payments.held.returnToPayer(requireFlag(args, 'ref'), cliActor(), reasonOf(args)));
    },
  },
  {
    name: 'held credit',
    summary: "Credit held money to the merchant as a late payment (the payment's fee applies)",
    usage: 'held credit --ref TRANSACTION_REF --reason "..." [--json]',
    async run(args, services, io) {
      return printResolution(io, args, await services.payments.held.credit(requireFlag(args, 'ref'), cliActor(), reasonOf(args)));
    },
  },
];
