import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './database.ts';

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
}

export function createDatabase(databaseUrl: string): DatabaseHandle {
  const file = databaseUrl.replace(/^sqlite:(\/\/)?/, '');
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // WAL makes NORMAL durable against application crashes; only an OS crash can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  // Bounded page cache (in KiB when negative) keeps RSS flat with a million reminders.
  sqlite.pragma('cache_size = -16000');
  sqlite.pragma('temp_store = MEMORY');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  // total_changes() counts this connection's writes; data_version moves when another connection commits.
  const totalChanges = sqlite.prepare('select total_changes()').pluck();
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const changeToken = () => `${totalChanges.get()}:${dataVersion.get()}`;
  return { db, sqlite, changeToken };
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
