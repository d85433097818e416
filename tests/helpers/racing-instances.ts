/**
 * Two instances on one PostgreSQL database, for the race tests: two handles with pools of their
 * own (as two Chime processes have), on a throwaway database migrated once.
 */
import { sql } from 'kysely';
import { createDatabase, type DatabaseHandle } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { createPostgresDatabase, dropPostgresDatabase, onPostgres } from './test-database.ts';

export interface RacingInstances {
  a: DatabaseHandle;
  b: DatabaseHandle;
  close(): Promise<void>;
}

const POOL_SIZE = 4;

export async function openRacingInstances(): Promise<RacingInstances> {
  if (!onPostgres) throw new Error('run this file in the postgres project (CHIME_TEST_DB=postgres)');
  const url = await createPostgresDatabase();
  const a = createDatabase(url, { poolSize: POOL_SIZE });
  const b = createDatabase(url, { poolSize: POOL_SIZE });
  await migrateToLatest(a.db);
  // Every connection open before the race: a race is between transactions, not between a warm
  // connection and ones still being opened.
  for (const h of [a, b]) await Promise.all(Array.from({ length: POOL_SIZE }, () => sql`select pg_sleep(0.05)`.execute(h.db)));
  return {
    a,
    b,
    async close() {
      await a.db.destroy();
      await b.db.destroy();
      await dropPostgresDatabase(url);
    },
  };
}
