import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { MIGRATIONS_DIR } from '../lib/paths.ts';

/** Loads every `migrations/*.ts` file; names are date-prefixed so they sort in the order written. */
class DirectoryMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /\.(ts|mjs)$/.test(f) && !f.endsWith('.d.ts')).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      migrations[file.replace(/\.(ts|mjs)$/, '')] = await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href);
    }
    return migrations;
  }
}

export function createMigrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: new DirectoryMigrationProvider() });
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = createMigrator(db);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
