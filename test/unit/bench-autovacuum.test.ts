// The bench's stand-in for autovacuum (bench/service.ts) does what the daemon would by its default
// thresholds, and nothing where it would not: above all, it never analyzes a table still (nearly)
// empty, which would record it as empty and have every connection plan its prepared statements on it
// as scans of the whole table while a case fills it.
import { describe, expect, it } from 'vitest';
import { autovacuumWork } from '../../bench/service.js';

const table = (reltuples: number, dead: number, inserted: number, modified: number) => ({
  reltuples,
  n_dead_tup: dead,
  n_ins_since_vacuum: inserted,
  n_mod_since_analyze: modified,
});

describe('the bench stand-in for autovacuum', () => {
  it('leaves a new or barely changed table alone', () => {
    expect(autovacuumWork(table(0, 0, 0, 0))).toBeNull();
    expect(autovacuumWork(table(0, 0, 21, 21))).toBeNull();
    expect(autovacuumWork(table(0, 50, 50, 50))).toBeNull();
  });

  it('analyzes past 50 + 10 % changed rows, and vacuums past 50 + 20 % dead or 1,000 + 20 % inserted', () => {
    expect(autovacuumWork(table(0, 0, 51, 51))).toBe('ANALYZE');
    expect(autovacuumWork(table(10_000, 0, 900, 900))).toBeNull();
    expect(autovacuumWork(table(10_000, 0, 1_051, 1_051))).toBe('ANALYZE');
    expect(autovacuumWork(table(10_000, 2_051, 0, 0))).toBe('VACUUM');
    expect(autovacuumWork(table(10_000, 0, 3_001, 3_001))).toBe('VACUUM (ANALYZE)');
    expect(autovacuumWork(table(1_000_000, 200_051, 0, 100_051))).toBe('VACUUM (ANALYZE)');
  });
});
