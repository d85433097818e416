import { mkdirSync } from 'node:fs';
import { readdir as readdirAsync } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql, SqliteAdapter } from 'kysely';
import { MIGRATIONS_DIR } from '../lib/paths.ts';
import { backupDirOf, backupPathFor, makeStandalone, pruneMigrationBackups } from './backup.ts';

/** Loads every `migrations/*.ts` file; names are date-prefixed so they sort in the order written. */
class DirectoryMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const file of await migrationFiles()) {
      migrations[file.replace(/\.(ts|mjs)$/, '')] = await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href);
    }
    return migrations;
  }
}

async function migrationFiles(): Promise<string[]> {
  return (await readdirAsync(MIGRATIONS_DIR)).filter((f) => /\.(ts|mjs)$/.test(f) && !f.endsWith('.d.ts')).sort();
}

/** The migration names this code knows, in order (what a restored backup may have applied). */
export async function knownMigrationNames(): Promise<string[]> {
  return (await migrationFiles()).map((f) => f.replace(/\.(ts|mjs)$/, ''));
}

export function createMigrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: new DirectoryMigrationProvider() });
}

/** How many pre-migration backups stay beside the database (docs/operations.md "Backup and restore"). */
export const MIGRATION_BACKUPS_KEPT = 3;

export interface MigrateOptions {
  /** Told where the copy of the database made before migrating went. */
  onBackup?: (file: string) => void;
}

export async function migrateToLatest(db: Kysely<any>, options: MigrateOptions = {}): Promise<string[]> {
  const migrator = createMigrator(db);
  const backup = await backupBeforeMigrating(db, migrator);
  if (backup) options.onBackup?.(backup);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * A migration changes the only copy of the data: before applying any to a SQLite database that
 * has been migrated before (one holding data, not a new file), copy it to
 * `backups/chime-<stamp>-before-<first pending migration>.db` beside it and keep the newest
 * MIGRATION_BACKUPS_KEPT such copies. VACUUM INTO writes a consistent, compact copy through the
 * same connection. PostgreSQL is backed up with its own tools (docs/operations.md "Backup and restore").
 */
async function backupBeforeMigrating(db: Kysely<any>, migrator: Migrator): Promise<string | null> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return null;
  const migrations = await migrator.getMigrations();
  const pending = migrations.filter((m) => !m.executedAt);
  if (pending.length === 0 || pending.length === migrations.length) return null;
  const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
  const file = rows.find((r) => r.name === 'main')?.file;
  if (!file) return null;
  const destination = backupPathFor(file, `before-${pending[0]!.name}`);
  mkdirSync(backupDirOf(file), { recursive: true });
  await sql`vacuum into ${destination}`.execute(db);
  makeStandalone(destination);
  pruneMigrationBackups(backupDirOf(file), MIGRATION_BACKUPS_KEPT);
  return destination;
}
