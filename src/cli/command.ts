// The shape every operator command has (src/cli/main.ts dispatches to them by name) and the actor
// a command acts as.
import os from 'node:os';
import type { Services } from '../services.js';
import type { ParsedArgs } from './args.js';

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

export interface CliCommand {
  /** Words that select the command, e.g. "merchant create" or "ledger verify". */
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Returns the process exit code. */
  run(args: ParsedArgs, services: Services, io: CliOutput): Promise<number>;
}

/** The actor of every CLI action in the audit log and the journal: the operating-system user who ran it. */
export function cliActor(): string {
  try {
    return `cli:${os.userInfo().username}`;
  } catch {
    // A container may run under a uid with no passwd entry.
    return `cli:uid-${process.getuid?.() ?? 'unknown'}`;
  }
}
