// The operator command line: `npm run cli -- <command> [--flags]`. It opens the same store the
// service uses (same environment) and runs one command.
import { loadConfig } from '../config.js';
import { buildServices } from '../bootstrap.js';
import { AppError } from '../core/errors.js';
import { CLI_COMMANDS as COMMANDS } from './all-commands.js';
import { parseArgs } from './args.js';
import type { CliCommand, CliOutput } from './command.js';

const io: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

function usage(): string {
  return ['Usage: npm run cli -- <command> [options]', '', ...COMMANDS.map((c) => `  ${c.usage}\n      ${c.summary}`)].join('\n');
}

function findCommand(words: readonly string[]): CliCommand | undefined {
  return COMMANDS.find((c) => c.name === words.slice(0, c.name.split(' ').length).join(' '));
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const command = findCommand(args.positional);
  if (!command) {
    io.err(usage());
    return args.positional.length === 0 || args.flags.help === true ? 0 : 2;
  }
  const services = await buildServices(loadConfig());
  try {
    return await command.run(args, services, io);
  } finally {
    await services.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    io.err(`error: ${error instanceof AppError ? error.detail : error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof AppError ? 1 : 2);
  },
);
