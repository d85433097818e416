/**
 * SQLite when another process holds the write lock (a backup, the sqlite3 shell, a second Chime
 * by mistake): better-sqlite3 is synchronous, so SQLite's own busy_timeout would wait inside the
 * event loop and freeze every request, /healthz included. Instead the connection runs with
 * busy_timeout = 0 and this driver waits *between* attempts, asynchronously, with backoff, for
 * at most `maxWaitMs`; then the query fails with DatabaseBusyError, which the API answers as
 * 503 DATABASE_BUSY with Retry-After (the scheduler retries its claim and its writes on its own).
 *
 * Transactions start with BEGIN IMMEDIATE: they take the write lock up front (waiting here as
 * above), so a transaction never fails half-way because another writer committed after it
 * started reading (SQLITE_BUSY_SNAPSHOT, which no retry of one statement can fix).
 */
import { CompiledQuery, SqliteAdapter, SqliteDialect, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import { type BusyMonitor, DatabaseBusyError } from './database-busy.ts';
import { storageFullOr } from './storage-full.ts';

const isBusy = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A wait shorter than this is ordinary: the delivery thread's connection (or another instance's)
 * holds the write lock for a few milliseconds at a time. Only longer waits (a backup, the sqlite3
 * shell) make /healthz say "degraded".
 */
const LONG_WAIT_MS = 200;
/** Retry delays grow to this: a lock held for milliseconds is taken again within about as long. */
const MAX_RETRY_DELAY_MS = 16;

async function withBusyRetry<T>(attempt: () => Promise<T>, maxWaitMs: number, monitor: BusyMonitor): Promise<T> {
  const started = Date.now();
  let delay = 1;
  let counted = false;
  try {
    for (;;) {
      try {
        return await attempt();
      } catch (err) {
        if (!isBusy(err)) throw err;
        const waited = Date.now() - started;
        if (waited >= LONG_WAIT_MS) {
          monitor.lastBusyAt = Date.now();
          if (!counted) {
            counted = true;
            monitor.waiting++;
          }
        }
        if (waited >= maxWaitMs) throw new DatabaseBusyError(`The database is locked by another process (waited ${waited} ms)`);
        await sleep(Math.min(delay, maxWaitMs - waited));
        delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
      }
    }
  } finally {
    if (counted) monitor.waiting--;
  }
}

class BusyRetryingConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly maxWaitMs: number,
    private readonly monitor: BusyMonitor,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await withBusyRetry(async () => this.inner.executeQuery<R>(query), this.maxWaitMs, this.monitor);
    } catch (err) {
      throw storageFullOr(err, this.monitor);
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

const unwrap = (c: DatabaseConnection) => (c instanceof BusyRetryingConnection ? c.inner : c);

class BusyAwareDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly maxWaitMs: number,
    private readonly monitor: BusyMonitor,
  ) {}

  init() {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new BusyRetryingConnection(await this.inner.acquireConnection(), this.maxWaitMs, this.monitor);
  }
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } catch (err) {
      // SQLite rolls back by itself after some errors (a full disk, an I/O error): the caller must
      // see that error, not that there was nothing left to roll back.
      if (!/no transaction is active/.test((err as Error)?.message ?? '')) throw err;
    }
  }
  savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]) {
    return this.inner.savepoint!(connection, name, compile);
  }
  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2]) {
    return this.inner.rollbackToSavepoint!(connection, name, compile);
  }
  releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2]) {
    return this.inner.releaseSavepoint!(connection, name, compile);
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection(unwrap(connection));
  }
  destroy() {
    return this.inner.destroy();
  }
}

/**
 * SQLite's DDL is transactional, but Kysely's SQLite adapter says it is not, so its migrator ran
 * each statement on its own: a process stopped in the middle of a migration (a systemd start
 * timeout during a long table rebuild, a power cut) left a half-built schema that the next start
 * could not migrate. Saying so makes the migrator run the pending migrations and their records in
 * one transaction (BEGIN IMMEDIATE, below): all of them or none. No migration uses what SQLite
 * cannot do in a transaction (VACUUM, PRAGMA foreign_keys or journal_mode).
 */
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Kysely's SQLite dialect with the waiting above, and migrations in a transaction. */
export class BusyAwareSqliteDialect extends SqliteDialect {
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly busy: { maxWaitMs: number; monitor: BusyMonitor },
  ) {
    super(config);
  }
  override createDriver(): Driver {
    return new BusyAwareDriver(super.createDriver(), this.busy.maxWaitMs, this.busy.monitor);
  }
  override createAdapter(): SqliteAdapter {
    return new TransactionalSqliteAdapter();
  }
}
