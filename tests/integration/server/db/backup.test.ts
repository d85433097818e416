/**
 * docs/operations.md "Backup and restore": an online backup while Chime runs, a restore that refuses while it
 * runs and checks the file, and the copy a start keeps before migrating a SQLite database.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { BackupRefused, checkBackupFile } from '../../../../server/db/backup.ts';
import { openSqlite } from '../../../../server/db/connection.ts';
import { createMigrator, knownMigrationNames, migrateToLatest } from '../../../../server/db/migrate.ts';
import { runAdmin, startChime } from '../../../helpers/chime-process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'chime-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function post(url: string, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.status;
}
const register = (url: string, name: string) => post(`${url}/api/auth/register`, { email: `${name}@example.com`, username: name, password: 'longenough1', timezone: 'UTC' });
const login = (url: string, name: string) => post(`${url}/api/auth/login`, { email: `${name}@example.com`, password: 'longenough1', remember_me: false });

describe('backup and restore', () => {
  it('back up while running, write more, restore (refused while running), start: the data as at the backup', { timeout: 300_000 }, async () => {
    const env = { DATABASE_URL: path.join(dir, 'live', 'chime.db'), CHIME_ROLES: 'web', LOG_LEVEL: 'warn' };
    const backupFile = path.join(dir, 'manual.db');

    let chime = startChime(dir, { ...env, LOG_LEVEL: 'info' });
    try {
      const url = await chime.url();
      expect(await register(url, 'alice')).toBe(201);
      const backup = await runAdmin(dir, env, ['backup', backupFile]);
      expect(backup).toMatchObject({ code: 0, stdout: expect.stringContaining(`to ${backupFile}`) });
      expect(await register(url, 'bob')).toBe(201);
      const refused = await runAdmin(dir, env, ['restore', backupFile]);
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('is open in another process') });
    } finally {
      await chime.stop();
    }

    const restored = await runAdmin(dir, env, ['restore', backupFile]);
    expect(restored.code).toBe(0);
    const kept = /kept as (\S+before-restore\.db)\./.exec(restored.stdout)?.[1];
    expect(kept && existsSync(kept)).toBe(true);
    expect(existsSync(backupFile)).toBe(true);

    chime = startChime(dir, { ...env, LOG_LEVEL: 'info' });
    try {
      const url = await chime.url();
      expect(await login(url, 'alice')).toBe(200);
      expect(await login(url, 'bob')).toBe(401);
    } finally {
      await chime.stop();
    }
    // The database the restore replaced still has both.
    const replaced = new SQLite(kept!, { readonly: true });
    expect(replaced.prepare('select username from accounts order by username').pluck().all()).toEqual(['alice', 'bob']);
    replaced.close();
  });

  it('restore refuses a damaged file and one written by a newer Chime', async () => {
    const known = await knownMigrationNames();
    const notSqlite = path.join(dir, 'garbage.db');
    writeFileSync(notSqlite, 'not a database at all, just text'.repeat(200));
    expect(() => checkBackupFile(notSqlite, known)).toThrow(BackupRefused);

    const newer = path.join(dir, 'newer.db');
    const handle = openSqlite(newer);
    await migrateToLatest(handle.db);
    handle.sqlite.prepare("insert into kysely_migration (name, timestamp) values ('2099-01-01-001-from-the-future', '2099-01-01T00:00:00.000Z')").run();
    await handle.db.destroy();
    expect(() => checkBackupFile(newer, known)).toThrow(/written by a newer Chime \(migration 2099-01-01-001-from-the-future/);
    expect(checkBackupFile(newer, [...known, '2099-01-01-001-from-the-future'])).toMatchObject({ latestMigration: '2099-01-01-001-from-the-future' });

    const damaged = path.join(dir, 'damaged.db');
    const sound = openSqlite(path.join(dir, 'sound.db'));
    await migrateToLatest(sound.db);
    await sound.db.destroy();
    copyFileSync(path.join(dir, 'sound.db'), damaged);
    const raw = new SQLite(damaged);
    // Page 2 onwards overwritten with zeros behind SQLite's back, as a bad disk would.
    raw.pragma('journal_mode = DELETE');
    const pageSize = Number(raw.pragma('page_size', { simple: true }));
    raw.close();
    const fd = await import('node:fs/promises').then((fs) => fs.open(damaged, 'r+'));
    await fd.write(Buffer.alloc(pageSize * 3, 0xab), 0, pageSize * 3, pageSize * 2);
    await fd.close();
    expect(() => checkBackupFile(damaged, known)).toThrow(BackupRefused);
  });
});

describe('a start that migrates', () => {
  it('keeps a copy of the database as it was before, the newest three only', async () => {
    const file = path.join(dir, 'migrating', 'chime.db');
    const names = await knownMigrationNames();
    const handle = openSqlite(file);
    // A database written by the previous version: every migration but the last.
    await createMigrator(handle.db).migrateTo(names.at(-2)!);
    handle.sqlite.prepare("insert into accounts (id, email, email_normalized, username, timezone, created_at, updated_at) values ('a1', 'old@example.com', 'old@example.com', 'old', 'UTC', 'x', 'x')").run();
    const backups = path.join(dir, 'migrating', 'backups');
    mkdirSync(backups, { recursive: true });
    const older = ['chime-20200101-000000-before-x.db', 'chime-20200102-000000-before-x.db', 'chime-20200103-000000-before-x.db'];
    for (const name of [...older, 'chime-20200101-000000.db']) writeFileSync(path.join(backups, name), '');

    let told: string | null = null;
    expect(await migrateToLatest(handle.db, { onBackup: (f) => (told = f) })).toEqual([names.at(-1)]);
    await handle.db.destroy();

    expect(told).toMatch(new RegExp(`/backups/chime-\\d{8}-\\d{6}-before-${names.at(-1)}\\.db$`));
    const copy = new SQLite(told!, { readonly: true });
    expect(copy.prepare('select username from accounts').pluck().all()).toEqual(['old']);
    expect(copy.prepare('select name from kysely_migration order by name').pluck().all()).toEqual(names.slice(0, -1));
    copy.close();
    // The oldest pre-migration copy went (four would be one too many); a manual backup is never pruned.
    expect(readdirSync(backups).sort()).toEqual(['chime-20200101-000000.db', ...older.slice(1), path.basename(told!)].sort());
  });

  it('makes no copy of a new database', async () => {
    const file = path.join(dir, 'fresh', 'chime.db');
    const handle = openSqlite(file);
    let told: string | null = null;
    await migrateToLatest(handle.db, { onBackup: (f) => (told = f) });
    await handle.db.destroy();
    expect(told).toBeNull();
    expect(existsSync(path.join(dir, 'fresh', 'backups'))).toBe(false);
  });
});
