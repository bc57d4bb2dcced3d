// Every command of the operator command line, in the order `--help` prints them; the docs test
// reads the same list, so a command cannot be added without its row in docs/operations.md.
import { merchantCommands } from './merchant-commands.js';
import { approvalCommands } from './approval-commands.js';
import { ledgerCommands } from './ledger-commands.js';
import { webhookCommands } from './webhook-commands.js';
import { payoutCommands } from './payout-commands.js';
import { heldCommands } from './held-commands.js';
import { auditCommands } from './audit-commands.js';
import { connectorCommands } from './connector-commands.js';
import { recordCommands } from './record-commands.js';
import { reconciliationCommands } from './reconciliation-commands.js';
import { userCommands } from './user-commands.js';
import { reportCommands } from './report-commands.js';
import type { CliCommand } from './command.js';

export const CLI_COMMANDS: readonly CliCommand[] = [
  ...merchantCommands,
  ...ledgerCommands,
  ...webhookCommands,
  ...payoutCommands,
  ...heldCommands,
  ...auditCommands,
  ...recordCommands,
  ...reportCommands,
  ...connectorCommands,
  ...approvalCommands,
  ...reconciliationCommands,
  ...userCommands,
];
