// The bench's latency slices (bench/latency-slices.ts): a window's answers by the 100 ms in which
// they arrived, and the note that tells a tail set by the rate from one made by a few stalls.
import { describe, expect, it } from 'vitest';
import { SLICE_MS, SliceRecorder, slicesNote } from '../../bench/latency-slices.js';

/** A window of `slices` slices, each with `perSlice` answers of `latencyMs(i)`. */
function windowOf(slices: number, perSlice: number, latencyMs: (slice: number) => number): SliceRecorder {
  const recorder = new SliceRecorder();
  for (let i = 0; i < slices; i++) for (let k = 0; k < perSlice; k++) recorder.record(i * SLICE_MS + (k * SLICE_MS) / perSlice, latencyMs(i));
  return recorder;
}

describe('bench latency slices', () => {
  it('counts, averages and keeps the maximum of each slice, skipping slices without answers', () => {
    const recorder = new SliceRecorder();
    recorder.record(5, 10);
    recorder.record(99.9, 30);
    recorder.record(250, 7);
    expect(recorder.slices()).toEqual([
      { startMs: 0, answers: 2, meanMs: 20, maxMs: 30 },
      { startMs: 200, answers: 1, meanMs: 7, maxMs: 7 },
    ]);
  });

  it('says the slow answers were spread across the window when most slices had one over the target', () => {
    const note = slicesNote(windowOf(50, 20, (i) => (i % 4 === 0 ? 9 : 12)).slices(), 10)!;
    expect(note).toContain('37 of 50 slices had an answer over 10 ms (spread across the window)');
  });

  it('says a few stretches made it when the rest of the window met the target, and names the slowest slice', () => {
    const note = slicesNote(windowOf(50, 20, (i) => (i === 31 ? 60 : i === 7 ? 25 : 4)).slices(), 10)!;
    expect(note).toContain('2 of 50 slices had an answer over 10 ms (in a few stretches, while the rest of the window met it)');
    expect(note).toContain('slowest slice 3.1 s into the window: 20 answers, mean 60.0, max 60.0 ms');
    expect(note).toContain('slice means 4.0 (p10) / 4.0 (median) / 4.0 (p90) ms');
  });

  it('says nothing of a window without answers', () => {
    expect(slicesNote([], 10)).toBeNull();
  });
});
