// Where an audited action came from. The console (and any entry point that knows its caller's
// address) runs a request inside `withAuditOrigin`; recordAudit reads it there, so the services that
// write the audit rows keep their signatures and every row of the request carries the same address.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface AuditOrigin {
  /** The client address as the HTTP layer resolved it (X-Forwarded-For only from trusted proxies). */
  readonly address: string | null;
}

const storage = new AsyncLocalStorage<AuditOrigin>();
/** Calls of withAuditOrigin not yet settled. */
let running = 0;

/**
 * Runs `work` with `origin` as the audit origin of everything it awaits. While any such call runs,
 * Node 20 tracks every promise of the process for the storage (about a tenth of a microsecond each,
 * several microseconds per signed request, which never sets an origin); once the last one has
 * settled the storage is switched off again, and the next call switches it back on.
 */
export async function withAuditOrigin<T>(origin: AuditOrigin, work: () => Promise<T>): Promise<T> {
  running += 1;
  try {
    return await storage.run(origin, work);
  } finally {
    running -= 1;
    if (running === 0) storage.disable();
  }
}

/** The address of the action being recorded, or null outside any request that set one (CLI, jobs). */
export function currentAuditAddress(): string | null {
  return storage.getStore()?.address ?? null;
}
