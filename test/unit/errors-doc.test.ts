// docs/errors.md and the code's reasons (src/core/errors.ts) list the same reasons with the same
// HTTP status, so a reason added on one side without the other fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REASON_STATUS } from '../../src/core/errors.js';

/** Every reason of the doc's table with the status its row gives. */
function documentedReasons(): Map<string, number> {
  const text = readFileSync(path.resolve(__dirname, '../../docs/errors.md'), 'utf8');
  const reasons = new Map<string, number>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const status = Number(cells[1]);
    if (!Number.isInteger(status) || status < 400) continue;
    for (const match of cells[2]!.matchAll(/`([A-Z][A-Z_]+)`/g)) reasons.set(match[1]!, status);
  }
  return reasons;
}

describe('docs/errors.md', () => {
  it('documents every reason the code has, and no other', () => {
    expect([...documentedReasons().keys()].sort()).toEqual(Object.keys(REASON_STATUS).sort());
  });

  it('gives each reason the HTTP status the code answers it with', () => {
    for (const [reason, status] of documentedReasons()) {
      expect({ reason, status }).toEqual({ reason, status: REASON_STATUS[reason as keyof typeof REASON_STATUS] });
    }
  });
});
