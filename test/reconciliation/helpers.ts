// Shared steps of the reconciliation tests: the simulated bank's statement of today, edited line by
// line the way an upstream's file could differ from our records, and the operator API's answers.
import { DAY_MS, dayOf } from '../../src/core/days.js';
import type { TestServer } from '../helpers/server.js';

export const todayStartMs = (server: TestServer): number => Math.floor(server.clock.nowMs() / DAY_MS) * DAY_MS;
export const today = (server: TestServer): string => dayOf(todayStartMs(server));

/** The simulated bank's statement of today, as it serves it. */
export async function simulatorStatement(server: TestServer): Promise<string> {
  const channel = server.services.channels.simulator.channel;
  if (!channel.fetchStatement) throw new Error('the simulator channel serves no statements');
  const file = await channel.fetchStatement(todayStartMs(server));
  return file.content;
}

type Edit = (fields: string[]) => string[] | null;

/** Applies `edit` to the line whose our_reference (column 2) and type are given; null drops the line. */
export function editLine(csv: string, ourReference: string, type: string, edit: Edit): string {
  let found = false;
  const lines = csv.trimEnd().split('\n').flatMap((line, index) => {
    if (index === 0) return [line];
    const fields = line.split(',');
    if (fields[1] !== ourReference || fields[2] !== type) return [line];
    found = true;
    const edited = edit(fields);
    return edited === null ? [] : [edited.join(',')];
  });
  if (!found) throw new Error(`no ${type} line for ${ourReference} in the statement:\n${csv}`);
  return lines.join('\n') + '\n';
}

export const addLine = (csv: string, line: string): string => csv.trimEnd() + '\n' + line + '\n';

export async function importStatement(server: TestServer, content: string, day = today(server), connector = 'simulator'): Promise<{ status: number; body: any }> {
  return server.admin('POST', '/reconciliation/imports', { connector, day, fileName: `${connector}-${day}.csv`, content });
}

/** Every line of a run (all pages). */
export async function allLines(server: TestServer, runId: string, query = ''): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const page = await server.admin('GET', `/reconciliation/runs/${runId}/lines?limit=200${query}${cursor ? `&cursor=${cursor}` : ''}`);
    if (page.status !== 200) throw new Error(JSON.stringify(page.body));
    items.push(...page.body.data.items);
    cursor = page.body.data.nextCursor;
  } while (cursor);
  return items;
}

export const lineOf = (lines: readonly any[], transactionRef: string, kind = 'payment'): any => {
  const line = lines.find((l) => l.transactionRef === transactionRef && l.kind === kind);
  if (!line) throw new Error(`no ${kind} line for ${transactionRef}`);
  return line;
};
