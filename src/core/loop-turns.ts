// Long runs of reads on SQLite hold the event loop: better-sqlite3 answers at once, so awaiting it gives
// other requests no turn. A run that may read a lot (the first settlements of old days, the first
// /metrics scrape of an hour) asks this, between reads, whether it has held the loop long enough to
// give it a turn.
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

export class LoopTurns {
  private heldSince = performance.now();

  /** `afterMs`: how long the run may hold the loop between two turns (0: a turn at every call). */
  constructor(private readonly afterMs: number) {}

  /** Gives the event loop a turn if the run has held it `afterMs` since it began or since its last turn. */
  async maybeYield(): Promise<void> {
    if (performance.now() - this.heldSince < this.afterMs) return;
    await nextTurn();
    this.heldSince = performance.now();
  }
}
