// docs/operations.md lists every CLI command with exactly the flags the CLI's own usage line gives,
// so a flag added to (or dropped from) a command without the docs fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_COMMANDS as COMMANDS } from '../../src/cli/all-commands.js';

/** The first cell of each row of the operator tools table, as the usage text it shows. */
function documentedUsages(): string[] {
  const text = readFileSync(path.resolve(__dirname, '../../docs/operations.md'), 'utf8');
  const section = text.slice(text.indexOf('## Operator tools'), text.indexOf('\n## ', text.indexOf('## Operator tools') + 1));
  return section
    .split('\n')
    .map((line) => /^\| `((?:[^`])+)` \|/.exec(line)?.[1])
    .filter((usage): usage is string => usage !== undefined)
    .map((usage) => usage.replace(/\\\|/g, '|'));
}

describe('docs/operations.md', () => {
  it('shows every CLI command with the usage line the CLI prints, and no command the CLI lacks', () => {
    const documented = documentedUsages();
    expect(documented.sort()).toEqual(COMMANDS.map((command) => command.usage).sort());
  });
});
