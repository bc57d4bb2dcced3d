// The shape every operator command has; src/cli/main.ts dispatches to them by name.
import os from 'node:os';
import type { Services } from '../services.js';

export interface ParsedArgs {
  readonly positional: readonly string[];
  readonly flags: Readonly<Record<string, string | boolean>>;
}

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

export function flagString(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  return typeof value === 'string' ? value : undefined;
}

export function requireFlag(args: ParsedArgs, name: string): string {
  const value = flagString(args, name);
  if (value === undefined) throw new Error(`missing --${name}`);
  return value;
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
