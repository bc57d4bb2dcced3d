// The audit origin follows a call through its awaits, and switching the storage off once no call is
// running (to spare every other request the promise tracking) never takes it from a call still running.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { currentAuditAddress, withAuditOrigin } from '../../src/audit/audit-context.js';

describe('audit origin', () => {
  it('is seen through awaits inside the call and not outside it', async () => {
    expect(currentAuditAddress()).toBeNull();
    const seen = await withAuditOrigin({ address: '203.0.113.7' }, async () => {
      await nextTurn();
      return currentAuditAddress();
    });
    expect(seen).toBe('203.0.113.7');
    expect(currentAuditAddress()).toBeNull();
  });

  it('stays with a call while another one that overlapped it finishes, and comes back for the next call', async () => {
    let releaseLong!: () => void;
    const longGate = new Promise<void>((resolve) => (releaseLong = resolve));
    const long = withAuditOrigin({ address: '198.51.100.1' }, async () => {
      await longGate;
      await nextTurn();
      return currentAuditAddress();
    });
    const short = await withAuditOrigin({ address: '198.51.100.2' }, async () => {
      await nextTurn();
      return currentAuditAddress();
    });
    releaseLong();
    expect(short).toBe('198.51.100.2');
    expect(await long).toBe('198.51.100.1');
    expect(currentAuditAddress()).toBeNull();
    expect(await withAuditOrigin({ address: '192.0.2.9' }, async () => currentAuditAddress())).toBe('192.0.2.9');
  });
});
