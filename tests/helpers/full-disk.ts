/**
 * A SQLite database that is really out of room, for the full-disk tests (README "Data and
 * backups"): `max_page_count` caps the file at the pages it has, then creates through the API use
 * up what is left, with smaller and smaller messages, until not even a one-character reminder
 * fits. SQLite then answers SQLITE_FULL, as on a full disk.
 */
import { type Kysely, sql } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import type { ApiResponse, client } from './server.ts';

/** SQLite's own maximum: no limit. */
const NO_PAGE_LIMIT = 1_073_741_823;

const setMaxPages = (db: Kysely<Database>, pages: number) => sql`pragma max_page_count = ${sql.raw(String(pages))}`.execute(db);

/** Gives the database room again (always call it: the cap lasts as long as the connection). */
export const makeRoom = (db: Kysely<Database>) => setMaxPages(db, NO_PAGE_LIMIT);

/**
 * Fills the database until nothing fits; answers the last refusal (a 507). Every answer on the way
 * is a 201 or a 507, never anything else.
 */
export async function fillTheDisk(db: Kysely<Database>, api: ReturnType<typeof client>, date: string): Promise<ApiResponse> {
  const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(db);
  await setMaxPages(db, rows[0]!.page_count);
  let n = 0;
  let refused: ApiResponse | null = null;
  for (const size of [1500, 300, 40, 1]) {
    for (refused = null; !refused; n++) {
      if (n > 2000) throw new Error('the disk did not fill');
      const res = await api.post('/api/reminders', { date, time: '08:00', message: `f${n} ${'x'.repeat(size)}`, destinations: [] });
      expect([201, 507], JSON.stringify(res.body)).toContain(res.status);
      if (res.status === 507) refused = res;
    }
  }
  return refused!;
}
