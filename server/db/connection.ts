import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Database } from './database.ts';
import { BusyAwareSqliteDialect, type BusyMonitor } from './sqlite-busy.ts';

export type DB = Kysely<Database>;

/**
 * The only place that knows the database is SQLite: pragmas live here so the rest of the code
 * stays portable through Kysely.
 */
export interface DatabaseHandle {
  db: DB;
  sqlite: SQLite.Database;
  /**
   * Changes whenever anything was written to the database, by this process or another connection.
   * Lets read caches check they are still current with one cheap call.
   */
  changeToken(): string;
  /** Lock waits (see sqlite-busy.ts), for /healthz. */
  busy: BusyMonitor;
  /** A read that never waits for the connection nor for a lock (WAL readers are not blocked): /healthz. */
  probe(): boolean;
}

/** How long a query waits for another process's write lock before DATABASE_BUSY. */
const BUSY_MAX_WAIT_MS = 3000;

export function createDatabase(databaseUrl: string, options: { busyMaxWaitMs?: number } = {}): DatabaseHandle {
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
  const busy: BusyMonitor = { lastBusyAt: 0, waiting: 0 };
  const db = new Kysely<Database>({
    dialect: new BusyAwareSqliteDialect({ database: withStatementCache(sqlite) }, { maxWaitMs: options.busyMaxWaitMs ?? BUSY_MAX_WAIT_MS, monitor: busy }),
  });
  // total_changes() counts this connection's writes; data_version moves when another connection commits.
  const totalChanges = sqlite.prepare('select total_changes()').pluck();
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const changeToken = () => `${totalChanges.get()}:${dataVersion.get()}`;
  const selectOne = sqlite.prepare('select 1').pluck();
  const probe = () => {
    try {
      return selectOne.get() === 1;
    } catch {
      return false;
    }
  };
  return { db, sqlite, changeToken, busy, probe };
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
