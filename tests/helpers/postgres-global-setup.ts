/**
 * Vitest globalSetup of the `postgres` project: the PostgreSQL server its test servers create their
 * throwaway databases on. TEST_POSTGRES_URL names one (a role allowed to CREATE DATABASE); without
 * it, a throwaway PostgreSQL starts here for the run and stops at its end (throwaway-postgres.ts).
 *
 * The migrations run once here, into a template database: a test server's database is a copy of
 * it (CREATE DATABASE … TEMPLATE), a file copy instead of every migration again for each server.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { dropPostgresDatabaseNamed } from './drop-postgres-database.ts';
import { startThrowawayPostgres } from './throwaway-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The maintenance database of the server, as a role that may CREATE DATABASE. */
    testPostgresUrl: string;
    /** A database with every migration applied, to copy (nobody stays connected to it). */
    testPostgresTemplate: string;
  }
}

async function onMaintenanceDatabase(url: string, fn: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}

/** A migrated database named `name` (C collation, as every test database: docs/operations.md "Running on PostgreSQL"). */
async function createMigratedTemplate(url: string, name: string): Promise<void> {
  await onMaintenanceDatabase(url, (c) => c.query(`create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`));
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${name}`;
  const database = createDatabase(templateUrl.toString());
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.db.destroy();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TEST_POSTGRES_URL;
  const server = given ? undefined : await startThrowawayPostgres();
  const url = given ?? server!.url;
  const template = `chime_test_template_${process.pid}`;
  try {
    await createMigratedTemplate(url, template);
  } catch (err) {
    await server?.stop();
    throw new Error(`the postgres project could not prepare its template database on ${new URL(url).host}: ${(err as Error).message}`);
  }
  project.provide('testPostgresUrl', url);
  project.provide('testPostgresTemplate', template);
  return async () => {
    if (server) return server.stop();
    await onMaintenanceDatabase(url, (c) => dropPostgresDatabaseNamed(c, template));
  };
}
