// The command line's words: positional words and `--flags`, and the typed reads of a flag.
import { isCurrency, type Currency } from '../core/money.js';

export interface ParsedArgs {
  readonly positional: readonly string[];
  readonly flags: Readonly<Record<string, string | boolean>>;
}

/**
 * `--name value`, `--name=value` and bare `--flag` (true). A value may start with a single dash, so
 * `--amount -12.34` works; only a following `--word` makes the flag boolean.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('--')) {
      positional.push(word);
      continue;
    }
    const eq = word.indexOf('=');
    if (eq > 0) {
      flags[word.slice(2, eq)] = word.slice(eq + 1);
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      flags[word.slice(2)] = next;
      i++;
    } else {
      flags[word.slice(2)] = true;
    }
  }
  return { positional, flags };
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

/** `--currency`, any case: one of the service's currencies. */
export function requireCurrencyFlag(args: ParsedArgs): Currency {
  const currency = requireFlag(args, 'currency').toUpperCase();
  if (!isCurrency(currency)) throw new Error('--currency must be INR, EGP, NGN or IDR');
  return currency;
}
