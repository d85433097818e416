import { sql } from 'kysely';
import type { Executor } from './executor.ts';

/** PostgreSQL's own clock (clock_timestamp(), not the transaction's start), in ms since the epoch. */
export async function readPostgresClock(db: Executor): Promise<number> {
  const { rows } = await sql<{ ms: number }>`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`.execute(db);
  return Number(rows[0]!.ms);
}
