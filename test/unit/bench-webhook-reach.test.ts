// The bench's webhook arithmetic: whether the machine's cores could carry the delivery target at all.
import { describe, expect, it } from 'vitest';
import { webhookReach } from '../../bench/webhook-reach.js';

describe('bench webhook reach', () => {
  it('calls the target out of reach when its CPU per second exceeds the cores', () => {
    // 2,000/s × (1,480 + 240) µs = 3.44 core-seconds per second on 2 cores.
    const [note] = webhookReach({ targetPerSecond: 2000, cores: 2, serviceUs: 1480, receiverUs: 240, postgresUs: 0, signUs: 800 });
    expect(note).toContain('2,000/s spend 1.60 cores on signing alone');
    expect(note).toContain("the rest of the service's work (680 µs)");
    expect(note).toContain('they need 3.44 of the machine\'s 2 cores: out of reach here');
    expect(note).toContain('at most 1,163 deliveries/s');
    expect(note).not.toContain('PostgreSQL');
  });

  it('says the CPU suffices when it does, counting PostgreSQL', () => {
    const [note] = webhookReach({ targetPerSecond: 2000, cores: 2, serviceUs: 560, receiverUs: 100, postgresUs: 90, signUs: 310 });
    expect(note).toContain("PostgreSQL's (90 µs)");
    expect(note).toContain("need 1.50 of the machine's 2 cores: within the machine's CPU (2,667 deliveries/s with every core busy)");
  });
});
