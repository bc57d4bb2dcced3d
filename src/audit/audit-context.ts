// Where an audited action came from. The console (and any entry point that knows its caller's
// address) runs a request inside `withAuditOrigin`; recordAudit reads it there, so the services that
// write the audit rows keep their signatures and every row of the request carries the same address.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface AuditOrigin {
  /** The client address as the HTTP layer resolved it (X-Forwarded-For only from trusted proxies). */
  readonly address: string | null;
}

const storage = new AsyncLocalStorage<AuditOrigin>();

export function withAuditOrigin<T>(origin: AuditOrigin, work: () => Promise<T>): Promise<T> {
  return storage.run(origin, work);
}

/** The address of the action being recorded, or null outside any request that set one (CLI, jobs). */
export function currentAuditAddress(): string | null {
  return storage.getStore()?.address ?? null;
}
