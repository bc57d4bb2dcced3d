// Where another process on this host (the operator CLI) finds the simulator a running service
// started in-process: DATA_DIR/simulator.json (mode 0600), written at start and removed at close.
import fs from 'node:fs';
import path from 'node:path';

export interface PublishedSimulator {
  readonly url: string;
  readonly apiKey: string;
  /** The service process that runs it, for the operator's messages. */
  readonly pid: number;
}

export const publishedSimulatorFile = (dataDir: string): string => path.join(dataDir, 'simulator.json');

/** Replaces the record atomically, so a reader sees the old record or the new one, never half of one. */
export function publishSimulator(dataDir: string, record: PublishedSimulator): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = publishedSimulatorFile(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(record), { mode: 0o600 });
  fs.renameSync(temporary, file);
}

/** Removes the record if it still names this simulator (another service may have replaced it). */
export function withdrawSimulator(dataDir: string, url: string): void {
  if (readPublishedSimulator(dataDir)?.url === url) fs.rmSync(publishedSimulatorFile(dataDir), { force: true });
}

/** The record, or null when no service published one (or it is unreadable). */
export function readPublishedSimulator(dataDir: string): PublishedSimulator | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(publishedSimulatorFile(dataDir), 'utf8'));
  } catch {
    return null;
  }
  const record = parsed as Partial<PublishedSimulator> | null;
  if (typeof record?.url !== 'string' || typeof record.apiKey !== 'string' || typeof record.pid !== 'number') return null;
  return { url: record.url, apiKey: record.apiKey, pid: record.pid };
}
