// Runs on SQLite only: SQLite's migration history (postgres-backend.test.ts compares the PostgreSQL schema) (vitest.config.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Kysely, type MigrationProvider, Migrator } from 'kysely';
import { createDatabase } from '../../../../server/db/connection.ts';
import { migrateToLatest } from '../../../../server/db/migrate.ts';
import { startTestServer } from '../../../helpers/server.ts';
import { REPO_ROOT } from '../../../helpers/repo-root.ts';

const ROOT = REPO_ROOT;
const MIGRATIONS = path.join(ROOT, 'migrations');
const migrationNames = () =>
  readdirSync(MIGRATIONS)
    .filter((f) => /\.(ts|mjs)$/.test(f) && !f.endsWith('.d.ts'))
    .sort()
    .map((f) => f.replace(/\.(ts|mjs)$/, ''));

const CORE_TABLES = ['accounts', 'identities', 'sessions', 'reminders', 'destinations', 'deliveries', 'delivery_attempts'];

/** The schema as SQLite stores it: every table and index with its CREATE statement. */
function schemaOf(file: string): Array<{ type: string; name: string; sql: string | null }> {
  const sqlite = new SQLite(file, { readonly: true });
  try {
    return sqlite
      .prepare("select type, name, sql from sqlite_master where name not like 'sqlite_%' order by type, name")
      .all() as Array<{ type: string; name: string; sql: string | null }>;
  } finally {
    sqlite.close();
  }
}

describe('migrations', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'chime-migrations-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('every migration file is date-prefixed, exports up and imports no application code', async () => {
    const names = migrationNames();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect(name).toMatch(/^\d{4}-\d{2}-\d{2}-\d{3}-[a-z0-9-]+$/);
      const file = readdirSync(MIGRATIONS).find((f) => f.replace(/\.(ts|mjs)$/, '') === name)!;
      const source = readFileSync(path.join(MIGRATIONS, file), 'utf8');
      const imports = [...source.matchAll(/from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]);
      for (const spec of imports) expect(spec, `${file} imports ${spec}`).not.toMatch(/^\.|server\//);
      const mod = (await import(path.join(MIGRATIONS, file))) as { up?: unknown };
      expect(typeof mod.up, file).toBe('function');
    }
  });

  it('run from an empty database: every migration applies and every table exists', async () => {
    const file = path.join(dir, 'empty.db');
    const { db } = createDatabase(file);
    try {
      const applied = await migrateToLatest(db);
      expect(applied).toEqual(migrationNames());
    } finally {
      await db.destroy();
    }
    const schema = schemaOf(file);
    const tables = schema.filter((s) => s.type === 'table').map((s) => s.name);
    for (const table of CORE_TABLES) expect(tables).toContain(table);
    const indexes = schema.filter((s) => s.type === 'index').map((s) => s.name);
    // The uniqueness rules the API relies on.
    for (const index of ['accounts_email_normalized_uq', 'sessions_token_hash_uq', 'identities_provider_external_uq', 'deliveries_occurrence_alert_uq']) {
      expect(indexes).toContain(index);
    }
    const sqlite = new SQLite(file, { readonly: true });
    try {
      const recorded = sqlite.prepare('select name from kysely_migration order by name').pluck().all();
      expect(recorded).toEqual(migrationNames());
    } finally {
      sqlite.close();
    }
  });

  it('apply all or nothing: a migration that fails halfway leaves no table, row or record behind', async () => {
    const file = path.join(dir, 'halfway.db');
    const database = createDatabase(file);
    const db = database.db as unknown as Kysely<any>;
    const recorded = async () => (await db.selectFrom('kysely_migration').select('name').execute()).map((m: { name: string }) => m.name);
    try {
      await migrateToLatest(db);
      const before = schemaOf(file);
      // Read first: the migrator asks for the list while it holds the one connection.
      const applied = await recorded();
      const provider: MigrationProvider = {
        getMigrations: async () => ({
          ...Object.fromEntries(applied.map((name) => [name, { up: async () => {} }])),
          '2099-01-01-001-rebuild': {
            // A table rebuild stopped between its steps, as a crash or a start timeout would.
            up: async (db: Kysely<any>) => {
              await db.schema.createTable('reminders_rebuilt').addColumn('id', 'text', (c) => c.primaryKey()).execute();
              await db.insertInto('reminders_rebuilt').values({ id: 'r1' }).execute();
              await db.schema.createIndex('reminders_rebuilt_idx').on('reminders_rebuilt').column('id').execute();
              throw new Error('stopped halfway');
            },
          },
          '2099-01-01-002-after': { up: async (db: Kysely<any>) => void (await db.schema.createTable('never').addColumn('id', 'text').execute()) },
        }),
      };
      const { error } = await new Migrator({ db, provider }).migrateToLatest();
      expect((error as Error).message).toBe('stopped halfway');
      expect(schemaOf(file)).toEqual(before);
      expect(await recorded()).not.toContain('2099-01-01-001-rebuild');
      // The next start migrates from where the database really is.
      expect(await migrateToLatest(db)).toEqual([]);
    } finally {
      await database.db.destroy();
    }
  });

  it('is idempotent: a second run, in the same connection or a new one, applies nothing and changes nothing', async () => {
    const file = path.join(dir, 'twice.db');
    const first = createDatabase(file);
    await migrateToLatest(first.db);
    const schemaAfterFirst = schemaOf(file);
    expect(await migrateToLatest(first.db)).toEqual([]);
    await first.db.destroy();

    const second = createDatabase(file);
    try {
      expect(await migrateToLatest(second.db)).toEqual([]);
      expect(await migrateToLatest(second.db)).toEqual([]);
    } finally {
      await second.db.destroy();
    }
    expect(schemaOf(file)).toEqual(schemaAfterFirst);
  });

  it('keeps the data: restarting the server on an existing database migrates nothing and loses nothing', async () => {
    const serverDir = mkdtempSync(path.join(tmpdir(), 'chime-migrations-server-'));
    try {
      const first = await startTestServer({ dir: serverDir });
      const reg = await fetch(`${first.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'keep@example.com', username: 'Keep', password: 'longenough1', timezone: 'UTC' }),
      });
      expect(reg.status).toBe(201);
      await first.close();
      const schemaBefore = schemaOf(path.join(serverDir, 'chime.db'));

      const second = await startTestServer({ dir: serverDir });
      try {
        const login = await fetch(`${second.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'keep@example.com', password: 'longenough1' }),
        });
        expect(login.status).toBe(200);
      } finally {
        await second.close();
      }
      expect(schemaOf(path.join(serverDir, 'chime.db'))).toEqual(schemaBefore);
    } finally {
      rmSync(serverDir, { recursive: true, force: true });
    }
  });

  describe('npm run migrate', () => {
    const run = (env: Record<string, string>) =>
      spawnSync('npm', ['run', '--silent', 'migrate'], {
        cwd: ROOT,
        env: { ...process.env, ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });

    it('migrates the DATABASE_URL file, then reports it up to date', () => {
      const file = path.join(dir, 'cli', 'nested', 'chime.db');
      const first = run({ DATABASE_URL: file });
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toContain(`Applied: ${migrationNames().join(', ')}`);
      const tables = schemaOf(file)
        .filter((s) => s.type === 'table')
        .map((s) => s.name);
      for (const table of CORE_TABLES) expect(tables).toContain(table);

      const second = run({ DATABASE_URL: file });
      expect(second.status, second.stderr).toBe(0);
      expect(second.stdout).toContain('Database is up to date.');
    });

    it('produces the same schema as the server does at start-up', async () => {
      const cliFile = path.join(dir, 'cli-vs-app.db');
      expect(run({ DATABASE_URL: cliFile }).status).toBe(0);
      const serverDir = mkdtempSync(path.join(tmpdir(), 'chime-migrations-app-'));
      try {
        const server = await startTestServer({ dir: serverDir });
        await server.close();
        expect(schemaOf(cliFile)).toEqual(schemaOf(path.join(serverDir, 'chime.db')));
      } finally {
        rmSync(serverDir, { recursive: true, force: true });
      }
    });

    it('fails with a readable message on a PostgreSQL DATABASE_URL without a database, never printing the password', () => {
      const res = run({ DATABASE_URL: 'postgres://user:pw-s3cret@localhost/' });
      expect(res.status).not.toBe(0);
      expect(res.stderr).toContain('DATABASE_URL names no PostgreSQL database');
      expect(res.stderr + res.stdout).not.toContain('pw-s3cret');
    });
  });
});
