// Operator commands for webhook events (list, show, resend) and the service's public key.
import type { WebhookEventStatus } from '../webhooks/webhook-rows.js';
import { MAX_EVENT_PAGE, WEBHOOK_EVENT_STATUSES } from '../webhooks/service.js';
import { flagString, requireFlag, type ParsedArgs } from './args.js';
import { cliActor, type CliCommand } from './command.js';

function statusOf(args: ParsedArgs): WebhookEventStatus | undefined {
  const raw = flagString(args, 'status');
  if (raw === undefined) return undefined;
  const status = WEBHOOK_EVENT_STATUSES.find((s) => s === raw);
  if (!status) throw new Error(`--status must be one of ${WEBHOOK_EVENT_STATUSES.join(', ')}`);
  return status;
}

function limitOf(args: ParsedArgs): number | undefined {
  const raw = flagString(args, 'limit');
  if (raw === undefined) return undefined;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENT_PAGE) throw new Error(`--limit must be 1 to ${MAX_EVENT_PAGE}`);
  return limit;
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);

export const webhookCommands: CliCommand[] = [
  {
    name: 'webhook list',
    summary: 'List webhook events, newest first',
    usage: 'webhook list [--merchant ID] [--status pending|delivered|failed|no_destination] [--limit N] [--before EVENT_ID] [--json]',
    async run(args, services, io) {
      const page = await services.webhooks.listEvents(flagString(args, 'merchant') ?? null, {
        status: statusOf(args),
        limit: limitOf(args),
        before: flagString(args, 'before'),
      });
      if (args.flags.json === true) {
        io.out(JSON.stringify(page));
        return 0;
      }
      for (const e of page.events) {
        const when = e.status === 'pending' ? `next ${e.nextAttemptAt}` : (e.deliveredAt ?? e.lastError ?? '');
        io.out(`${e.id}  ${e.merchantId}  ${e.type.padEnd(17)}  ${e.status.padEnd(14)}  attempts ${e.attemptCount}  ${e.createdAt}  ${when}`);
      }
      if (page.nextBefore) io.out(`more: --before ${page.nextBefore}`);
      return 0;
    },
  },
  {
    name: 'webhook show',
    summary: 'Show one webhook event with its body and every delivery attempt',
    usage: 'webhook show --event EVENT_ID',
    async run(args, services, io) {
      io.out(json(await services.webhooks.getEvent(requireFlag(args, 'event'), null)));
      return 0;
    },
  },
  {
    name: 'webhook resend',
    summary: 'Send a webhook event again now, with a fresh retry schedule',
    usage: 'webhook resend --event EVENT_ID',
    async run(args, services, io) {
      const event = await services.webhooks.resend(requireFlag(args, 'event'), null, cliActor());
      io.out(`${event.id} queued for delivery to ${event.url}`);
      return 0;
    },
  },
  {
    name: 'service public-key',
    summary: 'Print the public key (PEM) that verifies the Signature header of every webhook',
    usage: 'service public-key',
    async run(_args, services, io) {
      io.out((await services.webhooks.servicePublicKeyPem()).trimEnd());
      return 0;
    },
  },
];
