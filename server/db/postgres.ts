/**
 * PostgreSQL (DATABASE_URL=postgres://...): Kysely's own PostgresDialect over a `pg` pool of
 * DATABASE_POOL_SIZE connections (docs/operations.md "Running on PostgreSQL"). Transactions run at the server's
 * default isolation, READ COMMITTED; every read-then-write that needs more takes its own tool in
 * its repository (a row lock, an advisory lock, a unique constraint, one atomic statement).
 *
 * What this file adds to the stock dialect:
 *  - bigint and numeric come back as JS numbers, as SQLite's integers do (count(*) is a bigint);
 *  - failures are mapped as on SQLite: a pool with no free connection for BUSY_MAX_WAIT_MS, a lock
 *    that did not come free in time, or a server out of reach is DatabaseBusyError (503
 *    DATABASE_BUSY with Retry-After), a full disk StorageFullError (507);
 *  - the statements sent often are prepared under a name, planned once per connection
 *    (pg-statement-names.ts; DATABASE_PREPARED_STATEMENTS=false sends every one unnamed);
 *  - change notification between instances by LISTEN/NOTIFY (pg-changes.ts).
 *
 * No session state is relied on outside a transaction but prepared statements, so a pooler in
 * transaction mode (PgBouncer 1.21 or later, with max_prepared_statements) may sit in front of the
 * pool; the LISTEN connection and the gateway's advisory lock are sessions
 * of their own and need PostgreSQL itself or a pooler in session mode (docs/operations.md "Running on PostgreSQL").
 */
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, type PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { loadPg } from '../lib/load-on-use.ts';
import type { Database } from './database.ts';
import { PgChangeFeed } from './pg-changes.ts';
import { DatabaseBusyError, type BusyMonitor } from './database-busy.ts';
import { isStalePreparedStatement, StatementNames } from './pg-statement-names.ts';
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
 * other error (a unique violation the caller handles, a deadlock) is the query's own.
 */
function queryFailure(err: unknown, monitor: BusyMonitor): unknown {
  if (isUnreachable(err)) return unavailableError('PostgreSQL dropped the connection', err, monitor);
  if ((err as { code?: unknown } | null)?.code === '55P03') return unavailableError('PostgreSQL: a lock held by another session did not come free in time', err, monitor);
  return storageFullOr(err, monitor);
}

const TRANSACTION_START = /^\s*(begin|start transaction)\b/i;
const TRANSACTION_END = /^\s*(commit|rollback)\s*$/i;

/**
 * The pool as the stock dialect sees it: pg's, with failures mapped (queryFailure), and the
 * statements sent often prepared under a name (pg-statement-names.ts) when `names` is given.
 */
function mappedPool(pool: pg.Pool, monitor: BusyMonitor, names: StatementNames | null, onEnd: () => Promise<void>): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        // pg-pool's connectionTimeoutMillis (every connection is taken), PostgreSQL out of reach
        // (restarting, failing over) or refusing (too many clients, connections not allowed now):
        // the same answer as a locked SQLite file, 503 with Retry-After, and the scheduler retries.
        throw unavailableError('Cannot connect to PostgreSQL', err, monitor);
      }
      // Its prepared statements outlived a schema change: the pool closes it rather than reuse it.
      let stale = false;
      // Kysely opens and ends transactions with plain statements through this same method.
      let inTransaction = false;
      return {
        async query<R>(text: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>> {
          const values = parameters as unknown[];
          if (TRANSACTION_START.test(text)) inTransaction = true;
          else if (TRANSACTION_END.test(text)) inTransaction = false;
          const name = stale ? undefined : names?.nameFor(text, values.length);
          try {
            return (await (name ? client.query({ name, text, values }) : client.query(text, values))) as unknown as PostgresQueryResult<R>;
          } catch (err) {
            // A lost session has no transaction left to roll back (the server ended it): the caller
            // should see why its transaction failed, not that the rollback could not be sent.
            if (text === 'rollback' && isUnreachable(err)) return { command: 'SELECT', rowCount: 0, rows: [] } as unknown as PostgresQueryResult<R>;
            if (!isStalePreparedStatement(err)) throw queryFailure(err, monitor);
            stale = true;
            // Another instance migrated the schema. Alone, the statement runs again unnamed; inside a
            // transaction, which the error aborted, the caller gets 503 DATABASE_BUSY and retries.
            if (inTransaction) throw unavailableError('PostgreSQL: the schema changed under a prepared statement', err, monitor);
            try {
              return (await client.query(text, values)) as unknown as PostgresQueryResult<R>;
            } catch (again) {
              throw queryFailure(again, monitor);
            }
          }
        },
        release: () => client.release(stale ? new Error('prepared statements went stale') : undefined),
      } as PostgresPoolClient;
    },
    async end() {
      await pool.end();
      await onEnd();
    },
  };
}

/** /healthz must answer promptly even when PostgreSQL does not. */
const PROBE_TIMEOUT_MS = 2000;

export interface PostgresHandleParts {
  db: Kysely<Database>;
  freshChangeToken(): Promise<string>;
  accountChangeToken(accountId: string): Promise<string>;
  accountAndSessionTokens(accountId: string): Promise<{ account: string; sessions: string }>;
  watchChanges(onChange: () => void): () => void;
  busy: BusyMonitor;
  probe(): Promise<boolean>;
}

export function openPostgres(url: string, options: { busyMaxWaitMs: number; poolSize: number; preparedStatements: boolean }): PostgresHandleParts {
  const pool = new (loadPg().Pool)({
    connectionString: url,
    max: options.poolSize,
    connectionTimeoutMillis: options.busyMaxWaitMs,
    // Connections beyond what the load needs are closed after a while: an idle instance holds few.
    idleTimeoutMillis: 30_000,
    application_name: 'chime',
    types,
  });
  // Probes on their own connection: /healthz is not queued behind busy queries.
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
  // as long as a locked SQLite file is: then 503 DATABASE_BUSY, rather than a connection stuck for
  // as long as the lock is held. Claims never wait (SKIP LOCKED); migrations wait up to an hour for
  // another instance's (Kysely sets that inside their transaction). Set with SET, not as a startup
  // parameter, which PgBouncer refuses; a client runs its queries in order, so this one runs before
  // any other. Behind PgBouncer in transaction mode a SET does not follow the client: set
  // lock_timeout on the role instead (docs/operations.md "Running on PostgreSQL").
  pool.on('connect', (client) => {
    client.query(`set lock_timeout = ${Math.max(1, Math.round(options.busyMaxWaitMs))}`).catch(() => {});
  });

  // The pool's sessions, by backend process id: their change notices wake no scheduler of this
  // process (pg-changes.ts).
  const ownSessions = new Set<number>();
  pool.on('connect', (client) => {
    const pid = (client as unknown as { processID: number }).processID;
    ownSessions.add(pid);
    client.on('end', () => ownSessions.delete(pid));
  });

  const busy: BusyMonitor = { lastBusyAt: 0, waiting: 0, lastFullAt: 0 };
  const feed = new PgChangeFeed(url, (pid) => ownSessions.has(pid));

  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: mappedPool(pool, busy, options.preparedStatements ? new StatementNames() : null, async () => {
        await feed.close();
        await side.end();
      }),
    }),
  });

  return {
    db,
    freshChangeToken: () => feed.token(),
    accountChangeToken: (accountId) => feed.token(accountId),
    async accountAndSessionTokens(accountId) {
      const [account, sessions] = await feed.tokens([accountId, `session:${accountId}`]);
      return { account: account!, sessions: sessions! };
    },
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
