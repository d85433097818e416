/**
 * What both database engines say when they cannot serve a query now (SQLite: sqlite-busy.ts,
 * PostgreSQL: postgres.ts), and what /healthz reads of it.
 */

/**
 * The database cannot serve the query now; trying again later is the answer. SQLite's write lock is
 * held by another process (nothing was written), or PostgreSQL cannot be reached or dropped the
 * connection mid-query (restart, failover), which rolls back the transaction it ran in. The API
 * answers 503 DATABASE_BUSY with Retry-After. The message is for the operator's log.
 */
export class DatabaseBusyError extends Error {
  readonly code = 'DATABASE_BUSY';
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseBusyError';
  }
}

/** What /healthz reads to say "degraded". */
export interface BusyMonitor {
  /** When a query last found the database locked (ms since epoch), 0 if never. */
  lastBusyAt: number;
  /** Queries waiting for the lock right now. */
  waiting: number;
  /** When a write last failed because the disk is full (ms since epoch), 0 if never. */
  lastFullAt: number;
}
