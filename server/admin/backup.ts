import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { isPostgresUrl } from '../db/connection.ts';
import { BackupRefused, backupPathFor, backupSqliteFile, backupStamp, checkBackupFile, isSqliteInUse, restoreSqliteFile, sqliteFileOf } from '../db/backup.ts';
import { knownMigrationNames } from '../db/migrate.ts';
import { describeDatabase } from '../logging.ts';
import { AdminFailure, type CommandResult, done } from './result.ts';

/*
 * `npm run admin -- backup [file]` and `restore <file>` (docs/operations.md "Backup and restore"). Neither
 * migrates: a backup is of the database as it is, and a restore puts back what the file holds
 * (the next start migrates it when it is older than the code).
 */

/** libpq's own variables: pg_dump reads the password from the environment, never from its command line. */
function libpqEnvironment(databaseUrl: string): Record<string, string> {
  const url = new URL(databaseUrl);
  const env: Record<string, string> = {};
  if (url.hostname) env.PGHOST = decodeURIComponent(url.hostname);
  if (url.port) env.PGPORT = url.port;
  if (url.username) env.PGUSER = decodeURIComponent(url.username);
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  env.PGDATABASE = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

/** The custom format restores selectively and in parallel; no owner or grants so it restores under another role. */
const PG_DUMP_FLAGS = ['--format=custom', '--no-owner', '--no-privileges'];

function pgDumpAvailable(): boolean {
  return spawnSync('pg_dump', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function backupPostgres(config: Config, file: string | undefined): Promise<CommandResult> {
  const destination = path.resolve(file ?? path.join('data', 'backups', `chime-${backupStamp()}.dump`));
  const env = libpqEnvironment(config.databaseUrl);
  const shown = `PGPASSWORD=… pg_dump ${PG_DUMP_FLAGS.join(' ')} --host=${env.PGHOST ?? 'localhost'} --port=${env.PGPORT ?? '5432'} --username=${env.PGUSER ?? '$USER'} --dbname=${env.PGDATABASE} --file=${destination}`;
  const restore = `pg_restore --clean --if-exists --no-owner --dbname=<database> ${destination}`;
  if (!pgDumpAvailable()) {
    return done(
      `${describeDatabase(config.databaseUrl)} is backed up with PostgreSQL's pg_dump, which is not installed here. Run, where it is:\n  ${shown}\nRestore with Chime stopped:\n  ${restore}`,
      { database: 'postgres', ran: false, command: shown, restore },
    );
  }
  if (existsSync(destination)) throw new AdminFailure(`${destination} exists already; name another file.`);
  mkdirSync(path.dirname(destination), { recursive: true });
  const result = spawnSync('pg_dump', [...PG_DUMP_FLAGS, `--file=${destination}`], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0) throw new AdminFailure(`pg_dump failed: ${(result.stderr || result.error?.message || '').trim()}`);
  return done(`Backed up ${describeDatabase(config.databaseUrl)} to ${destination}.\nRestore with Chime stopped:\n  ${restore}`, { database: 'postgres', ran: true, file: destination, restore });
}

export async function backupCommand(config: Config, args: string[]): Promise<CommandResult> {
  if (args.length > 1) throw new AdminFailure('Usage: npm run admin -- backup [file]', 2, 'USAGE');
  if (isPostgresUrl(config.databaseUrl)) return backupPostgres(config, args[0]);
  const source = sqliteFileOf(config.databaseUrl);
  const destination = path.resolve(args[0] ?? backupPathFor(source));
  const started = Date.now();
  try {
    const { bytes } = await backupSqliteFile(source, destination);
    return done(`Backed up ${source} to ${destination} (${(bytes / 1024 / 1024).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s.`, {
      database: 'sqlite',
      file: destination,
      bytes,
    });
  } catch (err) {
    if (err instanceof BackupRefused) throw new AdminFailure(err.message);
    throw err;
  }
}

export async function restoreCommand(config: Config, args: string[]): Promise<CommandResult> {
  if (args.length !== 1) throw new AdminFailure('Usage: npm run admin -- restore <file>', 2, 'USAGE');
  if (isPostgresUrl(config.databaseUrl)) {
    throw new AdminFailure('DATABASE_URL names PostgreSQL: stop Chime, then restore a pg_dump file with\n  pg_restore --clean --if-exists --no-owner --dbname=<database> <file>');
  }
  const source = path.resolve(args[0]!);
  const target = sqliteFileOf(config.databaseUrl);
  try {
    const check = checkBackupFile(source, await knownMigrationNames());
    let previous: string | null = null;
    if (existsSync(target)) {
      if (isSqliteInUse(target)) {
        throw new AdminFailure(`${target} is open in another process (Chime is running, or a sqlite3 shell): stop it first, then restore.`, 1, 'DATABASE_IN_USE');
      }
      previous = backupPathFor(target, 'before-restore');
      await backupSqliteFile(target, previous);
    }
    await restoreSqliteFile(source, target);
    return done(
      `Restored ${target} from ${source} (schema at ${check.latestMigration ?? 'no migration'}).` +
        (previous ? ` The database it replaced is kept as ${previous}.` : '') +
        ' Start Chime: it migrates the database if the backup is older than this version.',
      { database: 'sqlite', file: source, target, replacedKeptAs: previous, latestMigration: check.latestMigration },
    );
  } catch (err) {
    if (err instanceof BackupRefused) throw new AdminFailure(err.message, 1, 'BACKUP_REFUSED');
    throw err;
  }
}
