import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Database } from './database.ts';
import { openPostgres } from './postgres.ts';
import type { BusyMonitor } from './database-busy.ts';
import { BusyAwareSqliteDialect } from './sqlite-busy.ts';

export type DB = Kysely<Database>;

export type DatabaseDialect = 'sqlite' | 'postgres';

/**
 * The database as the rest of the code sees it, the same on SQLite and PostgreSQL. Dialect
 * specifics (pragmas, pools, type parsers) live in this file and postgres.ts; everything else goes
 * through Kysely.
 */
export interface DatabaseHandle {
  db: DB;
  dialect: DatabaseDialect;
  /**
   * Changes whenever anything a cache may hold changed, by any connection or instance, exactly: a
   * cached answer read after token T is current while the token is still T. SQLite: any write to
   * the file. PostgreSQL: any change to reminders, destinations or accounts, as notified by the
   * database (pg-changes.ts); costs one round trip.
   */
  freshChangeToken(): Promise<string>;
  /**
   * The same, for what belongs to one account (its reminders, their destinations, the account):
   * other accounts' writes leave it put. PostgreSQL only; SQLite's caches read the account's
   * list_version instead (reminderListVersion), and this answers freshChangeToken there.
   */
  accountChangeToken(accountId: string): Promise<string>;
  /**
   * accountChangeToken, and a token that moves only when one of the account's sessions ends or
   * changes (PostgreSQL), read together in one round trip: a signed-in request checks its cached
   * session against the second and its cached list against the first. SQLite: freshChangeToken.
   */
  accountAndSessionTokens(accountId: string): Promise<{ account: string; sessions: string }>;
  /**
   * Calls `onChange` soon after another process (an instance, the scheduler's thread, the sqlite3
   * shell) wrote, so a scheduler re-arms for reminders it was not told about. SQLite: a poll of
   * the file's change counter every WATCH_POLL_MS. PostgreSQL: LISTEN/NOTIFY, at once
   * (pg-changes.ts). The returned function stops it.
   */
  watchChanges(onChange: () => void): () => void;
  /** Lock waits (see sqlite-busy.ts) or, on PostgreSQL, queries queued for a connection: for /healthz. */
  busy: BusyMonitor;
  /** A read that does not queue behind other queries nor wait for a lock: /healthz. */
  probe(): Promise<boolean>;
}

/** SQLite's handle also gives the raw connection, for tools and tests that need SQLite itself. */
export interface SqliteDatabaseHandle extends DatabaseHandle {
  dialect: 'sqlite';
  sqlite: SQLite.Database;
}

/** DATABASE_URL names PostgreSQL (postgres:// or postgresql://); anything else is a SQLite file. */
export const isPostgresUrl = (databaseUrl: string): boolean => /^postgres(ql)?:\/\//i.test(databaseUrl.trim());

/** How often a SQLite handle looks for other processes' writes (watchChanges). */
export const WATCH_POLL_MS = 500;

/** How long a query waits for another process's write lock, or a free pooled connection, before DATABASE_BUSY. */
const BUSY_MAX_WAIT_MS = 3000;

/**
 * PostgreSQL connections of a handle opened without DATABASE_POOL_SIZE: a delivery thread's, or a
 * tool's (docs/operations.md "Running on PostgreSQL"). The API's size comes from the setting (config.ts).
 */
export const DEFAULT_POOL_SIZE = 3;

export function createDatabase(databaseUrl: string, options: { busyMaxWaitMs?: number; poolSize?: number; preparedStatements?: boolean } = {}): DatabaseHandle {
  if (isPostgresUrl(databaseUrl)) {
    return {
      dialect: 'postgres',
      ...openPostgres(databaseUrl.trim(), {
        busyMaxWaitMs: options.busyMaxWaitMs ?? BUSY_MAX_WAIT_MS,
        poolSize: options.poolSize ?? DEFAULT_POOL_SIZE,
        preparedStatements: options.preparedStatements ?? true,
      }),
    };
  }
  return openSqlite(databaseUrl, options);
}

/** A SQLite file (`./data/chime.db`, `sqlite:./data/chime.db`, `:memory:`). */
export function openSqlite(databaseUrl: string, options: { busyMaxWaitMs?: number } = {}): SqliteDatabaseHandle {
  const file = databaseUrl.replace(/^sqlite:(\/\/)?/, '');
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // Never wait inside SQLite: that would block the event loop. sqlite-busy.ts waits asynchronously.
  sqlite.pragma('busy_timeout = 0');
  // WAL makes NORMAL durable against application crashes; only an OS crash can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  // Bounded page cache (in KiB when negative) keeps RSS flat with a million reminders.
  sqlite.pragma('cache_size = -16000');
  sqlite.pragma('temp_store = MEMORY');
  const busy: BusyMonitor = { lastBusyAt: 0, waiting: 0, lastFullAt: 0 };
  const db = new Kysely<Database>({
    dialect: new BusyAwareSqliteDialect({ database: withStatementCache(sqlite) }, { maxWaitMs: options.busyMaxWaitMs ?? BUSY_MAX_WAIT_MS, monitor: busy }),
  });
  // total_changes() counts this connection's writes; data_version moves when another connection commits.
  const totalChanges = sqlite.prepare('select total_changes()').pluck();
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const changeToken = () => `${totalChanges.get()}:${dataVersion.get()}`;
  const selectOne = sqlite.prepare('select 1').pluck();
  // Straight on the SQLite handle: not queued behind queries waiting for a lock.
  const probe = async () => {
    try {
      return selectOne.get() === 1;
    } catch {
      return false;
    }
  };
  const watchChanges = (onChange: () => void) => {
    const read = () => {
      try {
        return changeToken();
      } catch {
        return '';
      }
    };
    let last = read();
    const timer = setInterval(() => {
      const now = read();
      if (now !== last) {
        last = now;
        onChange();
      }
    }, WATCH_POLL_MS);
    timer.unref();
    return () => clearInterval(timer);
  };
  const freshChangeToken = async () => changeToken();
  const accountAndSessionTokens = async () => {
    const token = changeToken();
    return { account: token, sessions: token };
  };
  return { db, dialect: 'sqlite', sqlite, freshChangeToken, accountChangeToken: freshChangeToken, accountAndSessionTokens, watchChanges, busy, probe };
}

/**
 * Kysely's SQLite driver prepares every statement anew; compiling SQL is a large share of a short
 * query's cost. Reusing prepared statements by SQL text (bounded LRU) is invisible to callers.
 */
function withStatementCache(sqlite: SQLite.Database, max = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql);
      } else {
        stmt = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}
