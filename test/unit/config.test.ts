// The memory setting of the service's start-up (HEAP_GROWTH_PERCENT): its default, its off value and
// its bounds; a wrong value stops the start with a message naming the variable.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('HEAP_GROWTH_PERCENT', () => {
  it('defaults to 100 % and accepts 0 (V8 decides) up to 400', () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(100);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '400' }).heapGrowthPercent).toBe(400);
  });

  it('refuses a value out of range or not a whole number', () => {
    for (const bad of ['-1', '401', '50.5', 'lots']) expect(() => loadConfig({ HEAP_GROWTH_PERCENT: bad })).toThrow(/HEAP_GROWTH_PERCENT/);
  });
});
