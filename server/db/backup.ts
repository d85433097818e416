import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/*
 * Backups of a SQLite deployment (docs/operations.md "Backup and restore"): the online copy the admin command
 * makes while Chime runs, the copy a start keeps before it migrates, and the checks a restore
 * makes before it replaces the database.
 */

/** The file a SQLite DATABASE_URL names (`./data/chime.db`, `sqlite:./data/chime.db`), as connection.ts reads it. */
export function sqliteFileOf(databaseUrl: string): string {
  return databaseUrl.trim().replace(/^sqlite:(\/\/)?/, '');
}

/** Backups sit beside the database, in `backups/`. */
export function backupDirOf(databaseFile: string): string {
  return path.join(path.dirname(path.resolve(databaseFile)), 'backups');
}

/** `20261127-101500`, UTC: sorts in time order and is safe in a file name everywhere. */
export function backupStamp(at = new Date()): string {
  return at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** `<dir>/backups/chime-<stamp>[-<label>].db` */
export function backupPathFor(databaseFile: string, label?: string, at = new Date()): string {
  return path.join(backupDirOf(databaseFile), `chime-${backupStamp(at)}${label ? `-${label}` : ''}.db`);
}

export class BackupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefused';
  }
}

/**
 * Copies the database with SQLite's online backup: consistent while Chime keeps writing (the copy
 * restarts over pages written meanwhile), and it never blocks Chime's writes for long.
 */
export async function backupSqliteFile(source: string, destination: string): Promise<{ bytes: number }> {
  if (!existsSync(source)) throw new BackupRefused(`${source} does not exist: check DATABASE_URL.`);
  if (existsSync(destination)) throw new BackupRefused(`${destination} exists already; name another file.`);
  mkdirSync(path.dirname(path.resolve(destination)), { recursive: true });
  const db = new SQLite(source, { fileMustExist: true });
  try {
    await db.backup(destination);
  } finally {
    db.close();
  }
  makeStandalone(destination);
  return { bytes: statSync(destination).size };
}

/**
 * A copy keeps the source's WAL mode, so opening it (even read only, to check or restore it)
 * would leave -wal and -shm files beside it. In rollback mode a backup is one file, whole.
 */
export function makeStandalone(file: string): void {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/** Names of the backups a start writes before it migrates (docs/operations.md "Backup and restore"). */
export const MIGRATION_BACKUP_PATTERN = /^chime-\d{8}-\d{6}-before-.+\.db$/;

/** Keeps the newest `keep` pre-migration backups in `dir` (by the stamp in their names); the others go. */
export function pruneMigrationBackups(dir: string, keep: number): string[] {
  if (!existsSync(dir)) return [];
  const names = readdirSync(dir)
    .filter((n) => MIGRATION_BACKUP_PATTERN.test(n))
    .sort();
  const removed = names.slice(0, Math.max(0, names.length - keep));
  for (const name of removed) rmSync(path.join(dir, name), { force: true });
  return removed;
}

/**
 * Whether some process has the database open (Chime with any role, a sqlite3 shell). Chime keeps
 * its connections open for its whole life in WAL mode, and every WAL connection holds a shared
 * lock on the `-shm` index; leaving WAL mode needs that lock exclusively, so SQLite refuses it
 * ("database is locked") exactly while another connection exists, in this process or another.
 * When nobody has it open the switch succeeds and is undone at once. Open connections are what
 * matter: replacing the file under one would leave that process writing to the old file.
 */
export function isSqliteInUse(file: string): boolean {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    const mode = String(db.pragma('journal_mode', { simple: true }));
    if (mode !== 'wal') return false;
    try {
      db.pragma('journal_mode = DELETE');
    } catch (err) {
      if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
      throw err;
    }
    db.pragma('journal_mode = WAL');
    return false;
  } finally {
    db.close();
  }
}

export interface BackupCheck {
  /** The newest migration the backup has applied. */
  latestMigration: string | null;
  migrations: number;
}

/**
 * Checks a file before it replaces the database: SQLite's integrity check, a Chime database at
 * all (the migrations table), and a schema this code knows (no migration it lacks, which a newer
 * Chime would have written). Throws BackupRefused saying what is wrong.
 */
export function checkBackupFile(file: string, knownMigrations: readonly string[]): BackupCheck {
  if (!existsSync(file)) throw new BackupRefused(`${file} does not exist.`);
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new BackupRefused(`${file} cannot be opened as a SQLite database: ${(err as Error).message}`);
  }
  try {
    let integrity: string[];
    try {
      integrity = (db.pragma('integrity_check') as Array<{ integrity_check: unknown }>).map((r) => String(r.integrity_check));
    } catch (err) {
      throw new BackupRefused(`${file} is not a readable SQLite database: ${(err as Error).message}`);
    }
    if (integrity.length !== 1 || integrity[0] !== 'ok') {
      throw new BackupRefused(`${file} fails SQLite's integrity check: ${integrity.slice(0, 3).join('; ')}`);
    }
    const hasTable = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").pluck().get();
    if (!hasTable) throw new BackupRefused(`${file} is not a Chime database (it has no migrations table).`);
    const applied = db.prepare('select name from kysely_migration order by name').pluck().all() as string[];
    const known = new Set(knownMigrations);
    const unknown = applied.filter((name) => !known.has(name));
    if (unknown.length) {
      throw new BackupRefused(`${file} was written by a newer Chime (migration ${unknown.at(-1)} is unknown to this version). Update Chime first, then restore.`);
    }
    return { latestMigration: applied.at(-1) ?? null, migrations: applied.length };
  } finally {
    db.close();
  }
}

/**
 * Writes `source` over the database file `target` with SQLite's backup, so the result is a whole
 * database even when `source` has its own write-ahead log beside it. Nobody may have `target`
 * open (isSqliteInUse).
 */
export async function restoreSqliteFile(source: string, target: string): Promise<void> {
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(target);
  } finally {
    db.close();
  }
}
