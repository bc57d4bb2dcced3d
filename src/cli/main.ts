// The operator command line: `npm run cli -- <command> [--flags]`. It opens the same store the
// service uses (same environment) and runs one command.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { buildServices } from '../bootstrap.js';
import { AppError } from '../domain/errors.js';
import { merchantCommands } from './merchant-commands.js';
import type { CliCommand, CliOutput, ParsedArgs } from './types.js';

const COMMANDS: readonly CliCommand[] = [...merchantCommands];

const io: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

function usage(): string {
  return ['Usage: npm run cli -- <command> [options]', '', ...COMMANDS.map((c) => `  ${c.usage}\n      ${c.summary}`)].join('\n');
}

function parse(argv: string[]): ParsedArgs {
  const { positionals, values } = parseArgs({ args: argv, strict: false, allowPositionals: true });
  const flags: Record<string, string | boolean> = {};
  for (const [name, value] of Object.entries(values)) if (typeof value === 'string' || typeof value === 'boolean') flags[name] = value;
  return { positional: positionals, flags };
}

function findCommand(words: readonly string[]): CliCommand | undefined {
  return COMMANDS.find((c) => c.name === words.slice(0, c.name.split(' ').length).join(' '));
}

async function main(): Promise<number> {
  const args = parse(process.argv.slice(2));
  const command = findCommand(args.positional);
  if (!command) {
    io.err(usage());
    return args.positional.length === 0 || args.flags.help === true ? 0 : 2;
  }
  const services = await buildServices(loadConfig());
  try {
    return await command.run(args, services, io);
  } finally {
    await services.store.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    io.err(`error: ${error instanceof AppError ? error.detail : error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof AppError ? 1 : 2);
  },
);
