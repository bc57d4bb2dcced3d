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
 * 8 Mi characters per kind of record, entries' overhead included (ENTRY_OVERHEAD_CHARS): about 14,000
 * payment records of some 560 characters with their keys, the newest pages of 280 merchants. Kept flat
 * (below), ASCII text takes about a byte a character on V8's heap, so about 9 MiB per list.
 */
export const DEFAULT_CACHE_CHARS = 8 * 1024 * 1024;

/** What an entry costs besides its key and text (the Map's slot, the entry and its position), in characters. */
export const ENTRY_OVERHEAD_CHARS = 256;

interface Entry extends RenderedRecord {
  readonly chars: number;
  /** Stored or read since the clock hand last passed it: spared (the flag cleared) when it passes. */
  used: boolean;
}

/**
 * fast-json-stringify builds its text by concatenation, which V8 keeps as a tree of the pieces: 4.2 bytes
 * of heap a character for a kept payment record, against 1.1 flat. Converting a string to a number
 * flattens it where it is (V8), and the text is unchanged.
 */
function flat(text: string): string {
  void ((text as unknown as number) | 0);
  return text;
}

/**
 * A bounded map of rendered records, evicted by the clock algorithm (second chance): a hand goes round
 * the entries in the order they were stored; one used since the hand last passed it is spared and its
 * flag cleared, the first one unused goes. Reads only set a flag (moving an entry to the back of the Map
 * on each read cost about 1 µs a record), and the hand is one live iterator of the Map, so an eviction
 * never walks again over the slots it emptied.
 */
export class RenderedRecords<Row> {
  private readonly entries = new Map<string, Entry>();
  private hand: Iterator<[string, Entry]> | null = null;
  private chars = 0;
  private hitCount = 0;
  private missCount = 0;

  constructor(
    private readonly rendering: RecordRendering<Row>,
    /** The most text (keys and renderings, in UTF-16 code units, and ENTRY_OVERHEAD_CHARS each) kept. */
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
    const chars = key.length + made.json.length + ENTRY_OVERHEAD_CHARS;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.chars -= old.chars;
    }
    if (chars > this.maxChars) return made;
    this.entries.set(key, { ...made, json: flat(made.json), chars, used: true });
    this.chars += chars;
    this.evict();
    return made;
  }

  /** Turns the hand until the kept text is within bounds. Ends: each step clears a flag or removes an entry. */
  private evict(): void {
    while (this.chars > this.maxChars) {
      let next = this.hand?.next();
      if (next === undefined || next.done === true) {
        this.hand = this.entries.entries();
        next = this.hand.next();
        if (next.done === true) return;
      }
      const [key, entry] = next.value;
      if (entry.used) {
        entry.used = false;
      } else {
        this.entries.delete(key);
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
