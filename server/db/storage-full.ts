/**
 * The disk under the database is full (SQLite's SQLITE_FULL, PostgreSQL's 53100 disk_full): the
 * write failed and nothing of it was kept (SQLite rolls the transaction back itself). The API
 * answers 507 STORAGE_FULL, the scheduler retries its claims and results until there is room, and
 * /healthz says "degraded" so the operator learns why (docs/operations.md "Data and backups").
 */
import type { BusyMonitor } from './database-busy.ts';

export class StorageFullError extends Error {
  readonly code = 'STORAGE_FULL';
  constructor(cause: unknown) {
    super('The database storage is full: the write was not saved', { cause });
    this.name = 'StorageFullError';
  }
}

const isStorageFull = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === '53100';
};

/** What both drivers throw for a failed query: a full disk becomes StorageFullError, noted for /healthz. */
export function storageFullOr(err: unknown, monitor: Pick<BusyMonitor, 'lastFullAt'>): unknown {
  if (!isStorageFull(err)) return err;
  monitor.lastFullAt = Date.now();
  return new StorageFullError(err);
}
