// Keys by the time they fall due, for the simulated bank's timers (collections expiring, transfers
// settling): a binary min-heap, so a sweep costs what falls due plus a logarithm, not a pass over
// every open record. The bench's simulator holds tens of thousands of open collections and swept
// them all ten times a second, on the same two cores as the service it measures.
interface Entry {
  readonly key: string;
  readonly atMs: number;
}

export class DueQueue {
  private readonly heap: Entry[] = [];

  get size(): number {
    return this.heap.length;
  }

  add(key: string, atMs: number): void {
    const heap = this.heap;
    heap.push({ key, atMs });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.atMs <= heap[i]!.atMs) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  /**
   * Removes and answers, earliest first, every key due at `nowMs` or before. A key may be stale (its
   * record settled or forgotten since, or added again with another time): the caller checks.
   */
  takeDue(nowMs: number): string[] {
    const due: string[] = [];
    while (this.heap.length > 0 && this.heap[0]!.atMs <= nowMs) due.push(this.pop().key);
    return due;
  }

  private pop(): Entry {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < heap.length && heap[left]!.atMs < heap[least]!.atMs) least = left;
        if (right < heap.length && heap[right]!.atMs < heap[least]!.atMs) least = right;
        if (least === i) break;
        [heap[least], heap[i]] = [heap[i]!, heap[least]!];
        i = least;
      }
    }
    return top;
  }
}
