// The simulated bank's books on disk, so that a restarted bank still knows the collections it opened
// and the transfers it took, as a real bank would: a sandbox payment made before a restart can be paid
// after it, and a sandbox payout in flight settles and calls back instead of being unknown forever.
//
// One JSON line per record, written each time the record changes; on reading, a reference's last line
// wins. The file is read once at start and rewritten compactly then (and whenever it grows to several
// lines per record). Lines are written without fsync: the books survive the process stopping or
// crashing; a power cut may lose the newest lines, which a sandbox bank may.
import fs from 'node:fs';
import path from 'node:path';

export type BookName = 'collection' | 'payout';

/** A record as a book writes it: plain JSON (amounts as strings), keyed by our transactionRef. */
export interface StoredRecord {
  readonly transactionRef: string;
  readonly [field: string]: unknown;
}

/** An amount the file keeps as a string of digits, read back; null when it is not one. */
export function storedMinor(value: unknown): bigint | null {
  return typeof value === 'string' && /^\d+$/.test(value) ? BigInt(value) : null;
}

export interface StateLine {
  readonly book: BookName;
  readonly record: StoredRecord;
}

/** Lines the file may hold per live record before it is rewritten. */
const LINES_PER_RECORD = 4;
/** ... and at least this many, so a small book is not rewritten over and over. */
const MIN_LINES_BEFORE_REWRITE = 10_000;

function parseLine(text: string): StateLine | null {
  try {
    const line = JSON.parse(text) as Partial<StateLine>;
    if ((line.book === 'collection' || line.book === 'payout') && typeof line.record?.transactionRef === 'string') return line as StateLine;
  } catch {
    // A line cut short by a crash mid-write, the last of the file: nothing was acknowledged for it.
  }
  return null;
}

export class BankStateFile {
  private fd: number;
  private lines: number;

  private constructor(
    private readonly file: string,
    private restored: StateLine[],
  ) {
    this.lines = restored.length;
    this.fd = fs.openSync(file, 'a', 0o600);
  }

  /** The records read at open, once (the books take them; the file keeps no copy in memory). */
  takeRestored(): StateLine[] {
    const lines = this.restored;
    this.restored = [];
    return lines;
  }

  /**
   * Takes the file for this process, or answers null when a live process has it (two in-process banks on
   * one data directory, which docs/simulator.md warns against): that bank then keeps its books in memory
   * only, rather than two of them writing over each other's lines. A lock left by a process that is gone
   * is taken over.
   */
  static claim(file: string): BankStateFile | null {
    const resolved = path.resolve(file);
    if (claimedHere.has(resolved)) return null;
    fs.mkdirSync(path.dirname(resolved), { recursive: true });
    const lock = `${resolved}.lock`;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        fs.writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (holderAlive(lock)) return null;
        fs.rmSync(lock, { force: true });
        continue;
      }
      try {
        const state = BankStateFile.open(resolved);
        claimedHere.add(resolved);
        return state;
      } catch (error) {
        fs.rmSync(lock, { force: true });
        throw error;
      }
    }
    return null;
  }

  /**
   * Reads the books written by an earlier run (each reference's last state, in the order the records
   * were first written) and opens the file for appending; a missing file is an empty bank. The caller
   * restores the books from takeRestored() and then rewrites the file from them.
   */
  private static open(file: string): BankStateFile {
    const latest = new Map<string, StateLine>();
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    for (const raw of text.split('\n')) {
      if (raw === '') continue;
      const line = parseLine(raw);
      if (line !== null) latest.set(`${line.book}:${line.record.transactionRef}`, line);
    }
    return new BankStateFile(file, [...latest.values()]);
  }

  /**
   * Writes a record's new state. `liveRecords` is how many records the books hold now; when the file
   * has grown to several lines each, it is rewritten from `snapshot`.
   */
  write(book: BookName, record: StoredRecord, liveRecords: number, snapshot: () => readonly StateLine[]): void {
    fs.writeSync(this.fd, `${JSON.stringify({ book, record })}\n`);
    this.lines += 1;
    if (this.lines > MIN_LINES_BEFORE_REWRITE && this.lines > LINES_PER_RECORD * liveRecords) this.rewrite(snapshot());
  }

  /** Replaces the file with exactly these lines (written aside, flushed, then renamed over it). */
  rewrite(lines: readonly StateLine[]): void {
    const aside = `${this.file}.${process.pid}.tmp`;
    const fd = fs.openSync(aside, 'w', 0o600);
    try {
      fs.writeSync(fd, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(aside, this.file);
    fs.closeSync(this.fd);
    this.fd = fs.openSync(this.file, 'a', 0o600);
    this.lines = lines.length;
  }

  /** Closes the file and gives back its lock. */
  close(): void {
    fs.closeSync(this.fd);
    fs.rmSync(`${this.file}.lock`, { force: true });
    claimedHere.delete(this.file);
  }
}

/**
 * The pid named in the lock of `file` when that process is running: the bank that keeps the file's
 * books, for a second one to name. Null when none does (or the lock names no pid).
 */
export function stateFileHolder(file: string): number | null {
  const lock = `${path.resolve(file)}.lock`;
  if (!holderAlive(lock)) return null;
  const pid = Number(fs.readFileSync(lock, 'utf8'));
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** State files a bank of this process holds (a lock naming this pid but not listed here is stale: a container restarted as the same pid). */
const claimedHere = new Set<string>();

/**
 * Is the process named in a lock file still running? A lock gone meanwhile is not held; one that does
 * not name a pid counts as held (another program's, perhaps).
 */
function holderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(lock, 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return true;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
