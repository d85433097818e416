/**
 * Which database the tests run against: SQLite files by default, PostgreSQL with
 * CHIME_TEST_DB=postgres (the `postgres` vitest project). On PostgreSQL every test server gets a
 * throwaway database, created on the project's server (TEST_POSTGRES_URL, or the throwaway server
 * postgres-global-setup.ts starts) and dropped when the server closes, or at the end of the test
 * file when the test kept the folder.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { dropPostgresDatabaseNamed } from './drop-postgres-database.ts';

export type TestDialect = 'sqlite' | 'postgres';

export const testDialect: TestDialect = process.env.CHIME_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
export const onPostgres = testDialect === 'postgres';

/** The maintenance database of the postgres project's server (postgres-global-setup.ts). */
const BASE_URL = onPostgres ? inject('testPostgresUrl') : '';
/** A database with every migration applied, that test servers' databases are copies of. */
const MIGRATED_TEMPLATE = onPostgres ? inject('testPostgresTemplate') : '';
/** Where a test folder remembers its database, so a second server on the same folder finds the same data. */
const URL_FILE = 'postgres-url';

const created = new Set<string>();

/**
 * Runs `fn` on a connection to the maintenance database (`postgres`), which stays reachable when a
 * test database is being created, dropped, cut off or refusing connections.
 */
export async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  if (!BASE_URL) throw new Error('no PostgreSQL server: run this file in the postgres project (CHIME_TEST_DB=postgres)');
  const client = new pg.Client({ connectionString: BASE_URL });
  try {
    await client.connect();
  } catch (err) {
    // Loud: a PostgreSQL run that cannot reach PostgreSQL must fail, not pass on SQLite.
    throw new Error(`CHIME_TEST_DB=postgres but PostgreSQL is not reachable at ${new URL(BASE_URL).host}: ${(err as Error).message}`);
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A new PostgreSQL database; its URL. Empty, or with `migrated`, a copy of the project's migrated
 * template. C collation: text compares byte by byte as on SQLite (docs/operations.md "Running on PostgreSQL").
 */
export async function createPostgresDatabase(options: { migrated?: boolean } = {}): Promise<string> {
  const name = `chime_test_${process.pid}_${randomBytes(5).toString('hex')}`;
  const source = options.migrated ? `template ${MIGRATED_TEMPLATE}` : `template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`;
  await admin((c) => c.query(`create database ${name} ${source}`));
  created.add(name);
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropPostgresDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^chime_test_\w+$/.test(name)) throw new Error(`refusing to drop ${name}: not a test database`);
  await admin((c) => dropPostgresDatabaseNamed(c, name));
  created.delete(name);
}

let sqliteTemplate: Promise<Buffer> | undefined;

/**
 * The bytes of a SQLite database with every migration applied, made once per test process
 * (vitest.config.ts keeps a worker's modules from one file to the next): a test server's database
 * starts as a copy of it, as PostgreSQL's start as a copy of the project's template, instead of
 * running every migration again.
 */
function migratedSqliteTemplate(): Promise<Buffer> {
  sqliteTemplate ??= (async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'chime-template-'));
    try {
      const database = createDatabase(path.join(dir, 'chime.db'));
      try {
        await migrateToLatest(database.db);
      } finally {
        // Closing the last connection checkpoints the write-ahead log into the file: one file to copy.
        await database.db.destroy();
      }
      return readFileSync(path.join(dir, 'chime.db'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })();
  return sqliteTemplate;
}

/**
 * DATABASE_URL for a test server whose files live in `dir`: `dir/chime.db`, or a PostgreSQL
 * database tied to `dir`; migrated either way, and kept when a second server opens the same folder.
 */
export async function testDatabaseUrl(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  if (!onPostgres) {
    const file = path.join(dir, 'chime.db');
    if (!existsSync(file)) writeFileSync(file, await migratedSqliteTemplate());
    return file;
  }
  const file = path.join(dir, URL_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const url = await createPostgresDatabase({ migrated: true });
  writeFileSync(file, url);
  return url;
}

/** Drops the PostgreSQL database tied to `dir` (nothing to do on SQLite: the file goes with the folder). */
export async function releaseTestDatabase(dir: string): Promise<void> {
  const file = path.join(dir, URL_FILE);
  if (!onPostgres || !existsSync(file)) return;
  await dropPostgresDatabase(readFileSync(file, 'utf8').trim());
  rmSync(file, { force: true });
}

/**
 * A migrated database for the whole test file, without a server (a SQLite file in a temporary
 * folder, or a throwaway PostgreSQL database): call the returned function once beforeAll ran.
 */
export function useMigratedDatabase(prefix: string): () => DatabaseHandle {
  let dir = '';
  let database: DatabaseHandle | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
    // Migrated already, on either database (testDatabaseUrl).
    database = createDatabase(await testDatabaseUrl(dir));
  });
  afterAll(async () => {
    await database?.db.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return () => database!;
}

// Whatever a test file left behind (a folder it kept for a restart, a failed close). Registered
// at import, so in every test file that starts a server (each file has its own module graph).
afterAll(async () => {
  if (created.size === 0) return;
  await admin(async (c) => {
    for (const name of created) await dropPostgresDatabaseNamed(c, name);
  });
  created.clear();
});
