// List items answered as JSON text, each record rendered once per content of its row. A merchant that
// polls its newest page gets the same rows again and again; taking each row apart, building its record
// and escaping its strings was about a quarter of the service's CPU on a list call (docs/benchmarks.md,
// session 11). The key names one content of one row: on PostgreSQL the row's ref and version (its
// xmin, new with every update, and its updated_at_ms; reporting/lists.ts), so a row changed in any
// column arrives under another key. Nothing is ever invalidated by hand, and several processes on one
// database cannot disagree. SQLite's rows have no such version; they are rendered as read.
//
// The time enters a record too (a payment's `refundable` turns false at its deadline), so each entry
// keeps the moment until which its text holds, and a later read renders it anew.
import type { KeysetPosition } from './keyset.js';

/** One record's JSON text, where its row sits in the list's order, and until when the text holds. */
export interface RenderedRecord {
  readonly json: string;
  readonly position: KeysetPosition;
  /** The text is this record's at every moment up to this one, inclusive (Infinity: always). */
  readonly stableUntilMs: number;
}

/** How one kind of record is rendered: its text at `nowMs`, the row's position, and how long the text holds. */
export interface RecordRendering<Row> {
  render(row: Row, nowMs: number): string;
  position(row: Row): KeysetPosition;
  stableUntilMs(row: Row, nowMs: number): number;
}

/**
 * 8 Mi characters per kind of record: 8 MiB of ASCII text (16 MiB at most, for text V8 stores two bytes a
 * character), about 7,000 payment records with their keys, the newest pages of 140 merchants.
 */
export const DEFAULT_CACHE_CHARS = 8 * 1024 * 1024;

interface Entry extends RenderedRecord {
  readonly chars: number;
  /** Stored or read since it was last spared: spared once more when its turn to go comes. */
  used: boolean;
}

/**
 * A bounded map of rendered records. Eviction is the clock's second chance rather than strict least
 * recently used: moving an entry to the back of a Map on every read (delete and set) cost about 1 µs a
 * record, 50 µs a page, on the bench machine; a flag costs next to nothing, and an entry stored or read
 * since its last turn is spared once when it is the oldest.
 */
export class RenderedRecords<Row> {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;
  private hitCount = 0;
  private missCount = 0;

  constructor(
    private readonly rendering: RecordRendering<Row>,
    /** The most text (keys and renderings, in UTF-16 code units) kept. */
    private readonly maxChars = DEFAULT_CACHE_CHARS,
  ) {}

  /** A row read as it is, with no key to find it by (SQLite's rows): rendered every time. */
  fresh(row: Row, nowMs: number): RenderedRecord {
    return this.make(row, nowMs);
  }

  /** The record kept under `key`, if it still holds at `nowMs`; undefined on a miss. */
  lookup(key: string, nowMs: number): RenderedRecord | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.missCount += 1;
      return undefined;
    }
    if (nowMs > entry.stableUntilMs) {
      this.entries.delete(key);
      this.chars -= entry.chars;
      this.missCount += 1;
      return undefined;
    }
    entry.used = true;
    this.hitCount += 1;
    return entry;
  }

  /** Renders `row` and keeps it under `key`, which must name exactly this content of the row. */
  store(key: string, row: Row, nowMs: number): RenderedRecord {
    const made = this.make(row, nowMs);
    const chars = key.length + made.json.length;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.chars -= old.chars;
    }
    if (chars > this.maxChars) return made;
    this.entries.set(key, { ...made, chars, used: true });
    this.chars += chars;
    this.evict();
    return made;
  }

  private evict(): void {
    while (this.chars > this.maxChars) {
      const oldest = this.entries.entries().next();
      if (oldest.done === true) return;
      const [key, entry] = oldest.value;
      this.entries.delete(key);
      if (entry.used) {
        entry.used = false;
        this.entries.set(key, entry);
      } else {
        this.chars -= entry.chars;
      }
    }
  }

  /** What the cache holds and how it has served (paygate_list_records_* on /metrics). */
  stats(): { entries: number; chars: number; hits: number; misses: number } {
    return { entries: this.entries.size, chars: this.chars, hits: this.hitCount, misses: this.missCount };
  }

  private make(row: Row, nowMs: number): RenderedRecord {
    const { rendering } = this;
    return { json: rendering.render(row, nowMs), position: rendering.position(row), stableUntilMs: rendering.stableUntilMs(row, nowMs) };
  }
}
