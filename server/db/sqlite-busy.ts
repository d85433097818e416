/**
 * SQLite when another process holds the write lock (a backup, the sqlite3 shell, a second Chime
 * by mistake): better-sqlite3 is synchronous, so SQLite's own busy_timeout would wait inside the
 * event loop and freeze every request, /healthz included. Instead the connection runs with
 * busy_timeout = 0 and this driver waits *between* attempts, asynchronously, with backoff. Each
 * query or transaction waits at most `maxWaitMs`, however many others wait with it, counted from
 * the moment it asked for the database (for an API request, from the request's arrival:
 * wait-budget.ts); then it fails with DatabaseBusyError, which the API answers as
 * 503 DATABASE_BUSY with Retry-After (the scheduler retries its claim and its writes on its own).
 *
 * There is one connection. A statement has it for one attempt and a transaction from BEGIN to its
 * end; nobody keeps it while sleeping between attempts. So writes waiting for a foreign lock do not
 * queue behind each other, and reads (which WAL serves while another process writes) do not queue
 * behind them.
 *
 * Transactions start with BEGIN IMMEDIATE: they take the write lock up front (waiting here as
 * above), so a transaction never fails half-way because another writer committed after it
 * started reading (SQLITE_BUSY_SNAPSHOT, which no retry of one statement can fix).
 */
import { CompiledQuery, SqliteAdapter, SqliteDialect, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import { type BusyMonitor, DatabaseBusyError } from './database-busy.ts';
import { storageFullOr } from './storage-full.ts';
import { arrivalOfCurrentWork } from './wait-budget.ts';

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
/**
 * Past LONG_WAIT_MS (a backup, a shell) they grow to this: with many requests waiting, each retry
 * costs CPU the answers need, and a lock held that long is rarely given back within milliseconds.
 */
const MAX_LONG_RETRY_DELAY_MS = 64;

/** Who uses the one connection now: one statement, or one transaction from BEGIN to its end. First come, first served. */
class ConnectionTurn {
  #taken = false;
  readonly #queue: Array<() => void> = [];

  take(): Promise<void> {
    if (!this.#taken) {
      this.#taken = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  give(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#taken = false;
  }
}

/**
 * What Kysely holds for one query, or one transaction, in place of the connection itself: from
 * when its wait is bounded, and whether it has the connection (inside a transaction).
 */
class Lease implements DatabaseConnection {
  /** performance.now() from which its wait is bounded: when it asked, or when the work it serves arrived (wait-budget.ts). */
  readonly waitCountsFrom = Math.min(performance.now(), arrivalOfCurrentWork() ?? Infinity);
  /** From a successful BEGIN IMMEDIATE to the lease's release, the connection's turn is this lease's. */
  inTransaction = false;

  constructor(private readonly driver: BusyAwareDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.executeQuery<R>(this, query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.driver.streamQuery<R>(this, query, chunkSize);
  }
}

/**
 * Kysely's SQLite driver runs the statements; this one decides when. It takes Kysely's single
 * connection once, for its whole life, and hands it out in turns (ConnectionTurn) to leases.
 */
class BusyAwareDriver implements Driver {
  #connection: DatabaseConnection | undefined;
  readonly #turn = new ConnectionTurn();

  constructor(
    private readonly inner: Driver,
    private readonly maxWaitMs: number,
    private readonly monitor: BusyMonitor,
  ) {}

  async init() {
    await this.inner.init();
    this.#connection = await this.inner.acquireConnection();
  }

  get #sqlite(): DatabaseConnection {
    if (!this.#connection) throw new Error('The SQLite driver is not initialised');
    return this.#connection;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this);
  }

  /** Runs `attempt` until the lock is free, until maxWaitMs after the lease's wait began. */
  async #whenUnlocked<T>(lease: Lease, attempt: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const deadline = lease.waitCountsFrom + this.maxWaitMs;
    let delay = 1;
    let counted = false;
    try {
      for (;;) {
        try {
          return await attempt();
        } catch (err) {
          if (!isBusy(err)) throw err;
          const now = performance.now();
          if (now - started >= LONG_WAIT_MS) {
            this.monitor.lastBusyAt = Date.now();
            if (!counted) {
              counted = true;
              this.monitor.waiting++;
            }
          }
          if (now >= deadline) throw new DatabaseBusyError(`The database is locked by another process (waited ${Math.round(now - started)} ms)`);
          await sleep(Math.min(delay, deadline - now));
          delay = Math.min(delay * 2, counted ? MAX_LONG_RETRY_DELAY_MS : MAX_RETRY_DELAY_MS);
        }
      }
    } catch (err) {
      throw storageFullOr(err, this.monitor);
    } finally {
      if (counted) this.monitor.waiting--;
    }
  }

  /** One attempt with the connection to itself, given back at once (also between retries). */
  async #inTurn<T>(run: () => Promise<T>): Promise<T> {
    await this.#turn.take();
    try {
      return await run();
    } finally {
      this.#turn.give();
    }
  }

  executeQuery<R>(lease: Lease, query: CompiledQuery): Promise<QueryResult<R>> {
    const run = () => this.#sqlite.executeQuery<R>(query);
    return this.#whenUnlocked(lease, lease.inTransaction ? run : () => this.#inTurn(run));
  }

  async *streamQuery<R>(lease: Lease, query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (lease.inTransaction) return yield* this.#sqlite.streamQuery<R>(query, chunkSize);
    await this.#turn.take();
    try {
      yield* this.#sqlite.streamQuery<R>(query, chunkSize);
    } finally {
      this.#turn.give();
    }
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    const lease = connection as Lease;
    await this.#whenUnlocked(lease, async () => {
      await this.#turn.take();
      try {
        await this.#sqlite.executeQuery(CompiledQuery.raw('begin immediate'));
      } catch (err) {
        this.#turn.give();
        throw err;
      }
      lease.inTransaction = true;
    });
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
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (!lease.inTransaction) return;
    lease.inTransaction = false;
    this.#turn.give();
  }
  async destroy() {
    if (this.#connection) await this.inner.releaseConnection(this.#connection);
    this.#connection = undefined;
    await this.inner.destroy();
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
