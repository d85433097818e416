/**
 * PostgreSQL (DATABASE_URL=postgres://...): Kysely's PostgresDialect over a `pg` pool, shaped so the
 * rest of Chime behaves as on SQLite (README "Running on PostgreSQL"):
 *
 *  - bigint and numeric come back as JS numbers, as SQLite's integers do (count(*) is a bigint);
 *  - transactions run SERIALIZABLE and are retried on a serialization failure or a deadlock. On
 *    SQLite one writer runs at a time, and the code's read-then-write transactions (claim due
 *    reminders, reserve a mail slot, judge a login attempt) rely on that. SERIALIZABLE gives the
 *    same guarantee across connections and instances; the retry makes the conflict invisible.
 *    A caller that picks its own isolation level (setIsolationLevel) gets it, without the retry.
 *  - a pool that has no free connection for BUSY_MAX_WAIT_MS answers DatabaseBusyError, as a
 *    locked SQLite file does (503 DATABASE_BUSY with Retry-After).
 */
import { CompiledQuery, type DatabaseConnection, type Driver, Kysely, PostgresDialect, type QueryResult, type TransactionSettings } from 'kysely';
import type pg from 'pg';
import { loadPg } from '../lib/load-on-use.ts';
import type { Database } from './database.ts';
import { PgChangeFeed } from './pg-changes.ts';
import { DatabaseBusyError, type BusyMonitor } from './database-busy.ts';
import { storageFullOr } from './storage-full.ts';

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/** Per pool, not pg.types: the process may hold other pg clients that want strings. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === PG_INT8 || oid === PG_NUMERIC) return (value: string) => Number(value);
    return loadPg().types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

const SERIALIZATION_FAILURE = '40001';
const DEADLOCK_DETECTED = '40P01';
const MAX_TRANSACTION_ATTEMPTS = 12;

const isRetryable = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === SERIALIZATION_FAILURE || code === DEADLOCK_DETECTED;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The connection a query ran on was lost, or the server cannot be reached: PostgreSQL restarted,
 * failed over or ended the session. Any other error of a query is the query's own.
 */
function isUnreachable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  // 08: connection exception; 57P01/57P02: the server is shutting down (fast or crash) and ends
  // sessions; 57P03: cannot connect now (starting up, shutting down).
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return true;
  // pg's own wording for a lost socket, and for a client used again after it lost its socket.
  return /Connection terminated|not queryable/i.test(typeof e?.message === 'string' ? e.message : '');
}

/**
 * The answer to a refused or lost connection, as to a locked SQLite file: 503 DATABASE_BUSY, and the
 * scheduler retries. The message is pg's or the socket's (a host and port at most, never the
 * password) with the SQLSTATE or errno code, for the operator's log.
 */
function unavailableError(what: string, err: unknown, monitor: BusyMonitor): DatabaseBusyError {
  monitor.lastBusyAt = Date.now();
  const e = err as { code?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' && e.message ? `: ${e.message}` : '';
  const code = typeof e?.code === 'string' ? ` (${e.code})` : '';
  return new DatabaseBusyError(`${what}${message}${code}`);
}

/**
 * What a failed query or commit becomes: a lost connection or a lock that did not come free
 * (lock_timeout, 55P03 lock_not_available) is DatabaseBusyError, a full disk StorageFullError; any
 * other error is the query's own.
 */
function queryFailure(err: unknown, monitor: BusyMonitor): unknown {
  if (isUnreachable(err)) return unavailableError('PostgreSQL dropped the connection', err, monitor);
  if ((err as { code?: unknown } | null)?.code === '55P03') return unavailableError('PostgreSQL: a lock held by another session did not come free in time', err, monitor);
  return storageFullOr(err, monitor);
}

/** db.transaction().execute(fn) re-runs fn when PostgreSQL aborted it for a conflict with another transaction. */
class RetryingKysely extends Kysely<Database> {
  override transaction() {
    const builder = super.transaction();
    const execute = builder.execute.bind(builder);
    builder.execute = async <T>(callback: Parameters<typeof execute<T>>[0]): Promise<T> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await execute(callback);
        } catch (err) {
          if (!isRetryable(err) || attempt >= MAX_TRANSACTION_ATTEMPTS) throw err;
          // Jittered, growing pause: two instances that collided do not collide again in lockstep.
          await sleep(Math.random() * Math.min(2 ** attempt, 100));
        }
      }
    };
    return builder;
  }
}

/**
 * Sees this process's writes: the change hint moves at once after them (see changeToken), and
 * other instances are told once they are committed (pg-changes.ts).
 */
class CountingConnection implements DatabaseConnection {
  inTransaction = false;
  wroteInTransaction = false;
  constructor(
    readonly inner: DatabaseConnection,
    private readonly hooks: { onWrite: () => void; onCommitted: () => void; monitor: BusyMonitor },
  ) {}
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Raw SQL cannot be told apart: counted as a write (a needless wake-up at worst).
    const writes = query.query.kind !== 'SelectQueryNode';
    if (writes) this.hooks.onWrite();
    let result: QueryResult<R>;
    try {
      result = await this.inner.executeQuery<R>(query);
    } catch (err) {
      throw queryFailure(err, this.hooks.monitor);
    }
    if (writes) {
      if (this.inTransaction) this.wroteInTransaction = true;
      else this.hooks.onCommitted();
    }
    return result;
  }
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

const unwrap = (c: DatabaseConnection) => (c instanceof CountingConnection ? c.inner : c);

function endTransaction(c: DatabaseConnection) {
  if (!(c instanceof CountingConnection)) return;
  c.inTransaction = false;
  c.wroteInTransaction = false;
}

class PostgresDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly hooks: { onWrite: () => void; onCommitted: () => void; onDestroy: () => Promise<void>; monitor: BusyMonitor },
  ) {}
  init() {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    try {
      return new CountingConnection(await this.inner.acquireConnection(), this.hooks);
    } catch (err) {
      // pg-pool's connectionTimeoutMillis (every connection is taken), PostgreSQL out of reach
      // (restarting, failing over) or refusing (too many clients, connections not allowed now):
      // the same answer as a locked SQLite file, 503 with Retry-After, and the scheduler retries.
      throw unavailableError('Cannot connect to PostgreSQL', err, this.hooks.monitor);
    }
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (connection instanceof CountingConnection) {
      connection.inTransaction = true;
      connection.wroteInTransaction = false;
    }
    try {
      // SERIALIZABLE unless the caller chose: see the file comment.
      if (settings.isolationLevel || settings.accessMode) await this.inner.beginTransaction(unwrap(connection), settings);
      else await unwrap(connection).executeQuery(CompiledQuery.raw('start transaction isolation level serializable'));
    } catch (err) {
      // Sent on the raw connection (so as not to count as a write), so mapped here as a query's
      // failure would be: a connection lost before the transaction began is 503, not 500.
      endTransaction(connection);
      throw queryFailure(err, this.hooks.monitor);
    }
  }
  async commitTransaction(connection: DatabaseConnection) {
    try {
      await this.inner.commitTransaction(unwrap(connection));
      if (connection instanceof CountingConnection && connection.wroteInTransaction) this.hooks.onCommitted();
    } catch (err) {
      throw queryFailure(err, this.hooks.monitor);
    } finally {
      endTransaction(connection);
    }
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    try {
      await this.inner.rollbackTransaction(unwrap(connection));
    } catch (err) {
      // A lost session has no transaction left to roll back (the server ended it); the caller
      // should see why the transaction failed, not that its rollback could not be sent.
      if (!isUnreachable(err)) throw err;
    } finally {
      endTransaction(connection);
    }
  }
  savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]) {
    return this.inner.savepoint!(unwrap(connection), name, compile);
  }
  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2]) {
    return this.inner.rollbackToSavepoint!(unwrap(connection), name, compile);
  }
  releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2]) {
    return this.inner.releaseSavepoint!(unwrap(connection), name, compile);
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection(unwrap(connection));
  }
  async destroy() {
    await this.inner.destroy();
    await this.hooks.onDestroy();
  }
}

class ChimePostgresDialect extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    private readonly hooks: ConstructorParameters<typeof PostgresDriver>[1],
  ) {
    super(config);
  }
  override createDriver(): Driver {
    return new PostgresDriver(super.createDriver(), this.hooks);
  }
}

/** How often the change hint looks for other instances' commits (see changeToken). */
const HINT_POLL_MS = 500;
/** /healthz must answer promptly even when PostgreSQL does not. */
const PROBE_TIMEOUT_MS = 2000;

export interface PostgresHandleParts {
  db: Kysely<Database>;
  changeToken(): string;
  freshChangeToken(): Promise<string>;
  watchChanges(onChange: () => void): () => void;
  busy: BusyMonitor;
  probe(): Promise<boolean>;
}

export function openPostgres(url: string, options: { busyMaxWaitMs: number; poolSize?: number }): PostgresHandleParts {
  const pool = new (loadPg().Pool)({
    connectionString: url,
    // One connection, as on SQLite: statements run in the order they were issued, which the
    // scheduler relies on (a page read issued before a result write never returns after it).
    // Instances, and the scheduler's worker thread, each have their own.
    max: options.poolSize ?? 1,
    connectionTimeoutMillis: options.busyMaxWaitMs,
    application_name: 'chime',
    types,
  });
  // Probes and change tokens on their own connection: /healthz is not queued behind busy queries.
  const side = new (loadPg().Pool)({
    connectionString: url,
    max: 1,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    query_timeout: PROBE_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    application_name: 'chime-probe',
    types,
  });
  // A client that loses its server (restart, failover) emits 'error'; without a listener that ends
  // the process. pg-pool listens only while a client is idle, so a client checked out by Kysely
  // (inside a transaction, between two queries) needs its own listener. Its queries fail instead
  // (isUnreachable), and pg-pool drops it when it is released.
  for (const p of [pool, side]) {
    p.on('error', () => {});
    p.on('connect', (client) => client.on('error', () => {}));
  }
  // A lock another session holds (an administrator's LOCK TABLE, a stuck transaction) is waited for
  // as long as a locked SQLite file is: then 503 DATABASE_BUSY, rather than this process's only
  // connection stuck for as long as the lock is held. Claims never wait (SKIP LOCKED); migrations
  // wait up to an hour for another instance's (Kysely sets that inside their transaction). Set with
  // SET, not as a startup parameter, which PgBouncer refuses; a client runs its queries in order,
  // so this one runs before any other.
  pool.on('connect', (client) => {
    client.query(`set lock_timeout = ${Math.max(1, Math.round(options.busyMaxWaitMs))}`).catch(() => {});
  });

  const busy: BusyMonitor = { lastBusyAt: 0, waiting: 0, lastFullAt: 0 };
  let localWrites = 0;
  let lastSnapshot = '';
  let poller: ReturnType<typeof setInterval> | null = null;
  let destroyed = false;

  /**
   * pg_current_snapshot() changes whenever any transaction that wrote commits (or aborts), on any
   * connection of any instance: a committed writer either leaves the snapshot's in-progress list
   * or moves its xmax. So a cached answer read after token T is current while the token is still T.
   * (Writes in other databases of the same cluster move it too: a cache miss, never a stale hit.)
   */
  let unknown = 0;
  const freshChangeToken = async () => {
    try {
      const res = await side.query<{ s: string }>('select pg_current_snapshot()::text as s');
      lastSnapshot = res.rows[0]!.s;
      return lastSnapshot;
    } catch {
      // Cannot tell (a slow or lost connection): a token never seen before, so caches miss and
      // read the database, which answers or fails on its own terms. Never a stale hit.
      return `unknown:${++unknown}`;
    }
  };

  const poll = () => void freshChangeToken();

  const feed = new PgChangeFeed(url, (text, values) => side.query(text, values));

  const db = new RetryingKysely({
    dialect: new ChimePostgresDialect(
      { pool },
      {
        onWrite: () => localWrites++,
        onCommitted: () => feed.announce(),
        monitor: busy,
        onDestroy: async () => {
          destroyed = true;
          if (poller) clearInterval(poller);
          await feed.close();
          await side.end();
        },
      },
    ),
  });

  return {
    db,
    /**
     * A synchronous hint for wake-ups (the scheduler's watch for writes it did not make): this
     * process's writes move it at once, other instances' within HINT_POLL_MS. Not exact enough for
     * caches across instances; those use freshChangeToken.
     */
    changeToken() {
      if (!poller && !destroyed) {
        poller = setInterval(poll, HINT_POLL_MS);
        poller.unref();
        poll();
      }
      return `${localWrites}:${lastSnapshot}`;
    },
    freshChangeToken,
    watchChanges: (onChange) => feed.subscribe(onChange),
    busy,
    async probe() {
      // Queries queued for a connection: PostgreSQL is slow or every connection is taken.
      busy.waiting = pool.waitingCount;
      if (pool.waitingCount > 0) busy.lastBusyAt = Date.now();
      try {
        const res = await side.query<{ one: number }>('select 1 as one');
        return res.rows[0]?.one === 1;
      } catch {
        return false;
      }
    },
  };
}
