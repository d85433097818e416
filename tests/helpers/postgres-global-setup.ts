/**
 * Vitest globalSetup of the `postgres` project: the PostgreSQL server its test servers create their
 * throwaway databases on. TEST_POSTGRES_URL names one (a role allowed to CREATE DATABASE); without
 * it, a throwaway PostgreSQL starts here for the run and stops at its end (throwaway-postgres.ts).
 */
import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from './throwaway-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testPostgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.TEST_POSTGRES_URL;
  if (given) {
    project.provide('testPostgresUrl', given);
    return undefined;
  }
  const server = await startThrowawayPostgres();
  project.provide('testPostgresUrl', server.url);
  return () => server.stop();
}
