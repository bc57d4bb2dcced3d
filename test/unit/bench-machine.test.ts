// The bench's machine note: the no-op route's CPU per request against the contract's reference machine.
import { describe, expect, it } from 'vitest';
import { CONTRACT_NOOP_CPU_US, machineNotes } from '../../bench/report.js';

describe('bench machine note', () => {
  it('gives the factor between this machine and the reference from the no-op measured in the run', () => {
    const [note] = machineNotes(107.4);
    expect(note).toContain('a no-op request costs 107 µs of server CPU here, 4.3 × the 25 µs');
    expect(machineNotes(CONTRACT_NOOP_CPU_US)[0]).toContain('1.0 ×');
  });

  it('says nothing without a measured no-op', () => {
    expect(machineNotes(null)).toEqual([]);
    expect(machineNotes(0)).toEqual([]);
  });
});
