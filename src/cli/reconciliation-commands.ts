// Operator commands for reconciliation (docs/reconciliation.md): import an upstream's statement file,
// fetch a day from a connector's statement API, list runs and their lines, resolve a line with a reason.
import fs from 'node:fs';
import path from 'node:path';
import { dayStartOf } from '../core/days.js';
import { RECONCILIATION_OUTCOMES, type ReconciliationOutcome } from '../reconciliation/reconciliation-rows.js';
import { RECON_PAGE_MAX, type ImportResult } from '../reconciliation/service.js';
import type { ReconciliationLineView, ReconciliationRunView } from '../reconciliation/views.js';
import { flagString, requireFlag, type ParsedArgs } from './args.js';
import { cliActor, type CliCommand, type CliOutput } from './command.js';

function limitOf(args: ParsedArgs): number | undefined {
  const raw = flagString(args, 'limit');
  if (raw === undefined) return undefined;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > RECON_PAGE_MAX) throw new Error(`--limit must be 1 to ${RECON_PAGE_MAX}`);
  return limit;
}

function outcomeOf(args: ParsedArgs): ReconciliationOutcome | undefined {
  const raw = flagString(args, 'outcome');
  if (raw === undefined) return undefined;
  const outcome = RECONCILIATION_OUTCOMES.find((o) => o === raw);
  if (!outcome) throw new Error(`--outcome must be one of ${RECONCILIATION_OUTCOMES.join(', ')}`);
  return outcome;
}

/** --day, else the first YYYY-MM-DD in the file's name. */
function dayOf(args: ParsedArgs, file: string): string {
  const day = flagString(args, 'day') ?? /\d{4}-\d{2}-\d{2}/.exec(path.basename(file))?.[0];
  if (day === undefined || dayStartOf(day) === null) throw new Error("--day YYYY-MM-DD is required when the file's name carries no day");
  return day;
}

const counts = (run: ReconciliationRunView): string =>
  RECONCILIATION_OUTCOMES.map((o) => `${o} ${run.counts[o]}`).join(', ') + `; unresolved ${run.unresolved}`;

const runLine = (run: ReconciliationRunView): string =>
  `${run.id}  ${run.connector}  ${run.day}  ${run.source} by ${run.actor} at ${run.importedAt}  ${run.fileName}  ${run.lines} lines: ${counts(run)}`;

const side = (s: ReconciliationLineView['theirs'] | ReconciliationLineView['ours']): string => (s === null ? '-' : `${s.currency} ${s.amountMinor} ${s.status}`);

const lineLine = (line: ReconciliationLineView): string =>
  `${line.id}  ${line.outcome}  ${line.kind}  line ${line.lineNumber ?? '-'}  theirs ${line.upstreamRef ?? '-'} ${side(line.theirs)}  ours ${line.transactionRef ?? '-'} ${side(line.ours)}` +
  (line.resolvedAt ? `  resolved by ${line.resolvedBy} at ${line.resolvedAt}: ${line.reason}` : '');

function printImport(io: CliOutput, args: ParsedArgs, result: ImportResult): number {
  if (args.flags.json === true) io.out(JSON.stringify(result));
  else io.out(`${result.replayed ? 'Imported before: ' : ''}${runLine(result.run)}`);
  return 0;
}

export const reconciliationCommands: CliCommand[] = [
  {
    name: 'recon import',
    summary: "Import an upstream's statement file of one day and compare it with our records (the same file again answers the earlier run)",
    usage: 'recon import --connector NAME --file FILE [--day YYYY-MM-DD] [--json]',
    async run(args, services, io) {
      const file = requireFlag(args, 'file');
      const content = fs.readFileSync(file, 'utf8');
      const result = await services.reconciliation.importStatement({ connector: requireFlag(args, 'connector'), day: dayOf(args, file), fileName: path.basename(file), content, actor: cliActor() });
      return printImport(io, args, result);
    },
  },
  {
    name: 'recon fetch',
    summary: "Fetch a day's statement from a connector's statement API and compare it (once per connector and day)",
    usage: 'recon fetch --connector NAME --day YYYY-MM-DD [--json]',
    async run(args, services, io) {
      const day = requireFlag(args, 'day');
      const startMs = dayStartOf(day);
      if (startMs === null) throw new Error('--day must be YYYY-MM-DD');
      return printImport(io, args, await services.reconciliation.fetchDay(requireFlag(args, 'connector'), startMs, cliActor()));
    },
  },
  {
    name: 'recon runs',
    summary: 'List reconciliation runs, newest first, with their counts per outcome',
    usage: 'recon runs [--connector NAME] [--limit N] [--cursor ID] [--json]',
    async run(args, services, io) {
      const page = await services.reconciliation.listRuns({ connector: flagString(args, 'connector'), limit: limitOf(args), cursor: flagString(args, 'cursor') });
      if (args.flags.json === true) {
        io.out(JSON.stringify(page));
        return 0;
      }
      for (const run of page.items) io.out(runLine(run));
      if (page.items.length === 0) io.out('no reconciliation runs');
      if (page.nextCursor) io.out(`more: --cursor ${page.nextCursor}`);
      return 0;
    },
  },
  {
    name: 'recon lines',
    summary: "List a run's lines; --unresolved: only those still waiting for a resolution",
    usage: 'recon lines --run ID [--unresolved] [--outcome OUTCOME] [--limit N] [--cursor ID] [--json]',
    async run(args, services, io) {
      const page = await services.reconciliation.listLines(requireFlag(args, 'run'), {
        unresolved: args.flags.unresolved === true,
        outcome: outcomeOf(args),
        limit: limitOf(args),
        cursor: flagString(args, 'cursor'),
      });
      if (args.flags.json === true) {
        io.out(JSON.stringify(page));
        return 0;
      }
      for (const line of page.items) io.out(lineLine(line));
      if (page.items.length === 0) io.out('no lines');
      if (page.nextCursor) io.out(`more: --cursor ${page.nextCursor}`);
      return 0;
    },
  },
  {
    name: 'recon resolve',
    summary: 'Resolve a line that did not match, with the reason (audited)',
    usage: 'recon resolve --line ID --reason "..." [--json]',
    async run(args, services, io) {
      const reason = flagString(args, 'reason')?.trim();
      if (!reason) throw new Error('--reason is required: say why the difference is settled');
      const result = await services.reconciliation.resolveLine(requireFlag(args, 'line'), cliActor(), reason);
      if (args.flags.json === true) io.out(JSON.stringify(result));
      else io.out(`${result.replayed ? 'Already resolved: ' : 'Resolved: '}${lineLine(result.line)}`);
      return 0;
    },
  },
];
